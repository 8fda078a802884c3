// The booth's rules that once needed the binary and real seconds, on the embedded booth: twins of
// its devices and workers, its loop on a clock the test moves. What a guest meets over minutes (a
// 20-minute take's time left, silence) passes in a few steps; what a service manager does (SIGTSTP,
// a camera lost and switched) is sent as the signal or the device's report.
import Foundation
import KioskBooth
import KioskContract
import KioskCore
import Testing

@Suite("the embedded booth: its rules on virtual time", .serialized)
struct EmbeddedRulesTests {
    static func decoded(_ h: BoothHarness) -> [KioskEvent] { VirtualTimeTests.decoded(h) }

    /// The booth's answer to `state`, asked after a turn that took the writer's measures as they are now.
    static func state(_ h: BoothHarness) -> (timer: String, remaining: Double?)? {
        h.turn()
        let asked = h.events.names.filter { $0 == "state" }.count
        h.send(.state)
        guard h.step(until: { h.events.names.filter { $0 == "state" }.count > asked }) else { return nil }
        guard case let .state(_, timer, _, _, remaining, _, _, _, _, _, _)? = decoded(h).last(where: { $0.name == "state" }) else { return nil }
        return (timer, remaining)
    }

    @Test("SIGTSTP mid-take: the take stops as on background and is kept; the process stops only once the writer said it is safe; Retake and SIGCONT bring the camera back")
    func terminalStop() throws {
        let h = BoothHarness()
        #expect(h.startTake())
        let writer = try #require(h.writer)
        writer.finishesOnStop.withLock { $0 = false }
        h.booth.inbox.post(.signal(SIGTSTP))
        #expect(h.step(until: { writer.stops == [.background] }))
        for _ in 0..<20 { h.turn() }
        #expect(h.processStops.withLock { $0 } == 0, "not while the take is still being written")
        writer.finish(.background)
        #expect(h.step(until: { h.processStops.withLock { $0 } == 1 }))
        #expect(h.events.names == ["ready", "recordingStarted", "recordingFinished"], "recordingFinished out before the stop")
        for _ in 0..<10 { h.turn() }
        #expect(h.processStops.withLock { $0 } == 1, "stopped once")
        #expect(h.step(until: { h.camera.stops == 1 }))
        h.send(.press(.retake))
        h.booth.inbox.post(.signal(SIGCONT))
        #expect(h.step(until: { h.camera.starts == 2 }), "the camera back after SIGCONT")
    }

    @Test("SIGTSTP in ready: the process stops at once (nothing to make safe)")
    func terminalStopInReady() {
        let h = BoothHarness()
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        h.booth.inbox.post(.signal(SIGTSTP))
        #expect(h.step(until: { h.processStops.withLock { $0 } == 1 }))
    }

