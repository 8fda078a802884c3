// The booth's core (the machine and the guest's clocks) by table on a virtual clock: each turn of
// the loop is a value of time, so a minute of idle screen takes no time at all. The end-to-end tests
// (IdleEndToEndTests, ServiceEndToEndTests' attract and share tests) keep one run each through the
// binary.
@testable import KioskCore
import Testing
import KioskContract

@Suite("BoothCore: the machine and the guest's clocks, on a virtual clock")
struct BoothCoreTests {
    static let s: Int64 = 1_000_000_000

    /// What came out, and at which second (to the tenth).
    struct Said: Equatable, CustomStringConvertible {
        let at: Double
        let effect: BoothCore.Effect
        var description: String { "\(at): \(effect)" }
    }

    /// What came out at second `t`. (The clocks the machine asks for never come out: the core
    /// starts them at its turn.)
    static func carryOut(_ effects: [BoothCore.Effect], at t: Double, into said: inout [Said]) {
        said += effects.map { Said(at: t, effect: $0) }
    }

    static func ns(_ t: Double) -> Int64 { Int64((t * 1e9).rounded()) }

    /// Turns every 100 ms from `from` to `to` seconds; `touches`: a guest's touch (spent on waking
    /// the attract screen if it shows) at those seconds, before that turn; `press`: events at seconds.
    static func run(_ core: inout BoothCore, from: Double, to: Double, touches: [Double] = [],
                    events: [Double: RecorderEvent] = [:], take: TakeMeasures? = nil) -> [Said] {
        var said: [Said] = []
        var t = from
        while t < to - 1e-9 {
            if touches.contains(where: { abs($0 - t) < 1e-6 }), core.touched(at: ns(t), swallow: true) {
                said.append(Said(at: t, effect: .log("woken")))
            }
            if let event = events.first(where: { abs($0.key - t) < 1e-6 })?.value {
                carryOut(core.handle(event), at: t, into: &said)
            }
            carryOut(core.turn(at: ns(t), BoothCore.Turn(take: take)), at: t, into: &said)
            t = ((t + 0.1) * 10).rounded() / 10
        }
        return said
    }

    static func machine(countdown: Int = 0, session: SessionMode = .loop, shares: Bool = false) -> RecorderMachine {
        var m = RecorderMachine(session: session, outputPath: "/takes/take.mov", orientation: .landscapeRight,
                                countdown: countdown, shares: shares)
        _ = m.start()
        return m
    }

    @Test("the countdown: Start at 0.5 s counts 3, 2, 1 a second apart and starts the take at 3.5 s, not a turn before")
    func countdown() {
        var core = BoothCore(machine: Self.machine(countdown: 3), now: 0)
        let said = Self.run(&core, from: 0, to: 5, events: [0.5: .press(.start)])
        let counts = said.compactMap { s -> String? in
            if case let .machine(.emit(.countdown(remaining))) = s.effect { return "\(s.at):\(remaining)" }
            return nil
        }
        #expect(counts == ["0.5:3", "1.5:2", "2.5:1"])
        let starts = said.filter { if case .file(.openTake) = $0.effect { true } else { false } }.map(\.at)
        #expect(starts == [3.5])
        #expect(core.machine.mode == .recording)
    }

    @Test("idle reset: the finished screen untouched for the timeout is reset then, with its log line; a touch restarts the clock; an exit already decided never resets",
          arguments: [IdleAction.use, .discard])
    func idle(action: IdleAction) {
        let settings = BoothCore.Settings(idleTimeout: 60, idleAction: action)
        var core = BoothCore(machine: Fixture.finished.make(session: .loop), settings: settings, now: 0)
        let said = Self.run(&core, from: 0, to: 130, touches: [30])
        let resets = said.filter { $0.effect == .machine(.emit(.idleReset(action: action))) }.map(\.at)
        #expect(resets == [90])
        #expect(said.contains(Said(at: 90, effect: .log("idle for 60.0 s: the take is reset (idle-action \(action.rawValue))"))))
        #expect(core.machine.mode == .ready)
        // `quit` with a file job still out: the exit is decided (and waits for the job).
        var leaving = BoothCore(machine: Fixture.finished.make(session: .loop), settings: settings, now: 0)
        _ = leaving.filePosted()
        _ = leaving.handle(.quit)
        #expect(Self.run(&leaving, from: 0, to: 200).isEmpty)
    }

