// `--check`'s storage item from the syncs it timed: fine, a warning once a sync outlasts a fragment,
// a failure once one waits as long as the booth calls `storageSlow`.
import KioskPreflight
import KioskCore
import KioskOptions
import KioskMedia
import KioskStorage
import Testing
import KioskContract

@Suite("--check's storage item")
struct PreflightTests {
    @Test("syncs of milliseconds pass; one longer than a fragment (0.5 s) warns with the fix; one of 2 s fails")
    func storageItem() {
        let quick = Preflight.storageItem(syncs: [0.0004, 0.012, 0.003, 0.002], bytes: 184_320)
        #expect(quick == CheckItem(name: "storage", ok: true, detail: "4 syncs of a fragment's 180 KiB: median 3.0 ms, worst 12 ms"))
        let slow = Preflight.storageItem(syncs: [0.1, 0.3, 0.61, 0.2], bytes: 184_320)
        #expect(slow.ok && slow.warning && slow.detail.hasSuffix("worst 610 ms: slower than the takes' fragments come"), "\(slow)")
        #expect(slow.fix?.contains("USB SSD") == true)
        let atFragment = Preflight.storageItem(syncs: [0.5], bytes: 65_536)
        #expect(atFragment.ok && !atFragment.warning, "a sync as long as a fragment keeps up: \(atFragment)")
        let stalled = Preflight.storageItem(syncs: [0.1, SyncClock.slowAfter], bytes: 65_536)
        #expect(!stalled.ok && stalled.detail.contains("worst 2000 ms: too slow for a booth") && stalled.fix != nil, "\(stalled)")
    }

    @Test("a share URL's host no phone can reach: loopback (127.0.0.0/8, ::1, localhost) or link-local (169.254.0.0/16, fe80::/10), by its name or what it resolves to; any other address is reachable")
    func unreachableShareHost() {
        #expect(Preflight.unreachableKind(host: "127.0.0.1", resolved: ["127.0.0.1"]) == "loopback")
        #expect(Preflight.unreachableKind(host: "127.1.2.3", resolved: []) == "loopback")
        #expect(Preflight.unreachableKind(host: "::1", resolved: ["::1"]) == "loopback")
        #expect(Preflight.unreachableKind(host: "localhost", resolved: ["::1", "127.0.0.1"]) == "loopback")
        #expect(Preflight.unreachableKind(host: "booth.local", resolved: ["127.0.1.1"]) == "loopback")
        #expect(Preflight.unreachableKind(host: "169.254.10.20", resolved: ["169.254.10.20"]) == "link-local")
        #expect(Preflight.unreachableKind(host: "fe80::1", resolved: ["fe80::1"]) == "link-local")
        #expect(Preflight.unreachableKind(host: "10.42.0.1", resolved: ["10.42.0.1"]) == nil)
        #expect(Preflight.unreachableKind(host: "192.0.2.2", resolved: ["192.0.2.2"]) == nil)
        #expect(Preflight.unreachableKind(host: "booth", resolved: ["127.0.1.1", "192.168.1.5"]) == nil)
        #expect(Preflight.unreachableKind(host: "2001:db8::5", resolved: ["2001:db8::5"]) == nil)
    }
}
