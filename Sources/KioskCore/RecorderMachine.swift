// The recorder's behaviour as a pure value: events in, actions out (docs/behaviour.md lists every
// transition and its test). No clocks, no devices, no SDL here; time arrives as `tick` events.
// This file holds its state and its handling of events; the events and actions themselves are in
// RecorderEvents.swift, what it shows (view model, buttons, timer, `state`) in RecorderView.swift.
import KioskContract

/// The recorder's state machine: `handle(_:)` takes an event and returns the actions.
public struct RecorderMachine: Equatable, Sendable {
    /// What the machine is doing, with what matters only in that mode.
    public enum State: Equatable, Sendable {
        case ready
        /// Start was pressed: the take begins when `remaining` reaches zero.
        case countdown(remaining: Int)
        case recording(Recording)
        /// The last take, waiting for Retake, Use Video or Play Video.
        case finished(RecordingResult)
        case playing(Playing)
        /// `--share-dir`: the take was used; its share folder is being written (`link` nil) or its
        /// QR code is on screen.
        case sharing(link: ShareLink?)
        /// `--library`: the takes already made, or one's review (LibraryRoom).
        case library(LibraryRoom)
        /// `closeBooth`: "back soon" until `openBooth` (RecorderMachine+Closed.swift).
        case closed
        /// `--consent`: its screen, before a take or a photo (RecorderMachine+Consent.swift).
        case consent(ConsentSwitches, for: ConsentAsked)
    }

    /// A take in progress.
    public struct Recording: Equatable, Sendable {
        /// The writer confirmed the take started.
        public var confirmed = false
        /// A stop was asked for; the writer is finalizing (or will, once it has started).
        public var stopRequested: StopReason?
        /// Seconds recorded, from the writer's clock.
        public var elapsed: Double = 0
        /// Seconds left before a limit (duration, file size, free disk) ends the take.
        public var remaining: Double?
        /// A boomerang's pictures are all taken (its loop is being made): the camera rests.
        public var captured = false
        /// `closeBooth` stopped it: the booth closes once it is finished (and kept).
        public var closing = false
    }

    /// The take playing.
    public struct Playing: Equatable, Sendable {
        public var take: RecordingResult
        public var position: Double = 0
        public var duration: Double
        public var paused = false
        /// A take from the library: the player closes back to its review, not to finished.
        public var library: LibraryRoom?
    }

    /// On the way out: `leaving` until nothing is in flight, then `exitSent`.
    public enum Exit: Equatable, Sendable {
        case leaving(signal: String?, code: Int32)
        case exitSent
    }

    /// `once` or `loop`; a reload may change it (in ready).
    public private(set) var session: SessionMode
    public let outputPath: String
    /// Seconds counted down before a take (`--countdown`; 0: none); a reload may change it.
    public private(set) var countdownSeconds: Int
    /// Under this many seconds left, the timer counts down in red (`--warn-remaining`; 0: never).
    public private(set) var warnRemaining: Double
    /// `--play FILE`: the playing mode alone, on this file. Close or the file's end exits (1 after
    /// an error); no camera, no take.
    public let playerFile: String?

    /// Set here and by the library's rules (RecorderMachine+Library.swift).
    public internal(set) var state: State = .ready
    public private(set) var orientation: Orientation
    /// A rotation asked for while rotating is not allowed, applied on the next return to ready.
    public private(set) var pendingOrientation: Orientation?
    public private(set) var cameraAvailable = true
    public private(set) var inBackground = false
    /// The process is on its way out (an outcome in `once`, a signal, `quit`).
    public private(set) var exit: Exit?
    /// Whether the camera was last told to run; `reconcile` keeps it equal to `cameraWanted`.
    public private(set) var cameraRunning = false
    /// A reload accepted while not in ready, applied on the next return to ready.
    public private(set) var pendingSettings: MachineSettings?
    /// How many cameras the booth may switch between (`--camera` repeated, or `auto` finding
    /// several); the switch button shows in ready when there is more than one.
    public let cameraCount: Int
    /// A camera switch is under way (from the press to `cameraSwitched`): no Start, and no second
    /// switch, until it is done.
    public private(set) var cameraSwitching = false
    /// `--share-dir`: Use Video leads to the share screen; a reload may change it.
    public private(set) var shares: Bool
    /// The buttons a booth adds (`--photo-button`, `--boomerang-button`, `--library`).
    public var extras = ExtraButtons()
    /// What the last Record or Boomerang asked for: the take the writer opens, its events' `kind`; and the
    /// consent it was made under (set by Agree; nil: made without `--consent`).
    var asked = TakeAsked()
    public var takeKind: TakeKind { asked.kind }
    public var takeConsent: Consent? { asked.consent }
    /// `--trim`: the review has a trimmer and takes `trim`; a reload may change it.
    public private(set) var trims: Bool
    /// The finished take's trim (`--trim`): Use Video delivers only this part. Set in finished,
    /// gone with the take.
    public private(set) var trim: TrimRange?