    @Test("an idle reset that ends a once session: no exit in the turn that reset (its discard is still to be posted); the exit at the first turn after the discard's job is back")
    func idleResetExitWaitsForItsDiscard() {
        let settings = BoothCore.Settings(idleTimeout: 60, idleAction: .discard)
        var core = BoothCore(machine: Fixture.finished.make(session: .once), settings: settings, now: 0)
        #expect(core.turn(at: 0).isEmpty)
        let reset = core.turn(at: Self.ns(61))
        #expect(reset.contains(.file(.discard(own: false))), "\(reset)")
        #expect(!reset.contains { if case .exit = $0 { true } else { false } }, "\(reset)")
        // The booth carries out the discard: a file job on its worker.
        let discard = core.filePosted()
        #expect(core.turn(at: Self.ns(61.1)).isEmpty)
        core.fileDone(discard)
        #expect(core.turn(at: Self.ns(61.2)).contains { if case .exit = $0 { true } else { false } })
    }

    @Test("the attract screen: ready untouched for --attract-after shows it (drawn, logged); a touch only wakes it, once; it comes back a full wait later; never in a countdown")
    func attract() {
        var core = BoothCore(machine: Self.machine(), settings: BoothCore.Settings(attractAfter: 5), now: 0)
        var said = Self.run(&core, from: 0, to: 7)
        #expect(said == [Said(at: 5, effect: .log("attract screen: 5.0 s without a touch")), Said(at: 5, effect: .screen(.redraw))])
        #expect(core.attracting)
        said = Self.run(&core, from: 7, to: 12.5, touches: [7, 8])
        // The first touch is spent on waking it; the second presses as usual; no turn says more.
        #expect(said == [Said(at: 7, effect: .log("woken"))])
        #expect(!core.attracting)
        said = Self.run(&core, from: 12.5, to: 14)
        #expect(said.map(\.at) == [13, 13], "5 s after the touch at 8 s")
        var counting = BoothCore(machine: Self.machine(countdown: 30), settings: BoothCore.Settings(attractAfter: 5), now: 0)
        _ = Self.run(&counting, from: 0, to: 20, events: [0: .press(.start)])
        #expect(!counting.attracting)
    }

    @Test("the share screen ends by itself --share-seconds after it began (its clock started by the core at the turn that took the link; the clock never reaches the booth); left before (Done), its clock is dropped")
    func shareClock() {
        let settings = BoothCore.Settings(shareSeconds: 10)
        var core = BoothCore(machine: Fixture.sharingPending.make(session: .loop), settings: settings, now: 0)
        let said = Self.run(&core, from: 1, to: 15, events: [1: .takeShared(sharedLink)])
        #expect(core.machine.mode != .sharing)
        #expect(Set(said.filter { $0.at > 1 }.map(\.at)) == [11], "\(said)")
        #expect(core.shareEndsAt == nil)
        var done = BoothCore(machine: Fixture.sharingPending.make(session: .loop), settings: settings, now: 0)
        _ = Self.run(&done, from: 1, to: 3, events: [1: .takeShared(sharedLink), 2: .press(.done)])
        #expect(done.shareEndsAt == nil)
        #expect(Self.run(&done, from: 3, to: 15).allSatisfy { $0.effect != .machine(.emit(.idleReset(action: .use))) })
    }

    @Test("the take's tick carries the writer's time and the time left (from --max-duration as the take began: TakeWatch) into the machine while recording, and nothing otherwise")
    func takeTick() {
        var core = BoothCore(machine: Self.machine(), settings: BoothCore.Settings(maxDuration: 9.75), now: 0)
        _ = core.handle(.press(.start))
        _ = core.handle(.recordingStarted(outputPath: "/takes/take.mov"))
        _ = core.turn(at: Self.s, BoothCore.Turn(take: TakeMeasures(elapsed: 2.5)))
        guard case let .recording(r) = core.machine.state else {
            Issue.record("not recording: \(core.machine.state)")
            return
        }
        #expect(r.elapsed == 2.5)
        #expect(r.remaining == 7.25)
        var ready = BoothCore(machine: Self.machine(), now: 0)
        #expect(ready.turn(at: Self.s, BoothCore.Turn(take: TakeMeasures(elapsed: 2.5))).isEmpty)
    }

