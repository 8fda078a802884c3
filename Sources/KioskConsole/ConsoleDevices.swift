// The console's Devices page as values: its routes (the cameras and microphones there are, the
// booth's screen as a picture, the 3 s test take and its frame), how often the booth is asked for a
// screenshot whatever the number of browsers watching (ScreenShots), and the test take's steps over
// the control socket (TrialTake): `start` with no countdown, only from ready; `stop` 3 s after
// `recordingStarted`; the take measured and its first frame kept; then `retake`, which deletes the
// file as the guest's Retake would, unless something else happened on the booth meanwhile (a guest
// who pressed Use Video keeps it). Switching the camera or the microphone is a setting
// (`PUT api/settings`), checked by the booth's parser and reloaded. Pure: tests drive them by table.
import FoundationEssentials

/// A Devices request the rules let through (`ConsoleDevicesStore` carries it out).
public enum DevicesRequest: Sendable, Equatable {
    /// `GET api/devices`: the cameras (`list-cameras`) and the microphones (ALSA).
    case list
    /// `GET api/screen`: the booth's screen as a JPEG.
    case screen
    /// `POST api/devices/trial`: the 3 s test take, audited.
    case trial(address: String)
    /// `GET api/devices/trial/frame`: the last test take's first frame (JPEG).
    case frame
}

/// What carries out the Devices requests: the executable's (a child `list-cameras`, ALSA's hints,
/// the booth's `screenshot`, the test take). A trial's answer comes with the audit log's result.
public protocol ConsoleDevicesStore: Sendable {
    func answer(_ request: DevicesRequest) -> (ConsoleResponse, result: String?)
}

extension ConsoleResponse {
    /// A picture the console made (a screen, a frame): a JPEG, never sniffed, framed or cached.
    public static func picture(_ jpeg: [UInt8]) -> ConsoleResponse {
        ConsoleResponse(status: 200, headers: ConsoleLive.fileHeaders(type: "image/jpeg"), body: jpeg)
    }
}

extension ConsoleRules {
    static let devicesPath = "/console/api/devices"
    static let screenPath = "/console/api/screen"

    static func isDevices(_ path: String) -> Bool {
        path == screenPath || path == devicesPath || path.hasPrefix(devicesPath + "/")
    }

    /// The decision on a Devices path (`isDevices`): reads need a session; the test take is a change
    /// (a session, the same origin, the CSRF token), refused and audited as every change is.
    static func decideDevices(_ request: ConsoleRequest, now: Double, signedIn: Bool, address: String,
                              change: (String) -> ConsoleResponse?) -> ConsoleDecision {
        guard signedIn else { return .answer(signInFirst, audit: nil) }
        let read = request.method == "GET" || request.method == "HEAD"
        switch request.path {
        case devicesPath: return read ? .devices(.list) : .answer(notAllowed(false), audit: nil)
        case screenPath: return read ? .devices(.screen) : .answer(notAllowed(false), audit: nil)
        case devicesPath + "/trial/frame": return read ? .devices(.frame) : .answer(notAllowed(false), audit: nil)
        case devicesPath + "/trial":
            guard request.method == "POST" else { return .answer(notAllowed(false), audit: nil) }
            if let refused = change("trial") {
                return .answer(refused, audit: AuditEntry(time: now, address: address, action: "trial", result: "refused \(refused.status)"))
            }
            return .devices(.trial(address: address))
        default: return .answer(notFound, audit: nil)
        }
    }
}

/// When the booth is asked for a new screenshot: at most one every `interval`, however many
/// browsers ask (each once a second); a browser asking sooner gets the last picture.
public struct ScreenShots: Sendable, Equatable {
    /// Half the page's refresh: a browser asking every second finds a newer picture each time.
    public static let interval: Double = 0.5
    /// When the last picture was taken (nil: none yet).
    public private(set) var takenAt: Double?

    public init() {}

    /// Whether a request at `now` needs a new screenshot.
    public func isStale(now: Double) -> Bool {
        guard let takenAt else { return true }
        return now - takenAt >= Self.interval || now < takenAt
    }

    public mutating func took(at now: Double) { takenAt = now }
}