    public init(session: SessionMode, outputPath: String, orientation: Orientation, countdown: Int = 0, warnRemaining: Double = 10,
                cameraCount: Int = 1, shares: Bool = false, trims: Bool = false, consent: ConsentOffer? = nil) {
        extras.consent = consent
        self.cameraCount = cameraCount
        self.trims = trims
        self.shares = shares
        self.session = session
        self.outputPath = outputPath
        countdownSeconds = countdown
        self.warnRemaining = warnRemaining
        self.orientation = orientation
        playerFile = nil
    }

    /// The player alone (`--play FILE`): the same playing mode as the booth's, which begins at once.
    public init(playing file: String, orientation: Orientation) {
        cameraCount = 1
        shares = false
        trims = false
        session = .once
        outputPath = file
        countdownSeconds = 0
        warnRemaining = 0
        self.orientation = orientation
        playerFile = file
        state = .playing(Playing(take: RecordingResult(outputPath: file, duration: 0, bytes: 0, reason: .user, success: true),
                                 duration: 0))
    }

    /// The mode the screen and the `state` event show.
    public var mode: Mode {
        switch state {
        case .ready: .ready
        case .countdown: .countdown
        case .recording: .recording
        case .finished: .finished
        case .playing: .playing
        case .sharing: .sharing
        case .library: .library
        case .closed: .closed
        case .consent: .consent
        }
    }

    public var exiting: Bool { exit != nil }
    public var playbackPaused: Bool { if case let .playing(p) = state { p.paused } else { false } }
    /// The playing file's length in seconds (0 while unknown, and outside the playing mode).
    public var playbackDuration: Double { if case let .playing(p) = state { p.duration } else { 0 } }

    /// The actions to start with: the camera, or for the player alone its file.
    public mutating func start() -> [RecorderAction] {
        var actions: [RecorderAction] = []
        if let playerFile { actions += [.startPlayback(path: playerFile), .emit(.playbackStarted(path: playerFile))] }
        reconcile(&actions)
        return actions
    }

    /// The camera runs while its picture is live (`Mode.live`), in the foreground, until the process
    /// leaves; a boomerang that has all its pictures lets it rest.
    var cameraWanted: Bool {
        !exiting && !inBackground && mode.live && !(mode == .recording && capturedAll)
    }

    /// Rotation is allowed only while the camera runs and nothing records.
    var rotationAllowed: Bool { mode == .ready && cameraWanted && cameraAvailable }

    // MARK: - Events