    @Test("a take opening is the core's: from Start's startRecording until the writer's start or failure; the opening writer's wait counts only then")
    func opening() {
        var core = BoothCore(machine: Self.machine(), settings: BoothCore.Settings(maxDuration: 60), now: 0)
        let slow = { (effects: [BoothCore.Effect]) in effects.contains { if case .emit(.error(.storageSlow, _)) = $0 { true } else { false } } }
        #expect(!core.take.isOpening)
        #expect(!slow(core.turn(at: Self.s, BoothCore.Turn(openingWait: 5))), "nothing opening: a stale wait is not read")
        _ = core.handle(.press(.start))
        #expect(core.take.isOpening)
        _ = core.handle(.recordingFailed(code: .recordingFailed, message: "no encoder"))
        #expect(!core.take.isOpening)
        #expect(!slow(core.turn(at: 2 * Self.s, BoothCore.Turn(openingWait: 5))))
        _ = core.handle(.press(.start))
        _ = core.handle(.recordingStarted(outputPath: "/takes/take.mov"))
        #expect(!core.take.isOpening)
    }

    @Test("the slow disk said once a take in the words of where it is (opening, recording, finishing), the status line told as it goes on; Saving… once a stopped take has been finishing 0.5 s")
    func diskAndSaving() {
        var core = BoothCore(machine: Self.machine(), settings: BoothCore.Settings(maxDuration: 60), now: 0)
        func disk(_ facts: BoothCore.Turn) -> [BoothCore.Effect] {
            core.turn(at: Self.s, facts).filter { if case .emit(.error) = $0 { true } else { false } }
        }
        _ = core.handle(.press(.start))
        #expect(disk(BoothCore.Turn(openingWait: 1.9)).isEmpty)
        let opening = disk(BoothCore.Turn(openingWait: 2.5))
        #expect(core.service.status.slowDisk?.count == 1 && core.service.status.slowDisk?.worst == 2.5, "the status line: \(opening)")
        #expect(opening.contains { if case let .emit(.error(.storageSlow, message)) = $0 { message.contains("start waiting 2.5 s") } else { false } })
        _ = core.handle(.recordingStarted(outputPath: "/takes/take.mov"))
        #expect(disk(BoothCore.Turn(take: TakeMeasures(elapsed: 1, syncWaited: 3))).isEmpty, "said once a take")
        #expect(core.service.status.slowDisk?.count == 1 && core.service.status.slowDisk?.worst == 3, "the status line follows it")
        // The next take may say it again, while it records.
        _ = core.handle(.press(.stop))
        _ = core.turn(at: Self.s, BoothCore.Turn(take: TakeMeasures(elapsed: 2, finishingFor: 0.4)))
        #expect(!core.take.saving)
        _ = core.turn(at: Self.s, BoothCore.Turn(take: TakeMeasures(elapsed: 2, finishingFor: 0.5)))
        #expect(core.take.saving)
        _ = core.handle(.recordingFinished(Fixture.goodTake))
        _ = core.turn(at: Self.s, BoothCore.Turn())
        #expect(!core.take.saving)
        _ = core.handle(.press(.retake))
        _ = core.handle(.press(.start))
        _ = core.handle(.recordingStarted(outputPath: "/takes/take.mov"))
        let again = disk(BoothCore.Turn(take: TakeMeasures(elapsed: 1, syncWaited: 2)))
        #expect(again.contains { if case let .emit(.error(.storageSlow, message)) = $0 { message.contains("a power cut") } else { false } }, "\(again)")
    }

    // MARK: ready (the gate)

    enum Launch { case message(String), camera(String?), microphone(String?), launchDone, cameraLost }

