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
}
