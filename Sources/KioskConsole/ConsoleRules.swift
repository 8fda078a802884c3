// The operator's console's rules, as values: who is signed in (sessions that expire), who may try
// again (5 failed sign-ins a minute from one address, then 429), which requests may change
// anything (the CSRF token and a same-origin Origin), how big a body may be, and what each request
// is answered. Pure: the time, the password's check and the tokens are handed in, so tests drive
// them by table on a virtual clock. The HTTP library's glue (ConsoleServer) only carries requests
// here and answers back.
import KioskPassword

/// One request as the rules see it: its method, path (as the HTTP library decoded it), the few
/// headers they read, its body, and where it came from.
public struct ConsoleRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    /// Header names in lower case: host, origin, cookie, x-csrf-token, x-real-ip, content-type.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The peer's address (an IP address; empty on a Unix socket).
    public var peer: String
    /// Whether it came over the Unix socket (nginx's): only then is `X-Real-IP` trusted.
    public var overUnixSocket: Bool

    public init(method: String, path: String, headers: [String: String] = [:], body: [UInt8] = [], peer: String = "",
                overUnixSocket: Bool = false) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.peer = peer
        self.overUnixSocket = overUnixSocket
    }

    /// The client's address: the peer's, or nginx's `X-Real-IP` on the Unix socket (`local` without one).
    public var clientAddress: String {
        guard overUnixSocket else { return peer }
        let real = (headers["x-real-ip"] ?? "").filter { !$0.isWhitespace }
        return real.isEmpty ? "local" : String(real.prefix(64))
    }

    /// The session cookie's value, if the request carries one.
    var sessionToken: String? {
        guard let cookie = headers["cookie"] else { return nil }
        for part in cookie.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingSpaces == ConsoleRules.cookieName { return pair[1].trimmingSpaces }
        }
        return nil
    }
}

/// An answer: status, headers, body.
public struct ConsoleResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON answer (`no-store`: nothing the console says is cached).
    public static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> ConsoleResponse {
        ConsoleResponse(status: status, headers: headers.merging(["Content-Type": "application/json", "Cache-Control": "no-store"]) { a, _ in a },
                        body: Array(text.utf8))
    }

    /// `{"error": code, "message": message}`.
    public static func error(_ status: Int, _ code: String, _ message: String) -> ConsoleResponse {
        json(status, "{\"error\":\(JSONText.string(code)),\"message\":\(JSONText.string(message))}")
    }
}

/// One line of the audit log: when, who, what, how it ended.
public struct AuditEntry: Sendable, Equatable {
    public var time: Double
    public var address: String
    public var action: String
    public var result: String

    /// The log's line: minified JSON, `time` as seconds since 1970 (UTC) with milliseconds.
    public var line: String {
        let millis = (time * 1000).rounded()
        let seconds = "\(Int64(millis) / 1000).\(String(String(Int64(millis) % 1000 + 1000).dropFirst()))"
        return "{\"time\":\(seconds),\"address\":\(JSONText.string(address)),\"action\":\(JSONText.string(action)),\"result\":\(JSONText.string(result))}"
    }
}

/// The signed-in sessions, each with its CSRF token, expiring 12 hours after sign-in.
public struct SessionTable: Sendable {
    public static let lifetime: Double = 12 * 3600
    /// At most this many at once; a sign-in beyond it ends the oldest.
    public static let capacity = 32

    struct Session: Sendable {
        let token: String
        let csrf: String
        let expires: Double
    }

    var sessions: [Session] = []

    public init() {}

    public var count: Int { sessions.count }

    /// A new session: `token` (the cookie) and `csrf`, expiring `lifetime` after `now`.
    public mutating func open(token: String, csrf: String, now: Double) {
        sessions.removeAll { $0.expires <= now }
        if sessions.count >= Self.capacity { sessions.removeFirst(sessions.count - Self.capacity + 1) }
        sessions.append(Session(token: token, csrf: csrf, expires: now + Self.lifetime))
    }