    public mutating func handle(_ event: RecorderEvent) -> [RecorderAction] {
        if case let .idleReset(asked) = event { return idleReset(asked) }
        if exit == .exitSent { return [] }
        var actions: [RecorderAction] = []
        switch event {
        case let .press(button): press(button, &actions)
        case let .start(seconds):
            guard visibleButtons.contains(.start) else { press(.start, &actions); break }
            begin(countdown: seconds, &actions)
        case .countdownTick:
            if case let .countdown(remaining) = state {
                if remaining > 1 {
                    state = .countdown(remaining: remaining - 1)
                    actions += [.emit(.countdown(remaining: remaining - 1)), .playSound(.tick)]
                } else {
                    beginTake(&actions)
                }
            }
        case let .tick(seconds, remaining):
            if case var .recording(r) = state, r.stopRequested == nil {
                r.elapsed = max(r.elapsed, seconds)
                if let remaining { r.remaining = max(remaining, 0) }
                state = .recording(r)
            }
        case let .recordingStarted(path):
            if case var .recording(r) = state, !r.confirmed {
                r.confirmed = true
                state = .recording(r)
                actions.append(.emit(.recordingStarted(outputPath: path, kind: takeKind)))
                // A stop asked for while the writer opened (a signal, the background, a lost
                // camera) goes to the writer now; otherwise the take really begins: its sound.
                if let reason = r.stopRequested {
                    actions.append(.stopRecording(reason))
                } else {
                    actions.append(.playSound(.begin))
                }
            }
        case let .recordingFailed(code, message):
            if case let .recording(r) = state, !r.confirmed {
                // Nothing was recorded: back to ready, the camera still runs (closed, when closing).
                state = .ready
                actions.append(.emit(.error(code: code, message: message)))
                if r.closing, !exiting { closeBooth(&actions) }
            }
        case let .recordingFinished(result):
            finishRecording(result, &actions)
        case .captureEnded:
            endCapture()
        case .background:
            guard !inBackground else { break }
            inBackground = true
            switch state {
            case .recording: requestStop(.background, &actions)
            case var .playing(p):
                if !p.paused {
                    p.paused = true
                    state = .playing(p)
                    actions.append(.setPlaybackPaused(true))
                }
            case .countdown, .consent: state = .ready // the guest left: no take starts
            case .ready, .finished, .sharing, .library, .closed: break
            }
        case .foreground:
            inBackground = false
        case let .rotate(requested):
            rotate(to: requested, &actions)
        case .cameraLost:
            cameraAvailable = false
            if case .countdown = state { state = .ready }
            requestStop(.deviceDisconnected, &actions)
        case .cameraBack:
            cameraAvailable = true
        case let .playbackProgress(position, duration):
            if case var .playing(p) = state {
                p.position = position
                p.duration = duration
                state = .playing(p)
            }
        case let .playbackEnded(reason):
            if case let .playing(p) = state {
                state = p.library.map(State.library) ?? .finished(p.take)
                actions.append(.emit(.playbackFinished(reason: reason)))
                if playerFile != nil, !exiting { exit = .leaving(signal: nil, code: reason == .error ? 1 : 0) }
            }
        case .togglePause:
            if case var .playing(p) = state {
                p.paused.toggle()
                state = .playing(p)
                actions.append(.setPlaybackPaused(p.paused))
            }
        case let .pause(paused):
            guard case var .playing(p) = state, !exiting else { refuse(paused ? "pause" : "resume", &actions); break }
            if p.paused != paused {
                p.paused = paused
                state = .playing(p)
                actions.append(.setPlaybackPaused(paused))
            }
        case let .seek(position):
            guard case var .playing(p) = state, !exiting else { refuse("seek", &actions); break }
            // Within the file (its length once known); the picture there shows, paused or not.
            let target = min(max(position, 0), p.duration > 0 ? p.duration : .infinity)
            p.position = target
            state = .playing(p)
            actions.append(.seekPlayback(to: target))
        case let .trim(range):
            setTrim(range, &actions)
        case .stateQuery:
            actions.append(.emit(stateEvent))
        case let .consentChoice(choice, on): setConsent(choice, on: on, &actions)
        case .closeBooth: closeBooth(&actions)
        case .openBooth: openBooth(&actions)
        case let .terminate(signal):
            leave(signal: signal, stopping: .signal, &actions)
        case .quit:
            leave(signal: nil, stopping: .user, &actions)
        case .parentGone:
            leave(signal: nil, stopping: .parentGone, &actions)
        case let .reload(settings):
            // The player alone has nothing to reload; a booth on its way out has no next take.
            guard playerFile == nil, !exiting else { break }
            pendingSettings = settings
            if let requested = settings.orientation { rotate(to: requested, &actions) }
        case .cameraSwitched:
            cameraSwitching = false
        case .idleReset:
            break // handled above
        case let .takeShared(link):
            if link.photo != nil { showPhotoShare(link, &actions); break }
            guard case .sharing(nil) = state, !exiting else { return sharedWhileClosed(.takeShared(url: link.url, token: link.token, folder: link.folder)) }
            state = .sharing(link: link)
            actions += [.emit(.takeShared(url: link.url, token: link.token, folder: link.folder)), .startShareClock]
        case let .shareFailed(message):
            guard case .sharing(nil) = state else { return sharedWhileClosed(.error(code: .shareFailed, message: message)) }
            actions.append(.emit(.error(code: .shareFailed, message: message)))
            if !exiting { outcome(&actions) }
        case .shareTimedOut:
            // The clock starts with the QR code on screen; one from an earlier share means nothing.
            if case .sharing(_?) = state, !exiting { endShare(&actions) }
        case let .pick(path):
            pick(path, &actions)
        case let .libraryListed(entries, leftOut):
            if case var .library(room) = state, room.entries == nil {
                room.entries = entries
                room.leftOut = leftOut
                state = .library(room)
            }
        }
        reconcile(&actions)
        return actions
    }

