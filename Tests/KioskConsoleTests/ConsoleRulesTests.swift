// The console's rules by table on a virtual clock: sessions and their expiry, the sign-in limit,
// CSRF and origin, path traversal, the answers before sign-in, and the booth's replies as HTTP.
import Foundation
import Testing
@testable import KioskConsole
import KioskPassword

/// A password for the rules: "correct horse" is right.
struct FakePassword: ConsolePassword {
    var isSet = true
    func matches(_ password: String) -> Bool { password == "correct horse" }
}

/// Tokens t1, t2, … in order.
final class Tokens {
    var next = 0
    func make() -> String {
        next += 1
        return "t\(next)"
    }
}

struct Console {
    /// The checkout's page files (kiosk/console), as the console reads them.
    static let pages = ConsolePages.read(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("kiosk/console").path)
    var rules = ConsoleRules(pages: Console.pages)
    let tokens = Tokens()
    var password: any ConsolePassword = FakePassword()

    mutating func decide(_ request: ConsoleRequest, at now: Double) -> ConsoleDecision {
        rules.decide(request, now: now, password: password, token: tokens.make)
    }

    mutating func status(_ request: ConsoleRequest, at now: Double) -> Int? {
        guard case let .answer(response, _) = decide(request, at: now) else { return nil }
        return response.status
    }

    /// Signs in at `now` from `address`; the cookie header and the CSRF token.
    mutating func signIn(at now: Double, from address: String = "10.42.0.5") -> (cookie: String, csrf: String) {
        let answer = decide(signInRequest("correct horse", from: address), at: now)
        guard case let .answer(response, _) = answer, response.status == 204 else { Issue.record("no sign-in: \(answer)"); return ("", "") }
        let token = String(response.headers["Set-Cookie"]!.split(separator: ";")[0].split(separator: "=")[1])
        return ("\(ConsoleRules.cookieName)=\(token)", rules.sessions.csrf(of: token, now: now)!)
    }

    /// A page of the API that only reads: 401 before sign-in (for any method), `expected` for a
    /// signed-in GET, 405 for a signed-in POST.
    mutating func expectSignedInGET(_ path: String, decides expected: ConsoleDecision, sourceLocation: SourceLocation = #_sourceLocation) {
        let get = ConsoleRequest(method: "GET", path: path, headers: ["host": "10.42.0.1"], peer: "10.42.0.5")
        var post = get
        post.method = "POST"
        #expect(status(get, at: 0) == 401 && status(post, at: 0) == 401, sourceLocation: sourceLocation)
        let (cookie, _) = signIn(at: 1)
        var signed = get
        signed.headers["cookie"] = cookie
        #expect(decide(signed, at: 2) == expected, sourceLocation: sourceLocation)
        signed.method = "POST"
        #expect(status(signed, at: 2) == 405, sourceLocation: sourceLocation)
    }
}

