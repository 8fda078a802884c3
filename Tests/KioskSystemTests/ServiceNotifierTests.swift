// systemd's notify protocol against a socket the test owns: each state arrives as its datagram,
// at a path and in the abstract namespace; the watchdog's environment (its timing: BoothCoreSlideshowTests); a send with
// nobody listening fails at once instead of waiting.
import Foundation
import Testing
import KioskSystem
import KioskTestSupport

@Suite("ServiceNotifier")
struct ServiceNotifierTests {
    @Test("each state arrives as sd_notify's text, at a path and in the abstract namespace",
          arguments: ["path", "abstract"])
    func messages(kind: String) throws {
        let address = kind == "path" ? NSTemporaryDirectory() + "kiosk-notify-\(getpid()).sock" : "@kiosk-notify-\(getpid())"
        let systemd = try NotifySocket(address)
        let notifier = try ServiceNotifier(socket: address, watchdogInterval: nil)
        for state in [ServiceState.ready, .reloading(monotonicUSec: 123_456), .ready, .watchdog, .stopping] {
            #expect(notifier.notify(state) == nil)
        }
        #expect(systemd.wait(for: "STOPPING=1") != nil)
        #expect(systemd.received.map(\.text) == ["READY=1", "RELOADING=1\nMONOTONIC_USEC=123456", "READY=1", "WATCHDOG=1", "STOPPING=1"])
        #expect(notifier.failedSends == 0)
    }

    @Test("the watchdog: half of WATCHDOG_USEC, only for this process", arguments: [
        ("200000", nil, Int64(100_000_000)), ("10000000", "4242", 5_000_000_000), ("10000000", "1", nil),
        ("0", nil, nil), ("soon", nil, nil), (nil, nil, nil), ("-5", "4242", nil),
    ] as [(String?, String?, Int64?)])
    func watchdogInterval(usec: String?, pid: String?, interval: Int64?) {
        #expect(ServiceNotifier.watchdogInterval(usec: usec, pid: pid, ourPID: 4242) == interval)
    }

    @Test("addresses it cannot use are refused, naming NOTIFY_SOCKET", arguments: [
        ("vsock:2:1234", EAFNOSUPPORT), ("relative.sock", EAFNOSUPPORT), ("@", EAFNOSUPPORT),
        ("/" + String(repeating: "x", count: 200), ENAMETOOLONG),
    ])
    func badAddresses(address: String, code: Int32) {
        do {
            _ = try ServiceNotifier(socket: address, watchdogInterval: nil)
            Issue.record("accepted \(address)")
        } catch {
            #expect(error.call == "NOTIFY_SOCKET=\(address)" && error.errno == code)
        }
    }

    @Test("nobody listening: the send fails at once with the errno, counted")
    func nobodyListening() throws {
        let notifier = try ServiceNotifier(socket: NSTemporaryDirectory() + "kiosk-nobody-\(getpid()).sock", watchdogInterval: nil)
        let start = MonotonicClock.now()
        #expect(notifier.notify(.ready)?.errno == ENOENT)
        #expect(MonotonicClock.now() - start < 100_000_000)
        #expect(notifier.failedSends == 1)
    }
}
