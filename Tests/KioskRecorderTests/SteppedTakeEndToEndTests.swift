// A take stepped down for want of CPU (issue 35: every 2nd picture, a new encoder at a cheaper
// effort mid-stream) through what reads a take after the booth: the trim, the share's remux, our
// own player, headless Chromium, and the sound against the picture. The slow test encoder (libx264
// held to 20 pictures a second against the camera's 30) makes the booth step, as a weak CPU does.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("a stepped take through the trim, the share, our player and Chromium, in sync (issue 35)", .serialized)
struct SteppedTakeEndToEndTests {
    @Test("a stepped take, trimmed to [1, 4] and shared: the delivered cut and the share's video.mp4 decode cleanly in ffmpeg and play to their end in our player (playbackFinished end, exit 0); headless Chromium plays the share's video through its end with no error, as long as ffprobe says")
    func readers() throws {
        let folder = try testFolder("stepped-readers")
        let shares = folder.appendingPathComponent("share").path
        let output = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(EffortEndToEndTests.booth(encoder: TestEncoderName.slow, size: Size(width: 640, height: 360), output: output)
                                    + ["--trim", "--share-dir", shares, "--share-url", ShareEndToEndTests.template, "--share-seconds", "1"],
                                    environment: ["KIOSK_TEST_ENCODERS": "1"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        #expect(r.waitRecorded(5), "\(r.rawLines)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished", timeout: 30) != nil, "\(r.stderr)")
        let result = try #require(r.lastResult)
        #expect(result.success && result.skippedFrames > 0 && result.effortSteps >= 1, "\(result)\n\(r.stderr)")
        #expect(r.said("take: effort now superfast"), "\(r.stderr)")
        r.send(#"{"command":"trim","start":1.0,"end":4.0}"#)
        r.command("useVideo")
        try #require(r.wait(for: "takeShared", timeout: 30) != nil, "\(r.rawLines) \(r.stderr)")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        guard case let .takeShared(_, token, shareFolder, _)? = r.events.first(where: { $0.name == "takeShared" }) else {
            Issue.record("no takeShared: \(r.rawLines)"); return
        }
        #expect(try PhoneFile.problems(shareFolder + "/video.mp4", rotation: nil) == [])
        let delivered = try #require(r.events.compactMap(\.handedOverPath).first)
        let shared = shareFolder + "/video.mp4"
        for path in [delivered, shared] {
            #expect(try decodesCleanly(path), "\(path)")
            let seconds = try #require(Double(try ffprobe(path, "format=duration")), "\(path)")
            #expect(abs(seconds - 3) < 0.1, "\(path): \(seconds) s")
            let player = try RecorderProcess(["--play", path, "--windowed", "640x480"])
            #expect(player.exitStatus(timeout: 15) == 0, "\(player.stderr)")
            #expect(player.events == [.playbackStarted(path: path), .playbackFinished(reason: .end)], "\(player.rawLines)")
        }

        let nginx = folder.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: nginx, withIntermediateDirectories: true)
        let server = try ShareServer(shares: shares, folder: nginx)
        defer { server.stop() }
        let report = try browserReport(server, site: shares, body: #"<iframe id="f" src="\#(token)/"></iframe>"#, script: """
            const f = document.getElementById('f');
            f.onload = () => {
              const v = f.contentDocument.querySelector('video');
              v.muted = true;
              v.onerror = () => report('error=' + v.error.code);
              v.onended = () => report('ended=1&frames=' + v.getVideoPlaybackQuality().totalVideoFrames + '&duration=' + v.duration);
              v.play().catch(e => report('play=' + e.name));
            };
            """, folder: folder)
        #expect(report.contains("ended=1"), "\(report)")
        let reported = report.components(separatedBy: "duration=").last.flatMap { Double($0) }
        let probed = try #require(Double(try ffprobe(shared, "format=duration")))
        #expect(reported.map { abs($0 - probed) <= 0.1 } == true, "Chromium: \(report); ffprobe \(probed) s")
        print("a stepped take in Chromium: \(report)")
    }

    @Test("a stepped take's sound stays in sync: every picture it kept at its own capture time (its distance in frames from the first, within 1.5 ms), the sound ending with the picture; a flash frame the take kept has its beep within 33 ms, as at full CPU")
    func inSync() throws {
        let folder = try testFolder("stepped-sync")
        let take = try AVSyncEndToEndTests.record(["--camera", "test", "--microphone", "test", "--size", "640x360",
                                                   "--video-encoder", TestEncoderName.slow],
                                                  in: folder, environment: ["KIOSK_TEST_ENCODERS": "1"], seconds: 6)
        let pictures = try AVSyncEndToEndTests.pictures(of: take)
        let steps = zip(pictures, pictures.dropFirst()).map { $1.number - $0.number }
        // Stepped (every 2nd picture; every 3rd where the machine is short of CPU beyond that).
        #expect(steps.contains { $0 >= 2 } && steps.allSatisfy { (1...EffortRule.maxKeepEvery).contains($0) }, "the steps between the pictures' numbers: \(steps)")
        try Self.expectInSync(take, pictures: pictures, fps: 30, name: "a stepped take")
    }

    /// A stepped take's pictures each at its own capture time (its distance in frames from the
    /// first), and its sound untouched: it ends with the picture (its last one kept, two intervals
    /// at most apart), each flash kept with its beep. `name`: the take, for the printed figures.
    static func expectInSync(_ take: AVSyncEndToEndTests.Take, pictures: [AVSyncEndToEndTests.Picture], fps: Double, name: String) throws {
        let first = try #require(pictures.first)
        let misplaced = pictures.filter { abs($0.time - Double($0.number - first.number) / fps) > 0.0015 }
        #expect(misplaced.isEmpty, "\(misplaced.prefix(5).map { "frame \($0.number) at \($0.time) s" })")
        let (onsets, sound) = try AVSyncEndToEndTests.beepOnsets(of: take)
        let last = try #require(pictures.last)
        #expect(abs(sound.upperBound - last.time) <= 0.15, "sound to \(sound.upperBound) s, the last picture at \(last.time) s")
        // The test camera flashes the first frame of each second: at every 2nd picture, those are all
        // kept or all left out, by the parity the step of the rate gave them (the take's first
        // picture, a flash or not, is kept before the step).
        if pictures.filter(\.flash).count >= 3 {
            let errors = try AVSyncEndToEndTests.flashErrors(take, pictures: pictures, onsets: onsets, sound: sound, fps: fps)
            #expect(!errors.isEmpty && errors.allSatisfy { abs($0) <= 0.033 }, "A/V errors (s): \(errors)")
            print("\(name): A/V errors (ms): \(errors.map { ($0 * 10000).rounded() / 10 })")
        } else {
            print("\(name): its pictures left out every flash frame (their parity); the timing alone judged")
        }
    }
}