func signInRequest(_ password: String, from address: String = "10.42.0.5", json: Bool = false) -> ConsoleRequest {
    ConsoleRequest(method: "POST", path: "/console/api/session",
                   headers: ["host": "10.42.0.1", "content-type": json ? "application/json" : "application/x-www-form-urlencoded"],
                   body: Array((json ? #"{"password":"\#(password)"}"# : "password=" + password.replacingOccurrences(of: " ", with: "+")).utf8),
                   peer: address)
}

@Suite("The console's rules")
struct ConsoleRulesTests {
    @Test("before sign-in every API answers 401, the page and its files 200, anything else 404", arguments: [
        ("GET", "/console/api/session", 401), ("GET", "/console/api/state", 401), ("GET", "/console/api/audit", 401),
        ("POST", "/console/api/command", 401), ("DELETE", "/console/api/session", 401), ("PUT", "/console/api/state", 401),
        ("GET", "/console/", 200), ("GET", "/console/console.js", 200), ("GET", "/console/console.css", 200),
        ("GET", "/console/api/takes/x", 401), ("GET", "/console/api/events", 401), ("GET", "/console/api/log", 401),
        ("GET", "/console/api/takes", 401), ("POST", "/console/api/takes/x/hide", 401), ("DELETE", "/console/api/takes/x", 401),
        ("GET", "/console/api/takes/x/video", 401), ("GET", "/console", 404), ("GET", "/", 404), ("GET", "/console/admin", 404),
    ])
    func beforeSignIn(method: String, path: String, status: Int) {
        var console = Console()
        #expect(console.status(ConsoleRequest(method: method, path: path, headers: ["host": "10.42.0.1"]), at: 0) == status)
    }

    @Test("a path with .. in any spelling is 404, signed in or not", arguments: [
        "/console/../etc/passwd", "/console/api/../api/state", "/console/%2e%2e/x", "/console/%2E%2e/api/state", "/console/api%2fstate",
        "/console/..%5capi", "/console//api/state", "/console/api/state\u{0}", "/console/.%2e/api/state", "/console/api\\..\\state",
    ])
    func traversal(path: String) {
        var console = Console()
        let (cookie, _) = console.signIn(at: 0)
        #expect(console.status(ConsoleRequest(method: "GET", path: path, headers: ["cookie": cookie]), at: 1) == 404)
    }

    @Test("the page without a password says how to set one and has no form; the sign-in then answers 503")
    func noPassword() {
        var console = Console(password: FakePassword(isSet: false))
        guard case let .answer(page, _) = console.decide(ConsoleRequest(method: "GET", path: "/console/"), at: 0) else { Issue.record(); return }
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("kiosk-recorder console password") && !html.contains("<form"))
        #expect(console.status(signInRequest("correct horse"), at: 0) == 503)
        #expect(console.rules.sessions.count == 0)
    }

    @Test("sign-in: the cookie is HttpOnly, SameSite=Strict, Path=/console/, 12 hours; the session ends 12 hours later")
    func signInAndExpiry() {
        var console = Console()
        guard case let .answer(response, audit) = console.decide(signInRequest("correct horse", json: true), at: 1000) else { Issue.record(); return }
        #expect(response.status == 204)
        #expect(response.headers["Set-Cookie"] == "kiosk_console=t1; Path=/console/; Max-Age=43200; HttpOnly; SameSite=Strict")
        #expect(audit == AuditEntry(time: 1000, address: "10.42.0.5", action: "signIn", result: "ok"))
        let state = ConsoleRequest(method: "GET", path: "/console/api/state", headers: ["cookie": "other=1; kiosk_console=t1"])
        #expect(console.decide(state, at: 1000 + 43_199) == .state)
        #expect(console.status(state, at: 1000 + 43_200) == 401)
        // Another token, or none: 401.
        #expect(console.status(ConsoleRequest(method: "GET", path: "/console/api/state", headers: ["cookie": "kiosk_console=t2"]), at: 1001) == 401)
        #expect(console.status(ConsoleRequest(method: "GET", path: "/console/api/state", headers: ["cookie": "kiosk_console="]), at: 1001) == 401)
    }

    @Test("GET api/session gives the session's CSRF token")
    func csrfToken() {
        var console = Console()
        let (cookie, csrf) = console.signIn(at: 0)
        guard case let .answer(response, _) = console.decide(ConsoleRequest(method: "GET", path: "/console/api/session", headers: ["cookie": cookie]), at: 1) else {
            Issue.record(); return
        }
        #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == #"{"csrf":"\#(csrf)"}"#)
    }

    @Test("5 wrong passwords a minute from one address, then 429 (even for the right one) until the first is a minute old; other addresses unaffected")
    func limiter() {
        var console = Console()
        for second in 0..<5 { #expect(console.status(signInRequest("wrong one", from: "10.42.0.9"), at: Double(second)) == 401) }
        #expect(console.status(signInRequest("wrong one", from: "10.42.0.9"), at: 10) == 429)
        #expect(console.status(signInRequest("correct horse", from: "10.42.0.9"), at: 59.9) == 429)
        #expect(console.status(signInRequest("correct horse", from: "10.42.0.10"), at: 30) == 204)
        // The first failure (at 0) is a minute old at 60: a try again.
        #expect(console.status(signInRequest("correct horse", from: "10.42.0.9"), at: 60) == 204)
        // Every try is audited, the refused ones too.
        guard case let .answer(_, audit) = console.decide(signInRequest("wrong", from: "10.42.0.11"), at: 61) else { Issue.record(); return }
        #expect(audit?.result == "wrongPassword")
    }

    @Test("X-Real-IP names the client only on the Unix socket")
    func realIP() {
        var console = Console()
        for second in 0..<5 {
            var request = signInRequest("wrong one", from: "127.0.0.1")
            request.headers["x-real-ip"] = "10.42.0.\(second + 20)"
            #expect(console.status(request, at: Double(second)) == 401)
        }
        // Over TCP the header is ignored: all five were 127.0.0.1's.
        #expect(console.status(signInRequest("wrong one", from: "127.0.0.1"), at: 6) == 429)
        var nginx = signInRequest("wrong one", from: "")
        nginx.overUnixSocket = true
        nginx.headers["x-real-ip"] = "10.42.0.77"
        #expect(nginx.clientAddress == "10.42.0.77")
        #expect(console.status(nginx, at: 7) == 401)
    }

    @Test("a change needs the session's X-CSRF-Token and, when an Origin is sent, this site's", arguments: [
        (["x-csrf-token": "CSRF"], 0),
        ([:], 403), (["x-csrf-token": "wrong"], 403), (["x-csrf-token": ""], 403),
        (["x-csrf-token": "CSRF", "origin": "http://10.42.0.1"], 0),
        (["x-csrf-token": "CSRF", "origin": "https://10.42.0.1"], 0),
        (["x-csrf-token": "CSRF", "origin": "http://evil.example"], 403),
        (["x-csrf-token": "CSRF", "origin": "http://10.42.0.1.evil.example"], 403),
        (["x-csrf-token": "CSRF", "origin": "null"], 403),
    ])
    func csrfAndOrigin(extra: [String: String], status: Int) {
        var console = Console()
        let (cookie, csrf) = console.signIn(at: 0)
        var headers = ["cookie": cookie, "host": "10.42.0.1"]
        for (name, value) in extra { headers[name] = value == "CSRF" ? csrf : value }
        let request = ConsoleRequest(method: "POST", path: "/console/api/command", headers: headers, body: Array(#"{"command":"start"}"#.utf8), peer: "10.42.0.5")
        let decision = console.decide(request, at: 1)
        if status == 0 {
            #expect(decision == .command(#"{"command":"start"}"#, address: "10.42.0.5"))
        } else {
            guard case let .answer(response, audit) = decision else { Issue.record(); return }
            #expect(response.status == status)
            #expect(audit?.action == "command" && audit?.result == "refused 403")
        }
    }

    @Test("a sign-in from another site's page is refused (403), before the password is tried")
    func foreignSignIn() {
        var console = Console()
        var request = signInRequest("correct horse")
        request.headers["origin"] = "http://evil.example"
        #expect(console.status(request, at: 0) == 403)
        #expect(console.rules.sessions.count == 0)
    }

    @Test("sign-out ends the session (with the CSRF token only)")
    func signOut() {
        var console = Console()
        let (cookie, csrf) = console.signIn(at: 0)
        #expect(console.status(ConsoleRequest(method: "DELETE", path: "/console/api/session", headers: ["cookie": cookie]), at: 1) == 403)
        #expect(console.status(ConsoleRequest(method: "DELETE", path: "/console/api/session", headers: ["cookie": cookie, "x-csrf-token": csrf]), at: 1) == 204)
        #expect(console.status(ConsoleRequest(method: "GET", path: "/console/api/session", headers: ["cookie": cookie]), at: 2) == 401)
    }

    @Test("the oldest sessions give way past the table's capacity")
    func capacity() {
        var table = SessionTable()
        for n in 0...SessionTable.capacity { table.open(token: "s\(n)", csrf: "c\(n)", now: Double(n)) }
        #expect(table.count == SessionTable.capacity)
        #expect(table.csrf(of: "s0", now: 100) == nil && table.csrf(of: "s\(SessionTable.capacity)", now: 100) == "c\(SessionTable.capacity)")
    }

    @Test("the sign-in's password field: form (percent and plus decoded) or JSON; none is 400")
    func passwordField() {
        var form = signInRequest("x")
        form.body = Array("user=a&password=correct%20horse".utf8)
        #expect(ConsoleRules.passwordField(form) == "correct horse")
        form.body = Array("password=correct+horse".utf8)
        #expect(ConsoleRules.passwordField(form) == "correct horse")
        var json = signInRequest("x", json: true)
        json.body = Array(#"{"password":["no"]}"#.utf8)
        #expect(ConsoleRules.passwordField(json) == nil)
        var console = Console()
        #expect(console.status(json, at: 0) == 400)
    }

    @Test("the booth's replies as HTTP")
    func boothReplies() {
        #expect(ConsoleRules.stateAnswer(.answered(lines: [#"{"event":"state","mode":"ready"}"#])).status == 200)
        #expect(String(decoding: ConsoleRules.stateAnswer(.answered(lines: [#"{"event":"x"}"#, #"{"event":"state"}"#])).body, as: UTF8.self) == #"{"event":"state"}"#)
        let gone = ConsoleRules.stateAnswer(.unreachable("no booth answers at /run/x.sock"))
        #expect(gone.status == 503 && String(decoding: gone.body, as: UTF8.self).contains("no booth answers"))
        #expect(ConsoleRules.commandAnswer(.refused(lines: [], code: "notAllowed", message: "no")).0.status == 409)
        #expect(ConsoleRules.commandAnswer(.badCommand("nope")).0.status == 400)
        let (ok, result) = ConsoleRules.commandAnswer(.answered(lines: ["{\"event\":\"state\"}"]))
        #expect(ok == .json(200, #"{"ok":true,"events":[{"event":"state"}]}"#) && result == "ok")
    }

    @Test("constant-time comparison is still a comparison", arguments: [("abc", "abc", true), ("abc", "abd", false), ("abc", "ab", false), ("", "", true), ("", "a", false)])
    func constantTime(a: String, b: String, equal: Bool) {
        #expect(ConstantTime.equal(a, b) == equal)
    }

    @Test("an audit line is one JSON object with time, address, action and result")
    func auditLine() {
        #expect(AuditEntry(time: 1_700_000_000.25, address: "10.42.0.5", action: "signIn", result: "wrongPassword").line
                == #"{"time":1700000000.250,"address":"10.42.0.5","action":"signIn","result":"wrongPassword"}"#)
    }

    @Test("yescrypt: a $y$ hash that matches its password only")
    func yescrypt() throws {
        let hash = try #require(PasswordHash.yescrypt("correct horse"))
        #expect(hash.hasPrefix("$y$"))
        #expect(StoredPassword(hash: hash).matches("correct horse"))
        #expect(!StoredPassword(hash: hash).matches("correct hors"))
        #expect(PasswordHash.yescrypt("correct horse") != hash, "a fresh salt each time")
    }
}
