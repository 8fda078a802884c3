// The timing the microbenchmarks share: a step run many times over, its fastest run kept.
import KioskSystem

/// Microseconds one call of `body` takes: the fastest of 5 runs of 100 calls (the others were
/// slowed by something else on the machine), to a tenth of a microsecond.
func fastestMicroseconds(_ body: () -> Void) -> Double {
    var fastest = Double.infinity
    for _ in 0..<5 {
        let start = MonotonicClock.now()
        for _ in 0..<100 { body() }
        fastest = min(fastest, Double(MonotonicClock.now() - start) / 100 / 1000)
    }
    return (fastest * 10).rounded() / 10
}
