// The console as installed: the page's files nginx serves (kiosk/console) are the texts the console
// serves itself, nginx's share site passes bodies up to the console's own limit, and the page
// served as a file learns from the API that no password is set.
import Foundation
import Testing
@testable import KioskConsole

@Suite("The console as installed")
struct ConsoleInstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("kiosk/console holds the page's files as the console serves them (KIOSK_REGENERATE=1 writes them anew)")
    func pageFiles() throws {
        let folder = Self.root.appendingPathComponent("kiosk/console")
        if ProcessInfo.processInfo.environment["KIOSK_REGENERATE"] == "1" {
            for (name, text) in ConsolePage.files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ConsolePage.files.map(\.name).sorted(), "kiosk/console has other files than the page's")
        var console = Console(password: FakePassword())
        for (name, text) in ConsolePage.files {
            let file = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(file == text, """
                kiosk/console/\(name) is not the page the console serves; write it anew and read the diff:
                KIOSK_REGENERATE=1 .build/debug/KioskRecorderPackageTests.xctest --testing-library swift-testing --filter ConsoleInstallTests
                """)
            // And the console serves that same text at its name (index.html at /console/).
            let path = name == "index.html" ? "/console/" : "/console/" + name
            guard case let .answer(served, _) = console.decide(ConsoleRequest(method: "GET", path: path), at: 0) else { Issue.record(); continue }
            #expect(String(decoding: served.body, as: UTF8.self) == text, "\(path)")
        }
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
