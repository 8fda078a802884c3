// Rules the booth's shell used to decide itself, now the core's: the settings the rules read come
// in as an input (a reload's), STOPPING=1 is said once, and which modes show the live picture.
import Testing
@testable import KioskCore
import KioskContract

@Suite("BoothCore: the settings as an input, STOPPING said once, the live modes")
struct BoothCoreShellRulesTests {
    static let second: Int64 = 1_000_000_000

    @Test("settings come in as an input: the idle reset reads the new timeout from the next turn on, and nothing else happens at the input itself")
    func settingsInput() {
        var core = BoothCore(machine: Fixture.finished.make(session: .loop), settings: BoothCore.Settings(idleTimeout: 60, idleAction: .use), now: 0)
        #expect(core.handle(.turn(BoothCore.Turn()), at: 0).isEmpty)
        #expect(core.handle(.settings(BoothCore.Settings(idleTimeout: 10, idleAction: .discard)), at: 1 * Self.second).isEmpty)
        #expect(core.settings.idleTimeout == 10)
        #expect(!core.handle(.turn(BoothCore.Turn()), at: 9 * Self.second).contains(.file(.discard(own: false))))
        let due = core.handle(.turn(BoothCore.Turn()), at: 11 * Self.second)
        #expect(due.contains(.file(.discard(own: false))), "\(due)")
        #expect(due.contains(.log("idle for 10.0 s: the take is reset (idle-action discard)")), "\(due)")
    }

    @Test("STOPPING: said once, with the input that set the machine on its way out, and never again, whatever follows", arguments: [
        RecorderEvent.quit, .terminate(signal: "SIGTERM"), .press(.cancel),
    ])
    func stoppingOnce(leaving: RecorderEvent) {
        var core = BoothCore(machine: RecorderMachine(session: .once, outputPath: "/tmp/x.mov", orientation: .landscapeRight), now: 0)
        _ = core.handle(.start, at: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 0)
        #expect(!core.handle(.turn(BoothCore.Turn()), at: 1).contains(.service(.stopping)))
        let said = core.handle(.event(leaving), at: 2)
        #expect(said.filter { $0 == .service(.stopping) }.count == 1, "\(said)")
        #expect(core.stoppingSaid)
        var later: [BoothCore.Effect] = []
        for at in 3..<10 { later += core.handle(.turn(BoothCore.Turn()), at: Int64(at)) + core.handle(.event(.quit), at: Int64(at)) }
        #expect(!later.contains(.service(.stopping)), "\(later)")
    }

    @Test("the live picture shows in ready, the countdown, the take and behind the consent screen (the countdown then starts on a running camera), in no other mode", arguments: Mode.allCases)
    func live(mode: Mode) {
        #expect(mode.live == [.ready, .countdown, .recording, .consent].contains(mode))
    }

    @Test("the machine's actions the core carries out itself (the camera switch, the two clocks, the exit, the photo) never reach the booth as .machine: from every fixture, every press and command", arguments: Fixture.allCases)
    func keptActionsStay(fixture: Fixture) {
        let events: [RecorderEvent] = Button.allCases.map { .press($0) }
            + [.start(countdown: 3), .quit, .terminate(signal: "SIGTERM"), .stateQuery, .countdownTick, .cameraLost, .background, .closeBooth]
        for event in events {
          for session in SessionMode.allCases {
            var machine = fixture.make(session: session)
            machine.photoButton = true
            var core = BoothCore(machine: machine, settings: BoothCore.Settings(), now: 0)
            let said = core.handle(.event(event), at: 0) + core.handle(.turn(BoothCore.Turn()), at: 5 * Self.second)
            let passed = said.compactMap { if case let .machine(action) = $0 { action } else { nil } }
            #expect(!passed.contains(where: BoothCore.keeps), "\(fixture) + \(event): \(passed)")
          }
        }
    }
}

/// The screen's rules the loop used to decide itself (BoothCore+Screen): the player's controls, the
/// focus box and the loop's sleep.
@Suite("BoothCore: which controls show, the focus box, the loop's sleep")
struct BoothCoreScreenRulesTests {
    static let ms: Int64 = 1_000_000

