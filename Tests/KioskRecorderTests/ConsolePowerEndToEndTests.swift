// End to end: the console's power off, reboot and the booth's restart, through the real binary,
// against python3-dbusmock's logind template and a mock systemd manager on a private system bus
// (DBUS_SYSTEM_BUS_ADDRESS, as the sleep tests have it). The mocks log each call they take, so the
// test sees what reached the bus, and that nothing did for a request the console refused.
import Foundation
import Glibc
import Testing
import KioskTestSupport

@Suite("kiosk-recorder console: power off, reboot and the booth's restart (mock logind and systemd)", .serialized)
struct ConsolePowerEndToEndTests {
    let password = "booth operator 1"

    /// A mock org.freedesktop.systemd1 beside the mock logind, with RestartUnit(ss) → o.
    static func startSystemd(on logind: MockLogind, in folder: URL) throws -> pid_t {
        let log = open(folder.appendingPathComponent("systemd.log").path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(log >= 0)
        defer { close(log) }
        let pid = try startServer([MockLogind.python!, "-m", "dbusmock", "--system", "-l", folder.appendingPathComponent("systemd-calls.log").path,
                                   "org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager"],
                                  environment: ["DBUS_SYSTEM_BUS_ADDRESS": logind.address], stdout: log, stderr: log)
        let added = eventually(10) {
            (try? runProgram(["busctl", "--address=\(logind.address)", "call", "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                              "org.freedesktop.DBus.Mock", "AddMethod", "sssss", "org.freedesktop.systemd1.Manager", "RestartUnit", "ss", "o",
                              #"ret = "/org/freedesktop/systemd1/job/1""#]).status) == 0
        }
        if !added { stopServer(pid) }
        try #require(added, "the mock systemd did not take RestartUnit: \(logind.log)")
        return pid
    }

    /// The calls a mock logged (`-l`), its method names and arguments, one a line.
    static func calls(_ folder: URL, _ name: String) -> [String] {
        ((try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "")
            .split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).dropFirst().joined() }
    }

    @Test("signed in with the CSRF token: poweroff and reboot reach logind (PowerOff, Reboot, not interactive), restart reaches systemd (RestartUnit kiosk-recorder.service replace), each 202 and audited; signed out 401, no token 403, a wrong action 400, none of which reach the bus; no system bus: 502 with sd-bus's words")
    func power() throws {
        let folder = try testFolder("console-power")
        let logind = try MockLogind(in: folder)
        defer { logind.stop() }
        let systemd = try Self.startSystemd(on: logind, in: folder)
        defer { stopServer(systemd) }
        let set = try setConsolePassword(password, file: folder.appendingPathComponent("console-password").path)
        try #require(set.status == 0, "\(set.stderr)")
        // No booth is needed: the machine's actions go to the bus, not to the booth.
        let socket = folder.appendingPathComponent("console.sock").path
        let process = try RecorderProcess(["console", "--control-socket", folder.appendingPathComponent("booth.sock").path, "--listen", "unix:" + socket,
                                           "--password-file", folder.appendingPathComponent("console-password").path],
                                          environment: ["DBUS_SYSTEM_BUS_ADDRESS": logind.address])
        let console = ConsoleUnderTest(process: process, reach: ["--unix-socket", socket], base: "http://10.42.0.1", folder: folder)
        defer { console.stop() }
        try #require(eventually(20) { process.stderr.contains("console: listening on") }, "\(process.stderr)")

        let power = #"{"action":"poweroff"}"#
        #expect(try console.curl("POST", "/console/api/power", body: power).status == 401)
        #expect(try console.curl("POST", "/console/api/service", body: #"{"action":"restart"}"#).status == 401)
        let (cookie, signedIn) = try console.signIn(password)
        try #require(signedIn.status == 204)
        let session = try console.curl("GET", "/console/api/session", headers: [cookie])
        let csrf = try #require(try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: String])["csrf"] ?? ""
        #expect(try console.curl("POST", "/console/api/power", headers: [cookie], body: power).status == 403)
        #expect(try console.curl("POST", "/console/api/power", headers: [cookie, "X-CSRF-Token: \(csrf)", "Origin: http://evil.example"], body: power).status == 403)
        for wrong in [#"{"action":"restart"}"#, #"{"action":"halt"}"#, "{}", "poweroff"] {
            #expect(try console.curl("POST", "/console/api/power", headers: [cookie, "X-CSRF-Token: \(csrf)"], body: wrong).status == 400, "\(wrong)")
        }
        #expect(try console.curl("POST", "/console/api/service", headers: [cookie, "X-CSRF-Token: \(csrf)"], body: power).status == 400)
        #expect(try console.curl("GET", "/console/api/power", headers: [cookie]).status == 405)
        #expect(Self.calls(folder, "logind-calls.log").filter { $0.hasPrefix("PowerOff") || $0.hasPrefix("Reboot") }.isEmpty)
        #expect(Self.calls(folder, "systemd-calls.log").filter { $0.hasPrefix("RestartUnit") }.isEmpty)

        let change = [cookie, "X-CSRF-Token: \(csrf)", "Origin: http://10.42.0.1", "Content-Type: application/json", "X-Real-IP: 10.42.0.7"]
        for (path, action) in [("/console/api/power", "poweroff"), ("/console/api/power", "reboot"), ("/console/api/service", "restart")] {
            let answer = try console.curl("POST", path, headers: change, body: #"{"action":"\#(action)"}"#)
            #expect(answer.status == 202 && answer.body == #"{"ok":true,"action":"\#(action)"}"#, "\(action): \(answer)")
        }
        #expect(Self.calls(folder, "logind-calls.log").filter { $0.hasPrefix("PowerOff") || $0.hasPrefix("Reboot") } == ["PowerOff False", "Reboot False"],
                "\(logind.log)")
        #expect(Self.calls(folder, "systemd-calls.log").filter { $0.hasPrefix("RestartUnit") } == [#"RestartUnit "kiosk-recorder.service" "replace""#],
                "\(Self.calls(folder, "systemd-calls.log"))")
        // Each in the audit log: asked, then its result; the refusals too.
        let audit = console.auditLines
        for name in ["power poweroff", "power reboot", "service restart"] {
            #expect(audit.filter { $0.contains(#""action":"\#(name)""#) && $0.contains("10.42.0.7") }.map { $0.contains(#""result":"asked""#) ? "asked" : $0.contains(#""result":"ok""#) ? "ok" : $0 }
                    == ["asked", "ok"], "\(audit)")
        }
        #expect(audit.filter { $0.contains(#""action":"power""#) && $0.contains("refused 403") }.count == 2, "\(audit)")

        // The bus gone: 502 with sd-bus's own words, audited as failed.
        logind.stop()
        let gone = try console.curl("POST", "/console/api/power", headers: change, body: power)
        #expect(gone.status == 502 && gone.body.contains(#""error":"machine""#) && gone.body.contains(#""message":"sd_bus_open_system: No such file or directory""#), "\(gone)")
        #expect(console.auditLines.last?.contains(#""result":"failed: "#) == true, "\(console.auditLines)")
    }
}
