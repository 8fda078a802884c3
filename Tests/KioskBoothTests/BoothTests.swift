// The booth library driven through every action of the machine with twins at its boundary: what
// it drew, played, opened and emitted, and on which thread.
import Foundation
import KioskBooth
import KioskCapture
import KioskContract
import KioskCore
import KioskSystem
import Testing

@Suite("the booth library, with twins", .serialized)
struct BoothTests {
    @Test("start: the camera starts, ready goes out, the ready screen is drawn")
    func start() {
        let h = BoothHarness()
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        h.turn()
        #expect(h.camera.starts == 1)
        #expect(h.screen.rendered.last??.mode == .ready)
        #expect(h.screen.rendered.last??.buttons == [.cancel, .start])
    }

    @Test("the control socket: a client's lines become commands in the one inbox, read as stdin's; every event goes to it too")
    func controlSocket() throws {
        let path = NSTemporaryDirectory() + "kiosk-booth-\(getpid()).sock"
        let server = try ControlServer(path: path, log: { _ in })
        defer { server.close() }
        let h = BoothHarness(events: StdoutTwin(copies: { server.broadcast($0) }))
        try h.booth.serveControl(server)
        let client = try ControlClient(path: path)
        #expect(h.step(until: { server.clientCount == 1 }, threads: true))
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        try client.send(line: #"{"command":"state"}"#)
        try client.send(line: "nonsense\n\n" + String(repeating: "x", count: 70_000))
        try client.send(line: #"{"command":"start"}"#)
        #expect(h.step(until: { h.events.names == ["ready", "state", "error", "error", "recordingStarted"] }, threads: true), "\(h.events.names)")
        var lines: [String] = []
        while lines.count < 5, case let .line(line) = client.receive(until: MonotonicClock.now() + 5_000_000_000) { lines.append(line) }
        #expect(lines == h.events.received)
        #expect(lines.filter { $0.contains(#""code":"badCommand""#) }.count == 2)
        #expect(h.writerCount == 1)
    }

    @Test("a take: opened off the UI thread, the begin sound once it runs, frames to the writer, Stop, the end sound, Use Video, exit")
    func take() throws {
        let h = BoothHarness()
        #expect(h.startTake())
        let writer = try #require(h.writer)
        #expect(writer.startedOnUIThread == false, "the writer opens on the file worker")
        #expect(h.microphone?.log.map(\.0) == ["start"])
        #expect(h.microphone?.log.first?.1 == false, "the microphone opens on the file worker")
        #expect(h.audio.played == [.begin])
        for n in 1...5 { h.camera.send(sequence: UInt32(n)) }
        #expect(writer.frames == 5)
        h.send(.press(.stop))
        #expect(h.step(until: { h.events.names.contains("recordingFinished") }))
        #expect(writer.stops == [.user])
        #expect(h.audio.played == [.begin, .end])
        #expect(h.booth.machine.mode == .finished)
        #expect(h.step(until: { h.microphone?.log.map(\.0) == ["start", "stop"] }))
        #expect(h.microphone?.log.last?.1 == false, "the microphone closes on the file worker")
        // The frozen frame: frames no longer reach the screen.
        let shown = h.screen.framesShown
        h.camera.send(sequence: 6)
        h.turn()
        #expect(h.screen.framesShown == shown)
        h.send(.press(.useVideo))
        #expect(h.step(until: { h.booth.isFinished }))
        #expect(h.booth.finish() == 0)
        #expect(h.events.names == ["ready", "recordingStarted", "recordingFinished", "videoRecorderDidFinishRecordingVideoWithOutputPath"])
    }

    @Test("a take that fails to start: an error, no begin sound, the microphone closed, back to ready")
    func failedStart() {
        let h = BoothHarness(start: .fail)
        h.booth.start()
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.contains("error") }))
        #expect(h.step(until: { h.booth.machine.mode == .ready }))
        #expect(h.audio.played.isEmpty, "no begin sound for a take that never started")
        #expect(h.microphone?.log.map(\.0) == ["start", "stop"])
        #expect(h.events.received.last?.contains("twin: avcodec_open2 failed") == true)
        #expect(h.booth.machine.visibleButtons == [.cancel, .start])
    }

    @Test("a microphone that will not open: an error, and the take records without sound")
    func microphoneFails() throws {
        let h = BoothHarness(microphoneFails: true)
        #expect(h.startTake())
        #expect(h.events.names == ["ready", "error", "recordingStarted"])
        #expect(try #require(h.writer).settings.audio == nil)
    }

    @Test("the writer finishing by itself (a limit) lands in finished with its reason")
    func writerFinishesItself() throws {
        let h = BoothHarness()
        #expect(h.startTake())
        try #require(h.writer).finish(.maxDuration)
        #expect(h.step(until: { h.events.names.contains("recordingFinished") }))
        #expect(h.booth.machine.mode == .finished)
        #expect(h.events.received.last?.contains("\"reason\":\"maxDuration\"") == true)
        #expect(h.audio.played == [.begin, .end])
    }

    @Test("a slow disk: storageSlow once a take when a sync has waited 2 s; after Stop the guest sees Saving only once the take has taken half a second to finish")
    func slowDisk() throws {
        let h = BoothHarness()
        #expect(h.startTake())
        let writer = try #require(h.writer)
        writer.finishesOnStop.withLock { $0 = false }
        // A sync running 1.9 s while recording: not yet slow.
        writer.disk.withLock { $0 = (nil, 1.9) }
        for _ in 0..<5 { h.turn() }
        #expect(!h.events.names.contains("error"))
        writer.disk.withLock { $0 = (nil, 2.0) }
        #expect(h.step(until: { h.events.names.contains("error") }))
        #expect(h.events.received.last?.contains(#""code":"storageSlow""#) == true, "\(h.events.received)")
        #expect(h.events.received.last?.contains("the take goes on") == true)
        #expect(h.screen.rendered.last??.message == nil, "the guest is not told while recording")
        h.send(.press(.stop))
        #expect(h.step(until: { writer.stops == [.user] }))
        // Stopped, finishing 0.4 s: no words yet (a quick end never flashes them).
        writer.disk.withLock { $0 = (0.4, 3.0) }
        for _ in 0..<5 { h.turn() }
        #expect(h.screen.rendered.last??.message == nil && h.booth.machine.mode == .recording)
        writer.disk.withLock { $0 = (0.5, 3.1) }
        #expect(h.step(until: { h.screen.rendered.last??.message == .saving }))
        #expect(h.booth.machine.visibleButtons.isEmpty)
        // Said once a take.
        #expect(h.events.names.filter { $0 == "error" }.count == 1)
        writer.disk.withLock { $0 = (nil, nil) }
        writer.finish(.user)
        #expect(h.step(until: { h.booth.machine.mode == .finished }))
        #expect(h.screen.rendered.last??.message == nil)
        // The next take is told again.
        h.send(.press(.retake))
        #expect(h.step(until: { h.booth.machine.mode == .ready }))
        h.send(.press(.start))
        #expect(h.step(until: { h.writerCount == 2 && h.events.names.filter { $0 == "recordingStarted" }.count == 2 }))
        let next = try #require(h.writer)
        next.disk.withLock { $0 = (nil, 2.5) }
        #expect(h.step(until: { h.events.names.filter { $0 == "error" }.count == 2 }))
    }

    @Test("an encoder behind while recording: the preview draws at most 10 pictures a second and every picture still goes to the take; caught up, it draws every picture again")
    func previewYieldsToEncoder() throws {
        let h = BoothHarness()
        #expect(h.startTake())
        let writer = try #require(h.writer)
        var sequence: UInt32 = 0
        let clock = try #require(h.clock)
        /// Sends a picture every 10 ms (of the booth's clock) for `seconds`, a loop turn after each;
        /// how many were drawn.
        func feed(seconds: Double) -> (sent: Int, drawn: Int) {
            let shown = h.screen.framesShown
            let sent = Int((seconds * 100).rounded())
            for _ in 0..<sent {
                sequence += 1
                h.camera.send(sequence: sequence)
                h.turn()
                clock.advance(seconds: 0.01)
            }
            return (sent, h.screen.framesShown - shown)
        }
        // Keeping up (one picture waiting at most): every picture drawn.
        writer.waiting.withLock { $0 = 1 }
        let keeping = feed(seconds: 0.3)
        #expect(keeping.drawn == keeping.sent, "\(keeping)")
        // Behind (two waiting): one picture a tenth of a second, still some (the picture lives).
        writer.waiting.withLock { $0 = 2 }
        let behind = feed(seconds: 0.6)
        #expect(behind.drawn <= 7 && behind.drawn >= 2, "\(behind)")
        #expect(behind.sent > 2 * behind.drawn, "\(behind)")
        // Caught up: every picture again.
        writer.waiting.withLock { $0 = 0 }
        let again = feed(seconds: 0.2)
        #expect(again.drawn == again.sent, "\(again)")
        // The take had every picture all along.
        #expect(writer.frames == keeping.sent + behind.sent + again.sent)
    }

    @Test("the camera lost while recording: an error, the take stops with deviceDisconnected, the preview cleared")
    func cameraLost() throws {
        let h = BoothHarness()
        #expect(h.startTake())
        h.camera.lose()
        #expect(h.step(until: { h.events.names.contains("recordingFinished") }))
        #expect(try #require(h.writer).stops == [.deviceDisconnected])
        #expect(h.events.names == ["ready", "recordingStarted", "error", "recordingFinished"])
        #expect(h.screen.cleared == 1)
    }

    @Test("SIGTERM while recording: the take finishes, terminated, exit 0")
    func sigterm() throws {
        let h = BoothHarness()
        #expect(h.startTake())
        h.booth.inbox.post(.signal(SIGTERM))
        #expect(h.step(until: { h.booth.isFinished }))
        #expect(try #require(h.writer).stops == [.signal])
        #expect(h.booth.finish() == 0)
        #expect(h.events.names == ["ready", "recordingStarted", "recordingFinished", "terminated"])
    }

    @Test("SIGUSR1 while recording stops and keeps the take (background); SIGUSR2 brings the camera back")
    func background() throws {
        let h = BoothHarness()
        #expect(h.startTake())
        h.booth.inbox.post(.signal(SIGUSR1))
        #expect(h.step(until: { h.booth.machine.mode == .finished }))
        #expect(try #require(h.writer).stops == [.background])
        #expect(h.step(until: { h.camera.stops == 1 }), "the camera is released (on its worker)")
        h.send(.press(.retake))
        h.booth.inbox.post(.signal(SIGUSR2))
        #expect(h.step(until: { h.camera.starts == 2 }))
    }

    @Test("SIGHUP: read off the UI thread; held during a take, then in force for the next: its limits, encoder, microphone and preview")
    func reload() throws {
        let h = BoothHarness(configFile: "max-duration = 10\nmicrophone = test\n")
        #expect(h.startTake())
        h.configText.withLock { $0 = "max-duration = 1.5\nmicrophone = none\nvideo-crf = 30\nmirror-preview = yes\ncamera-rotation = 90\npreview-fit = fit\n" }
        h.booth.inbox.post(.signal(SIGHUP))
        #expect(h.step(until: { h.booth.machine.pendingSettings != nil }))
        #expect(h.booth.config.limits.maxDuration == 10, "held while the take runs")
        try #require(h.writer).finish(.user)
        #expect(h.step(until: { h.booth.machine.mode == .finished }))
        h.send(.press(.retake))
        #expect(h.step(until: { h.booth.machine.mode == .ready && h.booth.config.limits.maxDuration == 1.5 }))
        #expect(h.screen.preview == (mirror: true, cameraMount: 1, fit: .fit))
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.filter { $0 == "recordingStarted" }.count == 2 }))
        let settings = try #require(h.writer).settings
        #expect(settings.maxDuration == 1.5 && settings.crf == 30)
        #expect(h.microphonesChosen == [.test, .none])
        #expect(!h.events.names.contains("error"))
    }

    @Test("SIGHUP with a bad config or a changed output: badConfig, the running settings kept, the booth goes on")
    func reloadRefused() throws {
        let h = BoothHarness(configFile: "max-duration = 10\n")
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        for (text, named) in [("max-duration = 1.5\nfps = many\n", "booth.conf:2: fps: 'many'"),
                              ("max-duration = 1.5\noutput = /tmp/elsewhere.mov\n", "output cannot change while the booth runs")] {
            h.configText.withLock { $0 = text }
            h.booth.inbox.post(.signal(SIGHUP))
            let count = h.events.names.count
            #expect(h.step(until: { h.events.names.count > count }))
            let line = try #require(h.events.received.last)
            #expect(line.contains(#""code":"badConfig""#) && line.contains(named), "\(line)")
            #expect(h.booth.config.limits.maxDuration == 10 && h.booth.machine.pendingSettings == nil)
        }
        h.send(.state)
        #expect(h.step(until: { h.events.names.last == "state" }))
        #expect(!h.booth.isFinished)
    }

    @Test("SIGHUP without --config: ignored, the booth goes on")
    func reloadWithoutConfig() {
        let h = BoothHarness()
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        h.booth.inbox.post(.signal(SIGHUP))
        h.send(.state)
        #expect(h.step(until: { h.events.names.last == "state" }))
        #expect(h.events.names == ["ready", "state"] && !h.booth.isFinished)
    }

    @Test("a signal while the writer still opens: the stop reaches it once it has started, and the booth exits")
    func signalWhileStarting() throws {
        let h = BoothHarness()
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        // The file worker, where the take opens, waits (a slow disk).
        h.executors.hold("kiosk-files")
        h.send(.press(.start))
        h.turn()
        h.booth.inbox.post(.signal(SIGTERM))
        for _ in 0..<20 { h.turn() }
        #expect(!h.booth.isFinished, "the take is still opening")
        #expect(h.writerCount == 0)
        h.executors.hold("kiosk-files", false)
        #expect(h.step(until: { h.booth.isFinished }))
        let writer = try #require(h.writer)
        #expect(writer.stops == [.signal])
        #expect(h.audio.played == [], "no begin sound for a take stopped before it began")
        #expect(h.events.names == ["ready", "recordingStarted", "recordingFinished", "terminated"])
    }

    @Test("stdout not read: the booth goes on (Stop reaches the writer at once), and every event arrives, in order, once read")
    func blockedStdout() throws {
        let stdout = StdoutTwin(reading: false)
        let h = BoothHarness(events: stdout)
        h.booth.start()
        h.send(.press(.start))
        #expect(h.step(until: { h.writer?.startedOnUIThread == false }))
        for _ in 0..<8000 { h.send(.state) } // ~ 1 MB of replies nobody reads
        h.turn()
        #expect(stdout.waitingLines >= 8000)
        h.send(.press(.stop))
        #expect(h.step(until: { h.booth.machine.mode == .finished }))
        #expect(try #require(h.writer).stops == [.user], "Stop reached the writer while stdout was not read")
        stdout.startReading()
        #expect(stdout.names.count == 3 + 8000)
        let names = stdout.names.filter { $0 != "state" }
        #expect(names == ["ready", "recordingStarted", "recordingFinished"])
    }

    @Test("a screenshot to a FIFO nobody reads: the booth goes on, and says the screenshot failed")
    func screenshotFIFO() throws {
        let h = BoothHarness()
        let fifo = h.folder + "/fifo.bmp"
        #expect(mkfifo(fifo, 0o600) == 0)
        h.booth.start()
        h.send(.screenshot(path: fifo))
        #expect(h.step(until: { h.events.names.contains("error") }))
        #expect(h.events.received.last?.contains("screenshotFailed") == true)
        let file = h.folder + "/shot.bmp"
        h.send(.screenshot(path: file))
        #expect(h.step(until: { FileManager.default.fileExists(atPath: file) && ((try? Data(contentsOf: URL(fileURLWithPath: file)))?.count ?? 0) == 70 }))
        let bmp = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(bmp.prefix(2) == Data("BM".utf8))
        // Bottom-up rows, BGR: the first pixel written is (0,1), 0x00ff00 → 00 ff 00.
        #expect(Array(bmp[54..<57]) == [0x00, 0xff, 0x00])
    }

    @Test("Retake and Start again: the old take is discarded on the file worker before the new one opens")
    func retake() throws {
        let h = BoothHarness()
        #expect(h.startTake())
        _ = FileManager.default.createFile(atPath: h.booth.outputPath, contents: Data("old".utf8))
        h.send(.press(.stop))
        #expect(h.step(until: { h.booth.machine.mode == .finished }))
        h.send(.press(.retake))
        #expect(h.step(until: { !FileManager.default.fileExists(atPath: h.booth.outputPath) }))
        h.send(.press(.start))
        #expect(h.step(until: { h.writerCount == 2 && h.events.names.filter { $0 == "recordingStarted" }.count == 2 }))
        #expect(h.camera.starts == 2)
    }

    @Test("loop session: Use Video hands the take over on the file worker and the booth is ready again")
    func loopHandOver() throws {
        let h = BoothHarness(session: .loop)
        #expect(h.startTake())
        _ = FileManager.default.createFile(atPath: h.booth.outputPath, contents: Data("take".utf8))
        h.send(.press(.stop))
        #expect(h.step(until: { h.booth.machine.mode == .finished }))
        h.send(.press(.useVideo))
        #expect(h.step(until: { h.events.names.last == "videoRecorderDidFinishRecordingVideoWithOutputPath" }))
        let line = try #require(h.events.received.last)
        let path = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["outputPath"] as? String)
        #expect(path != h.booth.outputPath)
        #expect(FileManager.default.contents(atPath: path) == Data("take".utf8))
        #expect(h.booth.machine.mode == .ready)
        #expect(!h.booth.isFinished)
    }

    @Test("cancel in ready: the cancel event and exit; a refused command is an error and changes nothing")
    func cancel() {
        let h = BoothHarness()
        h.booth.start()
        h.send(.press(.stop))
        h.send(.press(.cancel))
        #expect(h.step(until: { h.booth.isFinished }))
        #expect(h.events.names == ["ready", "error", "videoRecorderDidCancelRecordingVideo"])
    }

    @Test("the machine about to sleep mid-take: the take stops as on background and is kept, the inhibitor goes only once the writer reported it safe; the resume takes it again and brings the camera back")
    func systemSleepMidTake() throws {
        let h = BoothHarness()
        let sleep = SleepTwin()
        h.booth.sleepInhibitor = sleep
        #expect(h.startTake())
        h.booth.inbox.post(.input(.service(.sleep(true))))
        // One turn: the stop reaches the writer; its report comes back through the inbox next turn.
        h.turn()
        #expect(try #require(h.writer).stops == [.background])
        #expect(h.booth.machine.mode == .recording)
        #expect(sleep.held, "held while the take is being written")
        #expect(h.step(until: { !sleep.held }))
        #expect(h.booth.machine.mode == .finished, "released in the turn that took the writer's report")
        #expect(h.events.received.last?.contains("\"reason\":\"background\"") == true)
        #expect(h.events.names == ["ready", "recordingStarted", "recordingFinished"])
        #expect(h.step(until: { h.camera.stops == 1 }), "the camera is released, as on background")
        h.send(.press(.retake))
        #expect(h.step(until: { h.booth.machine.mode == .ready }))
        #expect(h.booth.machine.visibleButtons == [.cancel], "no Start while the machine sleeps")
        h.booth.inbox.post(.input(.service(.sleep(false))))
        #expect(h.step(until: { h.camera.starts == 2 }), "the camera is back")
        #expect(sleep.held && sleep.calls == ["release", "reacquire"])
        #expect(h.booth.machine.visibleButtons == [.cancel, .start])
    }

    @Test("the machine about to sleep with nothing recording (before ready, and in ready): the inhibitor goes at once")
    func systemSleepIdle() {
        let h = BoothHarness()
        let sleep = SleepTwin()
        h.booth.sleepInhibitor = sleep
        // Posted before the start: it is in the inbox before the camera's first report.
        h.booth.inbox.post(.input(.service(.sleep(true))))
        h.booth.start()
        h.turn()
        #expect(!sleep.held)
        #expect(h.step(until: { h.events.names == ["ready"] }))
        #expect(h.step(until: { h.booth.machine.visibleButtons == [.cancel] }), "the background follows ready")
        h.booth.inbox.post(.input(.service(.sleep(false))))
        #expect(h.step(until: { sleep.held && h.booth.machine.visibleButtons == [.cancel, .start] }))
        h.booth.inbox.post(.input(.service(.sleep(true))))
        h.turn()
        #expect(!sleep.held, "in ready, in the turn that took the signal")
    }
}