    /// The CSRF token of the live session `token` opened; nil when there is none (or it expired).
    /// Every session is compared, each in constant time.
    public func csrf(of token: String, now: Double) -> String? {
        var found: String?
        for session in sessions where ConstantTime.equal(session.token, token) && session.expires > now { found = session.csrf }
        return found
    }

    /// Ends the session `token` opened.
    public mutating func close(_ token: String) {
        sessions.removeAll { ConstantTime.equal($0.token, token) }
    }
}

/// At most `limit` failed sign-ins per address in a `window`; past that, each try is refused (429)
/// until the oldest failure is a window old. A guest's deletes are limited by one too
/// (`guestLimit`, every try counted as a failure).
public struct SignInLimiter: Sendable {
    public static let limit = 5
    /// A guest's deletes from the share page allowed a minute from one address.
    public static let guestLimit = 10
    public static let window: Double = 60
    /// Addresses remembered at most (a flood of addresses forgets the quietest first).
    public static let capacity = 4096

    var failures: [String: [Double]] = [:]
    /// The tries allowed in a window.
    let allowed: Int

    public init(allowed: Int = SignInLimiter.limit) { self.allowed = allowed }

    /// Whether a try from `address` at `now` is refused.
    public func isLimited(_ address: String, now: Double) -> Bool {
        (failures[address] ?? []).filter { now - $0 < Self.window }.count >= allowed
    }

    public mutating func failed(_ address: String, now: Double) {
        var times = (failures[address] ?? []).filter { now - $0 < Self.window }
        times.append(now)
        failures[address] = times
        if failures.count > Self.capacity {
            failures = failures.filter { $0.value.contains { now - $0 < Self.window } }
            while failures.count > Self.capacity, let oldest = failures.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) }) {
                failures[oldest.key] = nil
            }
        }
    }

    /// A right password clears the address's failures.
    public mutating func succeeded(_ address: String) { failures[address] = nil }
}

/// The operator's password as the rules see it: whether one is set, and whether a try matches.
public protocol ConsolePassword: Sendable {
    var isSet: Bool { get }
    func matches(_ password: String) -> Bool
}

/// What the glue does with a request: answer it at once, or first ask the booth or read the audit log.
public enum ConsoleDecision: Sendable, Equatable {
    case answer(ConsoleResponse, audit: AuditEntry?)
    /// The booth's `state` (control socket), answered by `ConsoleRules.stateAnswer`.
    case state
    /// The body, as a command line for the control socket, answered by `ConsoleRules.commandAnswer`;
    /// the action is audited with the answer's result.
    case command(String, address: String)
    /// The audit log, as `ConsoleRules.auditAnswer` makes it.
    case audit
    /// The event stream, the log, the takes: carried out by ConsoleLive.
    case live(LiveRequest)
    /// The settings (`ConsoleSettingsStore.listing`).
    case settings
    /// The settings changed by this body (`ConsoleSettingsStore.save`), audited with its result.
    case saveSettings([UInt8], address: String)
    /// A file uploaded (`ConsoleSettingsStore.upload`), audited with its result.
    case upload(ConsoleUpload, [UInt8], address: String)
    /// Power off, reboot or the booth's restart, answered by `ConsoleRules.machineAnswer` and audited.
    case machine(MachineAction, address: String)
    /// A guest's delete from the share page, for the booth (ConsoleLive), answered by `ConsoleRules.guestAnswer` and audited.
    case guestDelete(GuestDelete)
    /// The consent log as CSV (`GET api/consent.csv`).
    case consentCSV
    /// The Status page's figures beyond `state` (ConsoleFigures): the disk's minutes, the share
    /// site, the temperatures, the uptimes.
    case figures
    /// The hosts' film: its state, a start, the film itself (ConsoleFilm).
    case film(FilmRequest)
    /// The Devices page's (`ConsoleDevicesStore`); the test take audited.
    case devices(DevicesRequest)
}

