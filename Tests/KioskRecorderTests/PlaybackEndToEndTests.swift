// The built-in player through the real binary: reviewing a take in the booth, and `--play` on good,
// damaged and non-movie files, its stdin commands and `--fit` (by a screenshot's pixels).
import Foundation
import Testing
import KioskCore
import KioskTestSupport

/// A 1.5 s H.264/AAC file from the ffmpeg CLI (an encoder independent of ours).
func ffmpegMovie(_ folder: URL) throws -> String {
    let path = folder.appendingPathComponent("ffmpeg.mp4").path
    let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi",
                               "-i", "sine=frequency=440:sample_rate=48000", "-t", "1.5", "-c:v", "libx264", "-preset", "ultrafast",
                               "-pix_fmt", "yuv420p", "-c:a", "aac", path], stdout: .inherit, stderr: .inherit)
    try #require(made.status == 0)
    return path
}

@Suite("kiosk-recorder playback")
struct PlaybackEndToEndTests {
    @Test("record, Play Video to the end, play again and Close: back to finished each time, the take intact")
    func reviewTake() throws {
        let (r, output, _) = try recordingBooth("review")
        #expect(r.waitRecorded(1))
        r.command("stop")
        #expect(r.wait(for: "recordingFinished") != nil)
        r.command("playVideo")
        #expect(r.wait(for: "playbackStarted") != nil)
        r.command("state")
        #expect(r.wait(for: "playbackFinished", timeout: 10) != nil, "\(r.stderr)")
        #expect(r.events.contains(.playbackFinished(reason: .end)))
        #expect(r.events.contains { if case let .state(mode, _, buttons, _, _, _, _, _, _, _, _) = $0 { mode == "playing" && buttons == [.closePlayer] } else { false } })
        r.command("playVideo")
        #expect(r.wait(for: "playbackStarted", count: 2) != nil)
        // Paused once its first picture is on screen (the booth logs when).
        #expect(r.waitForOutput(timeout: 10) { r.stderr.components(separatedBy: "first picture on screen ").count > 2 }, "\(r.stderr)")
        r.send(#"{"command":"tap","x":400,"y":240}"#) // pauses
        r.command("closePlayer")
        #expect(r.wait(for: "playbackFinished", count: 2) != nil)
        guard case let .state(mode, _, buttons, _, _, _, _, _, _, _, _)? = r.stateReply() else { Issue.record("no state"); return }
        #expect(mode == "finished" && buttons == [.retake, .useVideo, .playVideo])
        #expect(r.events.filter { $0.name == "playbackFinished" } == [.playbackFinished(reason: .end), .playbackFinished(reason: .closed)])
        #expect(!r.events.contains { $0.name == "error" }, "\(r.rawLines)")
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        #expect(try decodesCleanly(output))
        let firstPicture = r.stderr.components(separatedBy: "first picture on screen ").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(firstPicture.count == 2, "\(r.stderr)")
        print("booth: first picture \(firstPicture) ms after Play Video")
    }

    @Test("--play plays a file to its end: playbackStarted, playbackFinished end, exit 0")
    func playToEnd() throws {
        let path = try ffmpegMovie(try testFolder("play"))
        let r = try RecorderProcess(["--play", path, "--windowed", "640x480"])
        #expect(r.exitStatus(timeout: 10) == 0, "\(r.stderr)")
        #expect(r.events == [.playbackStarted(path: path), .playbackFinished(reason: .end)])
    }

    /// `--play` on a 1.5 s movie of the ffmpeg CLI, up to `playbackStarted`.
    func playing(_ name: String) throws -> (r: RecorderProcess, path: String) {
        let path = try ffmpegMovie(try testFolder(name))
        let r = try RecorderProcess(["--play", path, "--windowed", "640x480"])
        try #require(r.wait(for: "playbackStarted") != nil, "\(r.stderr)")
        return (r, path)
    }

    @Test("--play has the booth's playing mode: SIGUSR1 pauses, SIGUSR2 leaves it paused, a tap resumes, Close exits 0")
    func playSignals() throws {
        let (r, path) = try playing("play-signals")
        r.kill(SIGUSR1)
        Thread.sleep(forTimeInterval: 0.2)
        r.kill(SIGUSR2)
        // The file lasts 1.5 s: still playing 2.5 s later means it is paused.
        Thread.sleep(forTimeInterval: 2.5)
        #expect(r.process.isRunning, "paused, not ended (\(r.names))")
        r.command("state")
        #expect(r.wait(for: "state") != nil)
        guard case let .state(mode, _, buttons, _, _, _, _, _, _, _, _)? = r.events.last else { Issue.record("no state"); return }
        #expect(mode == "playing" && buttons == [.closePlayer])
        r.send(#"{"command":"tap","x":320,"y":100}"#) // resumes: the file plays to its end
        #expect(r.exitStatus(timeout: 10) == 0, "\(r.stderr)")
        #expect(r.events.filter { $0.name != "state" } == [.playbackStarted(path: path), .playbackFinished(reason: .end)])
    }

    @Test("--play and SIGTERM: playbackFinished closed, terminated, exit 0")
    func playSigterm() throws {
        let (r, path) = try playing("play-term")
        r.kill(SIGTERM)
        #expect(r.exitStatus(timeout: 10) == 0, "\(r.stderr)")
        #expect(r.events == [.playbackStarted(path: path), .playbackFinished(reason: .closed), .terminated(signal: "SIGTERM")])
    }

    @Test("--play's stdin: state is the playing mode's, a booth button is notAllowed, closePlayer ends it (paused: the file cannot end by itself): playbackFinished closed, exit 0")
    func playClose() throws {
        let (r, path) = try playing("play-close")
        r.command("pause") // 1.5 s of file: paused, it cannot end by itself
        r.command("state")
        r.command("start")
        try #require(r.wait(for: "error") != nil, "\(r.rawLines)")
        r.command("closePlayer")
        #expect(r.exitStatus(timeout: 10) == 0, "\(r.stderr)")
        #expect(r.events.filter { $0.name != "state" && $0.name != "error" } == [.playbackStarted(path: path), .playbackFinished(reason: .closed)], "\(r.rawLines)")
        #expect(r.events.contains { if case let .state(mode, _, buttons, _, _, _, _, _, _, _, _) = $0 { mode == "playing" && buttons == [.closePlayer] } else { false } }, "\(r.rawLines)")
        #expect(r.events.contains { if case let .error(code, message) = $0 { code == .notAllowed && message.contains("'start'") } else { false } }, "\(r.rawLines)")
    }

    @Test("--play --fit fit and --fit fill, by the screenshot's pixels: the whole picture between black bars, or the screen covered with the picture's top and bottom cropped")
    func fit() throws {
        let folder = try testFolder("play-fit")
        // 320x240, red with a 40-pixel blue stripe down each side and a green band across rows
        // 20-35: on 800x480, aspect-fit is 640x480 at x 80 (stripes 80 wide, black bars of 80 beside
        // them, the band at y 40-71); aspect-fill is 800x600 at y -60 (stripes 100 wide, nothing
        // black, the band at y -10-29, under the top panel).
        let movie = folder.appendingPathComponent("stripes.mp4").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                                   "color=c=red:s=320x240:r=30,drawbox=x=0:y=0:w=40:h=240:color=blue:t=fill,drawbox=x=280:y=0:w=40:h=240:color=blue:t=fill,"
                                   + "drawbox=x=0:y=20:w=320:h=16:color=lime:t=fill",
                                   "-t", "3", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", movie], stdout: .inherit, stderr: .inherit)
        try #require(made.status == 0)
        enum Colour: String { case black, blue, red, green, other }
        func colour(_ rgb: (Int, Int, Int)) -> Colour {
            switch rgb {
            case let (r, g, b) where r < 30 && g < 30 && b < 30: .black
            case let (r, g, b) where r < 60 && g < 60 && b > 200: .blue
            case let (r, g, b) where r > 200 && g < 60 && b < 60: .red
            case let (r, g, b) where r < 60 && g > 200 && b < 60: .green
            default: .other
            }
        }
        // Each mode's colour at points of two rows clear of the panels and the play symbol, 3
        // pixels either side of each edge; and just under the top panel (which ends at y 58), where
        // only the fitted picture has its band.
        let expected: [String: (row: [(x: Int, colour: Colour)], underPanel: Colour)] = [
            "fit": ([(0, .black), (77, .black), (83, .blue), (157, .blue), (163, .red), (637, .red), (643, .blue), (717, .blue), (723, .black), (799, .black)], .green),
            "fill": ([(0, .blue), (97, .blue), (103, .red), (697, .red), (703, .blue), (799, .blue)], .red),
        ]
        for (fit, (points, underPanel)) in expected {
            let r = try RecorderProcess(["--play", movie, "--windowed", "800x480", "--fit", fit])
            try #require(r.wait(for: "playbackStarted") != nil, "\(r.stderr)")
            r.command("pause")
            // Once the first picture is up (the screen's middle red).
            var shot = try PromptEndToEndTests.take(r, folder.appendingPathComponent("\(fit)-0.bmp").path)
            var attempt = 0
            _ = eventually(10) {
                guard colour(shot.rgb(x: 400, y: 120)) != .red else { return true }
                attempt += 1
                if let next = try? PromptEndToEndTests.take(r, folder.appendingPathComponent("\(fit)-\(attempt).bmp").path) { shot = next }
                return false
            }
            for y in [120, 300] {
                let seen = points.map { (x: $0.x, colour: colour(shot.rgb(x: $0.x, y: y))) }
                #expect(seen.map(\.colour) == points.map(\.colour), "--fit \(fit), row \(y): \(seen.map { "\($0.x) \($0.colour)" })")
            }
            #expect(colour(shot.rgb(x: 400, y: 66)) == underPanel, "--fit \(fit), at (400, 66): \(shot.rgb(x: 400, y: 66))")
            r.command("closePlayer")
            #expect(r.exitStatus(timeout: 10) == 0, "\(r.stderr)")
        }
    }

    @Test("--play on a file that is no movie: its error event alone (no playbackStarted, no playbackFinished), exit 1")
    func notAMovie() throws {
        let path = try testFolder("notmovie").appendingPathComponent("notes.mov").path
        try Data("not a movie".utf8).write(to: URL(fileURLWithPath: path))
        let r = try RecorderProcess(["--play", path, "--windowed", "640x480"])
        #expect(r.exitStatus(timeout: 10) == 1)
        #expect(r.names == ["error"])
        if case let .error(code, message)? = r.events.first {
            #expect(code == .playbackFailed && message.hasPrefix("cannot open \(path): "), "\(message)")
        }
    }

    @Test("--play on cut and damaged copies: each ends by itself, exit 0 or 1: with playbackFinished, or with its error alone when it does not open (its index cut off)")
    func damaged() throws {
        let folder = try testFolder("damaged")
        let original = try Data(contentsOf: URL(fileURLWithPath: try ffmpegMovie(folder)))
        var copies: [Data] = [2, 5, 8].map { original.prefix(original.count * $0 / 10) }
        var flipped = original
        for i in stride(from: 200, to: flipped.count, by: 997) { flipped[i] ^= 0x5A }
        copies.append(flipped)
        for (k, data) in copies.enumerated() {
            let path = folder.appendingPathComponent("copy-\(k).mp4").path
            try data.write(to: URL(fileURLWithPath: path))
            let r = try RecorderProcess(["--play", path, "--windowed", "640x480"])
            let status = r.exitStatus(timeout: 10)
            #expect(status == 0 || status == 1, "copy \(k): \(String(describing: status))")
            if r.names == ["error"] {
                #expect(status == 1 && r.rawLines[0].contains(#""message":"cannot open "#), "copy \(k): \(r.rawLines)")
            } else {
                #expect(r.names.first == "playbackStarted" && r.events.last?.name == "playbackFinished", "copy \(k): \(r.rawLines)")
            }
        }
    }
}
