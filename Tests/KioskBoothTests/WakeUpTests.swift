// The UI loop's two wake-ups, made from worker threads for as long as the booth runs: a camera frame
// into the frame slot (30 a second) and a message into the inbox, both through a WakeCall. Each
// wakes the loop once, and the ten-thousandth runs as deep in the stack as the first. They once held
// the wake-up directly in `Locked`, which went one thunk deeper on every call: a program making the
// same call overflowed an 8 MiB stack after 738,000 calls, under 7 hours of a 30 fps camera.
import CLinux
import Dispatch
import KioskCore
import KioskSystem
import Testing
@testable import KioskBooth

/// How deep the stack is where this is called (a C function's frame, where AddressSanitizer moves
/// nothing).
func stackDepthMarker() -> UInt { UInt(clinux_frame_address()) }

@Suite("The UI loop's wake-ups")
struct WakeUpTests {
    @Test("10,000 calls of a WakeCall: every one runs at the depth of the first")
    func wakeCall() {
        let wake = WakeCall()
        let depths = Locked<[UInt]>([])
        wake.set { let here = stackDepthMarker(); depths.withLock { $0.append(here) } }
        for _ in 0..<10_000 { wake() }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 10_000)
        #expect(Set(seen).count == 1, "the call went \(Int(seen.first ?? 0) - Int(seen.last ?? 0)) bytes deeper")
    }

    @Test("10,000 camera frames into the slot: 10,000 wakes, each at the depth of the first; the newest frame is the one taken")
    func frameSlot() {
        let slot = FrameSlot()
        let depths = Locked<[UInt]>([])
        slot.wakes { let here = stackDepthMarker(); depths.withLock { $0.append(here) } }
        for n in 0..<10_000 {
            slot.put(VideoFrame(format: .yuv420p, size: Size(width: 2, height: 2), planes: [], bytes: [], timestamp: Int64(n), sequence: UInt32(n)))
        }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 10_000)
        #expect(Set(seen).count == 1, "the wake went \(Int(seen.first ?? 0) - Int(seen.last ?? 0)) bytes deeper")
        #expect(slot.take(newerThan: 0)?.0.sequence == 9_999)
        #expect(slot.dropped == 9_999)
    }

    @Test("10,000 messages into the inbox: 10,000 wakes, each at the depth of the first; all taken in order")
    func inbox() {
        let inbox = Inbox()
        let depths = Locked<[UInt]>([])
        inbox.wakes { let here = stackDepthMarker(); depths.withLock { $0.append(here) } }
        for n in 0..<10_000 { inbox.post(.signal(Int32(n))) }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 10_000)
        #expect(Set(seen).count == 1, "the wake went \(Int(seen.first ?? 0) - Int(seen.last ?? 0)) bytes deeper")
        let taken = inbox.take().map { message -> Int32 in if case .signal(let s) = message { return s } else { return -1 } }
        #expect(taken == (0..<10_000).map { Int32($0) })
    }

    @Test("before ready the loop sleeps on the inbox: a post from another thread ends the wait at once; with nothing posted it waits its time; a message already there does not wait")
    func inboxWait() {
        let inbox = Inbox()
        let start = DispatchTime.now()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { inbox.post(.input(.event(.parentGone))) }
        inbox.wait(milliseconds: 5_000)
        let woke = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        #expect(woke >= 0.045 && woke < 2, "woke after \(woke) s")
        let again = DispatchTime.now()
        inbox.wait(milliseconds: 5_000)
        #expect(Double(DispatchTime.now().uptimeNanoseconds - again.uptimeNanoseconds) / 1e9 < 0.5, "a message waits: no sleep")
        _ = inbox.take()
        let empty = DispatchTime.now()
        inbox.wait(milliseconds: 100)
        #expect(Double(DispatchTime.now().uptimeNanoseconds - empty.uptimeNanoseconds) / 1e9 >= 0.095)
    }
}
