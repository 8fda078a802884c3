// Boomerangs through the binary (issue 45): the fake V4L2 camera's stamped pictures at 640x480 and
// 30 fps, captured by the Boomerang command with an overlay, decoded by the ffmpeg CLI from the file
// the guest gets: their stamps run forward then back, round after round, none twice in a row, for at
// least 3 s, with no sound and the overlay's squares in its corners, the index first. The finished
// screen loops it, Use Video hands it over as a boomerang, Retake deletes it, its share page plays it
// by itself in Chromium, and a kill -9 while it is captured is followed by a launch that makes its
// loop (or removes it) and says which.
import Foundation
import KioskContract
import KioskCore
import KioskTestSupport
import Testing

@Suite("Boomerangs through the binary", .serialized, needsFakeCamera)
struct BoomerangEndToEndTests {
    static let size = Size(width: 640, height: 480)
    static let square = 40
    /// The overlay's squares, one in each corner, below the stamp band at the top (its 30 rows):
    /// red, green, blue, yellow.
    static let corners: [(x: Int, y: Int, rgb: [Int])] = [
        (8, 40, [255, 0, 0]), (640 - 8 - square, 40, [0, 255, 0]), (8, 480 - 8 - square, [0, 0, 255]), (640 - 8 - square, 480 - 8 - square, [255, 255, 0]),
    ]