    /// The booth's part before `ready`: it holds each message until the core says `.ready`, then
    /// handles them in order; what the core said, as text ("READY", "error:code:message"), and the
    /// camera lost and back for the machine.
    static func launch(_ steps: [Launch], launchFiles: Bool, microphone: Bool = false) -> [String] {
        var core = BoothCore(machine: Self.machine(), now: 0, launchFiles: launchFiles, microphone: microphone)
        var held: [String] = []
        var out: [String] = []
        func carryOut(_ effects: [BoothCore.Effect]) {
            for effect in effects {
                switch effect {
                case .ready:
                    out.append("READY")
                    out += held
                    held = []
                case let .emit(.error(code, message)): out.append("error:\(code.rawValue):\(message)")
                default: break
                }
            }
        }
        for step in steps {
            switch step {
            case let .message(m): if core.readyOut { out.append(m) } else { held.append(m) }
            case let .camera(failure):
                let lost = !core.machine.cameraAvailable
                carryOut(core.cameraStarted(failure: failure, open: failure == nil))
                if lost && core.machine.cameraAvailable { out.append("cameraBack") }
            case let .microphone(failure): carryOut(core.microphoneTried(name: nil, failure: failure))
            case .launchDone:
                // As the booth's file job: posted, its report counted done as it is taken.
                let job = core.filePosted()
                core.fileDone(job)
                carryOut(core.launchFilesDone([], owed: [], at: 0))
            case .cameraLost:
                carryOut(core.handle(.cameraLost))
                out.append("cameraLost")
            }
        }
        return out
    }

    static let noSound = "; takes are recorded without sound until it opens (it is tried again at each Start)"

    @Test("ready: the core says it once the camera has tried to open, the microphone has been looked at and the launch's file work is back, in any order, the failures just before it; held messages after it, in order; a camera report after it is a failure said or a lost camera back",
          arguments: [
            ([Launch.message("a"), .camera(nil), .message("b")], false, false, ["READY", "a", "b"]),
            ([.message("a"), .camera(nil), .message("b"), .launchDone, .message("c")], true, false, ["READY", "a", "b", "c"]),
            ([.launchDone, .message("a"), .camera("no /dev/video0")], true, false,
             ["error:cameraUnavailable:no /dev/video0", "READY", "a"]),
            ([.message("a"), .launchDone, .microphone("busy"), .camera(nil)], true, true,
             ["error:microphoneUnavailable:busy" + noSound, "READY", "a"]),
            ([.camera(nil), .message("a"), .launchDone], false, true, []),
            ([.camera(nil), .camera("gone again"), .cameraLost, .camera(nil), .camera(nil)], false, false,
             ["READY", "error:cameraUnavailable:gone again", "cameraLost", "cameraBack"]),
          ] as [([Launch], Bool, Bool, [String])])
    func ready(steps: [Launch], launchFiles: Bool, microphone: Bool, expected: [String]) {
        #expect(Self.launch(steps, launchFiles: launchFiles, microphone: microphone) == expected)
    }

    // MARK: the outstanding work and the exit

    enum Work: CustomStringConvertible {
        /// A file job posted, or one reported back.
        case post, done
        /// An event for the machine.
        case event(RecorderEvent)
        /// A take owes its hook; the due try starts; the running try ends with this status.
        case owe(String), startHook, hookExits(Int)

        var description: String {
            switch self {
            case .post: "post"
            case .done: "done"
            case let .event(e): "\(e)"
            case let .owe(path): "owe \(path)"
            case .startHook: "startHook"
            case let .hookExits(status): "hookExits \(status)"
            }
        }
    }