/// What the booth answered a question on its control socket.
public enum BoothReply: Sendable, Equatable {
    /// Carried out: every event line received until the answer (the `state` reply last).
    case answered(lines: [String])
    /// Refused or failed: the lines until the `error`, and its code and message.
    case refused(lines: [String], code: String, message: String)
    /// The command is none the booth takes (`send`'s own check): the message.
    case badCommand(String)
    /// No booth on the control socket: why.
    case unreachable(String)
    /// The booth took it and said nothing in time, or closed the connection first.
    case noAnswer(lines: [String], why: String)
}

public struct ConsoleRules: Sendable {
    public static let cookieName = "kiosk_console"
    /// The largest body of a JSON request.
    public static let jsonLimit = 64 << 10
    /// The largest upload (an overlay, a questions file: `api/files/…`).
    public static let uploadLimit = 16 << 20
    /// The headers every answer carries: nothing is framed, sniffed, cached or referred.
    static let safety = ["X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                         "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; form-action 'self'"]

    public var sessions = SessionTable()
    public var limiter = SignInLimiter()
    /// The guests' deletes from the share page (ConsoleRules+GuestDelete).
    public var guestLimiter = SignInLimiter(allowed: SignInLimiter.guestLimit)
    /// The pairing codes exchanged (ConsoleRules+Pairing).
    public var pairing = PairingExchange()
    /// The page's files, served at their names.
    public var pages: ConsolePages

    public init(pages: ConsolePages = ConsolePages(folder: "", files: [:])) { self.pages = pages }

    /// The largest body `path` takes: checked against Content-Length before any of it is read, and
    /// again as it comes.
    public static func bodyLimit(path: String) -> Int { path.hasPrefix(filesPrefix) ? uploadLimit : jsonLimit }

    /// Whether `path` is a name the console could serve: under /console/, with no `..` (decoded or
    /// not), no backslash, no empty segment, no control character.
    static func isClean(_ path: String) -> Bool {
        guard path.hasPrefix("/console/") else { return false }
        let lower = path.lowercased()
        if lower.contains("..") || lower.contains("%2e") || lower.contains("%2f") || lower.contains("%5c") || lower.contains("\\")
            || lower.contains("//") || lower.contains("%00") { return false }
        return !path.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// Whether an `Origin` header, when there is one, names this site (the `Host` the request was sent to).
    static func sameOrigin(_ request: ConsoleRequest) -> Bool {
        guard let origin = request.headers["origin"] else { return true }
        guard let host = request.headers["host"], !host.isEmpty else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }

    /// The answer to `request` at `now`, or what the glue must do first. `password` checks a
    /// sign-in; `token` makes a new random token (cookie or CSRF).
    public mutating func decide(_ request: ConsoleRequest, now: Double, password: any ConsolePassword,
                                token: () -> String) -> ConsoleDecision {
        let address = request.clientAddress
        let method = request.method
        // The share page's delete: a stranger's, before any of the console's own rules.
        if Self.isGuestDelete(request.path) { return decideGuestDelete(request, now: now) }
        guard Self.isClean(request.path) else { return .answer(Self.notFound, audit: nil) }
        let csrf = request.sessionToken.flatMap { sessions.csrf(of: $0, now: now) }
        /// Allowed to change things: signed in, same origin, the session's CSRF token.
        func change(_ action: String) -> ConsoleResponse? {
            guard let csrf else { return Self.signInFirst }
            guard Self.sameOrigin(request) else { return .error(403, "foreignOrigin", "a request from another site") }
            guard let sent = request.headers["x-csrf-token"], ConstantTime.equal(sent, csrf) else {
                return .error(403, "csrf", "the X-CSRF-Token header is missing or wrong")
            }
            return nil
        }
        func refusal(_ action: String, _ response: ConsoleResponse) -> ConsoleDecision {
            .answer(response, audit: response.status == 401 ? nil
                    : AuditEntry(time: now, address: address, action: action, result: "refused \(response.status)"))
        }

        switch (request.path, method) {
        case (let path, "GET") where ConsolePages.name(at: path) != nil, (let path, "HEAD") where ConsolePages.name(at: path) != nil:
            let name = ConsolePages.name(at: path) ?? "index.html"
            return .answer(pages.answer(name == "index.html" && !password.isSet ? "no-password.html" : name), audit: nil)

        case ("/console/api/session", "POST"):
            guard Self.sameOrigin(request) else { return refusal("signIn", .error(403, "foreignOrigin", "a request from another site")) }
            guard !limiter.isLimited(address, now: now) else {
                return .answer(.error(429, "tooManyTries", "more than \(SignInLimiter.limit) wrong passwords in a minute: wait a minute"),
                               audit: AuditEntry(time: now, address: address, action: "signIn", result: "limited"))
            }
            guard password.isSet else {
                return .answer(.error(503, "noPassword", ConsolePages.setPasswordHint),
                               audit: AuditEntry(time: now, address: address, action: "signIn", result: "noPassword"))
            }
            guard let given = Self.passwordField(request) else {
                return .answer(.error(400, "badRequest", "the body carries no field 'password' (a form or JSON)"),
                               audit: AuditEntry(time: now, address: address, action: "signIn", result: "noField"))
            }
            guard password.matches(given) else {
                limiter.failed(address, now: now)
                return .answer(.error(401, "wrongPassword", "wrong password"),
                               audit: AuditEntry(time: now, address: address, action: "signIn", result: "wrongPassword"))
            }
            limiter.succeeded(address)
            let cookie = token()
            sessions.open(token: cookie, csrf: token(), now: now)
            let set = "\(Self.cookieName)=\(cookie); Path=/console/; Max-Age=\(Int(SessionTable.lifetime)); HttpOnly; SameSite=Strict"
            return .answer(ConsoleResponse(status: 204, headers: ["Set-Cookie": set, "Cache-Control": "no-store"]),
                           audit: AuditEntry(time: now, address: address, action: "signIn", result: "ok"))
        case ("/console/api/session", "GET"):
            // Still 401 without a password, saying how to set one: the page nginx serves as a
            // file learns it here.
            guard let csrf else { return .answer(password.isSet ? Self.signInFirst : .error(401, "noPassword", ConsolePages.setPasswordHint), audit: nil) }
            return .answer(.json(200, "{\"csrf\":\(JSONText.string(csrf))}"), audit: nil)
        case ("/console/api/session", "DELETE"):
            if let refused = change("signOut") { return refusal("signOut", refused) }
            if let session = request.sessionToken { sessions.close(session) }
            let expired = "\(Self.cookieName)=; Path=/console/; Max-Age=0; HttpOnly; SameSite=Strict"
            return .answer(ConsoleResponse(status: 204, headers: ["Set-Cookie": expired, "Cache-Control": "no-store"]),
                           audit: AuditEntry(time: now, address: address, action: "signOut", result: "ok"))
        case ("/console/api/state", "GET"):
            return csrf == nil ? .answer(Self.signInFirst, audit: nil) : .state
        case ("/console/api/figures", "GET"):
            return csrf == nil ? .answer(Self.signInFirst, audit: nil) : .figures
        case ("/console/api/command", "POST"):
            if let refused = change("command") { return refusal("command", refused) }
            return .command(String(decoding: request.body, as: UTF8.self), address: address)
        case ("/console/api/audit", "GET"):
            return csrf == nil ? .answer(Self.signInFirst, audit: nil) : .audit
        case (Self.consentPath, "GET"), (Self.consentPath, "HEAD"):
            return csrf == nil ? .answer(Self.signInFirst, audit: nil) : .consentCSV
        case (let path, _) where Self.isSettings(path):
            return settingsDecision(request, signedIn: csrf != nil, refused: method == "GET" ? nil : change("settings"), now: now)
        case ("/console/api/power", "POST"), ("/console/api/service", "POST"):
            let name = request.path == "/console/api/power" ? "power" : "service"
            if let refused = change(name) { return refusal(name, refused) }
            guard let action = MachineAction.named(in: request.body, path: request.path) else {
                return .answer(Self.badAction(request.path), audit: AuditEntry(time: now, address: address, action: name, result: "badAction"))
            }
            return .machine(action, address: address)

        case let (path, _) where Self.isFilm(path):
            return Self.decideFilm(request, now: now, signedIn: csrf != nil, address: address, change: change)
        case let (path, _) where Self.isLive(path):
            return Self.decideLive(request, now: now, signedIn: csrf != nil, address: address, change: change)
        case let (path, _) where Self.isDevices(path):
            return Self.decideDevices(request, now: now, signedIn: csrf != nil, address: address, change: change)

        case (let path, _) where ConsolePages.name(at: path) != nil:
            return .answer(Self.notAllowed(false), audit: nil)
        case ("/console/api/state", _), ("/console/api/audit", _), ("/console/api/figures", _), (Self.consentPath, _):
            return .answer(Self.notAllowed(csrf == nil && request.path.hasPrefix("/console/api/")), audit: nil)
        case ("/console/api/session", _), ("/console/api/command", _), ("/console/api/power", _), ("/console/api/service", _):
            return .answer(Self.notAllowed(csrf == nil), audit: nil)
        default:
            return .answer(Self.notFound, audit: nil)
        }
    }

    static let notFound = ConsoleResponse.error(404, "notFound", "no such page")
    static let signInFirst = ConsoleResponse.error(401, "signIn", "sign in first")
    /// 405, or 401 for an API before sign-in (nothing about the API is said before).
    static func notAllowed(_ signedOut: Bool) -> ConsoleResponse {
        signedOut ? signInFirst : .error(405, "methodNotAllowed", "not with this method")
    }

    /// The sign-in's `password`: a JSON object's string, or a form's field.
    static func passwordField(_ request: ConsoleRequest) -> String? {
        let type = (request.headers["content-type"] ?? "").lowercased()
        if type.hasPrefix("application/json") { return JSONText.stringField("password", in: request.body) }
        for pair in String(decoding: request.body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, FormText.decode(parts[0]) == "password" { return FormText.decode(parts[1]) }
        }
        return nil
    }

    /// The answer to `GET api/state`: the booth's `state` event as it sent it, or why there is none.
    public static func stateAnswer(_ reply: BoothReply) -> ConsoleResponse {
        switch reply {
        case let .answered(lines): .json(200, lines.last ?? "{}")
        case let .unreachable(why): .error(503, "boothUnreachable", why)
        case let .noAnswer(_, why): .error(504, "noAnswer", why)
        case let .refused(_, code, message): .error(502, code, message)
        case let .badCommand(message): .error(500, "badCommand", message)
        }
    }

    /// The answer to `POST api/command` and the audit log's result for it.
    public static func commandAnswer(_ reply: BoothReply) -> (ConsoleResponse, result: String) {
        func events(_ lines: [String]) -> String { "[" + lines.joined(separator: ",") + "]" }
        switch reply {
        case let .answered(lines):
            return (.json(200, "{\"ok\":true,\"events\":\(events(lines))}"), "ok")
        case let .refused(lines, code, message):
            return (.json(409, "{\"ok\":false,\"error\":\(JSONText.string(code)),\"message\":\(JSONText.string(message)),\"events\":\(events(lines))}"),
                    "refused \(code)")
        case let .badCommand(message): return (.error(400, "badCommand", message), "badCommand")
        case let .unreachable(why): return (.error(503, "boothUnreachable", why), "boothUnreachable")
        case let .noAnswer(lines, why):
            return (.json(504, "{\"ok\":false,\"error\":\"noAnswer\",\"message\":\(JSONText.string(why)),\"events\":\(events(lines))}"), "noAnswer")
        }
    }

    /// The answer to `GET api/audit`: the log's lines (its last `limit`) as a JSON array.
    public static func auditAnswer(_ lines: [String], limit: Int = 1000) -> ConsoleResponse {
        .json(200, "[" + lines.suffix(limit).joined(separator: ",") + "]")
    }
}

/// `application/x-www-form-urlencoded` values: `+` a space, `%XX` a byte.
enum FormText {
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(32)
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hex), let low = iterator.next().flatMap(hex) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Substring {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
