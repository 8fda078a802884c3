// The one clock of the program: CLOCK_MONOTONIC in nanoseconds. Capture timestamps (V4L2 stamps
// its buffers with it), the player's A/V clock, the audio callback and the stats lines are all on it.
import Glibc

public enum MonotonicClock {
    /// The clock's time `seconds` from now: a deadline.
    public static func after(seconds: Double) -> Int64 {
        now() + Int64(seconds * 1e9)
    }

    /// Now, in nanoseconds (`clock_gettime(CLOCK_MONOTONIC)`).
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Sleeps until an absolute time on the clock (`clock_nanosleep` with TIMER_ABSTIME; a signal
    /// does not cut it short). Returns at once for a time already past.
    public static func sleep(until deadline: Int64) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}

/// How long something took, for a log line or a figure (never for a rule: the booth's rules take
/// the loop's time as a value). Started when made.
public struct Stopwatch: Sendable {
    public let started = MonotonicClock.now()

    public init() {}

    /// Nanoseconds since it started.
    public var nanoseconds: Int64 { MonotonicClock.now() - started }
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }
    public var seconds: Double { Double(nanoseconds) / 1e9 }
}