/// The 3 s test take, step by step: fed the booth's event lines on one connection and the time,
/// it says what to send next, when to measure the take, and the answer.
public struct TrialTake: Sendable, Equatable {
    /// How long the test take records.
    public static let seconds: Double = 3
    /// How long each answer of the booth is waited for.
    public static let patience: Double = 5
    /// How often the booth's `state` is asked for its microphone level while recording.
    public static let levelEvery: Double = 0.1
    public static let startLine = #"{"command":"start","countdown":0}"#
    public static let stopLine = #"{"command":"stop"}"#
    public static let stateLine = #"{"command":"state"}"#
    public static let retakeLine = #"{"command":"retake"}"#

    public enum Step: Sendable, Equatable {
        /// Asked for the booth's state: a test take starts only from ready.
        case checking
        /// `start` sent, `recordingStarted` awaited.
        case starting
        /// Recording `path` since `since`; `stop` is sent `seconds` after.
        case recording(path: String, since: Double)
        /// `stop` sent, `recordingFinished` awaited.
        case stopping(path: String)
        /// The take finished: it is measured, then discarded.
        case finished(path: String)
        /// `retake` sent, the booth's ready awaited.
        case discarding
        /// Over: the answer is known.
        case over
    }

    /// What the glue does next.
    public enum Next: Sendable, Equatable {
        case send(String)
        /// Read the booth's next line, or time out, at `until`.
        case wait(until: Double)
        /// Measure the finished take at `path` (its sound, its first frame), then `measured()`.
        case measure(path: String)
        /// The answer (`TrialOutcome`).
        case done(TrialOutcome)
    }

    public private(set) var step: Step = .checking
    /// The highest microphone level the booth said while recording (dBFS); nil without a microphone.
    public private(set) var level: Double?
    public private(set) var duration: Double?
    public private(set) var success = false
    /// The take was measured.
    public private(set) var measuredTake = false
    /// Something else happened on the booth after the take finished (a guest used it): it is kept.
    public private(set) var kept = false
    /// The booth was back in ready after `retake`: the take is gone.
    public private(set) var discarded = false
    /// The refusal, or why it went wrong.
    private var failure: TrialOutcome.Failure?
    private var deadline: Double
    private var nextLevel: Double = 0
    /// The lines sent once (the first `state`, `start`).
    private var sent: Set<String> = []
    /// The `state` after `retake` was sent.
    private var askedAfterRetake = false

    public init(now: Double) { deadline = now + Self.patience }

    /// The events that say a guest acted on the finished take, or a new take began.
    static let guestActions: Set<String> = ["videoRecorderDidFinishRecordingVideoWithOutputPath", "playbackStarted", "recordingStarted",
                                            "videoRecorderDidCancelRecordingVideo"]


    /// The booth's line `text` heard at `now`.
    public mutating func hear(_ text: String, now: Double) {
        guard let line = try? JSONDecoder().decode(BoothLine.self, from: Data(text.utf8)) else { return }
        switch (step, line.event) {
        case (.checking, "state"):
            guard line.mode == "ready" else {
                return fail("notReady", "the booth is in \(line.mode ?? "?"), not ready: a test take would take a guest's turn; try again when the booth shows its Start button")
            }
            step = .starting
            deadline = now + Self.patience
        case (.starting, "recordingStarted"):
            step = .recording(path: line.outputPath ?? "", since: now)
            nextLevel = now
            deadline = now + Self.seconds
        case (.starting, "error"), (.checking, "error"):
            fail(line.code ?? "error", line.message ?? "the booth refused the test take")
        case (.recording, "state"), (.stopping, "state"):
            if let heard = line.microphoneLevel { level = max(level ?? -100, heard) }
        case let (.recording(path, _), "recordingFinished"), let (.stopping(path), "recordingFinished"):
            // Stopped by us, a limit or a guest's Stop: the take is finished either way.
            (duration, success) = (line.duration, line.success ?? false)
            step = .finished(path: line.outputPath ?? path)
        case (.discarding, "state"):
            // The retake's reply (another client's state, still finished, is passed over).
            if line.mode == "ready" { (discarded, step) = (true, .over) } else if line.mode != "finished" { (kept, step) = (true, .over) }
        case (.discarding, "error"):
            // Refused: the take is no longer on the finished screen (a guest used or played it).
            (kept, step) = (true, .over)
        case (.finished, let event) where Self.guestActions.contains(event), (.discarding, let event) where Self.guestActions.contains(event):
            // A guest touched the finished take (Use Video, Play) or a new one started: kept, never deleted.
            kept = true
            if step == .discarding { step = .over }
        default: break
        }
    }

