// The booth core's one way in: everything that happens to the booth, as one input with the time as a
// value, and everything the booth does about it, as effects. The booth reads the clock once a turn
// and hands each input in with that time; it keeps no rule of its own about what an input means.
import KioskContract

extension BoothCore {
    /// What happens to the booth.
    public enum Input: Sendable {
        /// The booth is up: the machine starts (the camera asked for, the first state).
        case start
        /// An event for the machine: a press, a command, a signal, a worker's report of a take.
        case event(RecorderEvent)
        /// A guest's touch or key on the screen, or a command that presses (`swallow`: a touch,
        /// which must not also press what lies under it; `screen`: it came from the screen, or as
        /// a `tap`, and brings the player's controls back; the core says `.touchSpent` when it only
        /// woke the attract screen).
        case touch(swallow: Bool, screen: Bool = true)
        /// A tap on the picture, not on a button, at this point of the canvas (BoothCore+Screen).
        case focus(Point)
        /// A command from stdin or the control socket (`commanded`).
        case command(Command)
        /// One turn of the loop, with what the take measured.
        case turn(Turn)
        /// The booth posts a job to the file worker: the core gives it its id (`.file(.post)`).
        case filePosted
        /// A file job the core gave an id reported back (its report itself comes as its own input;
        /// a photo's job comes back with its outcome, `.photo`).
        case fileDone(FileJob)
        /// Events to say now, in order: a file job's (`handOver`: Use Video's hand-over, which the
        /// take's share and hook wait for: BoothCore+Share), a worker's, a command line's error.
        case say([KioskEvent], handOver: Bool = false)
        /// SIGHUP's reload, asked for and read (BoothCore+Reload).
        case reload(ReloadStep)
        /// A start of the camera in use ended (`failure`: why not; `open`: it is open now).
        case cameraStarted(failure: String?, open: Bool)
        /// The microphone opened as `name`, or did not (`failure`): at launch, or for a take.
        case microphoneTried(name: String? = nil, failure: String?)
        /// The launch's file work: what it found, and the hooks a previous run still owed.
        case launchFilesDone([KioskEvent], owed: [HookQueue.Entry])
        /// The camera switch's try of camera `index` ended.
        case cameraTried(index: Int, CameraRing.Attempt, name: String, label: String)
        /// An accepted take (or photo) owes its `--on-take` hook, or a deleted one its tombstone (`--on-delete`).
        case hookOwed(HookQueue.Entry)
        /// A hook's try ended (`hook`: `--on-take`'s, or a tombstone's `--on-delete`).
        case hookEnded(path: String, hook: HookKind = .take, outcome: HookOutcome)
        /// logind, SIGTSTP and systemd's watchdog.
        case service(ServiceInput)
        /// The slideshow's listing, and the end of the take it plays (BoothCore+Slideshow).
        case slideshow(SlideshowInput)
        /// A photo written or failed, its share folder written or failed (PhotoWait).
        case photo(PhotoInput)
        /// The live picture was drawn: while the encoder is behind, the next waits (TakeWatch).
        case previewShown
        /// The settings the rules read from now on (a reload's).
        case settings(Settings)
    }

    /// What the service manager and the terminal do to the booth.
    public enum ServiceInput: Equatable, Sendable {
        /// logind's PrepareForSleep (`true`: about to sleep, `false`: resumed): a take ends as on
        /// background, and the sleep goes on once it is safe (SafeStop).
        case sleep(Bool)
        /// SIGTSTP: as on background, and the process stops once the take is safe (SafeStop).
        case terminalStop
        /// A pass of the loop (before `ready` too): systemd's watchdog hears from it when due, and
        /// nothing else happens.
        case alive
    }