    /// `steps` at whole seconds (a turn of the loop after each, and one a second after the last);
    /// the core's `.exit`, `.hook(.stop)` and hook events, as "second:what".
    static func work(_ machine: RecorderMachine, _ steps: [Work]) -> [String] {
        var core = BoothCore(machine: machine, settings: BoothCore.Settings(onTake: "upload"), now: 0)
        // The try the core said to run (`.hook(.run)`), and the one the hooks worker runs (`.startHook`).
        var due: String?
        var running: String?
        var said: [String] = []
        // The jobs out, oldest first: each `.done` brings back the oldest.
        var out: [FileJob] = []
        func note(_ effects: [BoothCore.Effect], at t: Int) {
            for effect in effects {
                switch effect {
                case let .exit(code): said.append("\(t):exit \(code)")
                case .hook(.stop): said.append("\(t):stopHook")
                case let .hook(.run(run, _)): due = run.path
                case let .emit(.hookFinished(_, status, _, _)): said.append("\(t):hookFinished \(status)")
                default: break
                }
            }
        }
        for (i, step) in (steps + [.event(.stateQuery)]).enumerated() {
            let now = Int64(i) * s
            switch step {
            case .post: out.append(core.filePosted())
            case .done: core.fileDone(out.removeFirst())
            case let .event(event): note(core.handle(event), at: i)
            case let .owe(path): note(core.hookOwed(HookQueue.Entry(path: path, duration: 1), at: now), at: i)
            case .startHook: (running, due) = (due, nil)
            case let .hookExits(status):
                if let path = running { note(core.hookEnded(path: path, outcome: .exited(status), at: now), at: i) }
                running = nil
            }
            note(core.turn(at: now), at: i)
        }
        return said
    }

    @Test("the exit: the machine's exit is kept and said once, at the turn after every file job and the running hook reported back (not for a try still to come); a signal asks the running hook to end, once",
          arguments: [
            // Use Video in a once session: the hand-over's job holds the exit until it is back.
            ([Work.post, .event(.press(.useVideo)), .done], Fixture.finished, ["2:exit 0"]),
            // Nothing out: the exit at the same turn.
            ([.event(.press(.useVideo))], .finished, ["0:exit 0"]),
            // The take's hook runs after the hand-over: the exit waits for it, not for its next try.
            ([.post, .event(.press(.useVideo)), .owe("/t/1.mov"), .startHook, .done, .hookExits(1)], .finished,
             ["5:hookFinished 1", "5:exit 0"]),
            // Two jobs out: only the last one back lets it go.
            ([.post, .post, .event(.quit), .done, .done], .ready, ["4:exit 0"]),
            // SIGTERM while a hook runs: the hook is asked to end at once (once), the exit follows it.
            ([.owe("/t/1.mov"), .startHook, .event(.terminate(signal: "SIGTERM")), .event(.stateQuery), .hookExits(143)], .ready,
             ["2:stopHook", "4:hookFinished 143", "4:exit 0"]),
            // SIGTERM in a take: the hook is asked to end at once, before the take is finished.
            ([.owe("/t/1.mov"), .startHook, .event(.terminate(signal: "SIGTERM")), .event(.recordingFinished(Fixture.goodTake)),
              .hookExits(143)], .recording, ["2:stopHook", "4:hookFinished 143", "4:exit 0"]),
            // A signal with no hook running asks nothing to end; `quit` (then a signal after it) never does.
            ([.event(.terminate(signal: "SIGINT"))], .ready, ["0:exit 0"]),
            ([.owe("/t/1.mov"), .startHook, .event(.quit), .event(.terminate(signal: "SIGTERM")), .hookExits(0)], .ready,
             ["4:hookFinished 0", "4:exit 0"]),
          ] as [([Work], Fixture, [String])])
    func exit(steps: [Work], fixture: Fixture, expected: [String]) {
        #expect(Self.work(fixture.make(session: .once), steps) == expected)
    }

