// The console's settings requests by table: what each asks of the store before and after sign-in,
// with and without the CSRF token, the upload names and the body limits.
import Foundation
import Testing
@testable import KioskConsole

@Suite("The console's settings rules")
struct ConsoleSettingsRulesTests {
    @Test("before sign-in: 401 for every settings request; the view's script is served", arguments: [
        ("GET", "/console/api/settings", 401), ("PUT", "/console/api/settings", 401), ("PUT", "/console/api/files/overlay", 401),
        ("PUT", "/console/api/files/questions", 401), ("PUT", "/console/api/files/password", 401), ("POST", "/console/api/settings", 401),
        ("GET", "/console/settings.js", 200), ("POST", "/console/settings.js", 405),
    ])
    func signedOut(method: String, path: String, status: Int) {
        var console = Console()
        #expect(console.status(ConsoleRequest(method: method, path: path, headers: ["host": "10.42.0.1"], peer: "10.42.0.5"), at: 0) == status)
    }

    @Test("signed in: GET asks the store for the settings; a PUT with the CSRF token saves or uploads (an unknown name 404, another method 405); without it 403, audited")
    func signedIn() {
        var console = Console()
        let (cookie, csrf) = console.signIn(at: 0)
        func request(_ method: String, _ path: String, csrf token: String? = nil, body: String = "") -> ConsoleRequest {
            var headers = ["cookie": cookie, "host": "10.42.0.1"]
            if let token { headers["x-csrf-token"] = token }
            return ConsoleRequest(method: method, path: path, headers: headers, body: Array(body.utf8), peer: "10.42.0.5")
        }
        #expect(console.decide(request("GET", "/console/api/settings"), at: 1) == .settings)
        #expect(console.decide(request("PUT", "/console/api/settings", csrf: csrf, body: #"{"countdown":"5"}"#), at: 1)
                == .saveSettings(Array(#"{"countdown":"5"}"#.utf8), address: "10.42.0.5"))
        #expect(console.decide(request("PUT", "/console/api/files/overlay", csrf: csrf, body: "PNG"), at: 1)
                == .upload(.overlay, Array("PNG".utf8), address: "10.42.0.5"))
        #expect(console.decide(request("PUT", "/console/api/files/questions", csrf: csrf, body: "Q?"), at: 1)
                == .upload(.questions, Array("Q?".utf8), address: "10.42.0.5"))
        #expect(console.status(request("PUT", "/console/api/files/password", csrf: csrf), at: 1) == 404)
        #expect(console.status(request("PUT", "/console/api/files/", csrf: csrf), at: 1) == 404)
        #expect(console.status(request("DELETE", "/console/api/settings", csrf: csrf), at: 1) == 405)
        #expect(console.status(request("GET", "/console/api/files/overlay"), at: 1) == 405)
        guard case let .answer(refused, audit) = console.decide(request("PUT", "/console/api/settings", csrf: "wrong"), at: 1) else {
            Issue.record("not refused")
            return
        }
        #expect(refused.status == 403 && audit?.result == "refused 403")
        guard case let .answer(foreign, _) = console.decide(request("PUT", "/console/api/files/overlay", csrf: csrf).with(origin: "http://evil.example"), at: 1) else {
            Issue.record("not refused")
            return
        }
        #expect(foreign.status == 403)
    }

    @Test("the body limits: 16 MiB for an upload, 64 KiB for the settings' JSON")
    func limits() {
        #expect(ConsoleRules.bodyLimit(path: "/console/api/files/overlay") == 16 << 20)
        #expect(ConsoleRules.bodyLimit(path: "/console/api/settings") == 64 << 10)
        #expect(20_000_000 > ConsoleRules.bodyLimit(path: "/console/api/files/questions"))
    }
}

extension ConsoleRequest {
    func with(origin: String) -> ConsoleRequest {
        var request = self
        request.headers["origin"] = origin
        return request
    }
}
