// The operator's console through the real binary: `kiosk-recorder console` beside a real booth
// with its control socket, driven with curl, hostile until signed in (every attack shown failing),
// and `console password`.
import Foundation
import Glibc
import Testing
import KioskTestSupport

/// One answer as curl saw it.
struct CurlAnswer {
    let status: Int
    /// Header lines, names in lower case.
    let headers: [String]
    let body: String

    func header(_ name: String) -> String? {
        headers.first { $0.hasPrefix(name.lowercased() + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }
}

/// A console under test: its process, where it listens, its folder.
struct ConsoleUnderTest {
    let process: RecorderProcess
    /// curl's words for reaching it: `--unix-socket PATH` or nothing (TCP).
    let reach: [String]
    /// The URL's start: http://10.42.0.1 (over the socket, the Host nginx would pass on) or http://127.0.0.1:PORT.
    let base: String
    let folder: URL

    var passwordFile: String { folder.appendingPathComponent("console-password").path }
    var auditLog: String { folder.appendingPathComponent("console-audit.log").path }

    /// Starts `kiosk-recorder console` for the booth at `boothSocket`, on a Unix socket in `folder`
    /// or on 127.0.0.1 with a port the kernel picks.
    static func start(_ folder: URL, boothSocket: String, tcp: Bool = false) throws -> ConsoleUnderTest {
        try start(folder, booth: ["--control-socket", boothSocket], tcp: tcp)
    }

    /// The same with the booth's options given as `booth` (`--config FILE`).
    static func start(_ folder: URL, booth: [String], tcp: Bool = false, environment: [String: String] = [:]) throws -> ConsoleUnderTest {
        let socket = folder.appendingPathComponent("console.sock").path
        let listen = tcp ? "127.0.0.1:0" : "unix:" + socket
        let process = try RecorderProcess(["console"] + booth + ["--listen", listen,
                                           "--password-file", folder.appendingPathComponent("console-password").path],
                                          environment: environment)
        try #require(eventually(20) { process.stderr.contains("console: listening on") }, "\(process.stderr)")
        if tcp {
            let line = try #require(process.stderr.split(separator: "\n").first { $0.contains("listening on 127.0.0.1:") })
            let after = try #require(line.range(of: "listening on 127.0.0.1:"))
            let port = line[after.upperBound...].prefix { $0.isNumber }
            try #require(!port.isEmpty, "\(line)")
            return ConsoleUnderTest(process: process, reach: [], base: "http://127.0.0.1:\(port)", folder: folder)
        }
        return ConsoleUnderTest(process: process, reach: ["--unix-socket", socket], base: "http://10.42.0.1", folder: folder)
    }

    /// `method path` with `headers` and `body` (or `--data-binary @file` for `bodyFile`).
    func curl(_ method: String, _ path: String, headers: [String] = [], body: String? = nil, bodyFile: String? = nil) throws -> CurlAnswer {
        var command = ["curl", "-s", "-i", "--path-as-is", "--max-time", "20", "-X", method] + reach
        for header in headers { command += ["-H", header] }
        if let body { command += ["--data-binary", body] }
        if let bodyFile { command += ["--data-binary", "@" + bodyFile] }
        let run = try runProgram(command + [base + path])
        let text = run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        // A 100 Continue comes first when curl asked for it.
        var blocks = text.components(separatedBy: "\n\n")
        while blocks.count > 1, blocks[0].hasPrefix("HTTP/1.1 100") { blocks.removeFirst() }
        let head = blocks.first?.split(separator: "\n").map(String.init) ?? []
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        return CurlAnswer(status: status, headers: head.dropFirst().map { line in
            guard let colon = line.firstIndex(of: ":") else { return line }
            return line[..<colon].lowercased() + line[colon...]
        }, body: blocks.dropFirst().joined(separator: "\n\n"))
    }

    /// Signs in with `password`; the cookie header to send, or nil.
    func signIn(_ password: String) throws -> (cookie: String, answer: CurlAnswer) {
        let answer = try curl("POST", "/console/api/session", headers: ["Content-Type: application/json"], body: #"{"password":"\#(password)"}"#)
        let cookie = answer.header("set-cookie")?.split(separator: ";").first.map(String.init) ?? ""
        return ("Cookie: " + cookie, answer)
    }

    /// Ends the console (SIGTERM) and waits for it: its reader threads hold it until its stdout
    /// closes, so it is never ended by going out of scope.
    func stop() {
        guard process.process.isRunning else { return }
        process.kill(SIGTERM)
        _ = process.exitStatus()
    }

    /// The audit log's lines.
    var auditLines: [String] {
        ((try? String(contentsOfFile: auditLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// `kiosk-recorder console password --password-file FILE` with `password` and a newline on stdin.
func setConsolePassword(_ password: String, file: String) throws -> ProgramRun {
    try runProgram(["sh", "-c", #"printf '%s\n' "$1" | exec "$0" console password --password-file "$2""#, recorderPath, password, file],
                   environment: recorderEnvironment())
}

@Suite("kiosk-recorder console: the operator's console, hostile until signed in")
struct ConsoleEndToEndTests {
    let password = "booth operator 1"

    @Test("locked: 401 before sign-in, 429 on the 6th wrong password (each try audited), CSRF and origin 403, traversal 404, 20 MB 413; signed in, a command starts a take")
    func locked() throws {
        let folder = try testFolder("console-locked")
        let boothSocket = folder.appendingPathComponent("booth.sock").path
        let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("take.mov").path, "--control-socket", boothSocket])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let set = try setConsolePassword(password, file: folder.appendingPathComponent("console-password").path)
        try #require(set.status == 0, "\(set.stderr)")
        let console = try ConsoleUnderTest.start(folder, boothSocket: boothSocket)
        defer { console.stop() }
        // The console's socket: 0660, for nginx's group.
        var socketStat = stat()
        #expect(lstat(folder.appendingPathComponent("console.sock").path, &socketStat) == 0 && socketStat.st_mode & S_IFMT == S_IFSOCK
                && socketStat.st_mode & 0o777 == 0o660)

        // The password file: a yescrypt hash, mode 0600.
        let stored = try String(contentsOfFile: console.passwordFile, encoding: .utf8)
        #expect(stored.hasPrefix("$y$") && !stored.contains(password))
        var st = stat()
        #expect(stat(console.passwordFile, &st) == 0 && st.st_mode & 0o777 == 0o600)

        // Before sign-in: every API answers 401; the page is the sign-in form and nothing else.
        for (method, path) in [("GET", "/console/api/session"), ("GET", "/console/api/state"), ("GET", "/console/api/audit"),
                               ("POST", "/console/api/command"), ("DELETE", "/console/api/session")] {
            #expect(try console.curl(method, path, body: method == "POST" ? #"{"command":"start"}"# : nil).status == 401, "\(method) \(path)")
        }
        let page = try console.curl("GET", "/console/")
        #expect(page.status == 200 && page.header("content-type")?.hasPrefix("text/html") == true)
        #expect(page.body.components(separatedBy: "<form").count == 2 && page.body.contains(#"type="password""#))
        #expect(!page.body.contains("Mode") && !page.body.contains("recording"))
        #expect(page.header("content-security-policy")?.contains("default-src 'self'") == true)
        #expect(r.count(of: "recordingStarted") == 0)

        // Six wrong passwords from one address (nginx's X-Real-IP on the Unix socket): the sixth is 429.
        var statuses: [Int] = []
        for _ in 1...6 {
            statuses.append(try console.curl("POST", "/console/api/session", headers: ["X-Real-IP: 10.42.0.66"], body: "password=not+it+at+all").status)
        }
        #expect(statuses == [401, 401, 401, 401, 401, 429])
        // Each try is in the audit log, written before its answer.
        let tries = console.auditLines.filter { $0.contains(#""action":"signIn""#) && $0.contains("10.42.0.66") }
        #expect(tries.count == 6, "\(console.auditLines)")
        #expect(tries.filter { $0.contains("wrongPassword") }.count == 5 && tries.last?.contains(#""result":"limited""#) == true)

        // Signed in (from another address): the cookie.
        let (cookie, signedIn) = try console.signIn(password)
        #expect(signedIn.status == 204)
        let setCookie = try #require(signedIn.header("set-cookie"))
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Max-Age=43200")
                && setCookie.contains("Path=/console/"), "\(setCookie)")
        let session = try console.curl("GET", "/console/api/session", headers: [cookie])
        #expect(session.status == 200)
        let csrf = try #require(try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: String])["csrf"]
        #expect((csrf?.count ?? 0) >= 40)

        // A change without the CSRF token, with a wrong one, or from another origin: 403, and no take.
        let start = #"{"command":"start"}"#
        #expect(try console.curl("POST", "/console/api/command", headers: [cookie, "Origin: http://10.42.0.1"], body: start).status == 403)
        #expect(try console.curl("POST", "/console/api/command", headers: [cookie, "X-CSRF-Token: \(csrf!.dropLast())x"], body: start).status == 403)
        #expect(try console.curl("POST", "/console/api/command", headers: [cookie, "X-CSRF-Token: \(csrf!)", "Origin: http://evil.example"], body: start).status == 403)
        // Traversal in any spelling: 404.
        for path in ["/console/../console/api/state", "/console/api/../api/state", "/console/%2e%2e/console/api/state", "/console/api/%2E%2E/api/audit"] {
            #expect(try console.curl("GET", path, headers: [cookie]).status == 404, "\(path)")
        }
        // 20 MB: 413, refused on its Content-Length before it is read (curl sent far less than all of
        // it), and sent in chunks without a length: 413 once it passes the limit.
        let big = folder.appendingPathComponent("big.json").path
        try Data(count: 20_000_000).write(to: URL(fileURLWithPath: big))
        #expect(try console.curl("POST", "/console/api/command", headers: [cookie, "X-CSRF-Token: \(csrf!)"], bodyFile: big).status == 413)
        let sent = try runProgram(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{size_upload}", "--max-time", "20"] + console.reach
                                  + ["-H", cookie, "-H", "X-CSRF-Token: \(csrf!)", "--data-binary", "@" + big, console.base + "/console/api/command"])
        let figures = sent.stdout.split(separator: " ").compactMap { Int($0) }
        #expect(figures.count == 2 && figures[0] == 413 && figures[1] < 20_000_000 / 2, "\(sent.stdout)")
        #expect(try console.curl("POST", "/console/api/command", headers: [cookie, "X-CSRF-Token: \(csrf!)", "Transfer-Encoding: chunked"],
                                 bodyFile: big).status == 413)
        #expect(r.count(of: "recordingStarted") == 0)

        // Both right: the take starts at the booth, and the state says so.
        let answer = try console.curl("POST", "/console/api/command", headers: [cookie, "X-CSRF-Token: \(csrf!)", "Origin: http://10.42.0.1",
                                                                             "Content-Type: application/json"], body: start)
        #expect(answer.status == 200 && answer.body.contains(#""ok":true"#), "\(answer)")
        #expect(r.wait(for: "recordingStarted") != nil)
        let state = try console.curl("GET", "/console/api/state", headers: [cookie])
        #expect(state.status == 200 && state.body.hasPrefix(#"{"event":"state""#) && state.body.contains(#""mode":"recording""#), "\(state.body)")
        // A command the booth refuses comes back refused.
        let refused = try console.curl("POST", "/console/api/command", headers: [cookie, "X-CSRF-Token: \(csrf!)"], body: #"{"command":"retake"}"#)
        #expect(refused.status == 409 && refused.body.contains("notAllowed"), "\(refused)")

        // The audit log, shown: every try, the refusals and the command.
        let audit = try console.curl("GET", "/console/api/audit", headers: [cookie])
        #expect(audit.status == 200)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(audit.body.utf8)) as? [[String: Any]])
        #expect(entries.contains { $0["action"] as? String == "command start" && $0["result"] as? String == "ok" })
        #expect(entries.filter { $0["result"] as? String == "refused 403" }.count == 3)
        var logStat = stat()
        #expect(stat(console.auditLog, &logStat) == 0 && logStat.st_mode & 0o777 == 0o600)

        // Nothing on the console's stdout; its log on stderr.
        #expect(console.process.rawLines.isEmpty, "\(console.process.rawLines)")
        // Signed out: 401 again.
        #expect(try console.curl("DELETE", "/console/api/session", headers: [cookie, "X-CSRF-Token: \(csrf!)"]).status == 204)
        #expect(try console.curl("GET", "/console/api/state", headers: [cookie]).status == 401)
        r.command("stop")
        #expect(r.wait(for: "recordingFinished") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("a console before its booth (and before its password): says so, and answers once the booth is there; over TCP the peer is the address")
    func boothLater() throws {
        let folder = try testFolder("console-later")
        let boothSocket = folder.appendingPathComponent("booth.sock").path
        // The booth's config file, read by the booth's parser: the console finds the socket there.
        let config = folder.appendingPathComponent("kiosk.conf").path
        try "# the booth's\ncontrol-socket = \(boothSocket)\ncountdown = 0\n".write(toFile: config, atomically: true, encoding: .utf8)
        let console = try ConsoleUnderTest.start(folder, booth: ["--config", config], tcp: true)
        defer { console.stop() }
        // No password yet: the page says how to set it, and nothing opens.
        let page = try console.curl("GET", "/console/")
        #expect(page.status == 200 && page.body.contains("kiosk-recorder console password") && !page.body.contains("<form"))
        #expect(try console.signIn(password).answer.status == 503)
        let set = try setConsolePassword(password, file: console.passwordFile)
        try #require(set.status == 0, "\(set.stderr)")
        let (cookie, signedIn) = try console.signIn(password)
        #expect(signedIn.status == 204)
        #expect(console.auditLines.last?.contains(#""address":"127.0.0.1""#) == true, "\(console.auditLines)")

        let none = try console.curl("GET", "/console/api/state", headers: [cookie])
        #expect(none.status == 503 && none.body.contains("no booth answers at \(boothSocket)"), "\(none)")
        let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("take.mov").path, "--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let state = try console.curl("GET", "/console/api/state", headers: [cookie])
        #expect(state.status == 200 && state.body.contains(#""mode":"ready""#), "\(state)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        // Gone again: 503 again, and the console still answers.
        #expect(try console.curl("GET", "/console/api/state", headers: [cookie]).status == 503)
    }

    @Test("a console's Unix socket left by one that was killed is replaced by the next; one a live console listens on is not")
    func staleSocket() throws {
        let folder = try testFolder("console-stale")
        let boothSocket = folder.appendingPathComponent("booth.sock").path
        let first = try ConsoleUnderTest.start(folder, boothSocket: boothSocket)
        defer { first.stop() }
        // A second one on the same socket while the first listens: refused, exit 1, the first still answers.
        let second = try RecorderProcess(["console", "--control-socket", boothSocket, "--listen", "unix:" + folder.appendingPathComponent("console.sock").path,
                                          "--password-file", first.passwordFile])
        #expect(second.exitStatus() == 1 && second.stderr.contains("another program listens there"), "\(second.stderr)")
        #expect(try first.curl("GET", "/console/api/state").status == 401)
        first.process.kill(SIGKILL)
        #expect(first.process.exitStatus() != nil)
        let again = try ConsoleUnderTest.start(folder, boothSocket: boothSocket)
        defer { again.stop() }
        #expect(try again.curl("GET", "/console/").status == 200)
        // SIGTERM ends it (the console takes no signal of the booth's).
        again.process.kill(SIGTERM)
        #expect(again.process.exitStatus(timeout: 10) != nil, "\(again.process.stderr)")
    }

    @Test("console password: 7 characters exit 2 and write nothing; a bad option names itself (exit 2); help console")
    func commandLine() throws {
        let folder = try testFolder("console-options")
        let file = folder.appendingPathComponent("console-password").path
        let short = try setConsolePassword("1234567", file: file)
        #expect(short.status == 2 && short.stderr.contains("at least 8"), "\(short.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file))
        let env = recorderEnvironment()
        let bad = try runProgram([recorderPath, "console", "--listne", "unix:/tmp/x.sock"], environment: env)
        #expect(bad.status == 2 && bad.stderr.contains("'--listne'") && bad.stderr.contains("--listen"), "\(bad.stderr)")
        let noSocket = try runProgram([recorderPath, "console", "--listen", "127.0.0.1:0"], environment: env)
        #expect(noSocket.status == 2 && noSocket.stderr.contains("control socket"), "\(noSocket.stderr)")
        // A config file's bad line is named as the booth names it.
        let config = folder.appendingPathComponent("kiosk.conf").path
        try "control-socket = /tmp/x.sock\ncountdown = 99\n".write(toFile: config, atomically: true, encoding: .utf8)
        let badConfig = try runProgram([recorderPath, "console", "--config", config], environment: env)
        #expect(badConfig.status == 2 && badConfig.stderr.contains("kiosk.conf:2") && badConfig.stderr.contains("countdown"), "\(badConfig.stderr)")
        #expect(badConfig.stdout.isEmpty && bad.stdout.isEmpty)
        let badListen = try runProgram([recorderPath, "console", "--listen", "nowhere"], environment: env)
        #expect(badListen.status == 2 && badListen.stderr.contains("--listen 'nowhere'"), "\(badListen.stderr)")
        let help = try runProgram([recorderPath, "help", "console"], environment: env)
        #expect(help.status == 0 && help.stdout.contains("kiosk-recorder console password"))
        #expect(try runProgram([recorderPath, "console", "--help"], environment: env).stdout == help.stdout)
    }
}
