// What goes into the recorder's machine and what comes out of it (RecorderMachine.swift): the
// events it takes, the actions it returns, and the modes, sessions and sounds they name.
import KioskContract

/// The screen's modes.
public enum Mode: String, CaseIterable, Codable, Sendable {
    case ready, countdown, recording, finished, playing
    /// `--share-dir`: after Use Video, the QR code for the guest's phone (Done, or `--share-seconds`, ends it).
    case sharing
    /// `--library`: the output folder's takes, or one's review (LibraryRoom).
    case library
    /// `closeBooth`: the operator closed the booth; "back soon", no buttons (RecorderMachine+Closed).
    case closed
    /// `--consent`: the consent text before the countdown, Agree and No thanks (RecorderMachine+Consent).
    case consent

    /// The camera's live picture is on screen (and the guest before it): ready, the countdown and
    /// the take. The last picture stays frozen after.
    public var live: Bool { [.ready, .countdown, .recording, .consent].contains(self) }
}

/// What to do after an outcome (Use Video or Cancel): exit, or go back to ready for the next guest.
public enum SessionMode: String, CaseIterable, Codable, Sendable {
    case once, loop
}

/// The short system-like sounds (iOS 1117 / 1118), and the countdown's tick.
public enum Sound: String, CaseIterable, Sendable {
    case begin, end, tick
    /// The camera's shutter, when a photo is taken.
    case shutter
}

/// Everything that can happen to the recorder.
public enum RecorderEvent: Equatable, Sendable {
    /// A button press, from a touch, a click, a key or a stdin command.
    case press(Button)
    /// Start with a countdown of its own (`{"command":"start","countdown":N}`; 0: none).
    case start(countdown: Int)
    /// A second of the countdown has passed (the booth's clock, once a second after it began).
    case countdownTick
    /// Seconds recorded so far, from the writer's clock (moves the timer), and the seconds left
    /// before a limit stops the take (nil: not known yet).
    case tick(elapsed: Double, remaining: Double? = nil)
    /// The writer opened the file and is recording.
    case recordingStarted(outputPath: String)
    /// The writer could not start (no disk space, encoder failure, …); nothing was recorded.
    case recordingFailed(code: ErrorCode, message: String)
    /// The writer finalized the file (after a stop asked for, or on its own: a limit, a full disk).
    case recordingFinished(RecordingResult)
    /// A boomerang's writer has all its pictures and makes its loop: the camera may rest.
    case captureEnded
    case background
    case foreground
    case rotate(Orientation)
    case cameraLost
    case cameraBack
    case playbackProgress(position: Double, duration: Double)
    /// The player stopped by itself: the end of the file, or an error.
    case playbackEnded(PlaybackEndReason)
    /// A tap on the playing video: pause or resume.
    case togglePause
    /// The player: pause (`true`) or resume (`false`) (the `pause` command).
    case pause(Bool)
    /// The player: go to `position` seconds (the progress bar, the `seek` command). A pause stays.
    case seek(position: Double)
    /// `--trim`, in finished: the part of the take Use Video delivers (the `trim` command, the
    /// trimmer's handles). Refused with `badCommand` when shorter than 0.5 s or outside the take.
    case trim(TrimRange)
    /// The `state` command.
    case stateQuery
    /// `{"command":"consentChoice","choice":C,"on":B}` or a tap on its switch: on the consent screen only.
    case consentChoice(ConsentChoice, on: Bool)
    /// `closeBooth`, `openBooth`: the operator closes the booth to guests, or opens it again.
    case closeBooth, openBooth
    /// SIGTERM or SIGINT: finish any recording cleanly and exit 0.
    case terminate(signal: String)
    /// The `quit` command: like a signal, without the `terminated` event.
    case quit
    /// The parent closed its end of stdout: like `quit`, and a take in progress ends with reason
    /// `parentGone` (kept with its marker).
    case parentGone
    /// SIGHUP's new settings, read and accepted by the booth (the machine's part of them): applied in
    /// ready (at once, or on the next return to ready), a newer reload replacing one still waiting.
    /// Its orientation, when it names one, is asked for as a `rotate` would.
    case reload(MachineSettings)
    /// The camera switch the machine asked for (`switchCamera`) is done, or came to nothing.
    case cameraSwitched
    /// The finished screen (or the review) was left untouched for `--idle-timeout`: the take is
    /// used (when it can be, and `use` is asked) or discarded (in a once session, then Cancel), as
    /// the presses would, after the `idleReset` event that says which. Elsewhere: nothing.
    case idleReset(IdleAction)
    /// The share folder of the take just used is written (`takeShared` follows; the QR code shows).
    /// A photo's link (`photo` set; its `takeShared` was said when its folder was written) shows its
    /// QR code only in ready (RecorderMachine+PhotoShare.swift); its Done goes back to ready.
    case takeShared(ShareLink)
    /// The share folder could not be written: an `error` `shareFailed`, and the session goes on
    /// as after Use Video without sharing.
    case shareFailed(message: String)
    /// The share screen was shown for `--share-seconds`: as Done.
    case shareTimedOut
    /// `{"command":"pick","path":P}` or a tap on a cell of the library: that take's review.
    case pick(path: String)
    /// The library's takes (the newest that decode) and how many older ones it leaves out.
    case libraryListed([LibraryEntry], leftOut: Int = 0)
}

