// The booth's rules as one value: the machine, the clocks the guest meets without touching anything
// (the countdown's seconds, idle reset, the attract screen, the share screen's time, the take's time
// left), the gate before `ready` (BoothCore+Ready), the outstanding work the exit waits for
// (BoothCore+Jobs), the camera switch (BoothCore+Cameras) and the encoder each take asks for. Every
// machine event goes through it. It is fed inputs with the time as a value (a touch, a command that
// presses, a turn of the loop carrying what the take measured, a worker's report) and returns what
// to do: the machine's actions, lines for the log, a new drawing, its own events, `ready`, a camera
// to try, the exit. The booth carries them out (its queues, its devices, SDL); the core never reads
// a clock and touches no device, so every rule here is tested by table on a virtual clock
// (BoothCoreTests).
import KioskContract

public struct BoothCore: Sendable {
    /// Whether the core carries `action` out itself, never passing it to the booth (`.machine`).
    public static func keeps(_ action: RecorderAction) -> Bool {
        switch action {
        case .switchCamera, .startShareClock, .startCountdownClock, .exit, .takePhoto, .discardTake, .keepTake, .shareTake,
             .handOverTake, .startRecording: true
        default: false
        }
    }

    /// What the booth does for the core.
    public enum Effect: Equatable, Sendable {
        /// One of the machine's actions, in the order the machine gave them; never one of those the
        /// core carries out itself (`keeps`): the camera switch (it says `.camera(.tryCamera)`), the
        /// countdown's and the share screen's clocks (started at its turn), the exit (which waits
        /// for the outstanding work), the photo (`.photo(.take)`, once it counted the photo out), the
        /// discard (`.file(.discard)`, saying whether the take is ours), the take's start and hand-over
        /// (`.file(.openTake)`, `.file(.handOver)`)
        /// and the share (which waits for the hand-over: `.file(.writeShare)`).
        case machine(RecorderAction)
        /// The photo: the shutter, or a request no picture took withdrawn (PhotoWait).
        case photo(PhotoEffect)
        /// The file worker's jobs the core decides: one counted out, a take discarded, a share folder.
        case file(FileEffect)
        /// A line for the log (stderr).
        case log(String)
        /// The screen: drawn again, or a command's tap, focus point or screenshot for it.
        case screen(ScreenEffect)
        /// An event the core says itself (a device's failure before `ready`, a camera failing later).
        case emit(KioskEvent)
        /// `ready` goes out: the booth says it (with the camera's name and size, the encoder the next
        /// take asks for, the microphone's name or `none`), tells systemd, then handles what it held
        /// meanwhile, in the order it came.
        case ready(encoder: VideoEncoderName, microphone: String?)
        /// The camera switch's steps (BoothCore+Cameras).
        case camera(CameraEffect)
        /// The touch only woke the attract screen: it presses nothing.
        case touchSpent
        /// The listening microphone (for the meter in ready and the countdown) is to run, or not.
        case listen(Bool)
        /// The `--on-take` hooks' queue saved, a try run, the running one asked to end (BoothCore+Jobs).
        case hook(HookEffect)
        /// The machine said exit and every file job and the running hook have reported back: the
        /// process leaves with this status (said once).
        case exit(Int32)
        /// What logind and systemd hear, and SIGTSTP's stop (SafeStop, STOPPING=1, WATCHDOG=1).
        case service(ServiceEffect)
        /// The attract screen's slideshow: list, play, stop (BoothCore+Slideshow).
        case slideshow(SlideshowEffect)
    }