    @Test("the camera lost in ready, then the switch: the next camera opens, cameraChanged, Start records from it")
    func switchOverLostCamera() throws {
        let h = BoothHarness(cameras: 2)
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        h.camera.lose()
        #expect(h.step(until: { h.events.names.contains("error") }))
        guard case let .error(code, _)? = Self.decoded(h).last else { throw CocoaError(.featureUnsupported) }
        #expect(code == .cameraUnavailable)
        #expect(h.step(until: { !h.booth.machine.visibleButtons.contains(.start) }), "no Start without a camera")
        h.send(.press(.switchCamera))
        #expect(h.step(until: { h.events.names.contains("cameraChanged") }), "\(h.events.names)")
        guard case let .cameraChanged(camera, _, _, _)? = Self.decoded(h).first(where: { $0.name == "cameraChanged" }) else { return }
        #expect(camera == "twin1")
        #expect(h.moreCameras[0].starts == 1)
        #expect(h.step(until: { h.booth.machine.visibleButtons.contains(.start) }), "Start back with the new camera")
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.contains("recordingStarted") }))
    }

    @Test("the switch when the other camera cannot open: passed over, the camera in use stays and no cameraChanged")
    func switchToUnpluggedCamera() {
        let h = BoothHarness(cameras: 2)
        h.moreCameras[0].failsToStart.withLock { $0 = true }
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        h.send(.press(.switchCamera))
        #expect(h.step(until: { !h.booth.machine.cameraSwitching && h.camera.starts == 2 }), "the first camera started again")
        for _ in 0..<10 { h.turn() }
        #expect(!h.events.names.contains("cameraChanged"))
        #expect(h.booth.machine.visibleButtons.contains(.start))
    }

    @Test("silence in a take on virtual time: sound, then 2.9 s of silence says nothing; at 3 s microphoneSilent, once; sound and 3 s more say it again")
    func silence() throws {
        let clock = VirtualClock()
        let h = BoothHarness(clock: clock) { $0.capture.microphone = .test }
        #expect(h.startTake())
        let microphone = try #require(h.microphone)
        microphone.send(peak: 8000)
        h.turn()
        var silent: Int { h.events.names.filter { $0 == "microphoneSilent" }.count }
        for _ in 0..<29 {
            clock.advance(seconds: 0.1)
            microphone.send(peak: 0)
            h.turn()
        }
        #expect(silent == 0, "2.9 s of silence")
        clock.advance(seconds: 0.15)
        microphone.send(peak: 0)
        #expect(h.step(until: { silent == 1 }), "\(h.events.names)")
        clock.advance(seconds: 10)
        for _ in 0..<10 { h.turn() }
        #expect(silent == 1, "said once")
        microphone.send(peak: 8000)
        h.turn()
        clock.advance(seconds: 3.1)
        #expect(h.step(until: { silent == 2 }), "quiet again after sound")
    }

    @Test("a 20-minute take's time left: the duration's, then the room the size cap or the free disk leaves at the take's rate; the timer counts down within the warning")
    func timeLeft() throws {
        let h = BoothHarness(configure: { $0.limits.maxDuration = 1200 })
        #expect(h.startTake())
        let writer = try #require(h.writer)
        writer.measured.withLock { $0 = (0.5, 100_000, Int64.max) }
        #expect(Self.state(h)?.remaining == 1199.5)
        // Minutes of the take in a few turns: the duration's time left, counted up on the timer.
        writer.measured.withLock { $0 = (600, 60_000_000, Int64.max) }
        let half = try #require(Self.state(h))
        #expect(half.remaining == 600 && half.timer == "10:00", "\(half)")
        writer.measured.withLock { $0 = (1195, 119_500_000, Int64.max) }
        let near = try #require(Self.state(h))
        #expect(near.remaining == 5 && near.timer == "00:05", "within the warning the timer counts down: \(near)")
        #expect(h.events.names.contains("recordingStarted") && !h.events.names.contains("recordingFinished"))
    }

    @Test("a take near a size cap or a full disk: once the rate is known (whole seconds), the time left is the room at that rate, below the duration's")
    func timeLeftByRoom() throws {
        let h = BoothHarness(configure: { $0.limits.maxDuration = 1200 })
        #expect(h.startTake())
        let writer = try #require(h.writer)
        // 200 kB a second, with 1.8 MB of room left: 9 s, far below the 1,196 s the duration leaves (and
        // within the 10 s warning, so the timer counts it down).
        for (elapsed, written) in [(0.5, 100_000), (1.5, 300_000), (2.5, 500_000), (3.5, 700_000)] as [(Double, Int64)] {
            writer.measured.withLock { $0 = (elapsed, written, 1_800_000) }
            h.turn()
        }
        let state = try #require(Self.state(h))
        #expect(state.remaining == 9 && state.timer == "00:09", "\(state)")
        // The disk freed: more room is said at once.
        writer.measured.withLock { $0 = (4.5, 900_000, 4_000_000) }
        h.turn()
        #expect(Self.state(h)?.remaining == 20)
    }
}

extension EmbeddedRulesTests {
    /// The share screen's address drawn last (nil: no share screen).
    static func shareShown(_ h: BoothHarness) -> String? { h.screen.rendered.last??.share?.url }

    @Test("photos mid-take with --share-dir: each announced at once, their codes wait for ready and show one at a time, each for --share-seconds of virtual time (Done ends one early)")
    func photoCodes() throws {
        let clock = VirtualClock()
        let h = BoothHarness(session: .loop, clock: clock, configure: { config in
            config.screen.photoButton = true
            config.share.folder = NSTemporaryDirectory() + "kiosk-share-\(getpid())-\(UUID().uuidString.prefix(8))"
            config.share.urlTemplate = "http://booth.local/s/{token}/"
            config.share.seconds = 20
        })
        #expect(h.startTake())
        var links: [(url: String, path: String?)] {
            Self.decoded(h).compactMap { if case let .takeShared(url, _, _, path) = $0 { (url, path) } else { nil } }
        }
        for n in 1...2 {
            h.send(.press(.photo))
            h.turn()
            h.camera.send(sequence: UInt32(n))
            #expect(h.step(until: { links.count == n }), "photo \(n): \(h.events.names)")
        }
        #expect(links.allSatisfy { $0.path?.hasSuffix(".jpg") == true })
        for _ in 0..<10 { h.turn() }
        #expect(h.booth.machine.mode == .recording && Self.shareShown(h) == nil, "no code over the take")
        h.send(.press(.stop))
        #expect(h.step(until: { h.booth.machine.mode == .finished }))
        for _ in 0..<10 { h.turn() }
        #expect(Self.shareShown(h) == nil, "nor over its review")
        h.send(.press(.retake))
        #expect(h.step(until: { Self.shareShown(h) == links[0].url }), "the first photo's code once in ready")
        clock.advance(seconds: 19)
        for _ in 0..<10 { h.turn() }
        #expect(Self.shareShown(h) == links[0].url, "still at 19 s")
        clock.advance(seconds: 1.5)
        #expect(h.step(until: { Self.shareShown(h) == links[1].url }), "then the second's")
        h.send(.press(.done))
        #expect(h.step(until: { h.booth.machine.mode == .ready }))
        for _ in 0..<10 { h.turn() }
        #expect(Self.shareShown(h) == nil, "every code shown once")
    }