    @Test("the hooks' rule in the core: an owed take's queue saved and its first try said at once; a failed try said again by the turn at its back-off (10 s, then 20 s), given up after --hook-attempts with a line; a success saves the queue and asks for retention; none started by a turn on the way out")
    func hookTries() {
        let s = Self.s
        var core = BoothCore(machine: Fixture.finished.make(session: .loop), settings: BoothCore.Settings(onTake: "upload", hookAttempts: 3), now: 0)
        func runs(_ effects: [BoothCore.Effect]) -> [String] {
            effects.compactMap { if case let .hook(.run(run, _)) = $0 { run.path } else { nil } }
        }
        let owed = core.hookOwed(HookQueue.Entry(path: "/t/1.mov", duration: 1), at: 0)
        // Saved before its try is counted, then saved again with it (`.hook(.run)`'s queue).
        #expect({ if case let .hook(.save(text, false)) = owed.first { text.contains("/t/1.mov") } else { false } }(), "\(owed)")
        #expect(runs(owed) == ["/t/1.mov"])
        var ended = core.hookEnded(path: "/t/1.mov", outcome: .exited(1), at: s)
        #expect(ended.contains(.log("--on-take for /t/1.mov exited with 1 (try 1): tried again in 10 s")), "\(ended)")
        #expect(runs(core.turn(at: 10 * s)).isEmpty, "not before the back-off")
        #expect(runs(core.turn(at: 11 * s)) == ["/t/1.mov"])
        ended = core.hookEnded(path: "/t/1.mov", outcome: .exited(1), at: 12 * s)
        #expect(ended.contains(.log("--on-take for /t/1.mov exited with 1 (try 2): tried again in 20 s")), "\(ended)")
        #expect(runs(core.turn(at: 32 * s)) == ["/t/1.mov"])
        ended = core.hookEnded(path: "/t/1.mov", outcome: .exited(1), at: 33 * s)
        #expect(ended.contains(.log("--on-take for /t/1.mov exited with 1 (try 3): given up after 3 tries; the take is kept")), "\(ended)")
        #expect(runs(core.turn(at: 3600 * s)).isEmpty)
        // A success: the queue saved without the take, and retention asked for.
        _ = core.hookOwed(HookQueue.Entry(path: "/t/2.mov", duration: 1), at: 3601 * s)
        ended = core.hookEnded(path: "/t/2.mov", outcome: .exited(0), at: 3602 * s)
        #expect(ended.contains { if case .hook(.save(_, true)) = $0 { true } else { false } }, "\(ended)")
        // On the way out a turn starts no try; the owed take waits for the next launch.
        var leaving = BoothCore(machine: Fixture.finished.make(session: .loop), settings: BoothCore.Settings(onTake: "upload"), now: 0)
        _ = leaving.hookOwed(HookQueue.Entry(path: "/t/3.mov", duration: 1), at: 0)
        _ = leaving.hookEnded(path: "/t/3.mov", outcome: .exited(1), at: s)
        _ = leaving.handle(.quit)
        #expect(runs(leaving.turn(at: 60 * s)).isEmpty)
    }

    // MARK: the camera switch