/// What the executable must carry out, in order.
public enum RecorderAction: Equatable, Sendable {
    case startCamera
    case stopCamera
    /// The switch button: the next camera (one that cannot open now is passed over).
    case switchCamera
    /// Remove the previous take before a new one (or move an interrupted one aside).
    case discardTake
    /// The booth closed over a finished take: kept as a take nobody decided on (as recovered), never deleted.
    case keepTake
    /// Use Video: give the take to the parent (in a loop session under a name of its own, so the
    /// next guest's Start cannot delete it) and report its path with
    /// `videoRecorderDidFinishRecordingVideoWithOutputPath`. The parent then owns the file. `trim`
    /// (`--trim`): the take is cut to this part first (TakeTrim, on the file worker); its outcome
    /// event says `trimmed` and the delivered `duration`.
    case handOverTake(trim: TrimRange? = nil)
    /// `--share-dir`: after the hand-over, write the take's share folder (on the file worker) and
    /// answer with `takeShared` or `shareFailed`.
    case shareTake
    /// The share screen is up: send `shareTimedOut` after `--share-seconds` (a new one replaces it).
    case startShareClock
    /// The shutter (`photo`): the camera's next picture becomes a JPEG, turned upright for this
    /// orientation; the screen flashes and the shutter sounds. Not a change of mode. `consent`: the
    /// consent it is taken under (`--consent`: agreed to before it, or the take's mid-take; nil: none).
    case takePhoto(orientation: Orientation, consent: Consent? = nil)
    /// Start writing; the orientation is the interface's at the start of the take.
    case startRecording(orientation: Orientation)
    /// The countdown began: send `countdownTick` once a second from now.
    case startCountdownClock
    case stopRecording(StopReason)
    case playSound(Sound)
    case startPlayback(path: String)
    case setPlaybackPaused(Bool)
    /// Go to this position (seconds from the start): the picture there shows, paused or not.
    case seekPlayback(to: Double)
    case stopPlayback
    /// Lay the screen out for this orientation now.
    case applyOrientation(Orientation)
    /// Put the reload the booth holds (its latest) in force now (the booth is in ready; nothing
    /// records).
    case applyReload
    /// `openLibrary`: list the output folder's takes on the file worker (`libraryListed` follows).
    case listLibrary
    /// The library closed (back to ready, or its take used): its thumbnails' memory goes.
    case releaseLibrary
    case emit(KioskEvent)
    case exit(code: Int32)
}

/// What of a reloaded configuration the machine itself reads: the booth keeps the whole of it
/// (KioskOptions makes this part of it: `machineSettings`) and puts it in force when the
/// machine says `applyReload`.
public struct MachineSettings: Equatable, Sendable {
    /// `--session`.
    public var session: SessionMode
    /// `--share-dir` is set: Use Video leads to the share screen.
    public var shares: Bool
    /// `--trim`: the review has a trimmer.
    public var trims: Bool
    /// `--countdown`, in seconds.
    public var countdown: Int
    /// `--warn-remaining`, in seconds; 0: never.
    public var warnRemaining: Double
    /// `--orientation`; nil: the display's own (no rotation asked for).
    public var orientation: Orientation?
    /// `--consent`: the consent screen before each take; nil: none.
    public var consent: ConsentOffer?

    public init(session: SessionMode, shares: Bool, trims: Bool, countdown: Int, warnRemaining: Double, orientation: Orientation?,
                consent: ConsentOffer? = nil) {
        self.consent = consent
        self.session = session
        self.shares = shares
        self.trims = trims
        self.countdown = countdown
        self.warnRemaining = warnRemaining
        self.orientation = orientation
    }
}
