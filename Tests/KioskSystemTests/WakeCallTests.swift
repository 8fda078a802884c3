// The wake-up call a worker thread makes into the UI loop: the call set is the one made. (That
// calls run at one depth however many are made is checked with the booth's own wake-ups, in
// Tests/KioskBoothTests/WakeUpTests.swift.)
import KioskCore
import KioskSystem
import Testing

@Suite("WakeCall")
struct WakeCallTests {
    @Test("calling before anything is set does nothing; the call set is the one made; a new one replaces it")
    func replaced() {
        let wake = WakeCall()
        let made = Locked<[String]>([])
        wake()
        wake.set { made.withLock { $0.append("first") } }
        wake()
        wake.set { made.withLock { $0.append("second") } }
        wake()
        wake()
        #expect(made.withLock { $0 } == ["first", "second", "second"])
    }
}