    /// Three cameras, the one in use `current`; Switch pressed at 1 s and each camera tried
    /// answering as `attempts` says (the booth's part: the attempt reported back a tenth of a
    /// second after each `.camera(.tryCamera)`). What the core said, and whether Start shows meanwhile.
    static func switching(from current: Int, _ attempts: [CameraRing.Attempt]) -> (said: [String], core: BoothCore) {
        var machine = RecorderMachine(session: .loop, outputPath: "/takes/take.mov", orientation: .landscapeRight, cameraCount: 3)
        _ = machine.start()
        var core = BoothCore(machine: machine, now: 0, cameras: 3)
        var said: [String] = []
        var t: Int64 = s
        // Get to `current` first, with every camera opening.
        var pending = core.handle(.press(.switchCamera))
        while core.ring.index != current || !pending.isEmpty {
            guard let effect = pending.first else { pending = core.handle(.press(.switchCamera)); continue }
            pending.removeFirst()
            if case let .camera(.tryCamera(index, _)) = effect {
                pending += core.cameraTried(index, .opened, name: "/dev/video\(index)", label: "cam\(index)", at: 0)
            }
        }
        pending = core.handle(.press(.switchCamera))
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            switch effect {
            case let .camera(.tryCamera(index, stop)):
                said.append("try \(index)" + (stop.map { ", stop \($0)" } ?? ""))
                #expect(!core.machine.visibleButtons.contains(.start), "no Start while the switch runs")
                t += s / 10
                pending += core.cameraTried(index, attempts[index], name: "/dev/video\(index)", label: "cam\(index)", at: t)
            case let .camera(.inUse(index, changed)): said.append("in use \(index)\(changed ? ", changed" : "")")
            case let .log(line): said.append(line)
            case .machine(.emit), .machine(.startCamera), .machine(.stopCamera): break
            default: said.append("\(effect)")
            }
        }
        if !core.machine.cameraAvailable { said.append("lost") }
        return (said, core)
    }

    @Test("the camera switch through the core: each camera tried in turn after the one in use, one passed over when it fails or waits for its device (stopped then), back to the one in use when none opens (lost if it does not open either); Start back at the end; the new camera's name for 2 s",
          arguments: [
            (0, [CameraRing.Attempt.opened, .opened, .opened], ["try 1, stop 0", "in use 1, changed", "camera switch: now /dev/video1 (cam1)"]),
            (0, [.opened, .waiting, .opened],
             ["try 1, stop 0", "camera switch: /dev/video1 cannot open now; passed over", "try 2, stop 1", "in use 2, changed",
              "camera switch: now /dev/video2 (cam2)"]),
            (0, [.opened, .failed, .waiting],
             ["try 1, stop 0", "try 2", "camera switch: /dev/video2 cannot open now; passed over", "try 0, stop 2", "in use 0",
              "camera switch: no other camera could open; /dev/video0 stays"]),
            (1, [.failed, .failed, .failed],
             ["try 2, stop 1", "try 0", "try 1", "in use 1", "camera switch: no other camera could open; /dev/video1 stays", "lost"]),
            (2, [.opened, .waiting, .waiting],
             ["try 0, stop 2", "in use 0, changed", "camera switch: now /dev/video0 (cam0)"]),
          ] as [(Int, [CameraRing.Attempt], [String])])
    func cameraSwitch(current: Int, attempts: [CameraRing.Attempt], expected: [String]) {
        let (said, core) = Self.switching(from: current, attempts)
        #expect(said == expected)
        #expect(core.machine.visibleButtons.contains(.start) || !core.machine.cameraAvailable)
        let changed = expected.contains { $0.hasSuffix("changed") }
        let chosen = core.ring.index
        #expect(core.ring.bannerName(at: 2 * Self.s) == (changed ? "cam\(chosen)" : nil))
        #expect(core.ring.bannerName(at: 4 * Self.s) == nil)
    }

    // MARK: the encoder

    @Test("the encoder each take asks for, through the core: auto as resolved or a name as given; a take ended with its encoder stalled (the machine's recordingFinished) logs once and makes libx264 the next; libx264's own stall and a take without one change nothing",
          arguments: [
            ("auto", "h264_vaapi", [], "h264_vaapi", 0),
            ("auto", nil, [], "libx264", 0),
            ("auto", "h264_vaapi", [("h264_vaapi", true)], "libx264", 1),
            ("auto", "h264_vaapi", [("h264_vaapi", true), ("h264_vaapi", true)], "libx264", 1),
            ("auto", "h264_vaapi", [("h264_vaapi", false)], "h264_vaapi", 0),
            ("h264_v4l2m2m", nil, [("h264_vaapi", true)], "h264_v4l2m2m", 1),
            ("h264_v4l2m2m", nil, [("h264_v4l2m2m", true)], "libx264", 1),
            ("libx264", nil, [("libx264", true)], "libx264", 0),
          ] as [(VideoEncoderName, VideoEncoderName?, [(String, Bool)], VideoEncoderName, Int)])
    func encoder(configured: VideoEncoderName, auto: VideoEncoderName?, takes: [(String, Bool)], next: VideoEncoderName, notes: Int) {
        var core = BoothCore(machine: Fixture.ready.make(session: .loop), settings: BoothCore.Settings(encoder: configured, autoEncoder: auto), now: 0)
        var said: [String] = []
        for (encoder, stalled) in takes {
            _ = core.handle(.press(.start))
            _ = core.handle(.recordingStarted(outputPath: "/takes/take.mov"))
            let result = RecordingResult(outputPath: "/takes/take.mov", duration: 1, bytes: 100, reason: stalled ? .error : .user,
                                         success: true, encoder: encoder, encoderStalled: stalled)
            let effects = core.handle(.recordingFinished(result))
            said += effects.compactMap { if case let .log(line) = $0 { line } else { nil } }
            #expect(core.machine.mode == .finished)
            _ = core.handle(.press(.retake))
        }
        #expect(core.nextEncoder == next)
        #expect(said.count == notes, "\(said)")
        #expect(said.allSatisfy { $0.hasSuffix("stopped returning packets; libx264 from the next take on") })
    }
}
