// A guest's "Delete my video" through the real binaries: a booth sharing two takes, its console, and
// Debian's nginx with the shipped site passing `POST /s/{token}/delete` to the console's socket. Every
// attack is shown failing with nothing deleted: a GET, another site's POST, an unknown token, a
// malformed one, a share folder that is no take's, `..` in the path; the 11th try in a minute from one
// address is 429. The guest's own delete (the booth's `deleteTake` by token) then takes the take's
// files away and the page says so, in the guest's language.
import Foundation
import Glibc
import Testing
import KioskTestSupport

/// Whether the booth takes `deleteTake` by `token` (its side of the guest's delete): it does. (False
/// checks the console alone: the booth's refusal answered as an unknown token's 404, nothing deleted.)
let boothDeletesByToken = true

@Suite("a guest's delete from the share page, end to end", .serialized)
struct GuestDeleteEndToEndTests {
    let password = "booth operator 1"

    /// `curl` through nginx from the loopback address `from` (each address has its own 10 a minute):
    /// the status and the body.
    static func post(_ server: ShareServer, _ path: String, origin: String?, method: String = "POST", body: String = "lang=fr",
                     from: String = "127.0.0.1") throws -> (status: Int, body: String) {
        let out = server.folder.appendingPathComponent("answer-\(UUID().uuidString)").path
        var command = ["curl", "-s", "--path-as-is", "--interface", from, "-o", out, "-w", "%{http_code}", "--max-time", "20", "-X", method]
        if let origin { command += ["-H", "Origin: " + origin] }
        if method == "POST" { command += ["--data-binary", body] }
        let run = try runProgram(command + [server.base + path])
        return (Int(run.stdout) ?? 0, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "")
    }

    @Test("hostile: GET 405, another site 403, unknown and malformed tokens and .. one same 404, a folder that is no take's 404, nothing deleted; the 11th try in a minute 429; the guest's own token deletes that take only and the page says so")
    func hostileAndOwn() throws {
        let folder = try testFolder("guest-delete")
        let takes = folder.appendingPathComponent("takes").path, shares = folder.appendingPathComponent("share").path
        let socket = folder.appendingPathComponent("booth.sock").path
        let config = folder.appendingPathComponent("kiosk.conf").path
        try "control-socket = \(socket)\noutput-dir = \(takes)\nsession = loop\nshare-dir = \(shares)\nshare-url = \(ShareEndToEndTests.template)\nlanguage = fr\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let r = try RecorderProcess(booth + ["--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let (first, second) = try ShareEndToEndTests.twoSharedTakes(r)

        // The share page: its Delete, a form with a confirm step, posting to delete in its language.
        let page = try String(contentsOfFile: second.folder + "/index.html", encoding: .utf8)
        #expect(page.contains(#"<form method="post" action="delete"><input type="hidden" name="lang" value="fr">"#)
                && page.contains("<summary>Supprimer ma vidéo</summary>") && !page.contains("<script"), "\(page)")

