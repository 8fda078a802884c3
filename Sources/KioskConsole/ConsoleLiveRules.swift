// The console's live part as values: the routes of the event stream, the log and the takes; the
// booth's last events kept for the Log page; each browser's bounded queue (a browser that stops
// reading is dropped, never waited for); the console's own link to the booth (said when it goes and
// when it comes back, tried again every second); the stream's framing (Server-Sent Events); what
// answers a take's change; a download's byte range. Pure: tests drive them by table.
import FoundationEssentials

/// A request the rules let through to the live part (ConsoleLive).
public enum LiveRequest: Sendable, Equatable {
    /// `GET api/events`: the booth's event lines as they come (Server-Sent Events).
    case events
    /// `GET api/log`: the last `EventBacklog.capacity` event lines.
    case log
    /// `GET api/takes`: the takes, newest first.
    case takes
    /// `POST api/takes/{name}/hide|show`, `DELETE api/takes/{name}`: the booth's command, audited.
    case change(TakeAction, name: String, address: String)
    /// `GET api/takes/{name}/video|thumbnail`.
    case file(TakeFileKind, name: String)
}

/// What the operator does to a take, and the booth's command and event for it.
public enum TakeAction: String, Sendable, Equatable {
    case hide, show, delete

    var command: String {
        switch self {
        case .hide: "hideTake"
        case .show: "showTake"
        case .delete: "deleteTake"
        }
    }

    /// The event that says it was done.
    var event: String {
        switch self {
        case .hide: "takeHidden"
        case .show: "takeShown"
        case .delete: "takeDeleted"
        }
    }

    /// The control socket's command line for the take at `path` (a deletion's reason: `operator`).
    func line(path: String) -> String {
        "{\"command\":\"\(command)\",\"path\":\(JSONText.string(path))" + (self == .delete ? ",\"reason\":\"operator\"}" : "}")
    }
}

/// Which of a take's files is fetched.
public enum TakeFileKind: String, Sendable, Equatable {
    case video, thumbnail
}

extension ConsoleRules {
    static let takesPath = "/console/api/takes"

    /// Whether `path` is one of the live part's: the stream, the log, the takes.
    static func isLive(_ path: String) -> Bool {
        path == "/console/api/events" || path == "/console/api/log" || path == takesPath || path.hasPrefix(takesPath + "/")
    }

    /// The decision for a live path (`isLive`). `signedIn`: the request's session is live;
    /// `change`: why a change is refused (nil: allowed), as `decide` checks it.
    static func decideLive(_ request: ConsoleRequest, now: Double, signedIn: Bool, address: String,
                           change: (String) -> ConsoleResponse?) -> ConsoleDecision {
        guard signedIn else { return .answer(signInFirst, audit: nil) }
        let method = request.method
        let read = method == "GET" || method == "HEAD"
        switch request.path {
        case "/console/api/events": return read ? .live(.events) : .answer(notAllowed(false), audit: nil)
        case "/console/api/log": return read ? .live(.log) : .answer(notAllowed(false), audit: nil)
        case takesPath: return read ? .live(.takes) : .answer(notAllowed(false), audit: nil)
        default: break
        }
        let parts = request.path.dropFirst(takesPath.count + 1).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.first, TakeNames.isName(name), parts.count <= 2 else { return .answer(notFound, audit: nil) }
        let what = parts.count == 2 ? parts[1] : nil
        switch (what, method) {
        case (nil, "DELETE"), ("hide", "POST"), ("show", "POST"):
            let action = what.flatMap(TakeAction.init(rawValue:)) ?? .delete
            if let refused = change(action.command) {
                return .answer(refused, audit: AuditEntry(time: now, address: address, action: action.command + " " + name, result: "refused \(refused.status)"))
            }
            return .live(.change(action, name: name, address: address))
        case ("video", "GET"), ("video", "HEAD"), ("thumbnail", "GET"), ("thumbnail", "HEAD"):
            return .live(.file(TakeFileKind(rawValue: what ?? "") ?? .video, name: name))
        case (nil, _), ("hide", _), ("show", _), ("video", _), ("thumbnail", _):
            return .answer(notAllowed(false), audit: nil)
        default:
            return .answer(notFound, audit: nil)
        }
    }
}

/// A take's name as the console's URLs carry it: one name of the output folder, never a path.
public enum TakeNames {
    /// Whether `name` could be a take's: not empty, no `/`, not hidden (`.`), no control character,
    /// at most 255 bytes. Whether it is one is the folder's list's say (ConsoleLive).
    public static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\")
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}

/// The booth's last event lines, for the Log page: the newest `capacity`, oldest first.
public struct EventBacklog: Sendable, Equatable {
    public static let capacity = 200
    public private(set) var lines: [String] = []

    public init() {}

    public mutating func append(_ line: String) {
        lines.append(line)
        if lines.count > Self.capacity { lines.removeFirst(lines.count - Self.capacity) }
    }
}

/// One browser's queue of event lines not yet sent. Bounded: once more than `limit` bytes wait (a
/// browser that stopped reading, or a connection that stalled), the browser is dropped, so it never
/// holds up the booth, the console or the others.
public struct ClientQueue: Sendable, Equatable {
    /// The booth's own bound for a control socket client (1 MiB).
    public static let limit = 1 << 20
    public private(set) var lines: [String] = []
    public private(set) var bytes = 0
    /// Overflowed: the browser is to be dropped; nothing more is queued.
    public private(set) var dropped = false

    public init() {}