    /// The settings the turn's rules read, as the configuration has them now (a reload changes them).
    public struct Settings: Equatable, Sendable {
        /// `--idle-timeout` (seconds, 0: never) and what it does.
        public var idleTimeout: Double
        public var idleAction: IdleAction
        /// `--attract-after` (seconds, 0: never), and `--attract-slideshow`.
        public var attractAfter: Double
        public var attractSlideshow: Bool
        /// `--video-encoder` (`auto` or a name), and what `auto` resolved to at launch (nil: nothing).
        public var encoder: VideoEncoderName
        public var autoEncoder: VideoEncoderName?
        /// `--share-seconds`: how long the share screen shows before it ends by itself.
        public var shareSeconds: Double
        /// `--share-dir` and its address are set: a take's share folder can be written.
        public var shares: Bool
        /// `--metrics-file` is set: the figures are written (BoothCore+Service).
        public var metrics: Bool
        /// `--max-duration`: a take's time left counts from it.
        public var maxDuration: Double
        /// `--loudness` (LUFS; nil: a take's sound is left as recorded).
        public var loudness: Double?
        /// `--on-take` (nil: no hook), `--on-delete` (nil: no tombstones) and `--hook-attempts` (nil: no limit).
        public var onTake: String?, onDelete: String?
        public var hookAttempts: Int?
        /// A microphone is asked for (`--microphone` is not `none`), and the booth listens to it for the
        /// meter between takes (a screen that shows the meter).
        public var microphone: Bool
        public var listensBetweenTakes: Bool
        /// `--questions` as read, and `--question-order` (the guestbook).
        public var questions: [String] = []
        public var questionOrder = QuestionOrder.order

        public init(idleTimeout: Double = 0, idleAction: IdleAction = .discard, attractAfter: Double = 0, attractSlideshow: Bool = false,
                    encoder: VideoEncoderName = .auto, autoEncoder: VideoEncoderName? = nil, shareSeconds: Double = 30,
                    shares: Bool = false, metrics: Bool = false,
                    onTake: String? = nil, hookAttempts: Int? = nil, microphone: Bool = false, listensBetweenTakes: Bool = false,
                    maxDuration: Double = 1200, questions: [String] = [], questionOrder: QuestionOrder = .order,
                    loudness: Double? = nil) {
            self.loudness = loudness
            self.questions = questions
            self.questionOrder = questionOrder
            self.shareSeconds = shareSeconds
            self.shares = shares
            self.metrics = metrics
            self.maxDuration = maxDuration
            self.microphone = microphone
            self.listensBetweenTakes = listensBetweenTakes
            self.onTake = onTake
            self.hookAttempts = hookAttempts
            self.idleTimeout = idleTimeout
            self.idleAction = idleAction
            self.attractAfter = attractAfter
            self.attractSlideshow = attractSlideshow
            self.encoder = encoder
            self.autoEncoder = autoEncoder
        }
    }

    /// What the booth measured for this turn: the running take's writer (nil: no take is running);
    /// the sync's wait of a writer being opened (read while the core has a take opening); when the microphone last gave sound (the meter's
    /// time of it); the whole process just stood still (nothing could be heard meanwhile).
    public struct Turn: Equatable, Sendable {
        public var take: TakeMeasures?
        public var openingWait: Double?
        public var lastSound: Int64?
        public var stallAftermath: Bool
        /// The meter's level now (dBFS), for `state`; nil: not measured.
        public var level: Double?
        /// The review's player has the screen's player surface (the slideshow waits).
        public var reviewPlays: Bool
        /// The booth's uptime and its camera as it runs, for `state`'s figures.
        public var running: StateFigures.Running?

        public init(take: TakeMeasures? = nil, openingWait: Double? = nil, lastSound: Int64? = nil,
                    stallAftermath: Bool = false, level: Double? = nil, reviewPlays: Bool = false, running: StateFigures.Running? = nil) {
            (self.take, self.openingWait, self.lastSound) = (take, openingWait, lastSound)
            (self.stallAftermath, self.level, self.reviewPlays, self.running) = (stallAftermath, level, reviewPlays, running)
        }
    }

    /// A second of the countdown, in the monotonic clock's nanoseconds.
    public static let second: Int64 = 1_000_000_000

