// The real kiosk-recorder, end to end over stdin and stdout with the test camera and tone.
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

/// The booth every e2e test records with: test sources at the seed's 352x288 (HD, the default, costs nine
/// times the CPU; HDEndToEndTests records it), a window, and no countdown (the tests time
/// takes from Start; the countdown has its own tests).
let booth = ["--camera", "test", "--size", "352x288", "--microphone", "test", "--windowed", "800x480", "--countdown", "0"]

@Suite("kiosk-recorder end to end")
struct EndToEndTests {
    @Test("record → stop → use: the events in order and a file that plays")
    func recordStopUse() throws {
        let (r, output, started) = try recordingBooth("use")
        // Two seconds on the booth's own timer, however slow the machine.
        #expect(r.waitRecorded(2))
        r.command("stop")
        let finished = try #require(r.wait(for: "recordingFinished"))
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        // (Without the replies to the timer's `state`.)
        #expect(r.names.filter { $0 != "state" } == ["ready", "recordingStarted", "recordingFinished", "videoRecorderDidFinishRecordingVideoWithOutputPath"])
        guard case let .recordingFinished(result)? = r.events.first(where: { $0.name == "recordingFinished" }) else { Issue.record("no result"); return }
        #expect(result.success && result.reason == .user && result.outputPath == output)
        // At least what the timer showed, at most what passed until the end was told.
        #expect(result.duration > 1.9 && result.duration < finished - started + 1, "\(result.duration) s")
        #expect(r.events.last == .videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: output))
        #expect(try ffprobe(output, "stream=codec_name") == "h264\naac")
        #expect(try decodesCleanly(output))
        #expect(!r.stderr.contains("warning"), "\(r.stderr)")
    }

    @Test("cancel in ready: the cancel event, exit 0")
    func cancel() throws {
        let r = try RecorderProcess(booth)
        #expect(r.wait(for: "ready") != nil)
        r.command("cancel")
        #expect(r.exitStatus() == 0)
        #expect(r.names == ["ready", "videoRecorderDidCancelRecordingVideo"])
    }

    @Test("refused and bad commands give errors and change nothing; state answers")
    func refusedCommands() throws {
        let r = try RecorderProcess(booth)
        #expect(r.wait(for: "ready") != nil)
        r.command("stop")
        r.send("this is not json")
        r.command("fly")
        r.command("state")
        #expect(r.wait(for: "state") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0)
        let errors = r.events.compactMap { e -> ErrorCode? in if case let .error(code, _) = e { code } else { nil } }
        #expect(errors == [.notAllowed, .badCommand, .unknownCommand])
        #expect(r.events.last?.withoutMicrophoneLevel == .state(mode: "ready", timer: "00:00", buttons: [.cancel, .start], orientation: .landscapeRight))
    }