    static func core(_ fixture: Fixture) -> BoothCore {
        var core = BoothCore(machine: fixture.make(session: .loop), settings: BoothCore.Settings(attractAfter: 60), now: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 0)
        return core
    }

    @Test("the controls: always shown but while a take plays untouched for 3 s; a touch on the screen (or a tap) brings them back, a command that presses does not; the review starts with them", arguments: [
        // (from, touches at (ms, on the screen), shown at (ms) ...)
        (Fixture.ready, [(Int, Bool)](), [(10_000, true)]),
        (.finished, [], [(10_000, true)]),
        (.playing, [], [(2_999, true), (3_000, false)]),
        (.playing, [(2_000, true)], [(4_999, true), (5_000, false)]),
        (.playing, [(2_000, false)], [(3_000, false)]),
    ])
    func controls(from: Fixture, touches: [(Int, Bool)], shown: [(Int, Bool)]) {
        var core = Self.core(from)
        for (at, screen) in touches { _ = core.handle(.touch(swallow: false, screen: screen), at: Int64(at) * Self.ms) }
        for (at, expected) in shown {
            let t = Int64(at) * Self.ms
            #expect(core.controlsShown(at: t) == expected, "\(from) at \(at) ms")
            #expect(core.pressable(at: t) == (expected ? core.machine.visibleButtons : []))
            #expect((core.shownModel(BoothCore.ViewFacts(), at: t) != nil) == expected)
        }
    }

    @Test("Play Video starts the review with its controls showing, however long since the last touch")
    func reviewShowsControls() {
        var core = Self.core(.finished)
        _ = core.handle(.event(.press(.playVideo)), at: 60_000 * Self.ms)
        #expect(core.controlsShown(at: 62_999 * Self.ms))
        #expect(!core.controlsShown(at: 63_000 * Self.ms))
    }

    @Test("a tap on the picture focuses only over the live picture, with the camera there and no attract screen", arguments: [
        (Fixture.ready, true), (.countdown, true), (.recording, true), (.readyNoCamera, false), (.finished, false), (.playing, false),
        (.sharing, false), (.libraryGrid, false),
    ])
    func focus(from: Fixture, focuses: Bool) {
        var core = Self.core(from)
        let said = core.handle(.focus(Point(x: 1, y: 2)), at: 0)
        #expect(said == (focuses ? [.camera(.focus), .screen(.redraw)] : []), "\(from): \(said)")
    }