@Suite("the booth library: playing and turning, with twins", .serialized)
struct BoothPlaybackTests {
    /// A 1.5 s H.264 + AAC movie made by the ffmpeg CLI.
    func movie() throws -> String {
        let path = NSTemporaryDirectory() + "kiosk-booth-play-\(getpid())-\(UUID().uuidString.prefix(8)).mp4"
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-f", "lavfi",
                            "-i", "sine=frequency=440:sample_rate=48000", "-t", "1.5", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                            "-c:a", "aac", path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0)
        return path
    }

    /// The player alone on `movie()`, stepped until `pictures` are on screen.
    func player(showing pictures: Int) throws -> BoothHarness {
        let file = try movie()
        let h = BoothHarness(playing: file)
        h.booth.start()
        #expect(h.step(until: { h.screen.playbackPictures >= pictures }))
        return h
    }

    @Test("the player alone: its pictures to the screen, its sound joined to the one output, a tap pauses and resumes, Close stops it and exits")
    func player() throws {
        let h = try player(showing: 5)
        #expect(h.audio.attached == 1, "the player's sound joins the output")
        #expect(h.events.names == ["playbackStarted"])
        h.screen.queuedInputs = [.tapElsewhere(Point(x: 10, y: 10))]
        h.turn()
        #expect(h.booth.machine.playbackPaused)
        let shown = h.screen.playbackPictures
        for _ in 0..<30 { h.turn() }
        #expect(h.screen.playbackPictures == shown, "no new picture while paused")
        h.screen.queuedInputs = [.togglePause]
        h.turn()
        #expect(!h.booth.machine.playbackPaused)
        h.screen.queuedInputs = [.press(.closePlayer)]
        #expect(h.step(until: { h.booth.isFinished }))
        #expect(h.audio.detached == 1, "the output no longer touches the player's feed")
        #expect(h.booth.finish() == 0)
        #expect(h.events.names == ["playbackStarted", "playbackFinished"])
        #expect(h.events.received.last == #"{"event":"playbackFinished","reason":"closed"}"#)
    }

    @Test("the player alone: the file's end exits 0; SIGUSR1 pauses and SIGUSR2 leaves it paused")
    func playerEnd() throws {
        let h = try player(showing: 2)
        h.booth.inbox.post(.signal(SIGUSR1))
        h.booth.inbox.post(.signal(SIGUSR2))
        h.turn()
        #expect(h.booth.machine.playbackPaused)
        h.send(.tap(Point(x: 5, y: 5)))
        #expect(h.step(until: { h.booth.isFinished }))
        #expect(h.booth.finish() == 0)
        #expect(h.events.received.last == #"{"event":"playbackFinished","reason":"end"}"#)
    }

    @Test("a rotation in ready turns the screen and is reported; while recording it waits for ready")
    func rotation() throws {
        let h = BoothHarness()
        h.booth.start()
        h.send(.rotate(.portrait))
        #expect(h.step(until: { h.events.names.contains("orientationChanged") }))
        #expect(h.screen.orientation == .portrait)
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.contains("recordingStarted") }))
        h.send(.rotate(.landscapeLeft))
        for _ in 0..<5 { h.turn() }
        #expect(h.screen.orientation == .portrait, "no turn while recording")
        // The take carries the turn of the orientation it started in.
        let turns = { (o: Orientation) in DisplayTransform(physical: h.screen.outputSize, orientation: o).cameraQuarterTurns(mount: 0) }
        #expect(turns(.portrait) != turns(.landscapeLeft))
        #expect(try #require(h.writer).settings.rotationQuarterTurns == turns(.portrait))
        h.send(.press(.stop))
        #expect(h.step(until: { h.booth.machine.mode == .finished }))
        h.send(.press(.retake))
        #expect(h.step(until: { h.screen.orientation == .landscapeLeft }), "applied on the return to ready")
        #expect(h.events.names.filter { $0 == "orientationChanged" }.count == 2)
    }
}
