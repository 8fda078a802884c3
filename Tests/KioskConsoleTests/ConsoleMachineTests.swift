// The machine's actions in the console's rules, by table: power off and reboot at api/power, the
// booth's restart at api/service, each only signed in with the CSRF token, and audited.
import Testing
@testable import KioskConsole

@Suite("The console's machine actions")
struct ConsoleMachineTests {
    func request(_ path: String, _ body: String, cookie: String? = nil, csrf: String? = nil, method: String = "POST") -> ConsoleRequest {
        var headers = ["host": "10.42.0.1"]
        if let cookie { headers["cookie"] = cookie }
        if let csrf { headers["x-csrf-token"] = csrf }
        return ConsoleRequest(method: method, path: path, headers: headers, body: Array(body.utf8), peer: "10.42.0.9")
    }

    @Test("signed in with the token, each path takes its own actions and no other", arguments: [
        ("/console/api/power", #"{"action":"poweroff"}"#, MachineAction.poweroff), ("/console/api/power", #"{"action":"reboot"}"#, .reboot),
        ("/console/api/service", #"{"action":"restart"}"#, .restart), ("/console/api/power", #"{"action":"restart"}"#, nil),
        ("/console/api/service", #"{"action":"reboot"}"#, nil), ("/console/api/power", #"{"action":"halt"}"#, nil),
        ("/console/api/power", "{}", nil), ("/console/api/power", "poweroff", nil), ("/console/api/power", #"{"action":1}"#, nil),
    ])
    func actions(path: String, body: String, action: MachineAction?) {
        var console = Console()
        let (cookie, csrf) = console.signIn(at: 0)
        let decision = console.decide(request(path, body, cookie: cookie, csrf: csrf), at: 1)
        if let action {
            #expect(decision == .machine(action, address: "10.42.0.9"))
        } else {
            guard case let .answer(response, audit) = decision else { Issue.record("\(decision)"); return }
            #expect(response.status == 400 && audit?.result == "badAction")
        }
    }

    @Test("signed out 401 (not audited), no token or a foreign origin 403 (audited), another method 405")
    func refusals() {
        var console = Console()
        #expect(console.status(request("/console/api/power", #"{"action":"poweroff"}"#), at: 0) == 401)
        #expect(console.status(request("/console/api/service", #"{"action":"restart"}"#), at: 0) == 401)
        let (cookie, csrf) = console.signIn(at: 0)
        guard case let .answer(noToken, audit) = console.decide(request("/console/api/power", #"{"action":"poweroff"}"#, cookie: cookie), at: 1) else {
            Issue.record(); return
        }
        #expect(noToken.status == 403 && audit?.action == "power" && audit?.result == "refused 403")
        var foreign = request("/console/api/service", #"{"action":"restart"}"#, cookie: cookie, csrf: csrf)
        foreign.headers["origin"] = "http://evil.example"
        #expect(console.status(foreign, at: 1) == 403)
        #expect(console.status(request("/console/api/power", "", cookie: cookie, method: "GET"), at: 1) == 405)
        #expect(console.status(request("/console/api/power", "", method: "GET"), at: 1) == 401)
    }

    @Test("the answer: 202 once taken, 502 with the bus's words when not; the audit log's result")
    func answers() {
        let (done, ok) = ConsoleRules.machineAnswer(.reboot, failure: nil)
        #expect(done == .json(202, #"{"ok":true,"action":"reboot"}"#) && ok == "ok")
        let (failed, result) = ConsoleRules.machineAnswer(.poweroff, failure: "org.freedesktop.login1.Manager.PowerOff: Access denied")
        #expect(failed.status == 502 && String(decoding: failed.body, as: UTF8.self).contains("Access denied"))
        #expect(result == "failed: org.freedesktop.login1.Manager.PowerOff: Access denied")
        #expect(MachineAction.restart.auditName == "service restart" && MachineAction.poweroff.auditName == "power poweroff")
    }
}