    /// The take was measured (`Next.measure`).
    public mutating func measured() { measuredTake = true }

    /// What to do at `now`.
    public mutating func next(now: Double) -> Next {
        func once(_ line: String) -> Next? { sent.insert(line).inserted ? .send(line) : nil }
        switch step {
        case .checking:
            if let send = once(Self.stateLine) { return send }
        case .starting:
            if let send = once(Self.startLine) { return send }
        case let .recording(path, since):
            if now >= since + Self.seconds {
                step = .stopping(path: path)
                deadline = now + Self.patience
                return .send(Self.stopLine)
            }
            if now >= nextLevel {
                nextLevel = now + Self.levelEvery
                return .send(Self.stateLine)
            }
            return .wait(until: min(nextLevel, since + Self.seconds))
        case .stopping: break
        case let .finished(path):
            if !measuredTake { return .measure(path: path) }
            if kept {
                step = .over
                return next(now: now)
            }
            step = .discarding
            deadline = now + Self.patience
            return .send(Self.retakeLine)
        case .discarding:
            // The booth answers a command with no reply of its own; its `state` after it is the answer
            // (an `error` before it, when the retake is refused).
            if !askedAfterRetake {
                askedAfterRetake = true
                return .send(Self.stateLine)
            }
        case .over:
            return .done(outcome)
        }
        if now >= deadline {
            let waited = step
            step = .over
            if failure == nil { failure = TrialOutcome.Failure(code: "noAnswer", message: "the booth did not answer in \(Int(Self.patience)) s (\(waited.name))") }
            return .done(outcome)
        }
        return .wait(until: deadline)
    }

    private mutating func fail(_ code: String, _ message: String) {
        failure = TrialOutcome.Failure(code: code, message: message)
        step = .over
    }

    public var outcome: TrialOutcome {
        TrialOutcome(failure: failure, level: level,
                     duration: duration, success: success, measured: measuredTake, kept: kept, discarded: discarded)
    }
}

extension TrialTake.Step {
    var name: String {
        switch self {
        case .checking: "asking its state"
        case .starting: "waiting for the take to start"
        case .recording: "recording"
        case .stopping: "waiting for the take to finish"
        case .finished: "measuring"
        case .discarding: "waiting for ready after retake"
        case .over: "done"
        }
    }
}

/// What the test take came to.
public struct TrialOutcome: Sendable, Equatable {
    public struct Failure: Sendable, Equatable {
        public var code: String
        public var message: String
    }

    public var failure: Failure?
    public var level: Double?
    public var duration: Double?
    public var success: Bool
    public var measured: Bool
    public var kept: Bool
    public var discarded: Bool

    /// The answer: 200 with the figures (`loudness` in LUFS and `peak` in dBTP measured from the
    /// file, nil for silence or no sound; `frame` whether a first frame was kept; `discarded` once the
    /// booth was back in ready after the retake), or 409 (the booth
    /// refused: not in ready, a take in progress) or 504 (no answer), and the audit log's result.
    public func answer(loudness: Double?, peak: Double?, frame: Bool) -> (ConsoleResponse, result: String) {
        if let failure, !measured {
            let status = failure.code == "noAnswer" ? 504 : 409
            return (.json(status, "{\"ok\":false,\"error\":\(JSONText.string(failure.code)),\"message\":\(JSONText.string(failure.message))}"),
                    "refused \(failure.code)")
        }
        func number(_ value: Double?) -> String { value.map { String(($0 * 10).rounded() / 10) } ?? "null" }
        let text = "{\"ok\":true,\"duration\":\(number(duration)),\"success\":\(success),\"level\":\(number(level)),"
            + "\"loudness\":\(number(loudness)),\"peak\":\(number(peak)),\"frame\":\(frame),\"discarded\":\(discarded)}"
        return (.json(200, text), kept ? "ok kept" : discarded ? "ok" : "ok, the retake unconfirmed")
    }
}
