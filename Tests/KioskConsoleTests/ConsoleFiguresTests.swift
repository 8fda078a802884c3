// The Status page's machine figures by table: a thermal zone's reading, the zones of a folder
// (none, unreadable ones left out, in the zones' order), /proc/uptime, the share site's probe
// address and what its answer means; `api/figures` locked until sign-in, then the glue's to answer.
import Foundation
import Testing
@testable import KioskConsole

@Suite("The console's machine figures")
struct ConsoleFiguresTests {
    @Test("a zone's temp: millidegrees as °C; anything else none", arguments: [
        ("45000\n", 45.0), ("41250", 41.25), ("-5000\n", -5.0), ("0\n", 0.0),
        ("", nil), ("n/a\n", nil), ("45.5\n", nil), ("99999999\n", nil),
    ] as [(String, Double?)])
    func celsius(text: String, expected: Double?) {
        #expect(MachineFigures.celsius(millidegrees: text) == expected)
    }

    @Test("the zones of a folder: each readable one with its type, zone 2 before zone 10; other names and unreadable zones left out; none without zones")
    func zones() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thermal-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(MachineFigures.temperatures(in: folder).isEmpty)
        for (zone, temp, type) in [("thermal_zone10", "38500\n", "acpitz\n"), ("thermal_zone2", "52000\n", "x86_pkg_temp\n"),
                                   ("thermal_zone3", "", "iwlwifi_1\n"), ("cooling_device0", "1\n", "Fan\n")] {
            try FileManager.default.createDirectory(atPath: folder + "/" + zone, withIntermediateDirectories: true)
            try temp.write(toFile: folder + "/" + zone + "/temp", atomically: true, encoding: .utf8)
            try type.write(toFile: folder + "/" + zone + "/type", atomically: true, encoding: .utf8)
        }
        #expect(MachineFigures.temperatures(in: folder) == [ZoneTemperature(zone: "thermal_zone2", type: "x86_pkg_temp", celsius: 52),
                                                            ZoneTemperature(zone: "thermal_zone10", type: "acpitz", celsius: 38.5)])
    }

    @Test("/proc/uptime's first number", arguments: [
        ("35627.41 69012.88\n", 35627.41), ("0.52 0.90", 0.52), ("", nil), ("x 1", nil), ("-1 2", nil), ("nan 1", nil),
    ] as [(String, Double?)])
    func uptime(text: String, expected: Double?) {
        #expect(MachineFigures.uptime(text) == expected)
    }

    @Test("the share site's probe: the share address's own site, at the phones' check it answers 204", arguments: [
        ("http://10.42.0.1/s/{token}/", "http://10.42.0.1/generate_204"),
        ("http://127.0.0.1:20007/s/{token}/", "http://127.0.0.1:20007/generate_204"),
        ("https://booth.example/s/{token}/", "https://booth.example/generate_204"),
        ("HTTP://[::1]:8080/v/{token}", "http://[::1]:8080/generate_204"),
        ("http://{token}.example/", nil), ("ftp://x/{token}", nil), ("/s/{token}/", nil),
    ] as [(String, String?)])
    func probe(template: String, expected: String?) {
        #expect(MachineFigures.probeURL(shareTemplate: template) == expected)
    }

    @Test("up only for the site's own 204: another answer or none is down, with why")
    func probed() {
        let url = "http://10.42.0.1/generate_204"
        #expect(MachineFigures.probed(url, status: 204, failure: nil, now: 5) == ShareSiteStatus(url: url, up: true, status: 204, detail: "answered 204", checked: 5))
        let other = MachineFigures.probed(url, status: 404, failure: nil, now: 6)
        #expect(other.up == false && other.status == 404 && other.detail.contains("not the share site's 204"))
        let none = MachineFigures.probed(url, status: nil, failure: "10.42.0.1 port 80: Connection refused", now: 7)
        #expect(none == ShareSiteStatus(url: url, up: false, status: nil, detail: "10.42.0.1 port 80: Connection refused", checked: 7))
        #expect(ShareSiteStatus(url: url).up == nil)
    }

    @Test("api/figures: 401 before sign-in (and for another method), the glue's to answer once signed in; 405 for another method after")
    func route() {
        var console = Console()
        console.expectSignedInGET("/console/api/figures", decides: .figures)
    }
}
