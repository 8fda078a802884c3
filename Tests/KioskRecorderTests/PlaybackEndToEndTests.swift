// The built-in player through the real binary: reviewing a take in the booth, and `--play` on good,
// damaged and non-movie files.
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
        Thread.sleep(forTimeInterval: 1.5)
        r.command("stop")
        #expect(r.wait(for: "recordingFinished") != nil)
        r.command("playVideo")
        #expect(r.wait(for: "playbackStarted") != nil)
        r.command("state")
        #expect(r.wait(for: "playbackFinished", timeout: 10) != nil, "\(r.stderr)")
        #expect(r.events.contains(.playbackFinished(reason: .end)))
        #expect(r.events.contains { if case let .state(mode, _, buttons, _, _, _) = $0 { mode == "playing" && buttons == [.closePlayer] } else { false } })
        r.command("playVideo")
        #expect(r.wait(for: "playbackStarted", count: 2) != nil)
        Thread.sleep(forTimeInterval: 0.3)
        r.send(#"{"command":"tap","x":400,"y":240}"#) // pauses
        r.command("closePlayer")
        #expect(r.wait(for: "playbackFinished", count: 2) != nil)
        r.command("state")
        #expect(r.wait(for: "state", count: 2) != nil)
        guard case let .state(mode, _, buttons, _, _, _)? = r.events.last else { Issue.record("no state"); return }
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
        guard case let .state(mode, _, buttons, _, _, _)? = r.events.last else { Issue.record("no state"); return }
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

    @Test("--play on a file that is no movie: an error event, playbackFinished error, exit 1")
    func notAMovie() throws {
        let path = try testFolder("notmovie").appendingPathComponent("notes.mov").path
        try Data("not a movie".utf8).write(to: URL(fileURLWithPath: path))
        let r = try RecorderProcess(["--play", path, "--windowed", "640x480"])
        #expect(r.exitStatus(timeout: 10) == 1)
        #expect(r.names == ["playbackStarted", "error", "playbackFinished"])
        if case let .error(code, message)? = r.events.dropFirst().first {
            #expect(code == .playbackFailed && message.contains(path), "\(message)")
        }
        #expect(r.events.last == .playbackFinished(reason: .error))
    }

    @Test("--play on cut and damaged copies: each ends by itself with playbackFinished, exit 0 or 1")
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
            #expect(r.events.last?.name == "playbackFinished", "copy \(k): \(r.rawLines)")
        }
    }
}