    /// Rotates now when allowed, otherwise keeps the request for the next return to ready.
    private mutating func rotate(to requested: Orientation, _ actions: inout [RecorderAction]) {
        if rotationAllowed {
            pendingOrientation = nil
            if requested != orientation {
                orientation = requested
                actions += [.applyOrientation(requested), .emit(.orientationChanged(orientation: requested))]
            }
        } else {
            pendingOrientation = requested == orientation ? nil : requested
        }
    }

    /// A control that is not on screen now: `notAllowed`, and nothing changes.
    func refuse(_ name: String, _ actions: inout [RecorderAction]) {
        actions.append(.emit(.error(
            code: .notAllowed,
            message: "'\(name)' is not on screen in \(mode.rawValue) mode"
                + " (visible: \(visibleButtons.map(\.rawValue).joined(separator: ", ")))")))
    }

    private mutating func press(_ button: Button, _ actions: inout [RecorderAction]) {
        guard visibleButtons.contains(button) else { return refuse(button.rawValue, &actions) }
        if case .library = state { return pressInLibrary(button, &actions) }
        switch (button, state) {
        case (.cancel, .countdown):
            // Cancel during the count stops the count; the session goes on.
            state = .ready
        case (.cancel, _):
            actions.append(.emit(.videoRecorderDidCancelRecordingVideo))
            outcome(&actions)
        case (.start, _), (.boomerang, _):
            begin(countdown: countdownSeconds, kind: button == .boomerang ? .boomerang : .video, &actions)
        case (.stop, _):
            requestStop(.user, &actions)
        case (.retake, _):
            state = .ready
            trim = nil
            actions.append(.discardTake)
        case (.useVideo, _):
            actions.append(.handOverTake(trim: trim))
            // With sharing the session's end waits for the share screen's.
            if shares, Consent.allows(takeConsent?.choices, .share) {
                state = .sharing(link: nil)
                actions.append(.shareTake)
            } else {
                outcome(&actions)
            }
        case (.done, _):
            endShare(&actions)
        case let (.playVideo, .finished(take)):
            state = .playing(Playing(take: take, duration: take.duration))
            actions += [.startPlayback(path: take.outputPath), .emit(.playbackStarted(path: take.outputPath))]
        case let (.closePlayer, .playing(p)):
            state = p.library.map(State.library) ?? .finished(p.take)
            actions += [.stopPlayback, .emit(.playbackFinished(reason: .closed))]
            if playerFile != nil { exit = .leaving(signal: nil, code: 0) }
        case (.switchCamera, _):
            cameraSwitching = true
            actions.append(.switchCamera)
        case (.photo, _):
            if !askedConsent(for: .photo) { actions.append(.takePhoto(orientation: orientation, consent: mode == .recording ? takeConsent : nil)) }
        case (.openLibrary, _):
            state = .library(LibraryRoom())
            actions.append(.listLibrary)
        case (.agree, _), (.decline, _):
            answerConsent(agreed: button == .agree, &actions)
        case (.playVideo, _), (.closePlayer, _), (.back, _):
            break // not visible outside finished, playing and the library
        }
    }