    /// `input`, happening at `now` (the monotonic clock's nanoseconds, read once a turn): what the
    /// booth does about it, in order.
    public mutating func handle(_ input: Input, at now: Int64) -> [Effect] {
        self.now = now
        if case .service(.alive) = input { return watchdogLook() }
        // After whatever it is, a sleep or a stop that waited for the take may go on, and a photo's
        // code waiting shows as soon as the machine is in ready.
        var effects = effects(of: input) + safeStop.look(writing: machine.mode == .recording)
        if let link = photo.codeDue(allowed: machine.photoShareAllowed) { effects += handle(.takeShared(link)) }
        // systemd hears STOPPING=1 once, as soon as the machine is on its way out.
        if machine.exiting, !stoppingSaid {
            stoppingSaid = true
            effects.append(.service(.stopping))
        }
        return effects
    }

    /// A command: a guest's press, start, seek, pause or pick keeps the finished screen awake (a touch
    /// off the screen; `state` does not); a tap is the screen's to route as a finger's touch, with the
    /// buttons it can press before it (none while the controls are hidden: it pauses and brings them
    /// back), unless it only woke the attract screen; a focus point and a screenshot are the screen's.
    private mutating func commanded(_ command: Command) -> [Effect] {
        switch command {
        case let .tap(point):
            let visible = pressable(at: now)
            return touched(at: now, swallow: true) ? [] : [.screen(.tap(point, visible: visible))]
        case let .focus(point): return [.screen(.focus(point))]
        case let .screenshot(path): return [.screen(.screenshot(path: path))]
        case let .take(change): return takeChanged(change)
        case .calibrate:
            guard machine.mode == .ready else { return [.emit(.error(code: .notAllowed, message: "'calibrate': only in ready, with no one in front of the backdrop"))] }
            return [.camera(.calibrate)]
        case .press, .start, .seek, .pause, .pick, .consentChoice: _ = touched(at: now, swallow: false, screen: false)
        case .rotate, .background, .foreground, .trim, .state, .quit, .closeBooth, .openBooth, .reload: break
        }
        guard let event = command.event else { return [] }
        return handle(event)
    }

    private mutating func effects(of input: Input) -> [Effect] {
        switch input {
        case .start: return start()
        case let .event(event): return handle(event)
        case let .touch(swallow, screen): return touched(at: now, swallow: swallow, screen: screen) ? [.touchSpent] : []
        case let .focus(point): return focus(at: point)
        case let .command(command): return commanded(command)
        case let .turn(facts): return turn(at: now, facts)
        case let .settings(settings):
            self.settings = settings
            return []
        case .filePosted: return [.file(.post(filePosted()))]
        case let .fileDone(job):
            photo.done(job)
            fileDone(job)
            return []
        case let .say(done, handOver): return said(done, handOver: handOver)
        case let .reload(step): return reload(step)
        case let .cameraStarted(failure, open): return cameraStarted(failure: failure, open: open)
        case let .microphoneTried(name, failure): return microphoneTried(name: name, failure: failure)
        case let .launchFilesDone(found, owed): return launchFilesDone(found, owed: owed, at: now)
        case let .cameraTried(index, attempt, name, label): return cameraTried(index, attempt, name: name, label: label, at: now)
        case let .hookOwed(entry): return hookOwed(entry, at: now)
        case let .hookEnded(path, hook, outcome): return hookEnded(path: path, hook: hook, outcome: outcome, at: now)
        case let .slideshow(step): return slideshowHears(step)
        case let .service(.sleep(sleeping)):
            // Before `ready` nothing records: a sleep is let go at once; the booth holds the message
            // and hands it in again after `ready`, where it is said and the background is in order.
            guard readyOut else {
                safeStop.beforeReady(sleeping: sleeping)
                return []
            }
            return safeStop.systemSleep(sleeping) + handle(sleeping ? .background : .foreground)
        case .service(.alive): return [] // answered before the rest (`handle`)
        case .service(.terminalStop):
            safeStop.terminalStop()
            return handle(.background)
        case let .photo(step): return photoHears(step)
        case .previewShown:
            take.previewShown(at: now)
            return []
        }
    }
}