        let set = try setConsolePassword(password, file: folder.appendingPathComponent("console-password").path)
        try #require(set.status == 0, "\(set.stderr)")
        let console = try ConsoleUnderTest.start(folder, booth: ["--config", config])
        defer { console.stop() }
        // nginx's worker is `nobody` under the tests' root master: the socket opened to it.
        chmod(folder.appendingPathComponent("console.sock").path, 0o666)
        let nginx = folder.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: nginx, withIntermediateDirectories: true)
        let server = try ShareServer(shares: shares, folder: nginx, console: folder.appendingPathComponent("console.sock").path)
        defer { server.stop() }
        let origin = server.base
        #expect(try server.get("/s/\(second.token)/").status == 200)

        // A share folder that is no take's (planted beside theirs): a token's shape, no take.
        let planted = "QUJDREVGR0hJSktMTU5PUFFS"
        try FileManager.default.createDirectory(atPath: shares + "/" + planted, withIntermediateDirectories: true)
        let unknown = try Self.post(server, "/s/ZZZZZZZZZZZZZZZZZZZZZZZZ/delete", origin: origin, from: "127.0.0.2")
        #expect(unknown.status == 404 && unknown.body.contains("Il n’y a pas (ou plus) de vidéo ici."), "\(unknown)")
        for path in ["/s/\(planted)/delete", "/s/short/delete", "/s/\(second.token)x/delete", "/s/.partial-\(second.token)/delete",
                     "/s/\(first.token)/../\(second.token)/delete", "/s/../s/\(second.token)/delete", "/s/\(second.token)/delete/../delete"] {
            let answer = try Self.post(server, path, origin: origin, from: "127.0.0.2")
            #expect(answer.status == 404 && answer.body == unknown.body, "\(path): \(answer)")
        }
        // Climbing out of /s/ in nginx's own decoding: its 404 page, never the console.
        #expect(try Self.post(server, "/s/%2e%2e/\(second.token)/delete", origin: origin, from: "127.0.0.2").status == 404)
        // Not a POST, or not from the site's own page.
        #expect(try Self.post(server, "/s/\(second.token)/delete", origin: origin, method: "GET").status == 405)
        #expect(try Self.post(server, "/s/\(second.token)/delete", origin: "http://evil.example", from: "127.0.0.3").status == 403)
        #expect(try Self.post(server, "/s/\(second.token)/delete", origin: "null", from: "127.0.0.3").status == 403)
        #expect(try Self.post(server, "/s/\(second.token)/delete", origin: nil, from: "127.0.0.3").status == 403)
        // Nothing deleted.
        for kept in [first.take, second.take, first.folder, second.folder, shares + "/" + planted] {
            #expect(FileManager.default.fileExists(atPath: kept), "\(kept)")
        }
        #expect(!r.names.contains("takeDeleted"))

        // 10 tries a minute from one address (nginx's X-Real-IP on the console's socket), the 11th 429.
        var statuses: [Int] = []
        for _ in 1...11 {
            statuses.append(try console.curl("POST", "/s/ZZZZZZZZZZZZZZZZZZZZZZZZ/delete",
                                             headers: ["X-Real-IP: 10.42.0.77", "Origin: http://10.42.0.1"], body: "lang=de").status)
        }
        #expect(statuses == Array(repeating: 404, count: 10) + [429], "\(statuses)")
        #expect(try console.curl("POST", "/s/ZZZZZZZZZZZZZZZZZZZZZZZZ/delete", headers: ["X-Real-IP: 10.42.0.78", "Origin: http://10.42.0.1"]).status == 404)

        // The guest's own delete: the second take, through nginx.
        let own = try Self.post(server, "/s/\(second.token)/delete", origin: origin)
        if boothDeletesByToken {
            #expect(own.status == 200 && own.body.contains("Ta vidéo a été supprimée de la cabine."), "\(own)")
            #expect(r.wait(for: "takeDeleted") != nil)
            let secondName = URL(fileURLWithPath: second.take).lastPathComponent
            for gone in [second.take, takes + "/." + secondName + ".thumb.jpg", takes + "/." + secondName + ".recording", second.folder] {
                #expect(!FileManager.default.fileExists(atPath: gone), "\(gone)")
            }
            #expect(try server.get("/s/\(second.token)/").status == 404)
            // A second delete is answered as done.
            #expect(try Self.post(server, "/s/\(second.token)/delete", origin: origin).status == 200)
        } else {
            // The booth refuses the token form: the console says what it says of an unknown token.
            #expect(own.status == 404 && own.body == unknown.body, "\(own)")
            #expect(FileManager.default.fileExists(atPath: second.take) && FileManager.default.fileExists(atPath: second.folder))
        }
        // The other take is untouched either way.
        #expect(FileManager.default.fileExists(atPath: first.take) && FileManager.default.fileExists(atPath: first.folder))
        #expect(try server.get("/s/\(first.token)/").status == 200)

        // Every try audited with its address, never with a token.
        let tries = console.auditLines.filter { $0.contains(#""action":"guestDelete""#) }
        #expect(tries.count == 8 + 4 + 12 + 1 + (boothDeletesByToken ? 1 : 0), "\(tries)")
        #expect(tries.filter { $0.contains("10.42.0.77") }.last?.contains(#""result":"limited""#) == true)
        #expect(!console.auditLines.contains { $0.contains(second.token) || $0.contains(first.token) })
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("the Takes page's consent: each take's choices from the consent log (none without one); the log as a CSV download, signed in only")
    func consentOnTakesPage() throws {
        let live = ConsoleLiveEndToEndTests()
        let folder = try testFolder("guest-delete-consent")
        let (config, _, takes) = try live.config(folder)
        let r = try RecorderProcess(booth + ["--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let first = URL(fileURLWithPath: try live.take(r, count: 1)).lastPathComponent
        let second = URL(fileURLWithPath: try live.take(r, count: 2)).lastPathComponent
        // The consent log as the booth writes it (.kiosk-recorder.consent): the first take's guest
        // agreed to the film only; the second was recorded without a consent screen.
        let log = #"{"take":"\#(first)","time":"2026-12-07T01:02:03Z","version":"\#(String(repeating: "ab", count: 32))","choices":["film"]}"# + "\n"
        try log.write(toFile: takes + "/.kiosk-recorder.consent", atomically: true, encoding: .utf8)
        let (console, cookie) = try live.signedInConsole(folder, config: config)
        defer { console.stop() }

        let listed = try console.curl("GET", "/console/api/takes", headers: [cookie])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(listed.body.utf8)) as? [[String: Any]], "\(listed.body)")
        #expect(list.first { $0["name"] as? String == first }?["consent"] as? [String] == ["film"], "\(listed.body)")
        #expect(list.first { $0["name"] as? String == second }.map { $0["consent"] == nil } == true, "\(listed.body)")

        #expect(try console.curl("GET", "/console/api/consent.csv").status == 401)
        let csv = try console.curl("GET", "/console/api/consent.csv", headers: [cookie])
        #expect(csv.status == 200 && csv.header("content-type") == "text/csv; charset=utf-8"
                && csv.header("content-disposition") == #"attachment; filename="consent.csv""#, "\(csv.headers)")
        // (curl's answer here has its line ends made LF.)
        #expect(csv.body == "take,time,version,choices,deleted\n\(first),2026-12-07T01:02:03Z,\(String(repeating: "ab", count: 32)),film,\n", "\(csv.body)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    /// A stand-in for the booth's side of a guest's delete on a control socket at `socket`: every line
    /// it is sent goes to `log`; a `deleteTake` is answered with `answers[token]`'s lines (an unknown
    /// token: the `badCommand` refusal). Its process id.
    static func standInBooth(_ socket: String, log: String, answers: [String: [String]]) throws -> pid_t {
        let script = """
            import json, socketserver, sys
            path, log, answers = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
            refusal = '{"event":"error","code":"badCommand","message":"deleteTake: no take has that token"}'
            class Client(socketserver.StreamRequestHandler):
                def handle(self):
                    for raw in self.rfile:
                        line = raw.decode().strip()
                        with open(log, "a") as f: f.write(line + "\\n")
                        try: command = json.loads(line)
                        except ValueError: continue
                        if command.get("command") == "deleteTake":
                            for out in answers.get(command.get("token"), [refusal]):
                                self.wfile.write((out + "\\n").encode()); self.wfile.flush()
            class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer): daemon_threads = True
            Server(path, Client).serve_forever()
            """
        let data = try JSONSerialization.data(withJSONObject: answers)
        let pid = try startServer(["python3", "-c", script, socket, log, String(decoding: data, as: UTF8.self)])
        try #require(eventually(10) { FileManager.default.fileExists(atPath: socket) })
        return pid
    }

    @Test("the console's side against what the booth answers: deleteTake by token sent as is; takeDeleted for the token's take 200 in the guest's language (another take's passed over), a refusal 404 as a malformed token's, notAllowed 503; a repeat delete answered from the record of deleted tokens without the booth; an unknown token not answered by another guest's delete")
    func answeredByTheBooth() throws {
        let folder = try testFolder("guest-delete-answers")
        let takes = folder.appendingPathComponent("takes").path, socket = folder.appendingPathComponent("booth.sock").path
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        let (mine, busy) = ("QUJDREVGR0hJSktMTU5PUFFS", "WllYV1ZVVFNSUVBPTk1MS0pJ")
        // Deleted before (the booth's record of deleted tokens), and a token no take has.
        let (gone, stranger) = ("R09ORUdPTkVHT05FR09ORUdP", "U1RSQU5HRVJTVFJBTkdFUlNU")
        try "1\ttake-0001.mov\t-\t-\t\(mine)\n2\ttake-0002.mov\t-\t-\t\(busy)\n".write(toFile: takes + "/.kiosk-recorder.takes", atomically: true, encoding: .utf8)
        try #"{"take":"take-0003.mov","token":"\#(gone)"}"#.appending("\n").write(toFile: takes + "/.kiosk-recorder.deleted", atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("booth-lines.txt").path
        let booth = try Self.standInBooth(socket, log: log, answers: [
            // Another client's delete first (another take), then this one's.
            mine: [#"{"event":"takeDeleted","path":"\#(takes)/take-0009.mov","reason":"guest"}"#,
                   #"{"event":"takeDeleted","path":"\#(takes)/take-0001.mov","reason":"guest"}"#],
            busy: [#"{"event":"error","code":"notAllowed","message":"'deleteTake': its --on-take hook is still owed: \#(takes)/take-0002.mov"}"#],
            // Another guest's delete of another take comes first: it is not this token's answer.
            gone: [#"{"event":"takeDeleted","path":"\#(takes)/take-0009.mov","reason":"guest"}"#],
            stranger: [#"{"event":"takeDeleted","path":"\#(takes)/take-0009.mov","reason":"guest"}"#,
                       #"{"event":"error","code":"badCommand","message":"'deleteTake': no take is shared under this token"}"#],
        ])
        defer { stopServer(booth) }
        let config = folder.appendingPathComponent("kiosk.conf").path
        try "control-socket = \(socket)\noutput-dir = \(takes)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let console = try ConsoleUnderTest.start(folder, booth: ["--config", config])
        defer { console.stop() }
        func post(_ token: String, from address: String) throws -> CurlAnswer {
            try console.curl("POST", "/s/\(token)/delete", headers: ["X-Real-IP: \(address)", "Origin: http://10.42.0.1",
                                                                     "Content-Type: application/x-www-form-urlencoded"], body: "lang=de")
        }

        let deleted = try post(mine, from: "10.42.0.20")
        #expect(deleted.status == 200 && deleted.body.contains("<h1>Gelöscht</h1>") && deleted.body.contains("Dein Video wurde von der Kabine gelöscht."),
                "\(deleted)")
        #expect(deleted.header("content-type") == "text/html; charset=utf-8" && deleted.header("cache-control") == "no-store")
        let sent = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("deleteTake") }
        #expect(sent == [#"{"command":"deleteTake","token":"\#(mine)","reason":"guest"}"#], "\(sent)")

        let refused = try post("UVVWV1hZWjAxMjM0NTY3ODkt", from: "10.42.0.21")
        let malformed = try post("not-a-token", from: "10.42.0.21")
        #expect(refused.status == 404 && malformed.status == 404 && refused.body == malformed.body, "\(refused) \(malformed)")
        let later = try post(busy, from: "10.42.0.22")
        #expect(later.status == 503 && later.body.contains("Bitte versuche es in einer Minute noch einmal."), "\(later)")
        // A repeat delete (its take in the record of deleted tokens): done, answered from the record
        // without asking the booth. A token no take has: another guest's delete is not its answer.
        let again = try post(gone, from: "10.42.0.23")
        #expect(again.status == 200 && again.body.contains("<h1>Gelöscht</h1>"), "\(again)")
        let unknown = try post(stranger, from: "10.42.0.24")
        #expect(unknown.status == 404 && unknown.body == malformed.body, "\(unknown)")
        // The malformed one and the repeat never reached the booth; the results are audited, the tokens never.
        let asked = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("deleteTake") }
        #expect(asked.count == 4 && !asked.contains { $0.contains(gone) }, "\(asked)")
        let results = console.auditLines.filter { $0.contains("guestDelete") }
        #expect(results.count == 6 && results[0].contains(#""result":"deleted take-0001.mov""#) && results[1].contains(#""result":"notFound""#)
                && results[3].contains("later: 'deleteTake'") && results[4].contains(#""result":"deleted take-0003.mov""#)
                && results[5].contains(#""result":"notFound""#), "\(results)")
        #expect(!console.auditLines.contains { $0.contains(mine) || $0.contains(busy) || $0.contains(gone) || $0.contains(stranger) })
    }
}
