// Time left with the writer's counts passed in: the duration cap, and the bytes a cap leaves at the
// take's rate over whole seconds, which never makes the countdown rise.
import Testing
import KioskCore

@Suite("TimeLeft: the seconds a take has left")
struct TimeLeftTests {
    @Test("no byte limit in sight: the duration cap's seconds")
    func durationOnly() {
        var left = TimeLeft(maxDuration: 10)
        #expect(left.seconds(elapsed: 0, written: 0, room: .max) == 10)
        #expect(left.seconds(elapsed: 3.5, written: 90_000, room: .max) == 6.5)
        #expect(left.seconds(elapsed: 12, written: 200_000, room: .max) == 0)
    }

    /// A stream of 40,000 bytes a second, 30,000 of them in the key frame that opens each second,
    /// sampled every 0.25 s under a cap of `cap` bytes: (elapsed, left) each time.
    static func countdown(cap: Int64, seconds: Double = 8, duration: Double = 1200) -> [(Double, Double)] {
        var left = TimeLeft(maxDuration: duration)
        var samples: [(Double, Double)] = []
        for k in 1...Int(seconds * 4) {
            let t = Double(k) * 0.25
            let whole = Int64(t), quarters = Int64((t - Double(whole)) * 4)
            // Headers and a bigger first key frame in the first second.
            let written = 20_000 + whole * 40_000 + 30_000 + quarters * 2_500
            samples.append((t, left.seconds(elapsed: t, written: written, room: max(cap - written, 0))))
        }
        return samples
    }

    @Test("under a size cap: the duration's seconds until there is a rate (the third second), then the room at 40,000 bytes a second; it never rises and falls about a second a second")
    func sizeCap() {
        let samples = Self.countdown(cap: 600_000)
        for (t, left) in samples where t < 2 { #expect(left == 1200 - t, "at \(t)") }
        let counted = samples.filter { $0.0 >= 2 }
        #expect(counted.first.map { abs($0.1 - (600_000 - 20_000 - 2 * 40_000 - 30_000) / 40_000.0) < 0.01 } == true, "\(counted.prefix(2))")
        for (a, b) in zip(counted, counted.dropFirst()) { #expect(b.1 <= a.1, "rose from \(a) to \(b)") }
        for a in counted {
            guard let b = counted.first(where: { $0.0 >= a.0 + 2 }) else { break }
            #expect(abs((a.1 - b.1) - 2) < 0.6, "\(a) then \(b)")
        }
    }

    @Test("the duration cap still wins when it comes first; more room (the disk freed) is said at once")
    func durationFirstAndMoreRoom() {
        let samples = Self.countdown(cap: 100_000_000, duration: 6)
        #expect(samples.last.map { $0.1 == 0 } == true)
        var left = TimeLeft(maxDuration: 1200)
        for k in 1...12 { _ = left.seconds(elapsed: Double(k) * 0.25, written: Int64(k) * 10_000, room: 400_000) }
        let before = left.seconds(elapsed: 3.25, written: 130_000, room: 400_000)
        let freed = left.seconds(elapsed: 3.5, written: 140_000, room: 4_000_000)
        #expect(freed > before * 5, "\(before) then \(freed)")
    }
}
