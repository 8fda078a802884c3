// The console as installed: the page's files nginx serves (kiosk/console) are the texts the console
// serves itself, nginx's share site passes bodies up to the console's own limit, and the page
// served as a file learns from the API that no password is set.
import Foundation
import Testing
@testable import KioskConsole

@Suite("The console as installed")
struct ConsoleInstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("kiosk/console holds the page's files, and the console serves them as they are: index.html at /console/ (no-password.html there until a password is set), the rest at their names, other methods 405")
    func pageFiles() throws {
        let folder = Self.root.appendingPathComponent("kiosk/console")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ConsolePages.names.sorted(), "kiosk/console has other files than the page's")
        var console = Console()
        var unset = Console(password: FakePassword(isSet: false))
        for name in ConsolePages.names {
            let file = try Data(contentsOf: folder.appendingPathComponent(name))
            let path = name == "index.html" ? "/console/" : "/console/" + name
            let served = name == "no-password.html" ? unset.decide(ConsoleRequest(method: "GET", path: "/console/"), at: 0)
                : console.decide(ConsoleRequest(method: "GET", path: path), at: 0)
            guard case let .answer(response, _) = served else { Issue.record("\(path): \(served)"); continue }
            #expect(response.status == 200 && Data(response.body) == file, "\(name)")
            #expect(response.headers["Content-Type"]?.hasPrefix(name.hasSuffix(".html") ? "text/html" : name.hasSuffix(".css") ? "text/css" : "text/javascript") == true)
            #expect(console.status(ConsoleRequest(method: "POST", path: path, headers: ["host": "10.42.0.1"]), at: 0) == (name == "no-password.html" ? 404 : 405), "\(name)")
        }
        // A folder without them: 404 naming the folder, never a crash or an empty page.
        var bare = Console(rules: ConsoleRules(pages: ConsolePages.read("/nonexistent")))
        guard case let .answer(missing, _) = bare.decide(ConsoleRequest(method: "GET", path: "/console/console.js"), at: 0) else { Issue.record(); return }
        #expect(missing.status == 404 && String(decoding: missing.body, as: UTF8.self).contains("/nonexistent"))
    }

    @Test("GET api/session before sign-in: 401, saying how to set a password when none is set")
    func sessionWithoutPassword() {
        var unset = Console(password: FakePassword(isSet: false))
        guard case let .answer(none, _) = unset.decide(ConsoleRequest(method: "GET", path: "/console/api/session"), at: 0) else { Issue.record(); return }
        #expect(none.status == 401 && String(decoding: none.body, as: UTF8.self).contains(#""error":"noPassword""#))
        #expect(String(decoding: none.body, as: UTF8.self).contains("kiosk-recorder console password"))
        var set = Console()
        guard case let .answer(signIn, _) = set.decide(ConsoleRequest(method: "GET", path: "/console/api/session"), at: 0) else { Issue.record(); return }
        #expect(signIn.status == 401 && String(decoding: signIn.body, as: UTF8.self).contains(#""error":"signIn""#))
    }

    @Test("nginx's share site: /console/api/ to the console's default socket, X-Real-IP from the connection, unbuffered, bodies up to the console's upload limit")
    func nginxLocation() throws {
        let site = try String(contentsOf: Self.root.appendingPathComponent("kiosk/share/nginx-site.conf"), encoding: .utf8)
        let api = try #require(site.range(of: "location /console/api/ {").map { site[$0.upperBound...].prefix { $0 != "}" } })
        let lines = Set(api.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for line in ["proxy_pass http://unix:/run/kiosk-recorder/console.sock;", "proxy_set_header X-Real-IP $remote_addr;",
                     "proxy_buffering off;", "client_max_body_size \(ConsoleRules.uploadLimit >> 20)m;"] {
            #expect(lines.contains(line), "\(line) missing from nginx's /console/api/ location")
        }
        #expect(ConsoleRules.uploadLimit % (1 << 20) == 0)
    }
}
