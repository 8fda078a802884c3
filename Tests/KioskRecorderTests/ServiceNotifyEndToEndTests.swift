// systemd's notify protocol through the real binary, against a datagram socket the test owns as
// NOTIFY_SOCKET: READY=1 with `ready`, WATCHDOG=1 from the loop, RELOADING=1 / READY=1 around a
// reload, STOPPING=1 on the way out.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("systemd notify end to end", .serialized)
struct ServiceNotifyEndToEndTests {
    @Test("READY=1 with ready, WATCHDOG=1 every WATCHDOG_USEC/2, RELOADING=1 then READY=1 around SIGHUP, STOPPING=1 at exit")
    func notifyProtocol() throws {
        let folder = try testFolder("notify")
        let systemd = try NotifySocket(folder.appendingPathComponent("notify.sock").path)
        let (r, rewrite, _) = try configuredBooth("notify-booth", "max-duration = 10\n",
                                                  environment: ["NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "200000"])
        let readyEvent = try #require(r.wait(for: "ready"))
        let ready = try #require(systemd.wait(for: "READY=1"))
        #expect(abs(ready - readyEvent) < 0.5, "READY=1 \(ready - readyEvent) s from the ready event")
        #expect(systemd.received.first { $0.text != "WATCHDOG=1" }?.text == "READY=1", "nothing but the watchdog before READY=1")
        #expect(systemd.wait(for: "STATUS=Ready. No take yet.") != nil, "\(systemd.received.map(\.text))")

        // The watchdog: every 100 ms from the UI loop.
        // The first 1.5 s after READY=1 are over once a ping comes after them.
        #expect(eventually(10) { systemd.times(of: "WATCHDOG=1").contains { $0 > ready + 1.5 } }, "\(systemd.received.count) messages")
        let pings = systemd.times(of: "WATCHDOG=1").filter { $0 > ready && $0 <= ready + 1.5 }
        #expect(pings.count >= 5, "\(pings.count) WATCHDOG=1 in 1.5 s")
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
        #expect((gaps.max() ?? 0) < 0.2, "the longest gap between pings: \(gaps.max() ?? 0) s")

        // A reload: RELOADING=1 with the monotonic clock, then READY=1 once the file is checked.
        try rewrite("max-duration = 1.5\n")
        r.kill(SIGHUP)
        let reloading = try #require(systemd.wait(for: "RELOADING=1\nMONOTONIC_USEC=", prefix: true))
        let reloaded = try #require(systemd.wait(for: "READY=1", count: 2))
        #expect(reloaded >= reloading)
        let usec = try #require(systemd.received.first { $0.text.hasPrefix("RELOADING=1") }.flatMap { Int64($0.text.split(separator: "=").last!) })
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowUSec = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
        #expect(usec <= nowUSec && nowUSec - usec < 5_000_000, "MONOTONIC_USEC on CLOCK_MONOTONIC")

        r.command("quit")
        #expect(r.exitStatus() == 0)
        #expect(systemd.wait(for: "STOPPING=1", timeout: 2) != nil)
        #expect(systemd.received.filter { $0.text != "WATCHDOG=1" && !$0.text.hasPrefix("STATUS=") }.map { $0.text.prefix(11) }
            == ["READY=1", "RELOADING=1", "READY=1", "STOPPING=1"])
    }

    @Test("WATCHDOG_PID of another process: READY=1 and STOPPING=1 (to an abstract socket), no watchdog")
    func watchdogForAnotherProcess() throws {
        let folder = try testFolder("notify-pid")
        let systemd = try NotifySocket("@kiosk-notify-e2e-\(getpid())")
        let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("take.mov").path],
                                    environment: ["NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"])
        #expect(r.wait(for: "ready") != nil)
        let ready = try #require(systemd.wait(for: "READY=1"))
        // The UI loop (which would send the watchdog's pings, every 100 ms) still answering 0.5 s
        // after READY=1: five pings were due by then.
        var asked = 0
        #expect(eventually(10) {
            asked += 1
            r.command("state")
            return (r.wait(for: "state", count: asked) ?? 0) >= ready + 0.5
        }, "\(r.rawLines)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        #expect(systemd.wait(for: "STOPPING=1", timeout: 2) != nil)
        #expect(systemd.received.map(\.text).filter { !$0.hasPrefix("STATUS=") } == ["READY=1", "STOPPING=1"])
        #expect(!r.stderr.contains("systemd notify"), "\(r.stderr)")
    }

    @Test("STATUS= follows the booth for systemctl status: ready, recording, the take in review, the takes since launch and those used")
    func status() throws {
        let folder = try testFolder("notify-status")
        let systemd = try NotifySocket(folder.appendingPathComponent("notify.sock").path)
        let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("take.mov").path, "--session", "loop"],
                                    environment: ["NOTIFY_SOCKET": systemd.address])
        #expect(r.wait(for: "ready") != nil, "\(r.stderr)")
        #expect(systemd.wait(for: "STATUS=Ready. No take yet.") != nil)
        r.command("start")
        #expect(r.wait(for: "recordingStarted") != nil)
        #expect(systemd.wait(for: "STATUS=Recording. No take yet.") != nil, "\(systemd.received.map(\.text))")
        #expect(r.waitRecorded(1), "\(r.stderr)")
        r.command("stop")
        #expect(r.wait(for: "recordingFinished") != nil)
        #expect(systemd.wait(for: "STATUS=A take in review. 1 take since launch, 0 used.") != nil, "\(systemd.received.map(\.text))")
        r.command("useVideo")
        #expect(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath") != nil)
        #expect(systemd.wait(for: "STATUS=Ready. 1 take since launch, 1 used.") != nil, "\(systemd.received.map(\.text))")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        // Each line once, as it changed; none after STOPPING=1.
        let lines = systemd.received.map(\.text)
        let statuses = lines.filter { $0.hasPrefix("STATUS=") }
        #expect(statuses == ["STATUS=Ready. No take yet.", "STATUS=Recording. No take yet.",
                             "STATUS=A take in review. 1 take since launch, 0 used.", "STATUS=Ready. 1 take since launch, 1 used."], "\(statuses)")
        #expect(lines.last == "STOPPING=1", "\(lines)")
    }
}