    /// Start: the countdown, or with none the take at once.
    mutating func begin(countdown seconds: Int, kind: TakeKind = .video, _ actions: inout [RecorderAction]) {
        if askedConsent(for: .take(countdown: seconds, kind: kind)) { return }
        if case .ready = state { asked.consent = nil }
        asked.kind = kind
        guard seconds > 0 else { return beginTake(&actions) }
        state = .countdown(remaining: seconds)
        actions += [.emit(.countdown(remaining: seconds)), .playSound(.tick), .startCountdownClock]
    }

    private mutating func beginTake(_ actions: inout [RecorderAction]) {
        state = .recording(Recording())
        trim = nil
        // The begin sound waits for the writer's start: a take that fails to start plays none.
        actions += [.discardTake, .startRecording(orientation: orientation)]
    }

    mutating func requestStop(_ reason: StopReason, _ actions: inout [RecorderAction]) {
        guard case var .recording(r) = state, r.stopRequested == nil else { return }
        r.stopRequested = reason
        state = .recording(r)
        actions.append(.stopRecording(reason))
    }

    private mutating func finishRecording(_ result: RecordingResult, _ actions: inout [RecorderAction]) {
        guard case let .recording(r) = state else { return }
        state = .finished(result)
        if !exiting { actions.append(.playSound(.end)) }
        actions.append(.emit(.recordingFinished(result)))
        if case let .leaving(signal?, _) = exit { actions.append(.emit(.terminated(signal: signal))) }
        if r.closing, !exiting { closeBooth(&actions) }
    }

    /// `trim`: only in finished with `--trim` (else `notAllowed`); one that keeps under 0.5 s or leaves the take is
    /// refused (`badCommand`) and the trim stays as it was. The whole take is no trim at all.
    private mutating func setTrim(_ range: TrimRange, _ actions: inout [RecorderAction]) {
        // The trimmer is on screen only there, like a button.
        guard trimmerView != nil, case let .finished(take) = state else { return refuse("trim", &actions) }
        if let refusal = range.refusal(takeDuration: take.duration) {
            return actions.append(.emit(.error(code: .badCommand, message: refusal)))
        }
        trim = range.isWhole(takeDuration: take.duration) ? nil : range
    }

    /// After Use Video or Cancel: exit (`once`) or back to ready for the next guest (`loop`).
    mutating func outcome(_ actions: inout [RecorderAction]) {
        trim = nil
        switch session {
        case .once: exit = .leaving(signal: nil, code: 0)
        case .loop: state = .ready
        }
    }

    /// A signal, `quit` or the parent gone: a recording is finished cleanly first (with `reason`),
    /// then the process exits 0.
    private mutating func leave(signal: String?, stopping reason: StopReason, _ actions: inout [RecorderAction]) {
        guard !exiting else { return }
        exit = .leaving(signal: signal, code: 0)
        switch state {
        case .recording:
            requestStop(reason, &actions)
            return // `terminated` follows the recording's end
        case let .playing(p):
            // Every playbackStarted has its playbackFinished.
            state = p.library.map(State.library) ?? .finished(p.take)
            actions += [.stopPlayback, .emit(.playbackFinished(reason: .closed))]
        case .countdown, .consent:
            state = .ready
        case .ready, .finished, .sharing, .library, .closed:
            break
        }
        if let signal { actions.append(.emit(.terminated(signal: signal))) }
    }

    /// Brings the camera, a pending rotation and a pending reload in line with the state, and ends
    /// with `exit` once nothing is left in flight.
    mutating func reconcile(_ actions: inout [RecorderAction]) {
        if let pending = pendingOrientation, rotationAllowed {
            pendingOrientation = nil
            if pending != orientation {
                orientation = pending
                actions += [.applyOrientation(pending), .emit(.orientationChanged(orientation: pending))]
            }
        }
        if let settings = pendingSettings, mode == .ready || mode == .closed, !exiting {
            pendingSettings = nil
            session = settings.session
            shares = settings.shares
            trims = settings.trims
            countdownSeconds = settings.countdown
            warnRemaining = settings.warnRemaining
            consent = settings.consent
            actions.append(.applyReload)
        }
        if cameraWanted != cameraRunning {
            cameraRunning = cameraWanted
            actions.append(cameraRunning ? .startCamera : .stopCamera)
        }
        if case let .leaving(_, code) = exit, mode != .recording {
            exit = .exitSent
            actions.append(.exit(code: code))
        }
    }
}
