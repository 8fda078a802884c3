// Pairing a phone with the operator's console from the booth's screen, as a value fed taps and the
// time: five taps in the top-left corner within 3 s open the keyboard (and nothing else: no tap,
// long press or gesture shows a code); the operator's password typed there is checked by the booth
// (against the console's password file); only a right one gives a one-time code, shown as a QR
// code for 2 minutes. A wrong one closes the keyboard and counts: after 5 in a minute the corner
// opens nothing until the minute has passed. Times are CLOCK_MONOTONIC nanoseconds.
import KioskCore

/// What the booth carries out for the rule.
public enum PairingEffect: Equatable, Sendable {
    /// Check `password` against the password file off the UI thread; when it matches, make a code
    /// valid until `until`, write it where the console reads it, and report it (`PairingRule.checked`).
    case check(password: String, until: Int64)
    /// The code shown is no longer valid: remove it where the console reads it.
    case withdraw
    case log(String)
}

/// What the screen draws over everything else while pairing.
public enum PairingView: Equatable, Sendable {
    /// The keyboard on `page`, `typed` characters typed (drawn as dots).
    case keyboard(page: Int, typed: Int)
    /// The code's address as a QR code.
    case code(url: String)
}

public struct PairingRule: Sendable {
    public enum State: Equatable, Sendable {
        case closed
        /// The keyboard, `typed` so far, its page, and the last key's time (it closes after a minute).
        case keyboard(typed: String, page: Int, since: Int64)
        /// The password is being checked (the keyboard stays on screen, deaf).
        case checking(page: Int, typed: Int)
        /// A code shown until `until`.
        case code(url: String, until: Int64)
    }

    public static let tapsToOpen = 5
    public static let tapWindow: Int64 = 3_000_000_000
    public static let codeLifetime: Int64 = 120_000_000_000
    public static let keyboardTimeout: Int64 = 60_000_000_000
    public static let failureLimit = 5
    public static let failureWindow: Int64 = 60_000_000_000
    /// The longest password the keyboard takes.
    public static let maxLength = 128
    /// Where the console exchanges a code: the code follows it.
    public static let pairPath = "/console/api/pair/"

    public private(set) var state = State.closed
    /// The address the QR code gives, without a path: `http://10.42.0.1`.
    public let origin: String
    var cornerTaps: [Int64] = []
    var failures: [Int64] = []

    public init(origin: String) { self.origin = origin }

    /// The origin (`scheme://host[:port]`) of a share address template (`http://10.42.0.1/s/{token}/`).
    public static func origin(ofTemplate template: String) -> String {
        let parts = template.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        // "http:", "", "host:port", "the rest…"
        guard parts.count >= 3, parts[0].hasSuffix(":"), parts[1].isEmpty else { return template }
        return parts[0] + "//" + parts[2]
    }

    /// Whether taps go to the keyboard or the code (the booth's buttons are then out of reach).
    public var isOpen: Bool { state != .closed }

    public var view: PairingView? {
        switch state {
        case .closed: nil
        case let .keyboard(typed, page, _): .keyboard(page: page, typed: typed.count)
        case let .checking(page, typed): .keyboard(page: page, typed: typed)
        case let .code(url, _): .code(url: url)
        }
    }

    /// Whether the keyboard may open now: fewer than `failureLimit` wrong passwords in the last minute.
    func refuses(at now: Int64) -> Bool { failures.filter { now - $0 < Self.failureWindow }.count >= Self.failureLimit }

    /// A tap on no button at `point` (canvas coordinates) of a canvas of `canvas`. Returns whether
    /// the rule took it (the booth's own rules then never see it) and what to do. `mayOpen`: the
    /// booth shows a screen the keyboard may cover (ready, or closed; never over a guest's take).
    public mutating func tap(at point: Point, canvas: Size, now: Int64, mayOpen: Bool = true) -> (taken: Bool, effects: [PairingEffect]) {
        switch state {
        case .closed:
            let corner = Double(min(canvas.width, canvas.height)) / 6
            guard mayOpen, point.x < corner, point.y < corner else {
                cornerTaps = []
                return (false, [])
            }
            cornerTaps = cornerTaps.filter { now - $0 < Self.tapWindow } + [now]
            guard cornerTaps.count >= Self.tapsToOpen else { return (false, []) }
            cornerTaps = []
            if refuses(at: now) { return (true, [.log("pairing: the keyboard stays closed: \(Self.failureLimit) wrong passwords in the last minute")]) }
            state = .keyboard(typed: "", page: 0, since: now)
            return (true, [.log("pairing: the operator's keyboard opened")])
        case .keyboard(var typed, var page, _):
            switch PairingKeyboard.key(at: point, page: page, canvas: canvas) {
            case let .character(c)? where typed.count < Self.maxLength: typed.append(c)
            case let .page(p)?: page = p
            case .backspace?: if !typed.isEmpty { typed.removeLast() }
            case .cancel?:
                state = .closed
                return (true, [.log("pairing: the keyboard closed")])
            case .enter? where !typed.isEmpty:
                state = .checking(page: page, typed: typed.count)
                return (true, [.check(password: typed, until: now + Self.codeLifetime)])
            default: break
            }
            state = .keyboard(typed: typed, page: page, since: now)
            return (true, [])
        case .checking:
            return (true, [])
        case .code:
            state = .closed
            return (true, [.withdraw, .log("pairing: the code was closed on the screen")])
        }
    }

    /// The check's answer: the code made for a right password, nil for a wrong one (the keyboard
    /// closes, nothing shown, and it counts).
    public mutating func checked(code: String?, until: Int64, now: Int64) -> [PairingEffect] {
        guard case .checking = state else { return code == nil ? [] : [.withdraw] }
        guard let code else {
            failures = failures.filter { now - $0 < Self.failureWindow } + [now]
            state = .closed
            return [.log("pairing: a wrong password on the screen's keyboard (\(failures.count) in the last minute)")]
        }
        state = .code(url: origin + Self.pairPath + code, until: until)
        return [.log("pairing: a one-time code for the console shown for \(Self.codeLifetime / 1_000_000_000) s")]
    }

    /// The time passing: the keyboard left alone a minute closes; a code past its time goes.
    /// `mayShow` false (the booth left ready or closed: a take started from stdin or the socket):
    /// whatever shows closes, a code withdrawn.
    public mutating func look(at now: Int64, mayShow: Bool = true) -> [PairingEffect] {
        if !mayShow, state != .closed {
            let code: Bool = if case .code = state { true } else { false }
            state = .closed
            return (code ? [.withdraw] : []) + [.log("pairing: closed: the booth's screen is a guest's again")]
        }
        switch state {
        case let .keyboard(_, _, since) where now - since >= Self.keyboardTimeout:
            state = .closed
            return [.log("pairing: the keyboard closed after a minute untouched")]
        case let .code(_, until) where now >= until:
            state = .closed
            return [.withdraw, .log("pairing: the code expired")]
        default:
            return []
        }
    }
}