    public var machine: RecorderMachine
    public internal(set) var settings: Settings
    /// `.stopping` was said.
    public internal(set) var stoppingSaid = false
    /// Idle reset: the finished screen (or a paused review, or the library) untouched.
    public private(set) var idle: IdleRule
    /// The attract screen: ready untouched for `--attract-after`; a touch wakes it.
    public private(set) var attract: AttractRule
    /// The countdown's and the share screen's clocks (the two the machine asks for).
    var clocks = GuestClocks()
    /// The countdown's next second (monotonic ns): `countdownTick` is due then.
    public var countdownNext: Int64 { clocks.countdownNext }
    /// When the share screen ends by itself (monotonic ns); nil: it does not.
    public var shareEndsAt: Int64? { clocks.shareEndsAt }
    /// What `ready` waits for (BoothCore+Ready). The gate holds no messages itself: the booth
    /// keeps what comes before `ready` in its own queue and handles it at `.ready`.
    var gate: ReadyGate<Never>
    /// The outstanding work the exit waits for: file jobs, the hooks owed and the one running
    /// (BoothCore+Jobs); the exit the machine asked for.
    public internal(set) var jobs = BoothJobs()
    /// The cameras: the one in use, the switch's order and the new one's name (BoothCore+Cameras).
    public internal(set) var ring: CameraRing
    /// The switch under way: from which camera (the one in use when it began); nil: none.
    var switchingFrom: Int?
    /// The encoders that stalled in a take (EncoderFallback): the next take asks for libx264
    /// in their place.
    public private(set) var encoders = EncoderFallback()
    /// The photo being taken and the flash (PhotoWait).
    public internal(set) var photo = PhotoWait()
    /// The microphone between and during takes: listening for the meter, silence in a take.
    public internal(set) var listener = MicrophoneRule()
    /// The running take's time left, slow disk and saving (TakeWatch).
    public internal(set) var take = TakeWatch()
    /// The machine's sleep and SIGTSTP, waiting for the take to be safe.
    public internal(set) var safeStop = SafeStop()
    /// The status line and the metrics' counts and pace (BoothCore+Service).
    public internal(set) var service = ServiceRoom()
    /// This run's take on disk, and Use Video's share and hook (BoothCore+Share).
    public internal(set) var handOver = HandOver()
    /// The guestbook's question asked now, and the one the latest take was made under.
    public internal(set) var guestbook: Guestbook
    /// The player's controls and the tap's focus box (BoothCore+Screen).
    public internal(set) var screen: ScreenRoom
    /// The time of the input being handled (`handle(_:at:)`), for the rules its actions start.
    var now: Int64

    /// `launchFiles`: `ready` waits for the launch's file work (`launchFilesDone`); `microphone`:
    /// for the look at the microphone (`microphoneTried`). It always waits for the camera's first
    /// attempt (`cameraStarted`). `hookBackoff`: the wait between a hook's tries. `cameras`: how
    /// many the switch goes round. `watchdogInterval`: systemd's watchdog wants `WATCHDOG=1` this often
    /// (ns; nil: no watchdog).
    public init(machine: RecorderMachine, settings: Settings = Settings(), now: Int64, launchFiles: Bool = false,
                microphone: Bool = false, hookBackoff: HookBackoff = HookBackoff(), cameras: Int = 1, seed: UInt64 = 0,
                watchdogInterval: Int64? = nil) {
        self.machine = machine
        service.watchdogInterval = watchdogInterval
        guestbook = Guestbook(seed: seed)
        guestbook.use(settings.questions, order: settings.questionOrder)
        self.now = now
        ring = CameraRing(count: cameras)
        self.settings = settings
        gate = ReadyGate(launchFiles: launchFiles, microphone: microphone)
        jobs.owed.backoff = hookBackoff
        idle = IdleRule(timeout: settings.idleTimeout, now: now)
        screen = ScreenRoom(now: now)
        attract = AttractRule(after: settings.attractAfter, now: now)
    }

    /// The attract screen shows.
    public var attracting: Bool { attract.showing }

    /// The video encoder the next take asks for (and `ready` names): `auto` as resolved at launch,
    /// a name as given, libx264 in place of one that stalled in an earlier take.
    public var nextEncoder: VideoEncoderName { encoders.next(configured: settings.encoder, auto: settings.autoEncoder) }