    @Test("retake deletes the take and records again; a rotation before recording turns the file")
    func retakeAndRotate() throws {
        let folder = try testFolder("retake")
        let output = folder.appendingPathComponent("take.mp4").path
        let r = try RecorderProcess(booth + ["--output", output])
        #expect(r.wait(for: "ready") != nil)
        r.command("start")
        #expect(r.wait(for: "recordingStarted") != nil)
        // Asked while recording: kept for later.
        r.send(#"{"command":"rotate","orientation":"portrait"}"#)
        #expect(r.waitRecorded(1))
        r.command("stop")
        #expect(r.wait(for: "recordingFinished") != nil)
        #expect(!r.names.contains("orientationChanged"))
        r.command("retake")
        #expect(r.wait(for: "orientationChanged") != nil)
        // Deleted on the file worker, not before the events of the retake go out.
        #expect(eventually { !FileManager.default.fileExists(atPath: output) }, "the retaken take is still there")
        r.command("start")
        #expect(r.wait(for: "recordingStarted", count: 2) != nil)
        #expect(r.waitRecorded(1))
        r.command("stop")
        #expect(r.wait(for: "recordingFinished", count: 2) != nil)
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        #expect(r.names.filter { $0 != "state" } == ["ready", "recordingStarted", "recordingFinished", "orientationChanged", "recordingStarted",
                            "recordingFinished", "videoRecorderDidFinishRecordingVideoWithOutputPath"])
        // Portrait on a landscape window: the picture must be turned a quarter clockwise to stand up.
        #expect(try ffprobe(output, "stream_side_data=rotation", stream: "v:0") == "-90")
    }

    @Test("SIGUSR1 while recording stops and keeps the take (background); SIGUSR2 brings the camera back")
    func background() throws {
        let r = try RecorderProcess(booth)
        #expect(r.wait(for: "ready") != nil)
        r.command("start")
        #expect(r.wait(for: "recordingStarted") != nil)
        #expect(r.waitRecorded(1))
        r.kill(SIGUSR1)
        #expect(r.wait(for: "recordingFinished") != nil)
        guard case let .recordingFinished(result) = r.events.last else { Issue.record("no result"); return }
        #expect(result.reason == .background && result.success)
        #expect(try decodesCleanly(result.outputPath))
        r.kill(SIGUSR2)
        r.command("retake")
        // Signals and stdin are separate channels: the signal may land after the retake; the booth
        // comes to ready with Start once it has.
        #expect(r.waitForState(.state(mode: "ready", timer: "00:00", buttons: [.cancel, .start], orientation: .landscapeRight)))
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("SIGTSTP while recording: the take is kept, then the process really stops; SIGCONT resumes it")
    func suspend() throws {
        let r = try RecorderProcess(booth)
        #expect(r.wait(for: "ready") != nil)
        r.command("start")
        #expect(r.wait(for: "recordingStarted") != nil)
        #expect(r.waitRecorded(1))
        r.kill(SIGTSTP)
        #expect(r.wait(for: "recordingFinished") != nil)
        guard case let .recordingFinished(result) = r.events.last else { Issue.record("no result"); return }
        #expect(result.reason == .background && result.success)
        let stat = "/proc/\(r.process.processIdentifier)/stat"
        func status() -> String { (try? String(contentsOfFile: stat, encoding: .utf8)) ?? "" }
        #expect(eventually(10) { status().split(separator: " ").dropFirst(2).first == "T" }, "stopped after the take was safe: \(status())")
        r.kill(SIGCONT)
        // Read once it runs again.
        #expect(r.stateReply() != nil, "answers again after SIGCONT")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("SIGTERM while recording finishes the take cleanly, reports terminated, exits 0")
    func sigterm() throws {
        let r = try RecorderProcess(booth)
        #expect(r.wait(for: "ready") != nil)
        r.command("start")
        #expect(r.wait(for: "recordingStarted") != nil)
        #expect(r.waitRecorded(1))
        r.kill(SIGTERM)
        #expect(r.exitStatus() == 0)
        #expect(Array(r.names.suffix(2)) == ["recordingFinished", "terminated"])
        guard case let .recordingFinished(result) = r.events.dropLast().last else { Issue.record("no result"); return }
        #expect(result.reason == .signal && result.success)
        #expect(try decodesCleanly(result.outputPath))
        #expect(r.events.last == .terminated(signal: "SIGTERM"))
    }

    @Test("max duration 2 s: the take stops by itself at 2 s within a frame")
    func maxDuration() throws {
        let r = try RecorderProcess(booth + ["--max-duration", "2"])
        #expect(r.wait(for: "ready") != nil)
        r.command("start")
        #expect(r.wait(for: "recordingFinished", timeout: 20) != nil)
        guard case let .recordingFinished(result) = r.events.last else { Issue.record("no result"); return }
        #expect(result.reason == .maxDuration && result.success)
        #expect(abs(result.duration - 2) <= result.lengthTolerance, "\(result)")
        let seconds = try #require(Double(try ffprobe(result.outputPath, "format=duration")))
        #expect(abs(seconds - 2) <= result.lengthTolerance, "\(seconds) s: \(result)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("kill -9 mid-take (10 times): each file plays and holds all but the last 1.1 s; the next start recovers it")
    func killNine() throws {
        let folder = try testFolder("kill9")
        let output = folder.appendingPathComponent("output.mov").path
        var generator = SystemRandomNumberGenerator()
        var losses: [Double] = []
        defer { print("kill -9: seconds lost per trial \(losses.map { ($0 * 1000).rounded() / 1000 }), worst \(losses.max() ?? 0)") }
        for trial in 0..<10 {
            let r = try RecorderProcess(booth + ["--output", output])
            #expect(r.wait(for: "ready") != nil)
            r.command("start")
            guard let started = r.wait(for: "recordingStarted") else { Issue.record("trial \(trial) did not start"); return }
            // Killed once the booth's timer shows 1 to 3 s, at that moment's age from the test's view.
            #expect(r.waitRecorded(Double(Int.random(in: 1...3, using: &generator))), "trial \(trial)")
            r.kill(SIGKILL)
            let t = ProcessInfo.processInfo.systemUptime - started
            _ = r.exitStatus()
            let duration = try #require(Double(try ffprobe(output, "format=duration")), "trial \(trial): ffprobe read the file")
            #expect(duration >= t - 1.1, "trial \(trial): killed at \(t) s, file holds \(duration) s")
            losses.append(max(t - duration, 0))
            #expect(try decodesCleanly(output), "trial \(trial)")
            // The next run, pressing Start, keeps the clip: moved aside and reported.
            let next = try RecorderProcess(booth + ["--output", output])
            #expect(next.wait(for: "ready") != nil)
            next.command("start")
            #expect(next.wait(for: "recordingStarted") != nil)
            next.command("quit")
            #expect(next.exitStatus() == 0)
            let recovered = next.events.compactMap { e -> (String, Double)? in
                if case let .recordingRecovered(path, d) = e { (path, d) } else { nil }
            }
            #expect(recovered.count == 1, "trial \(trial): \(next.names)")
            if let (path, d) = recovered.first {
                #expect(abs(d - duration) < 0.1)
                #expect(FileManager.default.fileExists(atPath: path))
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }
}

extension EndToEndTests {
    @Test("loop session: each accepted take is handed over under its own name, and the booth is ready again")
    func loopSession() throws {
        let folder = try testFolder("loop")
        let output = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(booth + ["--output", output, "--session", "loop"])
        #expect(r.wait(for: "ready") != nil)
        for round in 1...2 {
            r.command("start")
            #expect(r.wait(for: "recordingStarted", count: round) != nil)
            #expect(r.waitRecorded(1))
            r.command("stop")
            #expect(r.wait(for: "recordingFinished", count: round) != nil)
            r.command("useVideo")
            #expect(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: round) != nil)
        }
        r.command("cancel")
        #expect(r.wait(for: "videoRecorderDidCancelRecordingVideo") != nil)
        let last = r.stateReply()
        r.command("quit")
        #expect(r.exitStatus() == 0)
        let handed = r.events.compactMap { e -> String? in
            if case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path) = e { path } else { nil }
        }
        #expect(handed.count == 2 && Set(handed).count == 2)
        for path in handed {
            #expect(path.hasPrefix(folder.appendingPathComponent("take-").path) && path.hasSuffix(".mov"))
            #expect(try decodesCleanly(path))
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(last?.withoutMicrophoneLevel == .state(mode: "ready", timer: "00:00", buttons: [.cancel, .start], orientation: .landscapeRight))
    }

    @Test("a 10 s take from the test pattern and tone: H.264 + AAC for ffprobe and GStreamer, 10 s within a frame")
    func tenSeconds() throws {
        let r = try RecorderProcess(booth + ["--max-duration", "10", "--size", "640x480"])
        #expect(r.wait(for: "ready") != nil)
        r.command("start")
        #expect(r.wait(for: "recordingFinished", timeout: 15) != nil)
        guard case let .recordingFinished(result) = r.events.last else { Issue.record("no result"); return }
        // What the file is (its codecs, its 10 s); whether the machine kept every picture is the
        // real-time pass's to show (AVSyncEndToEndTests): beside the wide pass's other tests this
        // take once dropped pictures (ci47), and a drop never shortens the file's time.
        #expect(result.reason == .maxDuration && result.success, "\(result)")
        let seconds = try #require(Double(try ffprobe(result.outputPath, "format=duration")))
        #expect(abs(seconds - 10) <= result.lengthTolerance, "\(seconds) s: \(result)")
        #expect(try ffprobe(result.outputPath, "stream=codec_name") == "h264\naac")
        #expect(try decodesCleanly(result.outputPath))
        let gst = try runProgram(["gst-discoverer-1.0", result.outputPath], stderr: .inherit)
        let text = gst.stdout
        #expect(gst.status == 0 && text.contains("H.264") && text.contains("AAC") && text.contains("0:00:10"), "\(text)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    /// A take of `seconds` from the fake microphone plugin (`fields` configure it), then Use Video.
    /// The recorder opens its microphone by name from ALSA's global configuration, which reads
    /// ~/.asoundrc: a private HOME defines the fake there. `whileRecording` runs after the start.
    static func takeWithFakeMicrophone(_ name: String, fields: String, seconds: Double,
                                       whileRecording: (RecorderProcess) -> Void = { _ in }) throws -> (RecorderProcess, String) {
        let plugin = TestEnvironment.fakeMicrophonePlugin
        try #require(FileManager.default.fileExists(atPath: plugin), "build the package first (swift build)")
        let home = try testFolder(name)
        try """
            pcm_type.kiosk_fake_microphone { lib "\(plugin)" }
            pcm.kiosk_fake_mic { type kiosk_fake_microphone  \(fields) }
            """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let output = home.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "kiosk_fake_mic", "--windowed", "800x480", "--countdown", "0", "--output", output],
                                    environment: ["HOME": home.path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines) \(r.stderr)")
        whileRecording(r)
        #expect(r.waitRecorded(seconds), "\(r.rawLines)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        guard case let .recordingFinished(result)? = r.events.first(where: { $0.name == "recordingFinished" }) else {
            Issue.record("no result: \(r.rawLines)")
            return (r, output)
        }
        #expect(result.success && result.reason == .user)
        // Whatever the microphone lost is in the sound as silence: it is as long as the picture.
        let video = try #require(Double(try ffprobe(output, "stream=duration", stream: "v:0")))
        let audio = try #require(Double(try ffprobe(output, "stream=duration", stream: "a:0")))
        #expect(video > seconds - 0.5 && abs(video - audio) < 0.1, "picture \(video) s, sound \(audio) s")
        #expect(try decodesCleanly(output))
        return (r, output)
    }

    @Test("an ALSA microphone (the fake microphone plugin) that overruns mid-take: its negotiated format in the file, recovered, the take plays, its sound as long as its picture")
    func microphoneOverrun() throws {
        // It stalls 300 ms at 1.5 s, then overruns.
        let (r, output) = try Self.takeWithFakeMicrophone("alsa-overrun", fields: "stall_at 72000  stall_frames 14400", seconds: 4)
        #expect(r.said("microphone kiosk_fake_mic: overrun, recovering"), "\(r.stderr)")
        #expect(!r.events.contains { $0.name == "error" }, "\(r.rawLines)")
        #expect(try ffprobe(output, "stream=codec_name") == "h264\naac")
        // The sound track has what the device negotiated (the fake offers stereo only).
        #expect(try ffprobe(output, "stream=channels,sample_rate", stream: "a:0") == "48000\n2")
    }

    @Test("a USB microphone unplugged mid-take and plugged back (the fake plugin's -ENODEV): reported, the take goes on with silence, sound as long as picture")
    func microphoneUnplugged() throws {
        // Unplugged at 1 s, away for 0.5 s; the microphone tries again every second.
        let (r, _) = try Self.takeWithFakeMicrophone("alsa-unplug", fields: "vanish_at 48000  vanish_frames 24000", seconds: 4) { r in
            #expect(r.wait(for: "error", timeout: 4) != nil, "no error when the microphone went")
        }
        guard case let .error(code, message)? = r.events.first(where: { $0.name == "error" }) else { Issue.record("\(r.rawLines)"); return }
        #expect(code == .microphoneUnavailable && message.contains("recording silence"), "\(message)")
        #expect(r.said("microphone kiosk_fake_mic is back"), "\(r.stderr)")
    }

    @Test("the out-of-the-box microphone (ALSA's default: PulseAudio here, its null sink's monitor): the take has its sound",
          .enabled(if: TestEnvironment.isCI || TestEnvironment.pulseAnswers, "needs a PulseAudio server (Tests/KioskCaptureTests/audio/start-pulse)"))
    func defaultMicrophone() throws {
        let folder = try testFolder("default-mic")
        let output = folder.appendingPathComponent("take.mov").path
        // No --microphone: the default, as kiosk/run and the systemd unit start it.
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--windowed", "800x480", "--countdown", "0", "--output", output])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines) \(r.stderr)")
        #expect(r.waitRecorded(2))
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        #expect(!r.events.contains { $0.name == "error" }, "\(r.rawLines) \(r.stderr)")
        #expect(try ffprobe(output, "stream=codec_name") == "h264\naac")
        let video = try #require(Double(try ffprobe(output, "stream=duration", stream: "v:0")))
        let audio = try #require(Double(try ffprobe(output, "stream=duration", stream: "a:0")))
        #expect(video > 1.5 && abs(video - audio) < 0.1, "picture \(video) s, sound \(audio) s")
    }

    @Test("a microphone that will not open: an error that says so, and the take is recorded without sound")
    func microphoneMissing() throws {
        let folder = try testFolder("no-mic")
        let output = folder.appendingPathComponent("take.mov").path
        // A PCM name no configuration defines: snd_pcm_open fails, as for an unplugged USB microphone.
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "kiosk_no_such_pcm", "--windowed", "800x480", "--countdown", "0", "--output", output])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines)")
        #expect(r.waitRecorded(1))
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        let error = r.events.first { $0.name == "error" }
        guard case let .error(code, message)? = error else { Issue.record("no error event: \(r.rawLines)"); return }
        #expect(code == .microphoneUnavailable && message.contains("kiosk_no_such_pcm") && message.contains("without sound"), "\(message)")
        #expect(try ffprobe(output, "stream=codec_name") == "h264")
        #expect(try decodesCleanly(output))
    }

    @Test("a full disk (20 MiB tmpfs) stops the take with diskFull and the booth still answers", needsFakeCamera)
    func diskFull() throws {
        let folder = try testFolder("diskfull")
        let mount = try runProgram(["mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", folder.path], stdout: .inherit, stderr: .inherit)
        try #require(mount.status == 0)
        defer { _ = try? runProgram(["umount", folder.path], stdout: .inherit, stderr: .inherit) }
        // Another file took most of the disk; the booth must keep all but 40 KiB of the rest free,
        // so the take (the test pattern needs about 10 KiB a second) ends within a few seconds.
        try Data(count: 16 * 1024 * 1024).write(to: folder.appendingPathComponent("other-file"))
        let free = try #require(try FileManager.default.attributesOfFileSystem(forPath: folder.path)[.systemFreeSize] as? Int64)
        let output = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(booth + ["--output", output, "--size", "1280x720", "--min-free-disk", "\(free - 40 * 1024)"])
        #expect(r.wait(for: "ready") != nil)
        r.command("start")
        #expect(r.wait(for: "recordingFinished", timeout: 20) != nil, "\(r.names)")
        guard case let .recordingFinished(result) = r.events.last else { Issue.record("no result"); return }
        #expect(result.reason == .diskFull && result.success)
        #expect(try decodesCleanly(output))
        r.command("state")
        #expect(r.wait(for: "state", timeout: 2) != nil, "the booth answers after a full disk")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}

extension EndToEndTests {
    @Test("a 720p MJPEG-only USB camera (the fake camera): decoded, previewed and recorded; the file is 1280x720 H.264 with every frame (or the drop counted)", needsFakeCamera)
    func mjpegCamera() throws {
        let folder = try testFolder("mjpeg")
        // What most USB 2 webcams offer at 720p30: MJPEG only.
        let device = try fakeCamera(in: folder, "card=Booth Cam\nformat=YUYV 640x480@30\nformat=MJPG 1280x720@30\n")
        let output = folder.appendingPathComponent("take.mp4").path
        let r = try RecorderProcess(["--camera", device, "--size", "1280x720", "--microphone", "test", "--windowed", "800x480", "--countdown", "0",
                                     "--output", output])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        guard case let .ready(camera, width, height, fps, _, _, _)? = r.events.first else { Issue.record("\(r.rawLines)"); return }
        #expect(camera == device && width == 1280 && height == 720 && fps == 30)
        r.command("start")
        let started = try #require(r.wait(for: "recordingStarted"))
        #expect(r.waitRecorded(3))
        r.command("stop")
        let finished = try #require(r.wait(for: "recordingFinished"))
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        guard case let .recordingFinished(result)? = r.events.first(where: { $0.name == "recordingFinished" }) else { return }
        #expect(result.success && result.duration > 2.9 && result.duration < finished - started + 1, "\(result.duration) s")
        #expect(try ffprobe(output, "stream=codec_name,width,height,pix_fmt", stream: "v:0") == "h264\n1280\n720\nyuv420p")
        let counted = try runProgram(["ffprobe", "-v", "error", "-count_packets", "-select_streams", "v:0",
                                      "-show_entries", "stream=nb_read_packets", "-of", "default=nw=1:nk=1", output])
        let frames = try #require(Int(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        // Every frame of the take is in the file, or counted as dropped or skipped (a machine busier
        // than a booth's may drop a few, or step the rate down evenly, issue 35; here it does neither
        // when the machine is otherwise idle).
        #expect(abs(Double(frames + result.droppedFrames + result.skippedFrames) - result.duration * 30) <= 2,
                "\(frames) frames + \(result.droppedFrames) dropped + \(result.skippedFrames) skipped in \(result.duration) s")
        #expect(result.droppedFrames * 10 <= frames, "\(result.droppedFrames) frames dropped")
        #expect(try decodesCleanly(output))
    }

    @Test("a camera unplugged while recording: the take stops with deviceDisconnected and plays; the camera comes back", needsFakeCamera)
    func unplugged() throws {
        let folder = try testFolder("unplug")
        let device = try fakeCamera(in: folder, "format=YUYV 352x288@30\nfail_after=75\nunplug_ms=1500\n")
        let r = try RecorderProcess(["--camera", device, "--size", "352x288", "--microphone", "test", "--windowed", "800x480", "--countdown", "0",
                                     "--output", folder.appendingPathComponent("take.mov").path])
        #expect(r.wait(for: "ready") != nil)
        r.command("start")
        #expect(r.wait(for: "recordingFinished", timeout: 8) != nil, "\(r.names) \(r.stderr)")
        guard case let .recordingFinished(result) = r.events.last else { Issue.record("no result"); return }
        #expect(result.reason == .deviceDisconnected && result.success)
        #expect(try decodesCleanly(result.outputPath))
        #expect(r.events.contains { if case .error(.cameraUnavailable, _) = $0 { true } else { false } })
        // Retake: back to ready, and the camera, answering again, gives Start back.
        r.command("retake")
        #expect(r.waitForState(.state(mode: "ready", timer: "00:00", buttons: [.cancel, .start], orientation: .landscapeRight)))
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
