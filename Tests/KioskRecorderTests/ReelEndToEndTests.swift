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
    /// `count` takes of 2 s with the test tone, recorded into `folder`/`name`; that folder.
    static func recorded(_ folder: URL, _ name: String, count: Int) throws -> String {
        let takes = folder.appendingPathComponent(name).path
        try record(into: takes, count: count, seconds: 2, ["--microphone", "test"])
        return takes
    }

    /// The takes in `takes`, copied in their order into the new folder `loose` as 0.mov, 1.mov, …
    /// (loose videos, with no list of takes); their paths.
    static func looseCopies(of takes: String, into loose: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: true)
        let names = (try FileManager.default.contentsOfDirectory(atPath: takes)).filter { $0.hasSuffix(".mov") }.sorted()
        try #require(!names.isEmpty, "no takes in \(takes)")
        return try names.enumerated().map { k, name in
            let path = loose + "/\(k).mov"
            try FileManager.default.copyItem(atPath: takes + "/" + name, toPath: path)
            return path
        }
    }

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
        return try grayPictures(input, size: takeSize).map { bytes in FrameStamp.read(width: w, height: h, band: 0, luma: { x, y in bytes[y * w + x] }) }
    }

    /// The pictures ffmpeg decodes with `input` (its arguments, its filters making them `size`), gray, each as it comes.
    static func grayPictures(_ input: [String], size: Size) throws -> [[UInt8]] {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("reel-\(UUID().uuidString).gray").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let run = try runProgram(["ffmpeg", "-v", "error", "-y"] + input + ["-fps_mode", "passthrough", "-pix_fmt", "gray", "-f", "rawvideo", raw])
        try #require(run.status == 0, "\(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw))), n = size.width * size.height
        return stride(from: 0, to: bytes.count - n + 1, by: n).map { Array(bytes[$0..<($0 + n)]) }
    }

    /// Where a picture of `upright` size sits in the film's `film` (scaled to fit, even sizes).
    static func placed(_ upright: Size, in film: Size = Size(width: 1280, height: 720)) -> (Int, Int, Int, Int) {
        let (W, H) = (film.width, film.height)
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

    /// A film's cards in the brand's colours (640x360: the title's 30 px words at y 157, its date's
    /// 20 px at y 224, as ReelCard lays them out).
    static let navy = (r: 0x33, g: 0x66, b: 0xCC), yellow = (r: 0xFF, g: 0xEE, b: 0x00)

    @Test("the cards made with care: each fades in from black and out to black over 0.5 s (its mean luma from black to its own and back); every take's first and last pictures as the take has them; the title card carries the first take's date (as drawtext draws it, 14 November 2023; in Spanish with --language es); --reel-background and --reel-text colour the cards; the length is still 3 + Σ(2 + take), its stamps in order")
    func cardsWithCare() throws {
        let folder = try testFolder("reel-care")
        // A folder of loose videos, their times set: the first take's day is known (UTC).
        let takes = folder.appendingPathComponent("takes").path
        let paths = try Self.looseCopies(of: Self.recorded(folder, "recorded", count: 2), into: takes)
        try #require(paths.count == 2, "\(paths)")
        for (k, path) in paths.enumerated() {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(k) * 60)], ofItemAtPath: path)
        }
        let output = folder.appendingPathComponent("film.mp4").path
        let r = try RecorderProcess(["reel", takes, "--output", output, "--size", "640x360", "--title", "Anna & Tom",
                                     "--reel-background", "#3366CC", "--reel-text", "#FFEE00"], environment: ["TZ": "UTC"])
        #expect(r.exitStatus(timeout: 120) == 0, "\(r.stderr)")

        // The length as before, and every picture of each take, in order.
        let originals = try paths.map { try Self.grayPictures(["-i", $0], size: Self.takeSize) }
        let lengths = try paths.map { try #require(Double(try ffprobe($0, "stream=duration", stream: "v:0"))) }
        let filmLength = try #require(Double(try ffprobe(output, "format=duration")))
        #expect(abs(filmLength - (3 + lengths.reduce(0) { $0 + 2 + $1 })) <= 0.3, "film \(filmLength) s, takes \(lengths)")

        // Each picture's mean luma (the film at 64x36, gray): the cards are where they are to the
        // picture, the title's 90 first, then each take's 60 and the take's own pictures.
        let small = Size(width: 64, height: 36)
        let means = try Self.grayPictures(["-i", output, "-vf", "scale=64:36:flags=area"], size: small)
            .map { Double($0.reduce(0) { $0 + Int($1) }) / Double(small.width * small.height) }
        var cards = [(start: 0, count: 90)], start = 90
        for original in originals {
            cards.append((start, 60))
            start += 60 + original.count
        }
        #expect(means.count == start, "\(means.count) pictures, \(start) expected")
        for (index, card) in cards.enumerated() where card.start + card.count <= means.count {
            let luma = Array(means[card.start..<(card.start + card.count)])
            let plateau = luma[20..<(card.count - 20)].sorted()[(card.count - 40) / 2]
            // Below 90 % of the card's own for about half a second at each end: 0.4 … 0.55 s.
            let rising = luma.prefix { $0 < 0.9 * plateau }.count, falling = luma.reversed().prefix { $0 < 0.9 * plateau }.count
            let summary = "card \(index): plateau \(Int(plateau)), first \(luma.prefix(16).map { Int($0) }), last \(luma.suffix(16).map { Int($0) })"
            #expect(plateau > 60 && luma[0] < 0.1 * plateau && luma[card.count - 1] < 0.1 * plateau, "\(summary)")
            #expect((12...16).contains(rising) && (12...16).contains(falling), "rising \(rising), falling \(falling) pictures; \(summary)")
            #expect((0.3 * plateau...0.7 * plateau).contains(luma[7]) && (0.3 * plateau...0.7 * plateau).contains(luma[card.count - 8]), "\(summary)")
            #expect(zip(luma.prefix(15), luma.prefix(15).dropFirst()).allSatisfy { $0 <= $1 + 2 }, "not rising: \(summary)")
            print(summary)
        }

        // Each take's pictures: their stamps in order, its first and its last as the take has them.
        let placed = Self.placed(Self.takeSize, in: Size(width: 640, height: 360))
        for (index, original) in originals.enumerated() {
            let first = cards[index + 1].start + 60
            let film = try Self.grayPictures(["-i", output, "-vf", "trim=start_frame=\(first):end_frame=\(first + original.count),"
                                             + "crop=\(placed.2):\(placed.3):\(placed.0):\(placed.1),scale=\(Self.takeSize.width):\(Self.takeSize.height):flags=bicubic"],
                                            size: Self.takeSize)
            let (w, h) = (Self.takeSize.width, Self.takeSize.height)
            let stamp = { (bytes: [UInt8]) in FrameStamp.read(width: w, height: h, band: 0, luma: { x, y in bytes[y * w + x] }) }
            #expect(film.map(stamp) == original.map(stamp), "take \(index + 1): its stamps \(original.map(stamp)), the film's \(film.map(stamp))")
            let mean = { (bytes: [UInt8]) in Double(bytes.reduce(0) { $0 + Int($1) }) / Double(bytes.count) }
            for (which, mine, theirs) in [("first", film.first, original.first), ("last", film.last, original.last)] {
                guard let mine, let theirs else { Issue.record("take \(index + 1) has no \(which) picture in the film"); continue }
                let difference = Double(zip(mine, theirs).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(mine.count)
                #expect(abs(mean(mine) - mean(theirs)) < 2 && difference < 10,
                        "take \(index + 1)'s \(which) picture: mean \(mean(mine)) in the film, \(mean(theirs)) in the take, \(difference) apart")
            }
        }

        // The title card's middle picture: the brand's background, its words in the brand's colour,
        // the first take's day under the title as drawtext draws it (in the card's colours).
        let rgb = folder.appendingPathComponent("title.rgb").path
        let run = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", output, "-vf", "select='eq(n\\,45)'", "-fps_mode", "passthrough",
                                  "-pix_fmt", "rgb24", "-f", "rawvideo", rgb])
        try #require(run.status == 0, "\(run.stderr)")
        let title = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rgb)))
        try #require(title.count == 640 * 360 * 3)
        let near = { (i: Int, c: (r: Int, g: Int, b: Int)) in
            abs(Int(title[i]) - c.r) <= 10 && abs(Int(title[i + 1]) - c.g) <= 10 && abs(Int(title[i + 2]) - c.b) <= 10
        }
        let corner = (10 * 640 + 10) * 3
        #expect(near(corner, Self.navy), "background \(title[corner..<(corner + 3)].map { $0 })")
        let words = stride(from: 140 * 640 * 3, to: 200 * 640 * 3, by: 3).filter { near($0, Self.yellow) }.count
        #expect(words > 100, "\(words) pixels of the words' colour in the title's band")
        let date = try Self.gray(output, frame: 45, rows: 214..<254, in: folder)
        let expected = try Self.drawn("14 November 2023", fontSize: 20, y: 224, rows: 214..<254, in: folder)
        let lit = date.filter { $0 > 160 }.count
        let apart = Double(zip(date, expected).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(date.count)
        #expect(lit > 150 && apart < 3, "the date's band: \(lit) bright pixels, \(apart) from drawtext's '14 November 2023'")
        print("the title's date: \(lit) bright pixels, \(apart) from drawtext's; the film \(filmLength) s")

        // --language: the same day written out in Spanish, as drawtext draws those words, not the English.
        let spanish = folder.appendingPathComponent("film-es.mp4").path
        let es = try RecorderProcess(["reel", takes, "--output", spanish, "--size", "640x360", "--title", "Anna & Tom", "--language", "es",
                                      "--reel-background", "#3366CC", "--reel-text", "#FFEE00"], environment: ["TZ": "UTC"])
        #expect(es.exitStatus(timeout: 120) == 0, "\(es.stderr)")
        let dateEs = try Self.gray(spanish, frame: 45, rows: 214..<254, in: folder)
        let mean = { (a: [UInt8], b: [UInt8]) in Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count) }
        let fromSpanish = mean(dateEs, try Self.drawn("14 de noviembre de 2023", fontSize: 20, y: 224, rows: 214..<254, in: folder))
        let fromEnglish = mean(dateEs, expected)
        #expect(fromSpanish < 3 && fromEnglish > 2 * fromSpanish, "--language es: \(fromSpanish) from drawtext's Spanish date, \(fromEnglish) from its English")
    }

    /// Rows `rows` of picture `frame` of `film` (640 wide), gray.
    static func gray(_ film: String, frame: Int, rows: Range<Int>, in folder: URL) throws -> [UInt8] {
        try #require(try grayPictures(["-i", film, "-vf", "select='eq(n\\,\(frame))',crop=640:\(rows.count):0:\(rows.lowerBound)"],
                                      size: Size(width: 640, height: rows.count)).first)
    }

    /// `text` as ffmpeg's drawtext draws it on a 640x360 card in the brand's colours (Noto Sans CJK, centred, at `y`): rows `rows`, gray.
    static func drawn(_ text: String, fontSize: Int, y: Int, rows: Range<Int>, in folder: URL) throws -> [UInt8] {
        let file = folder.appendingPathComponent("words-\(UUID().uuidString).txt").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let color = String(format: "0x%02X%02X%02X", navy.r, navy.g, navy.b), fontcolor = String(format: "0x%02X%02X%02X", yellow.r, yellow.g, yellow.b)
        return try #require(try grayPictures(["-f", "lavfi", "-i", "color=c=\(color):size=640x360:rate=30", "-frames:v", "1", "-vf",
                                              "format=yuv420p,drawtext=font='Noto Sans CJK JP':textfile=\(file):expansion=none:fontcolor=\(fontcolor)"
                                              + ":fontsize=\(fontSize):x=(w-text_w)/2:y=\(y),crop=640:\(rows.count):0:\(rows.lowerBound)"],
                                             size: Size(width: 640, height: rows.count)).first)
    }

    @Test("a take that cannot be read is left out and named (reelSkipped); a folder with no takes exits 1 with one line; a bad option exits 2 naming it")
    func errors() throws {
        let folder = try testFolder("reel-errors")
        let takes = try Self.recorded(folder, "takes", count: 1)
        // A folder without a list of takes: its videos by their time (0.mov); one of them no movie.
        let loose = folder.appendingPathComponent("loose").path
        _ = try Self.looseCopies(of: takes, into: loose)
        try Data(repeating: 0x42, count: 100_000).write(to: URL(fileURLWithPath: loose + "/b.mov"))
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: loose + "/photo.jpg"))
        let output = folder.appendingPathComponent("film.mp4").path
        let r = try RecorderProcess(["reel", loose, "--output", output, "--json"])
        #expect(r.exitStatus(timeout: 60) == 0, "\(r.stderr)")
        #expect(r.events.contains { if case let .reelSkipped(path, _) = $0 { path == loose + "/b.mov" } else { false } }, "\(r.rawLines)")
        #expect(r.said("left out \(loose)/b.mov"), "\(r.stderr)")
        guard case let .reelFinished(_, _, count)? = r.events.last else { throw TestFailure("no reelFinished: \(r.rawLines)") }
        #expect(count == 1)

        let empty = folder.appendingPathComponent("empty").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try RecorderProcess(["reel", empty, "--output", folder.appendingPathComponent("none.mp4").path])
        #expect(none.exitStatus() == 1)
        #expect(none.stderr.split(separator: "\n").count == 1 && none.stderr.contains("no takes in \(empty)"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("none.mp4").path))

        for (arguments, named) in [(["--size", "1281x720"], "--size '1281x720'"), (["--outptu", "x.mp4"], "did you mean --output?"),
                                   (["--output", "x.mov"], "--output 'x.mov'"), (["--language", "it"], "--language 'it' is not a language of the booth")] {
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