    /// An event for the machine; its actions as effects. Its exit is kept (`jobs.exitCode`): the
    /// core says `.exit` once the outstanding work has reported back (`turn`). A take that ended
    /// with its encoder stalled makes the next take ask for libx264 (said once an encoder).
    mutating func handle(_ event: RecorderEvent) -> [Effect] {
        var said: [Effect] = []
        if case let .recordingFinished(result) = event {
            // A file removed mid-take (its folder deleted): said, and never handed over.
            if let lost = result.lost { said.append(.emit(.error(code: .recordingFailed, message: lost))) }
            if let note = encoders.takeEnded(encoder: result.encoder.map(VideoEncoderName.init(rawValue:)), stalled: result.encoderStalled) {
                said.append(.log(note))
            }
        }
        if case .recordingStarted = event { take.started(maxDuration: settings.maxDuration) }
        if case .recordingFailed = event { take.openFailed() }
        said += handOverHears(event)
        serviceHears(event)
        let leaving = machine.exiting
        let actions = machine.handle(event)
        // A signal is why the booth ends (not a `quit` or an outcome before it): from now on, even
        // while a take is still being finished.
        if case .terminate = event, !leaving, machine.exiting { jobs.endedBySignal = true }
        return said + effects(of: actions) + reviewWork(after: event)
    }

    /// A take just finished to its review (not kept by a closing booth): the trimmer's pictures when its
    /// review shows the trimmer, then (with `--loudness`) its leveled copy made ahead, for an accepted
    /// video that was not lost.
    private func reviewWork(after event: RecorderEvent) -> [Effect] {
        guard case let .recordingFinished(result) = event, machine.mode == .finished else { return [] }
        var work: [Effect] = machine.trimmerView == nil ? [] : [.file(.trimPictures(result.outputPath))]
        if let loudness = settings.loudness, result.success, result.lost == nil, result.kind == .video {
            work.append(.file(.levelAhead(result.outputPath, loudness: loudness)))
        }
        return work
    }

    /// The machine starts (the camera asked for, the first state); its actions as effects.
    mutating func start() -> [Effect] {
        effects(of: machine.start())
    }

    private mutating func effects(of actions: [RecorderAction]) -> [Effect] {
        actions.flatMap { action -> [Effect] in
            switch action {
            case let .exit(code):
                jobs.exitCode = code
                return []
            case .switchCamera:
                return switchBegins()
            case .startCountdownClock:
                clocks.asked.countdown = true
                return []
            case .startShareClock:
                clocks.asked.share = true
                return []
            case let .startRecording(orientation):
                take.opening()
                guestbook.takeBegins()
                // The listening microphone closes first: the take opens the same device.
                return listener.takeBegins()
                    + [.file(.openTake(orientation: orientation, kind: machine.takeKind, encoder: nextEncoder, title: guestbook.take,
                                           comment: machine.takeConsent?.tag))]
            case let .emit(event):
                return [.machine(.emit(guestbook.stamped(completed(event))))]
            case .startPlayback:
                // The review starts with its controls showing, on the player's surface the slideshow
                // gives up first.
                screen.controls.touched(at: now)
                return slideshowYields() + [.machine(action)]
            case let .handOverTake(trim):
                // The next guest is asked the next question (the take's own is kept for its outcome).
                guestbook.handedOver()
                return [.file(handOverGoes(trim: trim))]
            case let .takePhoto(orientation, consent):
                guard !photo.busy else {
                    return [.emit(.error(code: .notAllowed, message: "'photo': the last photo is still being taken"))]
                }
                let job = jobs.filePosted()
                photo.asked(job, at: now, consent: consent)
                return [.photo(.take(orientation: orientation, job: job, written: photo.written, consent: consent))]
            default:
                return handOverAction(action) ?? [.machine(action)]
            }
        }
    }

    /// A guest's touch or key on the screen, or a command that presses (`swallow`: a touch, which
    /// must not also press what lies under it; `screen`: on the screen, which brings the player's
    /// controls back). True when it only woke the attract screen and is spent on that.
    mutating func touched(at now: Int64, swallow: Bool, screen: Bool = true) -> Bool {
        if screen { self.screen.controls.touched(at: now) }
        idle.touched(at: now)
        return attract.touched(at: now) && swallow
    }

    /// The clocks the machine asked for since the last turn start at `now`: the countdown's first
    /// tick a second on, the share screen's end `--share-seconds` on.
    private mutating func startAskedClocks(at now: Int64) {
        if clocks.asked.countdown { clocks.countdownNext = now + Self.second }
        if clocks.asked.share { clocks.shareEndsAt = now + Int64(settings.shareSeconds * 1e9) }
        clocks.asked = (false, false)
    }

