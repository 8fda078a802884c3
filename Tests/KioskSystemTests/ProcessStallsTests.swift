// The stall watch with time passed in: notes every 100 ms are no stall; a gap of a second or more is
// one, its length the gap less a note's interval, and the second after it is its aftermath.
import Testing
@testable import KioskSystem

@Suite("ProcessStalls")
struct ProcessStallsTests {
    static let ms: Int64 = 1_000_000

    @Test("notes 100 ms apart: no stall; a 3 s gap: a stall of 2.9 s, with a second of aftermath; a gap not yet noted is a stall too")
    func gaps() {
        let watch = ProcessStalls()
        let t0: Int64 = 10_000 * Self.ms
        #expect(!watch.inAftermath(at: t0), "before its first note it sees nothing")
        for k in 0...20 { watch.note(at: t0 + Int64(k) * 100 * Self.ms) }
        let last = t0 + 2_000 * Self.ms
        #expect(watch.lengths(since: 0).isEmpty)
        #expect(!watch.inAftermath(at: last + 50 * Self.ms))
        #expect(watch.inAftermath(at: last + 1_000 * Self.ms), "a second without a note: the process stands still now")
        watch.note(at: last + 3_000 * Self.ms)
        #expect(watch.lengths(since: 0) == [2_900 * Self.ms])
        #expect(watch.lengths(since: last + 3_000 * Self.ms).isEmpty, "ended at its note, not after")
        #expect(watch.inAftermath(at: last + 3_500 * Self.ms))
        watch.note(at: last + 3_900 * Self.ms)
        #expect(!watch.inAftermath(at: last + 4_000 * Self.ms))
        #expect(ProcessStalls.seconds(2_900 * Self.ms) == "2.9")
    }
}