    /// Queues `line`; false when that overflows the queue (the browser is dropped).
    public mutating func push(_ line: String) -> Bool {
        guard !dropped else { return false }
        bytes += line.utf8.count + 1
        guard bytes <= Self.limit else {
            dropped = true
            lines = []
            bytes = 0
            return false
        }
        lines.append(line)
        return true
    }

    /// Everything queued, taken out.
    public mutating func take() -> [String] {
        defer {
            lines = []
            bytes = 0
        }
        return lines
    }
}

/// The console's own link to the booth's event stream: whether it holds one, what to say when that
/// changes (the console's own events, `boothReachable` and `boothUnreachable`), when to try again.
public struct BoothLink: Sendable, Equatable {
    /// Seconds between tries while no booth answers.
    public static let retry: Double = 1
    /// nil until the first try.
    public private(set) var reachable: Bool?
    /// The last line said (the stream's first line for a browser that comes later).
    public private(set) var said: String?
    /// When to try again (after a failure).
    public private(set) var nextTry: Double = 0

    public init() {}

    /// Connected at `now`: the line to say, if that is news.
    public mutating func connected(now: Double) -> String? {
        guard reachable != true else { return nil }
        reachable = true
        said = "{\"event\":\"boothReachable\"}"
        return said
    }

    /// Lost (or never reached) at `now`, `why`: the line to say, if that is news; the next try is a
    /// `retry` later.
    public mutating func lost(_ why: String, now: Double) -> String? {
        nextTry = now + Self.retry
        guard reachable != false else { return nil }
        reachable = false
        said = "{\"event\":\"boothUnreachable\",\"message\":\(JSONText.string(why))}"
        return said
    }
}

/// The stream's framing: Server-Sent Events.
public enum ServerSentEvents {
    /// Seconds between keep-alive comments on a quiet stream: well under the connection's 30 s
    /// idle timeout, and a browser that went away is found within them.
    public static let keepAlive: Double = 15
    /// The stream's first bytes: how long a browser waits before it reconnects (ms).
    public static let opening = "retry: 2000\n\n"
    public static let comment = ": keep-alive\n\n"

    /// One event line as one event: a `data:` line (a line break inside, never in the booth's
    /// minified lines, would start another `data:` line).
    public static func frame(_ line: String) -> String {
        line.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { "data: " + $0 + "\n" }.joined() + "\n"
    }
}

/// What the booth's event lines say about a take change the console sent (`TakeAction.line`).
public enum TakeAnswer: Sendable, Equatable {
    case passed
    /// The change's event (`takeHidden`, …) for the path.
    case done(String)
    /// An `error` naming the path, or the command: its code and message.
    case refused(code: String, message: String)

    private struct Line: Decodable {
        var event: String
        var path: String?
        var code: String?
        var message: String?
    }

    /// `line` as an answer to `action` on the take at `path`.
    public static func reply(to line: String, action: TakeAction, path: String) -> TakeAnswer {
        guard let parsed = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)) else { return .passed }
        if parsed.event == action.event, parsed.path == path { return .done(line) }
        if parsed.event == "error", let message = parsed.message, message.hasSuffix(": " + path) || message.hasPrefix("'\(action.command)'") {
            return .refused(code: parsed.code ?? "error", message: message)
        }
        return .passed
    }

    /// The HTTP answer and the audit log's result, as `api/command`'s: 200 with the event, 409
    /// refused, 503 no booth, 504 no answer.
    static func response(_ answer: TakeAnswer?, unreachable: String?) -> (ConsoleResponse, result: String) {
        if let unreachable { return (.error(503, "boothUnreachable", unreachable), "boothUnreachable") }
        switch answer {
        case let .done(line)?: return (.json(200, "{\"ok\":true,\"event\":\(line)}"), "ok")
        case let .refused(code, message)?:
            return (.json(409, "{\"ok\":false,\"error\":\(JSONText.string(code)),\"message\":\(JSONText.string(message))}"), "refused \(code)")
        case .passed?, nil:
            return (.error(504, "noAnswer", "the booth did not say within 5 s that it was done"), "noAnswer")
        }
    }
}

/// A `Range: bytes=…` header's one range over a file of `size` bytes: nil for none (the whole
/// file), `.unsatisfiable` (416) for one outside it. Several ranges are answered whole.
public enum ByteRange: Sendable, Equatable {
    case part(offset: Int64, length: Int64)
    case unsatisfiable

    public static func parse(_ header: String?, size: Int64) -> ByteRange? {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = spec[0].trimmingSpaces, last = spec[1].trimmingSpaces
        if first.isEmpty {
            guard let suffix = Int64(last), suffix > 0 else { return size == 0 ? .unsatisfiable : nil }
            guard size > 0 else { return .unsatisfiable }
            let length = min(suffix, size)
            return .part(offset: size - length, length: length)
        }
        guard let start = Int64(first), start >= 0 else { return nil }
        guard start < size else { return .unsatisfiable }
        let end = last.isEmpty ? size - 1 : min(Int64(last) ?? -1, size - 1)
        guard end >= start else { return last.isEmpty || Int64(last) != nil ? .unsatisfiable : nil }
        return .part(offset: start, length: end - start + 1)
    }
}

extension ConsoleTake {
    /// What the take named `name` is, from its name: a photo (`.jpg`, `.jpeg`), a boomerang (an MP4
    /// where the name template makes other movies: a boomerang is always MP4), else a video.
    public static func kind(of name: String, template: String) -> String {
        func suffix(_ text: String) -> String { text.split(separator: ".").count > 1 ? String(text.split(separator: ".").last!).lowercased() : "" }
        let own = suffix(name)
        if own == "jpg" || own == "jpeg" { return "photo" }
        return own == "mp4" && suffix(template) != "mp4" ? "boomerang" : "video"
    }
}
