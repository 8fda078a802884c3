// `kiosk-recorder reel` through the binary (issue 44): the hosts' film of a booth's takes, made by
// the booth's own binary from takes the booth made (the test pattern's stamped pictures, questions
// from --questions, one take of a camera mounted turned), checked with ffmpeg, ffprobe and Chromium.
import Foundation
import KioskContract
import KioskCore
import KioskTestSupport
import Testing

@Suite("The hosts' film: kiosk-recorder reel, through the binary", .serialized)
struct ReelEndToEndTests {
    @Test("reel on a folder the user cannot read exits 1 naming the permission and the booth's user, never \"no takes\"")
    func unreadableFolder() throws {
        let folder = try testFolder("reel-unreadable")
        let takes = folder.appendingPathComponent("takes")
        try FileManager.default.createDirectory(at: takes, withIntermediateDirectories: true)
        try Data("not a take".utf8).write(to: takes.appendingPathComponent("take-1.mov"))
        // The way there searchable by anyone, the folder itself root's alone (as the package's 0750 is to others).
        var path = folder
        while path.path != "/" {
            var status = stat()
            if stat(path.path, &status) == 0 { chmod(path.path, (status.st_mode & 0o7777) | 0o011) }
            path.deleteLastPathComponent()
        }
        chmod(takes.path, 0o700)
        let film = folder.appendingPathComponent("film.mp4").path
        let asNobody = try runProgram(["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups", recorderPath, "reel", takes.path,
                                       "--output", film], environment: recorderEnvironment(), directory: URL(fileURLWithPath: "/"))
        #expect(asNobody.status == 1, "\(asNobody.stderr)")
        #expect(asNobody.stderr.contains("cannot read \(takes.path): Permission denied") && asNobody.stderr.contains("sudo -u kiosk"), "\(asNobody.stderr)")
        #expect(!asNobody.stderr.contains("no takes"))
    }

    static let takeSize = Size(width: 352, height: 288)
    static let questions = ["What brought you here today?", "What do you wish them for the years ahead?"]