    @Test("the attract screen after --attract-after of virtual time untouched; a press on it only wakes it, the next press starts")
    func attract() {
        let clock = VirtualClock()
        let h = BoothHarness(clock: clock, configure: { $0.guest.attractAfter = 30 })
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        clock.advance(seconds: 29)
        for _ in 0..<10 { h.turn() }
        #expect(h.screen.rendered.last??.attract == nil, "not at 29 s")
        clock.advance(seconds: 1.5)
        #expect(h.step(until: { h.screen.rendered.last??.attract != nil }))
        h.screen.queuedInputs.append(.press(.start))
        #expect(h.step(until: { h.screen.rendered.last??.attract == nil }))
        for _ in 0..<10 { h.turn() }
        #expect(!h.events.names.contains("recordingStarted"), "the wake pressed nothing")
        h.screen.queuedInputs.append(.press(.start))
        #expect(h.step(until: { h.events.names.contains("recordingStarted") }))
    }

    @Test("SIGHUP in ready: applied at once (its limits, preview and prompt), the next take has them; a second SIGHUP with a bad line is refused and changes nothing")
    func reloadInReady() throws {
        let h = BoothHarness(configFile: "max-duration = 10\n")
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        h.configText.withLock { $0 = "max-duration = 2.5\nmirror-preview = yes\nprompt = Say hello\n" }
        h.booth.inbox.post(.signal(SIGHUP))
        #expect(h.step(until: { h.booth.config.limits.maxDuration == 2.5 }))
        #expect(h.step(until: { h.screen.rendered.last??.prompt == "Say hello" }))
        #expect(h.screen.preview.mirror)
        h.configText.withLock { $0 = "max-duration = soon\n" }
        h.booth.inbox.post(.signal(SIGHUP))
        #expect(h.step(until: { h.events.names.contains("error") }))
        #expect(h.booth.config.limits.maxDuration == 2.5, "the running settings kept")
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.contains("recordingStarted") }))
        #expect(try #require(h.writer).settings.maxDuration == 2.5)
    }

    @Test("the attract screen's slideshow: past --attract-after of virtual time the accepted take plays, silent, under the attract screen; a touch stops it")
    func slideshow() throws {
        let movie = try BoothPlaybackTests().movie()
        defer { try? FileManager.default.removeItem(atPath: movie) }
        let clock = VirtualClock()
        let h = BoothHarness(session: .loop, clock: clock, takeFolder: true, configure: { config in
            config.guest.attractAfter = 30
            config.guest.attractSlideshow = true
        })
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        #expect(h.startTake())
        let path = try #require(h.writer?.settings.outputPath)
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: movie, toPath: path)
        h.send(.press(.stop))
        #expect(h.step(until: { h.booth.machine.mode == .finished }))
        h.send(.press(.useVideo))
        #expect(h.step(until: { h.booth.machine.mode == .ready && h.events.names.last == "videoRecorderDidFinishRecordingVideoWithOutputPath" }))
        for _ in 0..<20 { h.turn() }
        #expect(h.screen.playbackPictures == 0, "nothing plays before the attract screen")
        clock.advance(seconds: 31)
        #expect(h.step(until: { h.screen.playbackPictures >= 3 }, threads: true), "the take plays")
        #expect(h.screen.rendered.last??.attract != nil, "under the attract screen")
        #expect(h.audio.attached == 0, "silent")
        h.screen.queuedInputs.append(.tapElsewhere(Point(x: 5, y: 5)))
        #expect(h.step(until: { h.screen.rendered.last??.attract == nil }))
        let shown = h.screen.playbackPictures
        for _ in 0..<30 { h.turn() }
        #expect(h.screen.playbackPictures == shown, "stopped by the touch")
    }
}

extension EmbeddedRulesTests {
    @Test("the guestbook's question on screen: large in ready (under the prompt: both show) and the countdown, in the band while recording; the take's writer gets it as the file's title; Use Video brings the next")
    func question() throws {
        let h = BoothHarness(session: .loop, configure: { config in
            config.guest.questions = QuestionList(path: "q.txt", lines: ["One?", "Two?"])
            config.screen.prompt = "Hello"
        })
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        #expect(h.step(until: { h.screen.rendered.last??.question?.text == "One?" }))
        #expect(h.screen.rendered.last??.question?.large == true && h.screen.rendered.last??.prompt == "Hello")
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.contains("recordingStarted") }))
        #expect(h.step(until: { h.screen.rendered.last??.question.map { !$0.large } == true }), "in the band while recording")
        #expect(h.screen.rendered.last??.prompt == nil, "the prompt only in ready")
        #expect(try #require(h.writer).settings.title == "One?")
        if let path = h.writer?.settings.outputPath { _ = FileManager.default.createFile(atPath: path, contents: Data("take".utf8)) }
        h.send(.press(.stop))
        #expect(h.step(until: { h.booth.machine.mode == .finished }))
        #expect(h.screen.rendered.last??.question == nil, "not over the review")
        h.send(.press(.useVideo))
        #expect(h.step(until: { h.screen.rendered.last??.question?.text == "Two?" }))
    }
}