    /// One turn of the loop at `now`: the countdown's second, idle reset, the attract screen, the
    /// share screen's time up and the take's tick, each when it is due; a running hook asked to end
    /// when a signal ends the booth; the exit once every file job and the running hook are back.
    mutating func turn(at now: Int64, _ facts: Turn = Turn()) -> [Effect] {
        self.now = now
        var effects: [Effect] = []
        guestbook.use(settings.questions, order: settings.questionOrder)
        // An exit the machine decides in this turn (an idle reset ending a once session) comes with
        // the work it still posts (the discard), carried out after this turn's effects: only a
        // turn after it may say `.exit`.
        let exitDecidedBefore = jobs.exitCode != nil
        if let running = facts.running { service.running = running }
        startAskedClocks(at: now)
        if machine.mode == .countdown, now >= clocks.countdownNext {
            clocks.countdownNext += Self.second
            effects += handle(.countdownTick)
        }
        if jobs.exitCode == nil {
            idle.timeout = settings.idleTimeout
            if idle.isDue(mode: machine.mode, paused: machine.playbackPaused, playerAlone: machine.playerFile != nil, at: now) {
                effects.append(.log("idle for \(settings.idleTimeout) s: the take is reset (idle-action \(settings.idleAction.rawValue))"))
                effects += handle(.idleReset(settings.idleAction))
                effects.append(.screen(.redraw))
            }
        }
        attract.after = settings.attractAfter
        if attract.look(eligible: machine.mode == .ready && !machine.exiting && machine.playerFile == nil, at: now) {
            if attract.showing { effects.append(.log("attract screen: \(settings.attractAfter) s without a touch")) }
            effects.append(.screen(.redraw))
        }
        if let end = clocks.shareEndsAt {
            if machine.mode != .sharing {
                clocks.shareEndsAt = nil
            } else if now >= end {
                clocks.shareEndsAt = nil
                effects += handle(.shareTimedOut)
            }
        }
        let (remaining, disk) = take.look(facts.take, openingWait: facts.openingWait)
        if let measured = facts.take, let remaining, machine.mode == .recording {
            effects += handle(.tick(elapsed: measured.elapsed, remaining: remaining))
            // A boomerang's writer finishing has all its pictures: the camera rests while the loop is made.
            if measured.finishingFor != nil, machine.takeKind == .boomerang, !machine.capturedAll { effects += handle(.captureEnded) }
        }
        switch disk {
        case .nothing: break
        case let .stillWaiting(waited): service.status.slowSyncGoesOn(waited)
        case let .say(message, waited):
            service.status.diskWasSlow(waited)
            effects += [.log("storage: \(message)"), .emit(.error(code: .storageSlow, message: message))]
        }
        if let job = photo.givenUp(at: now) { effects.append(.photo(.withdraw(job))) }
        effects += listener.look(machine: machine, settings: settings, facts, opening: take.isOpening, at: now)
        effects += dueHook(at: now)
        if jobs.stopHooks(signalled: jobs.endedBySignal) { effects.append(.hook(.stop)) }
        effects += serviceLook(at: now)
        if !jobs.exitSaid, exitDecidedBefore, let code = jobs.exitCode, jobs.isFinished {
            jobs.exitSaid = true
            // The figures as they end (every take and hook reported), whatever the pace.
            if settings.metrics { effects.append(.service(.metrics(figures, bytesPerSecond: service.bytesPerSecond, final: true))) }
            effects.append(.exit(code))
        }
        // The slideshow as the attract screen now is (a touch before this turn ended it: it stops
        // now, before the screen is drawn).
        return effects + slideshowLook(facts)
    }
}

/// The clocks the machine asks for: the countdown's next second and the share screen's end. Asked
/// for since the last turn, each starts at the next turn's time (the same turn of the booth's loop);
/// they never leave the core.
struct GuestClocks: Sendable {
    var countdownNext: Int64 = 0
    var shareEndsAt: Int64?
    var asked: (countdown: Bool, share: Bool) = (false, false)
}