    /// The overlay as a PNG the ffmpeg CLI writes from its raw RGBA: the four squares, transparent elsewhere.
    static func overlay(in folder: URL) throws -> String {
        var rgba = [UInt8](repeating: 0, count: size.width * size.height * 4)
        for corner in corners {
            for y in corner.y..<(corner.y + square) {
                for x in corner.x..<(corner.x + square) {
                    let at = (y * size.width + x) * 4
                    (rgba[at], rgba[at + 1], rgba[at + 2], rgba[at + 3]) = (UInt8(corner.rgb[0]), UInt8(corner.rgb[1]), UInt8(corner.rgb[2]), 255)
                }
            }
        }
        let raw = folder.appendingPathComponent("overlay.rgba")
        try Data(rgba).write(to: raw)
        let png = folder.appendingPathComponent("overlay.png").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(size)", "-i", raw.path,
                                   "-frames:v", "1", "-pix_fmt", "rgba", png], stdout: .discard)
        try #require(made.status == 0, "\(made.stderr)")
        return png
    }

    /// A booth with the fake camera at 640x480 and 30 fps, the test microphone (which a boomerang
    /// leaves closed), the Boomerang button and an output folder.
    static func booth(_ folder: URL, _ extra: [String] = []) throws -> (RecorderProcess, takes: String) {
        let device = try fakeCamera(in: folder, "format=YUYV 640x480@30\n")
        let takes = folder.appendingPathComponent("takes").path
        let r = try RecorderProcess(["--camera", device, "--size", "\(size)", "--fps", "30", "--microphone", "test", "--windowed", "800x480",
                                     "--countdown", "0", "--boomerang-button", "--video-crf", "10", "--output-dir", takes] + extra)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        return (r, takes)
    }

    /// Boomerang pressed: its start (a boomerang's) and its end, the loop in place.
    static func boomerang(_ r: RecorderProcess, count: Int = 1) throws -> RecordingResult {
        r.command("boomerang")
        try #require(r.wait(for: "recordingStarted", count: count) != nil, "\(r.rawLines) \(r.stderr)")
        let kinds = r.events.compactMap { if case let .recordingStarted(_, kind) = $0 { kind } else { nil } }
        #expect(kinds.last == .boomerang, "\(r.rawLines)")
        try #require(r.wait(for: "recordingFinished", count: count) != nil, "\(r.rawLines) \(r.stderr)")
        let results = r.events.compactMap { if case let .recordingFinished(result) = $0 { result } else { nil } }
        return results[count - 1]
    }

    /// Whether the booth's screenshots (`prefix`-N.bmp) change within 5 s while nothing is touched.
    static func screenMoves(_ r: RecorderProcess, _ prefix: String) throws -> Bool {
        let first = try PromptEndToEndTests.take(r, prefix + "-1.bmp")
        var attempt = 1
        return eventually(5) {
            attempt += 1
            guard let shot = try? PromptEndToEndTests.take(r, prefix + "-\(attempt).bmp") else { return false }
            return shot.bytes != first.bytes
        }
    }

    /// The stamps of every picture the ffmpeg CLI decodes from `path`, in order.
    static func stamps(_ path: String) throws -> [Int] {
        let (w, h) = (size.width, size.height)
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("boomerang-\(UUID().uuidString).gray").path
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let run = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", path, "-fps_mode", "passthrough", "-pix_fmt", "gray", "-f", "rawvideo", raw])
        try #require(run.status == 0, "\(run.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        return stride(from: 0, to: bytes.count - w * h + 1, by: w * h).map { base in
            FrameStamp.read(width: w, height: h, band: 0, luma: { x, y in bytes[base + y * w + x] })
        }
    }

    @Test("Boomerang with the stamped camera at 640x480, 30 fps: the file's stamps run 1…N, N−1…2, 1…N…, none twice in a row, at least 3 s, no sound, the overlay's four corners, H.264 with its index first; the finished screen loops it; Use Video hands it over as a boomerang")
    func pictures() throws {
        let folder = try testFolder("boomerang-pictures")
        let (r, takes) = try Self.booth(folder, ["--overlay", try Self.overlay(in: folder)])
        #expect(r.waitForState { mode, buttons in mode == "ready" && buttons.contains(.boomerang) }, "\(r.rawLines)")
        let result = try Self.boomerang(r)
        #expect(result.kind == .boomerang && result.success && result.reason == .maxDuration, "\(result)")
        #expect(result.outputPath.hasPrefix(takes + "/") && result.outputPath.hasSuffix(".mp4"), "\(result.outputPath)")
        // The review loops: state says so, and the screen's picture changes while nothing is touched.
        #expect(r.askState(timeout: 10) { reply in
            guard case let .state(mode, _, _, _, _, _, _, _, _, _, review) = reply else { return nil }
            return mode == "finished" && review == .looping
        }, "\(r.rawLines)")
        #expect(try Self.screenMoves(r, folder.appendingPathComponent("review").path), "the finished screen showed one picture for 5 s")
        r.command("useVideo")
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath") != nil, "\(r.rawLines)")
        #expect(r.events.contains(.boomerang(.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: result.outputPath))), "\(r.rawLines)")
        #expect(r.rawLines.contains { $0.contains(#""kind":"boomerang"}"#) && $0.contains("videoRecorderDidFinish") }, "\(r.rawLines)")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        let made = r.stderr.split(separator: "\n").first { $0.contains("boomerang:") && $0.contains("looped") }
        print("booth: \(made ?? "no line")")

        let path = result.outputPath
        #expect(try ffprobe(path, "stream=codec_type") == "video", "one stream, the picture's: no sound")
        #expect(try ffprobe(path, "stream=codec_name", stream: "v:0") == "h264")
        let duration = try #require(Double(try ffprobe(path, "format=duration")))
        #expect(duration >= 3.0 && abs(duration - result.duration) < 0.01, "\(duration) s, the event said \(result.duration)")
        let boxes = ShareEndToEndTests.boxes(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(boxes.firstIndex(of: "moov").map { $0 < (boxes.firstIndex(of: "mdat") ?? -1) } == true, "\(boxes)")

        let stamps = try Self.stamps(path)
        let n = try #require(stamps.indices.first { $0 > 0 && stamps[$0] < stamps[$0 - 1] }, "never turns: \(stamps)")
        let forward = Array(stamps[..<n])
        // A second at 30 fps: each picture kept, or left out by the capture's step-down by plan (a
        // loaded machine: skippedFrames), none lost.
        let missing = (forward.last ?? 0) - (forward.first ?? 0) + 1 - forward.count
        #expect((27...31).contains(forward.count + result.skippedFrames), "\(forward.count) pictures captured in 1 s at 30 fps, \(result.skippedFrames) skipped: \(stamps)")
        #expect(zip(forward, forward.dropFirst()).allSatisfy { $1 > $0 } && missing <= result.skippedFrames, "the capture lost a picture: \(forward)")
        let plan = BoomerangPlan(seconds: 1, frameRate: 30)
        #expect(stamps == plan.order(count: forward.count).map { forward[$0] }, "\(stamps)")
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 != $1 }, "a stamp twice in a row: \(stamps)")
        #expect(result.duration >= 3.0 && stamps.count % (2 * forward.count - 2) == 0, "\(stamps.count) pictures in \(result.duration) s")
        print("boomerang: \(forward.count) pictures, \(stamps.count) in the loop, \(duration) s, \(result.bytes) bytes; stamps \(stamps.prefix(2 * forward.count))")

        // The overlay, burnt in: its squares in the first picture as ffmpeg decodes it.
        let rgbPath = folder.appendingPathComponent("first.rgb").path
        let decoded = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", rgbPath],
                                     stdout: .discard)
        try #require(decoded.status == 0, "\(decoded.stderr)")
        let rgb = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rgbPath)))
        try #require(rgb.count == Self.size.width * Self.size.height * 3)
        for corner in Self.corners {
            let at = ((corner.y + Self.square / 2) * Self.size.width + corner.x + Self.square / 2) * 3
            let got = [Int(rgb[at]), Int(rgb[at + 1]), Int(rgb[at + 2])]
            #expect(zip(got, corner.rgb).allSatisfy { abs($0 - $1) <= 12 }, "the square at \(corner.x),\(corner.y) is \(got), not \(corner.rgb)")
        }
    }

    @Test("Retake deletes a boomerang (its file and its mark); the next one, used with --share-dir, gets a page whose video has autoplay, muted, loop and playsinline, and headless Chromium plays it, looping")
    func retakeAndShare() throws {
        let folder = try testFolder("boomerang-share")
        let shares = folder.appendingPathComponent("shares").path
        let (r, takes) = try Self.booth(folder, ["--share-dir", shares, "--share-url", "http://127.0.0.1/s/{token}/", "--share-seconds", "2"])
        let discarded = try Self.boomerang(r)
        r.command("retake")
        #expect(r.waitForState { mode, _ in mode == "ready" }, "\(r.rawLines)")
        #expect(eventually(5) { !FileManager.default.fileExists(atPath: discarded.outputPath) }, "Retake left \(discarded.outputPath)")
        #expect(try ServiceEndToEndTests.names(in: URL(fileURLWithPath: takes)).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: takes).filter { $0.contains(".boomerang") || $0.contains(".looping") } == [])
        let used = try Self.boomerang(r, count: 2)
        r.command("useVideo")
        try #require(r.wait(for: "takeShared") != nil, "\(r.rawLines) \(r.stderr)")
        let folderPath = try #require(r.events.compactMap { if case let .takeShared(_, _, folder, _) = $0 { folder } else { nil } }.first)
        let token = URL(fileURLWithPath: folderPath).lastPathComponent
        let page = try String(contentsOfFile: folderPath + "/index.html", encoding: .utf8)
        let video = try #require(page.split(separator: "\n").first { $0.contains("<video") }, "\(page)")
        for attribute in ["autoplay", "muted", "loop", "playsinline", "controls"] {
            #expect(video.split(whereSeparator: { $0 == " " || $0 == ">" }).contains(Substring(attribute)), "\(attribute) missing: \(video)")
        }
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: used.outputPath))
        #expect(try PhoneFile.problems(folderPath + "/video.mp4", rotation: 0, maxLevel: 31, sound: false) == [])

        // The page itself in Chromium, in a frame of the probe page: its video plays by itself and
        // comes round again (its time goes back), muted.
        let nginx = folder.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: nginx, withIntermediateDirectories: true)
        let server = try ShareServer(shares: shares, folder: nginx)
        defer { server.stop() }
        let report = try browserReport(server, site: shares, body: #"<iframe id="f" src="/s/\#(token)/" width="400" height="600"></iframe>"#, script: """
            let highest = 0, wrapped = false;
            function look() {
              const d = document.getElementById('f').contentDocument;
              const v = d && d.querySelector('video');
              if (v && v.error) return report('error=' + v.error.code);
              if (v) {
                if (v.currentTime < highest - 1) wrapped = true;
                highest = Math.max(highest, v.currentTime);
                if (wrapped && !v.paused) return report('playing=1&muted=' + v.muted + '&loop=' + v.loop + '&duration=' + v.duration);
              }
              setTimeout(look, 50);
            }
            look();
            """, folder: folder)
        #expect(report.contains("playing=1&muted=true&loop=true"), "\(report)")
        print("Chromium: \(report)")
    }

    @Test("A kill -9 while a boomerang is captured: the next launch makes its loop from the pictures the capture kept and says so (recordingRecovered, a line on stderr); killed before any picture was safe, it removes it and says so")
    func killed() throws {
        let folder = try testFolder("boomerang-killed")
        var (r, takes) = try Self.booth(folder, ["--boomerang-seconds", "3"])
        r.command("boomerang")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines)")
        // Past the first fragments (half a second each, synced), before the capture's end: 2 s on
        // the booth's timer.
        #expect(r.waitRecorded(2), "\(r.rawLines)")
        r.kill(SIGKILL)
        _ = r.exitStatus()
        let cut = try #require(try ServiceEndToEndTests.names(in: URL(fileURLWithPath: takes)).first)
        #expect(FileManager.default.fileExists(atPath: takes + "/." + cut + ".boomerang"), "no mark beside \(cut)")

        (r, _) = try Self.booth(folder)
        let line = r.line(saying: "recovery: the boomerang")
        #expect(line?.contains("made its loop") == true, "\(r.stderr)")
        let recovered = r.events.compactMap { if case let .recordingRecovered(path, duration) = $0 { (path, duration) } else { nil } }
        #expect(recovered.count == 1 && recovered.first?.0 == takes + "/" + cut && (recovered.first?.1 ?? 0) >= 3, "\(r.rawLines)")
        let stamps = try Self.stamps(takes + "/" + cut)
        let n = try #require(stamps.indices.first { $0 > 0 && stamps[$0] < stamps[$0 - 1] }, "never turns: \(stamps)")
        #expect(n >= 10, "\(n) pictures kept of 2 s")
        // Whole rounds of the kept pictures, forward then back: as many as the loop's 3 s take at the
        // capture's own rate (BoomerangLoop.remake), which a capture stepped down under load lowers.
        let round = Array(0..<n) + Array((1..<(n - 1)).reversed())
        #expect(stamps.count % round.count == 0 && stamps == (0..<(stamps.count / round.count)).flatMap { _ in round.map { stamps[$0] } },
                "\(stamps)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: takes).filter { $0.hasSuffix(".boomerang") || $0.hasSuffix(".recording") } == [])
        print("recovered: \(line ?? "")")

        // Killed as it starts: no picture was safe yet.
        r.command("boomerang")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines)")
        r.kill(SIGKILL)
        _ = r.exitStatus()
        let names = try ServiceEndToEndTests.names(in: URL(fileURLWithPath: takes))
        (r, _) = try Self.booth(folder)
        _ = r.said("recovery: the boomerang")
        let said = r.stderr.split(separator: "\n").filter { $0.contains("recovery: the boomerang") }
        #expect(said.count == 1 && (said.first?.contains("removed") == true || said.first?.contains("made its loop") == true), "\(r.stderr)")
        let left = try ServiceEndToEndTests.names(in: URL(fileURLWithPath: takes))
        if said.first?.contains("removed") == true { #expect(left == [cut], "\(names) → \(left)") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: takes).filter { $0.hasSuffix(".boomerang") || $0.hasSuffix(".recording") } == [])
        r.command("quit")
        #expect(r.exitStatus() == 0)
        print("killed at the start: \(said.first ?? "")")
    }

    @Test("A 3 s boomerang (the longest) opens no microphone and so never says it is silent: no microphoneSilent, no word of it on screen or stderr")
    func noMicrophone() throws {
        let folder = try testFolder("boomerang-no-microphone")
        let (r, _) = try Self.booth(folder, ["--boomerang-seconds", "3"])
        let result = try Self.boomerang(r)
        #expect(result.duration >= 3, "\(result)")
        #expect(!r.names.contains("microphoneSilent"), "\(r.rawLines)")
        #expect(!r.stderr.contains("no sound"), "\(r.stderr)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("A boomerang is a take like any other around it: the library lists it, the metrics count it, its hook runs, retention counts it, and the hosts' film takes it in, without sound")
    func aroundIt() throws {
        let folder = try testFolder("boomerang-around")
        let takes = folder.appendingPathComponent("takes").path, metrics = folder.appendingPathComponent("kiosk.prom").path
        let hooks = folder.appendingPathComponent("hooks.txt").path
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "test", "--windowed", "800x480", "--countdown", "0",
                                     "--boomerang-button", "--session", "loop", "--output-dir", takes, "--library", "--metrics-file", metrics,
                                     "--max-takes", "2", "--on-take", "echo \"$KIOSK_TAKE_PATH $KIOSK_TAKE_DURATION\" >> \(hooks)"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let video = try ServiceEndToEndTests.take(r, seconds: 1)
        #expect(video.kind == .video)
        r.command("useVideo")
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath") != nil)
        let boomerang = try Self.boomerang(r, count: 2)
        r.command("useVideo")
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: 2) != nil)
        // Its hook, with its path and length: its loop's, 116 pictures at 30 fps (3.867 s) unless a
        // loaded machine stepped its capture down (a loop of the pictures kept, at their rate).
        let length = String(KioskEvent.milliseconds(boomerang.duration))
        #expect(boomerang.skippedFrames > 0 || length == "3.867", "\(boomerang)")
        #expect(eventually(10) { ((try? String(contentsOfFile: hooks, encoding: .utf8)) ?? "").contains(boomerang.outputPath + " " + length) },
                "\((try? String(contentsOfFile: hooks, encoding: .utf8)) ?? "no hooks ran")")
        // The library: both, the boomerang newest, with its loop's length.
        #expect(r.waitForState { mode, _ in mode == "ready" })
        r.command("openLibrary")
        let listed = try #require(LibraryEndToEndTests.listed(r, count: 2), "\(r.rawLines)")
        #expect(listed.first?.path == boomerang.outputPath && abs((listed.first?.duration ?? 0) - boomerang.duration) < 0.01, "\(listed)")
        r.command("back")
        // The metrics: two takes recorded and used.
        #expect(eventually(5) {
            let text = (try? String(contentsOfFile: metrics, encoding: .utf8)) ?? ""
            return text.contains("kiosk_takes_total 2\n") && text.contains("kiosk_takes_used_total 2\n")
        }, "\((try? String(contentsOfFile: metrics, encoding: .utf8)) ?? "no metrics")")
        // Retention: a third take (a boomerang) and --max-takes 2 deletes the video, the oldest.
        let third = try Self.boomerang(r, count: 3)
        r.command("useVideo")
        try #require(r.wait(for: "takeDeleted") != nil, "\(r.rawLines)")
        #expect(r.events.contains(.takeDeleted(path: video.outputPath, reason: .maxTakes)), "\(r.rawLines)")
        r.command("quit")
        #expect(r.exitStatus() == 0)

        // The hosts' film of the two boomerangs kept: their cards and loops, their sound silence.
        let film = folder.appendingPathComponent("film.mp4").path
        let reel = try RecorderProcess(["reel", takes, "--output", film, "--json"])
        #expect(reel.exitStatus(timeout: 120) == 0, "\(reel.stderr)")
        guard case let .reelFinished(_, duration, count)? = reel.events.last else { Issue.record("no reelFinished: \(reel.rawLines)"); return }
        #expect(count == 2 && abs(duration - (3 + 2 * 2 + boomerang.duration + third.duration)) < 0.3, "\(reel.rawLines)")
        #expect(try ffprobe(film, "stream=codec_type").split(separator: "\n") == ["video", "audio"])
    }

    @Test("Memory: a 3 s boomerang at 1920x1080 takes at most 60 MB more than the booth has in ready")
    func memory() throws {
        let folder = try testFolder("boomerang-memory")
        let device = try fakeCamera(in: folder, "format=YUYV 1920x1080@30\n")
        let r = try RecorderProcess(["--camera", device, "--size", "1920x1080", "--fps", "30", "--microphone", "none", "--windowed", "800x480",
                                     "--countdown", "0", "--boomerang-button", "--boomerang-seconds", "3",
                                     "--output-dir", folder.appendingPathComponent("takes").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        // Ready settled: its memory still grows for a while after the first pictures are on screen
        // (measured at once it read 101 MiB, a second on 149 MiB), and no event says when it stops:
        // the one real-time wait of this file (the test runs alone, kiosk/test's `alone`).
        Thread.sleep(forTimeInterval: 1)
        let status = (try? String(contentsOfFile: "/proc/\(r.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let ready = Int(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }?.split(separator: " ").dropFirst().first ?? "") ?? 0
        let result = try Self.boomerang(r)
        #expect(result.success, "\(result)")
        let peak = peakMemory(r.process.processIdentifier)
        r.command("retake")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        let line = r.stderr.split(separator: "\n").first { $0.contains("pictures looped into") } ?? ""
        #expect(peak - ready <= 60 * 1000, "ready \(ready) KiB, peak \(peak) KiB: \(line)")
        print("memory: ready \(ready / 1024) MiB, peak \(peak / 1024) MiB (+\((peak - ready) / 1024) MiB); \(line)")
    }

    @Test("--boomerang-speed 0.5 with a camera at 60 fps: a second's 60 pictures timed for 30 fps, the loop twice as long; with a camera at 30 fps it plays at the camera's rate, and stderr says why")
    func slowMotion() throws {
        let folder = try testFolder("boomerang-slow")
        let device = try fakeCamera(in: folder, "format=YUYV 640x480@60\n")
        let takes = folder.appendingPathComponent("takes").path
        var r = try RecorderProcess(["--camera", device, "--size", "640x480", "--fps", "60", "--microphone", "none", "--windowed", "800x480",
                                     "--countdown", "0", "--boomerang-button", "--boomerang-speed", "0.5", "--video-crf", "10", "--output-dir", takes])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let slow = try Self.boomerang(r)
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        #expect(try ffprobe(slow.outputPath, "stream=r_frame_rate", stream: "v:0") == "30/1")
        let stamps = try Self.stamps(slow.outputPath)
        let n = try #require(stamps.indices.first { $0 > 0 && stamps[$0] < stamps[$0 - 1] }, "never turns: \(stamps)")
        // A second at 60 fps, timed for 30: more pictures than a 30 fps camera gives in a second
        // (60 on an idle machine; a loaded one takes fewer of the camera's), each a 30th of a second.
        #expect((31...61).contains(n), "\(n) pictures in a second at 60 fps")
        #expect(abs(slow.duration - Double(stamps.count) / 30) < 0.01 && slow.duration >= 3, "\(slow.duration) s for \(stamps.count) pictures")
        #expect(stamps == BoomerangPlan(seconds: 1, frameRate: 30).order(count: n).map { stamps[$0] }, "\(stamps)")

        r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "none", "--windowed", "800x480", "--countdown", "0",
                                 "--boomerang-button", "--boomerang-speed", "0.5", "--output-dir", takes])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let plain = try Self.boomerang(r)
        r.command("retake")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        #expect(plain.skippedFrames > 0 ? plain.duration >= 3 : abs(plain.duration - 3.867) < 0.01, "\(plain)")
        #expect(r.said("under the 60 slow motion needs; played at its own rate"), "\(r.stderr)")
    }
}