    /// Takes `count` takes of about `seconds` each with one booth (`--session loop`) into `takes`.
    static func record(into takes: String, count: Int, seconds: Double, _ arguments: [String], environment: [String: String] = [:]) throws {
        let r = try RecorderProcess(["--camera", "test", "--size", "\(takeSize.width)x\(takeSize.height)", "--windowed", "800x480",
                                     "--countdown", "0", "--output-dir", takes, "--session", "loop"] + arguments, environment: environment)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        for k in 1...count {
            r.command("start")
            try #require(r.wait(for: "recordingStarted", count: k) != nil, "\(r.rawLines) \(r.stderr)")
            try #require(r.waitRecorded(seconds), "\(r.rawLines)")
            r.command("stop")
            try #require(r.wait(for: "recordingFinished", count: k) != nil, "\(r.rawLines)")
            r.command("useVideo")
            try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: k) != nil, "\(r.rawLines) \(r.stderr)")
        }
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    /// Three takes: two of speech-like noise at −30 LUFS with the first two questions, then one of
    /// noise at −22 LUFS by a camera mounted turned (90°), asked the first question again (a new
    /// booth). (Not the test tone: a beep a second measures a LU apart over windows that hold its
    /// beeps differently, the take's whole length against its part of the film.)
    static func threeTakes(_ folder: URL) throws -> String {
        let takes = folder.appendingPathComponent("takes").path
        let questionFile = folder.appendingPathComponent("questions.txt").path
        try questions.joined(separator: "\n").write(toFile: questionFile, atomically: true, encoding: .utf8)
        let quiet = try LoudnessEndToEndTests.speechLikeNoise(in: folder, lufs: -30)
        try record(into: takes, count: 2, seconds: 2.5, ["--questions", questionFile, "--microphone", "kiosk_fake_mic"],
                   environment: try LoudnessEndToEndTests.microphone(playing: quiet, in: folder))
        let second = folder.appendingPathComponent("turned")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        let louder = try LoudnessEndToEndTests.speechLikeNoise(in: second, lufs: -22)
        try record(into: takes, count: 1, seconds: 2.5, ["--questions", questionFile, "--microphone", "kiosk_fake_mic", "--camera-rotation", "90"],
                   environment: try LoudnessEndToEndTests.microphone(playing: louder, in: second))
        return takes
    }

    /// The films's pictures from frame `first` on, `count` of them, cut to `crop` (x, y, w, h), turned
    /// back by `undo` (an ffmpeg transpose, or none) and scaled to the take's size: their stamps.
    static func stamps(_ path: String, first: Int, count: Int, crop: (Int, Int, Int, Int), undo: String?) throws -> [Int] {
        let (w, h) = (takeSize.width, takeSize.height)
        let chain = "trim=start_frame=\(first):end_frame=\(first + count),crop=\(crop.2):\(crop.3):\(crop.0):\(crop.1),"
            + (undo.map { $0 + "," } ?? "") + "scale=\(w):\(h):flags=bicubic"
        return try grayStamps(["-i", path, "-vf", chain])
    }

    /// The stamps of the pictures ffmpeg decodes with `input` (its arguments), as the take's size.
    static func grayStamps(_ input: [String]) throws -> [Int] {
        let (w, h) = (takeSize.width, takeSize.height)
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("reel-\(UUID().uuidString).gray").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let run = try runProgram(["ffmpeg", "-v", "error", "-y"] + input + ["-fps_mode", "passthrough", "-pix_fmt", "gray", "-f", "rawvideo", raw])
        try #require(run.status == 0, "\(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        return stride(from: 0, to: bytes.count - w * h + 1, by: w * h).map { base in
            FrameStamp.read(width: w, height: h, band: 0, luma: { x, y in bytes[base + y * w + x] })
        }
    }

    /// Where a picture of `upright` size sits in the film's 1280x720 (scaled to fit, even sizes).
    static func placed(_ upright: Size) -> (Int, Int, Int, Int) {
        let (W, H) = (1280, 720)
        let (w, h) = upright.width * H > upright.height * W
            ? (W, upright.height * W / upright.width / 2 * 2) : (upright.width * H / upright.height / 2 * 2, H)
        return ((W - w) / 2, (H - h) / 2, w, h)
    }

    @Test("three takes (one by a camera mounted turned) with questions: the film is 3 + Σ(2 + take) ± 0.3 s, every take's pictures there in order and upright, each take at -16 ± 1 LUFS; H.264 yuv420p, AAC, moov first; --json's lines; Chromium plays it to its end")
    func film() throws {
        let folder = try testFolder("reel")
        let takes = try Self.threeTakes(folder)
        let names = (try FileManager.default.contentsOfDirectory(atPath: takes)).filter { $0.hasSuffix(".mov") }.sorted()
        try #require(names.count == 3, "\(names)")
        let paths = names.map { takes + "/" + $0 }
        let output = folder.appendingPathComponent("film.mp4").path
        let r = try RecorderProcess(["reel", takes, "--output", output, "--json", "--title", "Anna & Tom"])
        #expect(r.exitStatus(timeout: 120) == 0, "\(r.stderr)")
        #expect(r.events.filter { $0.name == "reelProgress" } == (0...3).map { KioskEvent.reelProgress(done: $0, total: 3) }, "\(r.rawLines)")
        guard case let .reelFinished(path, duration, count)? = r.events.last else { throw TestFailure("no reelFinished: \(r.rawLines)") }
        #expect(path == output && count == 3)

        // Its length: the cards and every take.
        let lengths = try paths.map { try #require(Double(try ffprobe($0, "stream=duration", stream: "v:0"))) }
        let filmLength = try #require(Double(try ffprobe(output, "format=duration")))
        let expected = 3 + lengths.reduce(0) { $0 + 2 + $1 }
        #expect(abs(filmLength - expected) <= 0.3 && abs(duration - filmLength) <= 0.1, "film \(filmLength) s (said \(duration)), takes \(lengths)")

        // A file any phone plays.
        #expect(try ffprobe(output, "stream=codec_name,pix_fmt", stream: "v:0").split(separator: "\n").joined(separator: ",") == "h264,yuv420p")
        #expect(try ffprobe(output, "stream=codec_name", stream: "a:0") == "aac")
        #expect(try ffprobe(output, "stream=width,height", stream: "v:0").split(separator: "\n").joined(separator: "x") == "1280x720")
        let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: output)).read(upToCount: 64 * 1024) ?? Data()
        let moov = head.range(of: Data("moov".utf8)), mdat = head.range(of: Data("mdat".utf8))
        #expect(moov != nil && (mdat == nil || moov!.lowerBound < mdat!.lowerBound), "the index is not first")

        // Every take's pictures, in order, upright: the film's part read back against the take. Where
        // each take begins in the film is known to a frame or two (3 s, then 2 s cards); a window a
        // little wider is read and the take's own stamps kept (the cards read as 0), each once.
        var start = 3 * 30 + 2 * 30
        for (index, take) in paths.enumerated() {
            let turned = index == 2
            let original = try Self.grayStamps((turned ? ["-noautorotate"] : []) + ["-i", take])
            let upright = turned ? Size(width: Self.takeSize.height, height: Self.takeSize.width) : Self.takeSize
            let frames = Int((lengths[index] * 30).rounded())
            let window = try Self.stamps(output, first: start - 6, count: frames + 12, crop: Self.placed(upright), undo: turned ? "transpose=cclock" : nil)
            let own = Set(original)
            let inFilm = window.filter(own.contains).reduce(into: [Int]()) { kept, stamp in if kept.last != stamp { kept.append(stamp) } }
            #expect(original.count >= 60 && inFilm == original,
                    "take \(index + 1): \(original.count) pictures \(original.prefix(3))…\(original.suffix(2)), the film's \(inFilm.count) \(inFilm.prefix(3))…\(inFilm.suffix(2))")
            // Its sound at -16 LUFS.
            let level = try LoudnessEndToEndTests.measure(["-ss", "\(Double(start) / 30)", "-t", "\(lengths[index])", "-i", output])
            #expect(abs(level.integrated - -16) <= 1 && level.truePeak <= -1, "take \(index + 1) at \(level.integrated) LUFS, \(level.truePeak) dBTP")
            start += frames + 2 * 30
        }
        print("reel: \(filmLength) s for takes \(lengths); \(r.stderr.split(separator: "\n").suffix(3))")

        // Chromium plays it from its start to its end.
        let (server, site) = try servedSite(folder, file: output, as: "film.mp4")
        defer { server.stop() }
        let report = try browserReport(server, site: site, body: #"<video id="v" muted playsinline src="film.mp4"></video>"#, script: """
            const v = document.getElementById('v');
            v.addEventListener('ended', () => report('ended&time=' + v.currentTime + '&duration=' + v.duration));
            v.addEventListener('error', () => report('error=' + v.error.code));
            v.playbackRate = 4;
            v.play().catch(e => report('refused=' + e.name));
            """, folder: folder)
        #expect(report.contains("ended"), "\(report)")
    }

    @Test("a take that cannot be read is left out and named (reelSkipped); a folder with no takes exits 1 with one line; a bad option exits 2 naming it")
    func errors() throws {
        let folder = try testFolder("reel-errors")
        let takes = folder.appendingPathComponent("takes").path
        try Self.record(into: takes, count: 1, seconds: 2, ["--microphone", "test"])
        // A folder without a list of takes: its videos by their time; one of them no movie.
        let loose = folder.appendingPathComponent("loose").path
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: true)
        let good = try #require((try FileManager.default.contentsOfDirectory(atPath: takes)).first { $0.hasSuffix(".mov") })
        try FileManager.default.copyItem(atPath: takes + "/" + good, toPath: loose + "/a.mov")
        try Data(repeating: 0x42, count: 100_000).write(to: URL(fileURLWithPath: loose + "/b.mov"))
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: loose + "/photo.jpg"))
        let output = folder.appendingPathComponent("film.mp4").path
        let r = try RecorderProcess(["reel", loose, "--output", output, "--json"])
        #expect(r.exitStatus(timeout: 60) == 0, "\(r.stderr)")
        #expect(r.events.contains { if case let .reelSkipped(path, _) = $0 { path == loose + "/b.mov" } else { false } }, "\(r.rawLines)")
        #expect(r.stderr.contains("left out \(loose)/b.mov"), "\(r.stderr)")
        guard case let .reelFinished(_, _, count)? = r.events.last else { throw TestFailure("no reelFinished: \(r.rawLines)") }
        #expect(count == 1)

        let empty = folder.appendingPathComponent("empty").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try RecorderProcess(["reel", empty, "--output", folder.appendingPathComponent("none.mp4").path])
        #expect(none.exitStatus() == 1)
        #expect(none.stderr.split(separator: "\n").count == 1 && none.stderr.contains("no takes in \(empty)"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("none.mp4").path))

        for (arguments, named) in [(["--size", "1281x720"], "--size '1281x720'"), (["--outptu", "x.mp4"], "did you mean --output?"),
                                   (["--output", "x.mov"], "--output 'x.mov'")] {
            let bad = try RecorderProcess(["reel", takes] + arguments)
            #expect(bad.exitStatus() == 2 && bad.stderr.contains(named), "\(arguments): \(bad.stderr)")
        }
    }

    @Test("SIGINT or SIGTERM while the film is made: it stops, exit 130 or 143, and no file is left at --output nor beside it")
    func interrupted() throws {
        let folder = try testFolder("reel-interrupted")
        let takes = folder.appendingPathComponent("takes").path
        try Self.record(into: takes, count: 2, seconds: 3, ["--microphone", "test"])
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let output = folder.appendingPathComponent("film-\(signal).mp4").path
            let r = try RecorderProcess(["reel", takes, "--output", output, "--json"])
            try #require(r.wait(for: "reelProgress", count: 2, timeout: 60) != nil, "\(r.rawLines) \(r.stderr)")
            r.kill(signal)
            #expect(r.exitStatus(timeout: 30) == status, "\(r.stderr)")
            #expect(!r.events.contains { $0.name == "reelFinished" })
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("film") }
            #expect(left.isEmpty, "left behind: \(left)")
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