    @Test("calibrate: in ready the camera's next pictures measure the backdrop; in any other mode it is refused (notAllowed), nothing measured", arguments: [
        (Fixture.ready, true), (.countdown, false), (.recording, false), (.finished, false), (.playing, false), (.sharing, false),
        (.libraryGrid, false),
    ])
    func calibrate(from: Fixture, measures: Bool) {
        var core = Self.core(from)
        let said = core.handle(.command(.calibrate), at: 0)
        #expect(said == (measures ? [.camera(.calibrate)]
                         : [.emit(.error(code: .notAllowed, message: "'calibrate': only in ready, with no one in front of the backdrop"))]), "\(from): \(said)")
        #expect(Command.calibrate.event == nil)
    }

    @Test("no focus on the attract screen: its first touch only wakes it")
    func noFocusOnAttract() {
        var core = Self.core(.ready)
        _ = core.handle(.turn(BoothCore.Turn()), at: 61_000 * Self.ms)
        #expect(core.attracting)
        #expect(core.handle(.focus(Point(x: 1, y: 2)), at: 61_001 * Self.ms).isEmpty)
    }

    @Test("a command: the machine's event, or the screen's part (a tap, a focus point, a screenshot); a guest's press, start, seek, pause or pick keeps the finished screen awake, the rest do not", arguments: [
        // (the command, the machine's event, it keeps the finished screen awake, the screen's part)
        (Command.press(.start), RecorderEvent?.some(.press(.start)), true, BoothCore.ScreenEffect?.none),
        (.start(countdown: 2), .start(countdown: 2), true, nil),
        (.seek(position: 1), .seek(position: 1), true, nil),
        (.pause(true), .pause(true), true, nil),
        (.pick(path: "/t/a.mov"), .pick(path: "/t/a.mov"), true, nil),
        (.state, .stateQuery, false, nil),
        (.rotate(.portrait), .rotate(.portrait), false, nil),
        (.trim(TrimRange(start: 0, end: 1)), .trim(TrimRange(start: 0, end: 1)), false, nil),
        (.background, .background, false, nil), (.foreground, .foreground, false, nil), (.quit, .quit, false, nil),
        (.focus(Point(x: 1, y: 2)), nil, false, .focus(Point(x: 1, y: 2))),
        (.screenshot(path: "/tmp/s.bmp"), nil, false, .screenshot(path: "/tmp/s.bmp")),
    ])
    func command(_ command: Command, event: RecorderEvent?, keepsAwake: Bool, screen: BoothCore.ScreenEffect?) {
        #expect(command.event == event)
        var core = BoothCore(machine: Fixture.finished.make(session: .loop), settings: BoothCore.Settings(idleTimeout: 10), now: 0)
        _ = core.handle(.turn(BoothCore.Turn()), at: 0)
        let said = core.handle(.command(command), at: 8 * BoothCore.second)
        #expect(said.compactMap { if case let .screen(part) = $0 { part } else { nil } } == (screen.map { [$0] } ?? []), "\(said)")
        guard command != .quit, command != .background else { return }
        let later = core.handle(.turn(BoothCore.Turn()), at: 12 * BoothCore.second)
        #expect(later.contains(.log("idle for 10.0 s: the take is reset (idle-action discard)")) == !keepsAwake, "\(later)")
    }

    @Test("the tap command: routed by the screen with the buttons it can press before it (none while a take plays untouched: it pauses and brings them back); on the attract screen it only wakes it")
    func tapCommand() {
        let at = Point(x: 1, y: 2)
        var playing = Self.core(.playing)
        #expect(playing.handle(.command(.tap(at)), at: 1_000 * Self.ms) == [.screen(.tap(at, visible: playing.machine.visibleButtons))])
        #expect(playing.handle(.command(.tap(at)), at: 5_000 * Self.ms) == [.screen(.tap(at, visible: []))])
        var ready = Self.core(.ready)
        _ = ready.handle(.turn(BoothCore.Turn()), at: 61_000 * Self.ms)
        #expect(ready.handle(.command(.tap(at)), at: 61_001 * Self.ms).isEmpty)
        #expect(!ready.attracting)
        #expect(ready.handle(.command(.tap(at)), at: 61_002 * Self.ms) == [.screen(.tap(at, visible: ready.machine.visibleButtons))])
    }

    @Test("the loop sleeps 8 ms while something moves by itself (the player, the countdown, the focus box, the attract screen, the flash), else 33 ms", arguments: [
        (Fixture.ready, false, 0, 33), (.ready, true, 500, 8), (.ready, true, 1_000, 33), (.finished, false, 0, 33),
        (.playing, false, 0, 8), (.countdown, false, 0, 8), (.recording, false, 0, 33), (.recording, true, 999, 8),
    ])
    func idleWait(from: Fixture, tapped: Bool, after: Int, wait: Int) {
        var core = Self.core(from)
        if tapped { _ = core.handle(.focus(Point(x: 1, y: 2)), at: 1_000 * Self.ms) }
        #expect(core.idleWait(at: (1_000 + Int64(after)) * Self.ms) == wait, "\(from) \(after) ms after a tap")
    }

    @Test("the attract screen's pulse keeps the loop at 8 ms")
    func idleWaitAttract() {
        var core = Self.core(.ready)
        _ = core.handle(.turn(BoothCore.Turn()), at: 61_000 * Self.ms)
        #expect(core.idleWait(at: 61_000 * Self.ms) == 8)
    }
}

