// The booth's guest-facing rules as one value: the machine, and the clocks the guest meets without
// touching anything (the countdown's seconds, idle reset, the attract screen, the share screen's
// time, the take's time left), and the gate before `ready` (BoothCore+Ready). It is fed inputs with
// the time as a value (a touch, a command that presses, a turn of the loop carrying what the take
// measured, a device's first report) and returns what to do: the machine's actions, lines for the
// log, a new drawing, its own events, `ready`. The booth carries them out; the core never
// reads a clock, so every rule here is tested by table on a virtual clock (BoothCoreTests).

public struct BoothCore: Sendable {
    /// What the booth does for the core.
    public enum Effect: Equatable, Sendable {
        /// One of the machine's actions, in the order the machine gave them.
        case machine(RecorderAction)
        /// A line for the log (stderr).
        case log(String)
        /// What shows changed without a machine action (the attract screen began or ended).
        case redraw
        /// An event the core says itself (a device's failure before `ready`, a camera failing later).
        case emit(KioskEvent)
        /// `ready` goes out: the booth says it (with its devices' names and sizes, the encoder),
        /// tells systemd, then handles what it held meanwhile, in the order it came.
        case ready
    }

    /// The settings the turn's rules read, as the configuration has them now (a reload changes them).
    public struct Settings: Equatable, Sendable {
        /// `--idle-timeout` (seconds, 0: never) and what it does.
        public var idleTimeout: Double
        public var idleAction: IdleAction
        /// `--attract-after` (seconds, 0: never).
        public var attractAfter: Double

        public init(idleTimeout: Double = 0, idleAction: IdleAction = .discard, attractAfter: Double = 0) {
            self.idleTimeout = idleTimeout
            self.idleAction = idleAction
            self.attractAfter = attractAfter
        }
    }

    /// What the booth measured for this turn: the running take's elapsed time and its time left
    /// (nil: no take is running), and whether the exit is already decided.
    public struct Turn: Equatable, Sendable {
        public var take: (elapsed: Double, remaining: Double)?
        public var exitDecided: Bool

        public init(take: (elapsed: Double, remaining: Double)? = nil, exitDecided: Bool = false) {
            self.take = take
            self.exitDecided = exitDecided
        }

        public static func == (a: Turn, b: Turn) -> Bool {
            a.take?.elapsed == b.take?.elapsed && a.take?.remaining == b.take?.remaining && a.exitDecided == b.exitDecided
        }
    }

    /// A second of the countdown, in the monotonic clock's nanoseconds.
    public static let second: Int64 = 1_000_000_000

    public var machine: RecorderMachine
    public var settings: Settings
    /// Idle reset: the finished screen (or a paused review, or the library) untouched.
    public private(set) var idle: IdleRule
    /// The attract screen: ready untouched for `--attract-after`; a touch wakes it.
    public private(set) var attract: AttractRule
    /// The countdown's next second (monotonic ns): `countdownTick` is due then.
    public private(set) var countdownNext: Int64 = 0
    /// When the share screen ends by itself (monotonic ns); nil: it does not.
    public private(set) var shareEndsAt: Int64?
    /// What `ready` waits for (BoothCore+Ready). The gate holds no messages itself: the booth
    /// keeps what comes before `ready` in its own queue and handles it at `.ready`.
    var gate: ReadyGate<Never>

    /// `launchFiles`: `ready` waits for the launch's file work (`launchFilesDone`); `microphone`:
    /// for the look at the microphone (`microphoneTried`). It always waits for the camera's first
    /// attempt (`cameraStarted`).
    public init(machine: RecorderMachine, settings: Settings = Settings(), now: Int64, launchFiles: Bool = false,
                microphone: Bool = false) {
        self.machine = machine
        self.settings = settings
        gate = ReadyGate(launchFiles: launchFiles, microphone: microphone)
        idle = IdleRule(timeout: settings.idleTimeout, now: now)
        attract = AttractRule(after: settings.attractAfter, now: now)
    }

    /// The attract screen shows.
    public var attracting: Bool { attract.showing }

    /// An event for the machine; its actions as effects.
    public mutating func handle(_ event: RecorderEvent) -> [Effect] {
        machine.handle(event).map(Effect.machine)
    }

    /// A guest's touch or key on the screen, or a command that presses (`swallow`: a touch, which
    /// must not also press what lies under it). True when it only woke the attract screen and is
    /// spent on that.
    public mutating func touched(at now: Int64, swallow: Bool) -> Bool {
        idle.touched(at: now)
        return attract.touched(at: now) && swallow
    }

    /// The machine asked for its countdown clock (`startCountdownClock`): the first tick a second on.
    public mutating func countdownStarted(at now: Int64) {
        countdownNext = now + Self.second
    }

    /// The machine asked for the share screen's clock (`startShareClock`): it ends `seconds` on.
    public mutating func shareStarted(at now: Int64, seconds: Double) {
        shareEndsAt = now + Int64(seconds * 1e9)
    }

    /// One turn of the loop at `now`: the countdown's second, idle reset, the attract screen, the
    /// share screen's time up and the take's tick, each when it is due.
    public mutating func turn(at now: Int64, _ facts: Turn = Turn()) -> [Effect] {
        var effects: [Effect] = []
        if machine.mode == .countdown, now >= countdownNext {
            countdownNext += Self.second
            effects += handle(.countdownTick)
        }
        if !facts.exitDecided {
            idle.timeout = settings.idleTimeout
            if idle.isDue(mode: machine.mode, paused: machine.playbackPaused, playerAlone: machine.playerFile != nil, at: now) {
                effects.append(.log("idle for \(settings.idleTimeout) s: the take is reset (idle-action \(settings.idleAction.rawValue))"))
                effects += handle(.idleReset(settings.idleAction))
                effects.append(.redraw)
            }
        }
        attract.after = settings.attractAfter
        if attract.look(eligible: machine.mode == .ready && !machine.exiting && machine.playerFile == nil, at: now) {
            if attract.showing { effects.append(.log("attract screen: \(settings.attractAfter) s without a touch")) }
            effects.append(.redraw)
        }
        if let end = shareEndsAt {
            if machine.mode != .sharing {
                shareEndsAt = nil
            } else if now >= end {
                shareEndsAt = nil
                effects += handle(.shareTimedOut)
            }
        }
        if let take = facts.take, machine.mode == .recording {
            effects += handle(.tick(elapsed: take.elapsed, remaining: take.remaining))
        }
        return effects
    }
}
