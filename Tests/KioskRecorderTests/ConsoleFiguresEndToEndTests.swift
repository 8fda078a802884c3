// The Status page's figures through the real binaries: the booth's `state` carries its figures (the
// metrics file's counts, from the same code, compared with the metrics file it writes beside), the
// camera with its measured rate and the booth's uptime; the console's `api/figures` adds the disk as
// seconds of video at the last take's rate (checked against the take's own bytes and the folder's
// free space), the share site up while nginx serves it and down once it is gone, the thermal zones
// of a folder the test makes (KIOSK_THERMAL_DIR), and the machine's uptime.
import Foundation
import Glibc
import Testing
import KioskTestSupport

@Suite("kiosk-recorder console: the Status page's figures")
struct ConsoleFiguresEndToEndTests {
    /// `GET path` as JSON.
    func json(_ console: ConsoleUnderTest, _ cookie: String, _ path: String) throws -> [String: Any] {
        let answer = try console.curl("GET", path, headers: [cookie])
        try #require(answer.status == 200, "\(path): \(answer.status) \(answer.body)")
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(answer.body)")
    }

    /// A JSON number as a Double (integers too).
    func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    /// The metrics file's samples by name (no labels).
    func metrics(_ path: String) -> [String: Double] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count == 2, !parts[0].contains("{"), let value = Double(parts[1]) { samples[String(parts[0])] = value }
        }
        return samples
    }

    @Test("state's figures as the metrics file's; the camera's measured rate; api/figures: disk minutes at the take's rate over the folder's free space, the share site up then down, the test's thermal zone, the uptimes; 401 before sign-in")
    func figures() throws {
        let folder = try testFolder("console-figures")
        let live = ConsoleLiveEndToEndTests()
        // nginx with the share site, on loopback; the booth's share address on it.
        let shares = folder.appendingPathComponent("share").path
        try FileManager.default.createDirectory(atPath: shares, withIntermediateDirectories: true)
        chmod(shares, 0o755)
        let nginxFolder = folder.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: nginxFolder, withIntermediateDirectories: true)
        let nginx = try ShareServer(shares: shares, folder: nginxFolder)
        defer { nginx.stop() }
        let prom = folder.appendingPathComponent("booth.prom").path
        let (config, _, takes) = try live.config(folder, extra: """
            share-dir = \(shares)
            share-url = \(nginx.base)/s/{token}/
            metrics-file = \(prom)

            """)
        // One thermal zone, as the kernel lays it out.
        let thermal = folder.appendingPathComponent("thermal").path
        try FileManager.default.createDirectory(atPath: thermal + "/thermal_zone0", withIntermediateDirectories: true)
        try "47500\n".write(toFile: thermal + "/thermal_zone0/temp", atomically: true, encoding: .utf8)
        try "test_zone\n".write(toFile: thermal + "/thermal_zone0/type", atomically: true, encoding: .utf8)

        let launched = ProcessInfo.processInfo.systemUptime
        let r = try RecorderProcess(booth + ["--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let console = try live.consoleWithPassword(folder, config: config, environment: ["KIOSK_THERMAL_DIR": thermal])
        defer { console.stop() }
        #expect(try console.curl("GET", "/console/api/figures").status == 401)
        let (cookie, signedIn) = try console.signIn(live.password)
        try #require(signedIn.status == 204)

        // Before a take: no rate, so no minutes; the zone, the uptimes, the share site up.
        var figures = try json(console, cookie, "/console/api/figures")
        var share: [String: Any] = [:]
        #expect(eventually(30) {
            figures = (try? json(console, cookie, "/console/api/figures")) ?? [:]
            share = figures["share"] as? [String: Any] ?? [:]
            return share["checked"] != nil
        }, "\(figures)")
        #expect(share["up"] as? Bool == true && share["status"] as? Int == 204 && share["url"] as? String == nginx.base + "/generate_204", "\(share)")
        var disk = try #require(figures["disk"] as? [String: Any])
        #expect(disk["bytesPerSecond"] == nil && disk["seconds"] == nil && (number(disk["freeBytes"]) ?? 0) > 0, "\(disk)")
        let zones = try #require(figures["temperatures"] as? [[String: Any]])
        #expect(zones.count == 1 && zones.first?["zone"] as? String == "thermal_zone0" && zones.first?["type"] as? String == "test_zone"
                && number(zones.first?["celsius"]) == 47.5, "\(zones)")
        let machineUp = try #require(number(figures["uptime"]))
        let procUptime = Double((try String(contentsOfFile: "/proc/uptime", encoding: .utf8)).split(separator: " ")[0]) ?? 0
        #expect(abs(machineUp - procUptime) < 60, "\(machineUp) vs \(procUptime)")
        var booth = try #require(figures["booth"] as? [String: Any], "\(figures)")
        let boothUp = try #require(number(booth["uptime"]))
        let sinceLaunch = ProcessInfo.processInfo.systemUptime - launched
        #expect(boothUp > 0 && boothUp <= sinceLaunch + 0.1 && boothUp < machineUp, "\(boothUp) s, launched \(sinceLaunch) s ago")
        #expect(booth["takes"] as? Int == 0 && booth["cameraUp"] as? Bool == true, "\(booth)")

        // The camera in `state` (as api/state passes it on): its size and rate asked, and the rate measured.
        var camera: [String: Any] = [:]
        #expect(eventually(20) {
            let state = (try? json(console, cookie, "/console/api/state")) ?? [:]
            camera = (state["figures"] as? [String: Any])?["camera"] as? [String: Any] ?? [:]
            return camera["measuredFps"] != nil
        }, "\(camera)")
        #expect(camera["name"] as? String == "test" && camera["width"] as? Int == 352 && camera["height"] as? Int == 288, "\(camera)")
        let asked = try #require(number(camera["fps"])), measured = try #require(number(camera["measuredFps"]))
        // The test pattern paces itself at its rate: measured over 2 s windows, above nothing while
        // the camera runs, and not far above its rate (a window's edges fall on the loop's turns,
        // and a starved camera thread catches up in a burst: half again for a slow machine).
        #expect(measured > 0 && measured <= asked * 1.5, "measured \(measured) of \(asked) fps")
        print("figure: the test camera measured at \(measured) fps of \(asked) (the console's api/state)")

        // A take, used and shared: the rate it gave counts the disk's seconds.
        try r.recordASecondAndUse()
        try #require(r.wait(for: "takeShared") != nil, "\(r.rawLines)")
        r.command("done")
        #expect(r.waitForState { mode, _ in mode == "ready" })
        let finished = try #require(r.rawLines.last { $0.hasPrefix(#"{"event":"recordingFinished""#) })
        let take = try #require(try JSONSerialization.jsonObject(with: Data(finished.utf8)) as? [String: Any])
        let takeRate = try #require(number(take["bytes"])) / (try #require(number(take["duration"])))
        figures = try json(console, cookie, "/console/api/figures")
        disk = try #require(figures["disk"] as? [String: Any])
        let rate = try #require(number(disk["bytesPerSecond"]), "\(disk)")
        let free = try #require(number(disk["freeBytes"])), keep = try #require(number(disk["keepFree"]))
        let seconds = try #require(number(disk["seconds"]))
        // The take's rate (its bytes over its length, or TimeLeft's without its first second: near it).
        #expect(rate > takeRate / 2 && rate < takeRate * 2, "\(rate) vs the take's \(takeRate)")
        #expect(abs(seconds - max(free - keep, 0) / rate) <= 1, "\(seconds) s from \(free) free, \(keep) kept, \(rate) B/s")
        #expect(keep == 1_048_576 && disk["folder"] as? String == takes, "\(disk)")
        var own = statvfs()
        try #require(statvfs(takes, &own) == 0)
        #expect(abs(free - Double(own.f_bavail) * Double(own.f_frsize)) < 512e6, "\(free) vs statvfs")
        print("figure: \(Int(seconds / 60)) min of video at \(Int(rate)) B/s (the take: \(Int(takeRate)) B/s) in \(Int(free / 1e6)) MB free")

        // The same figures as the metrics file's (once it has the take), from the same code.
        var samples: [String: Double] = [:]
        #expect(eventually(20) {
            samples = metrics(prom)
            return samples["kiosk_takes_shared_total"] == 1 && samples["kiosk_takes_used_total"] == 1
        }, "\(samples)")
        booth = try #require(try json(console, cookie, "/console/api/figures")["booth"] as? [String: Any])
        for (key, name) in [("takes", "kiosk_takes_total"), ("used", "kiosk_takes_used_total"), ("discarded", "kiosk_takes_discarded_total"),
                            ("shared", "kiosk_takes_shared_total"), ("framesDropped", "kiosk_frames_dropped_total"), ("hooksPending", "kiosk_hooks_pending")] {
            #expect(Double(booth[key] as? Int ?? -1) == samples[name], "\(key): \(booth) vs \(samples)")
        }
        #expect((booth["cameraUp"] as? Bool == true) == (samples["kiosk_camera_up"] == 1), "\(booth) vs \(samples)")
        #expect(booth["takes"] as? Int == 1 && booth["used"] as? Int == 1 && booth["shared"] as? Int == 1, "\(booth)")
        let promSeconds = try #require(samples["kiosk_disk_remaining_seconds"])
        #expect(abs(promSeconds - seconds) <= max(5, seconds * 0.05), "metrics \(promSeconds) s vs console \(seconds) s")

        // nginx gone: the next probe finds the share site down, and says why.
        nginx.stop()
        #expect(eventually(40) {
            share = ((try? json(console, cookie, "/console/api/figures"))?["share"] as? [String: Any]) ?? [:]
            return share["up"] as? Bool == false
        }, "\(share)")
        #expect((share["detail"] as? String ?? "").contains("127.0.0.1"), "\(share)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