/// The gate's admission of what arrives before `ready` (BoothCore+Ready), which the booth's loop used
/// to decide itself.
@Suite("BoothCore: what is handled, held or both before ready")
struct BoothCoreAdmissionTests {
    @Test("before ready only what the gate waits for and the camera's own reports are handled; a sleep is fed and held; the rest held; after ready everything is handled", arguments: [
        (BoothCore.Arrival.awaited, BoothCore.Admission.handle), (.cameraReport, .handle), (.sleep, .feedAndHold), (.other, .hold),
    ])
    func admission(arrival: BoothCore.Arrival, before: BoothCore.Admission) {
        var core = BoothCore(machine: RecorderMachine(session: .loop, outputPath: "/tmp/x.mov", orientation: .landscapeRight), now: 0,
                             microphone: true)
        _ = core.handle(.start, at: 0)
        #expect(core.admits(arrival) == before)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 1)
        #expect(core.admits(arrival) == before, "the gate still waits for the microphone")
        #expect(core.handle(.microphoneTried(failure: nil), at: 2).contains(.ready(encoder: .libx264, microphone: "none")), "auto resolved to nothing: libx264")
        #expect(core.admits(arrival) == .handle)
    }

    @Test("a Start opens the take as the core says: its kind, the orientation at its start, the encoder the next take asks for (auto as resolved at launch: here nothing, so libx264; libx264 after one stalled), the guestbook's question", arguments: [
        // (the button, the encoder asked for, an earlier take's encoder stalled, the questions; the take opened)
        (Button.start, VideoEncoderName.auto, false, [String](), BoothCore.FileEffect.openTake(orientation: .landscapeRight, kind: .video, encoder: .libx264, title: nil)),
        (.boomerang, .vaapi, false, ["Hi?"], .openTake(orientation: .landscapeRight, kind: .boomerang, encoder: .vaapi, title: "Hi?")),
        (.start, .vaapi, true, [], .openTake(orientation: .landscapeRight, kind: .video, encoder: .libx264, title: nil)),
    ])
    func openTake(button: Button, encoder: VideoEncoderName, stalled: Bool, questions: [String], opens: BoothCore.FileEffect) {
        var machine = RecorderMachine(session: .loop, outputPath: "/tmp/x.mov", orientation: .landscapeRight)
        machine.boomerangButton = true
        var core = BoothCore(machine: machine, settings: BoothCore.Settings(encoder: encoder, questions: questions), now: 0)
        _ = core.handle(.start, at: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 0)
        if stalled {
            let take = RecordingResult(outputPath: "/tmp/x.mov", duration: 1, bytes: 1, reason: .error, success: false, encoder: "h264_vaapi", encoderStalled: true)
            _ = core.handle(.event(.recordingFinished(take)), at: 0)
        }
        let said = core.handle(.event(.press(button)), at: 1)
        #expect(said.filter { if case .file(.openTake) = $0 { true } else { false } } == [.file(opens)], "\(said)")
        #expect(!said.contains { if case .machine(.startRecording) = $0 { true } else { false } }, "\(said)")
    }

    @Test("ready names the encoder and the microphone the launch's look opened, or none (none asked for, or it did not open: the guest is told); a microphone that opens for a take since clears the note", arguments: [
        // (a microphone asked for, the launch's look: the name it opened, why it did not; what ready names)
        (true, "hw:1" as String?, String?.none, "hw:1" as String?),
        (true, nil, "busy", "none"),
        (false, nil, nil, "none"),
    ])
    func readyNames(asked: Bool, name: String?, failure: String?, said: String?) {
        var core = BoothCore(machine: RecorderMachine(session: .loop, outputPath: "/tmp/x.mov", orientation: .landscapeRight),
                             settings: BoothCore.Settings(encoder: .libx264, microphone: asked), now: 0, microphone: true)
        _ = core.handle(.start, at: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 1)
        let ready = core.handle(.microphoneTried(name: name, failure: failure), at: 2)
        #expect(ready.last == .ready(encoder: .libx264, microphone: said), "\(ready)")
        #expect((core.viewModel(BoothCore.ViewFacts(), at: 3).message == .noMicrophone) == (failure != nil))
        _ = core.handle(.microphoneTried(name: "hw:1", failure: nil), at: 4)
        #expect(core.viewModel(BoothCore.ViewFacts(), at: 5).message != .noMicrophone, "the take's microphone opened")
    }
}
