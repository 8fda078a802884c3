// The lock around shared state: no update lost between threads that contend for it (under
// `kiosk/test --sanitize thread`, also no race reported: the case Synchronization.Mutex fails),
// and a body that throws leaves it unlocked.
import Dispatch
import Testing
import KioskCore
import KioskSystem

@Suite("Locked")
struct LockedTests {
    @Test("4 threads adding 50,000 each, contending for the lock: 200,000")
    func contended() {
        let total = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<50_000 { total.withLock { $0 += 1 } }
        }
        #expect(total.withLock { $0 } == 200_000)
    }

    struct Refused: Error {}

    @Test("a body that throws: the error comes out, what it changed stays, and the lock is free again")
    func throwing() {
        let value = Locked([1])
        #expect(throws: Refused.self) {
            try value.withLock { (v: inout [Int]) throws(Refused) in
                v.append(2)
                throw Refused()
            }
        }
        #expect(value.withLock { $0 } == [1, 2])
    }
}
