// The wake-up call a worker thread makes into the UI loop, thousands of times an hour: the call set
// is the one made, and the ten-thousandth call runs exactly as deep in the stack as the first (a
// function value kept directly in `Locked` went one thunk deeper on every access, until it
// overflowed the stack).
import KioskCore
import Testing

/// Where this function's frame lies: the depth of the stack that called it.
@inline(never) func stackAddress() -> UInt {
    var marker = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

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

    @Test("10,000 calls: every one runs at the depth of the first")
    func sameDepth() {
        let wake = WakeCall()
        let depths = Locked<[UInt]>([])
        wake.set { let here = stackAddress(); depths.withLock { $0.append(here) } }
        for _ in 0..<10_000 { wake() }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 10_000)
        #expect(Set(seen).count == 1, "the call went \(Int(seen.first ?? 0) - Int(seen.last ?? 0)) bytes deeper")
    }
}
