// The microphone's level for the guest's meter and `state.microphoneLevel`: the peak of the sound
// delivered in the last 100 ms, in dBFS, from whichever microphone runs (the one that listens in
// ready, or the take's). Fed on the microphone's thread, read on the UI thread. And the rule that
// turns a silent take's level into `microphoneSilent`.
import Foundation
import KioskCore
import KioskSystem

public final class LevelMeter: Sendable {
    /// The level reported when nothing was heard: a number, never −∞.
    public static let floor = -100.0
    /// Recent chunks: when each arrived and its loudest sample.
    private let recent = Locked<[(at: Int64, peak: Int)]>([])

    public init() {}

    /// Takes a chunk (any thread): its loudest sample, stamped with its arrival.
    public func feed(_ chunk: AudioChunk, at now: Int64 = MonotonicClock.now()) {
        let peak = chunk.samples.reduce(0) { max($0, abs(Int($1))) }
        recent.withLock { list in
            list.append((now, peak))
            // Two seconds are plenty for the peak hold; older ones go.
            if let first = list.first, now - first.at > 2_000_000_000 { list.removeAll { now - $0.at > 2_000_000_000 } }
        }
    }

    /// The peak of the last `window` nanoseconds, in dBFS (`floor` for silence or nothing heard).
    public func level(at now: Int64 = MonotonicClock.now(), window: Int64 = 100_000_000) -> Double {
        let peak = recent.withLock { list in list.filter { now - $0.at <= window }.map(\.peak).max() ?? 0 }
        return Self.dBFS(peak)
    }

    public static func dBFS(_ peak: Int) -> Double {
        guard peak > 0 else { return floor }
        return max(floor, 20 * log10(Double(peak) / 32768))
    }

    /// Forgets what was heard (a microphone closed).
    public func reset() { recent.withLock { $0.removeAll() } }
}

/// The silent-microphone rule of a take, as a value with time passed in: 3 s under −60 dBFS is
/// `microphoneSilent`, said once; sound (a level at or over −60) starts it afresh, so a microphone
/// that goes quiet again is reported again.
public struct SilenceWatch: Sendable {
    /// Quieter than this is silence (dBFS).
    public static let threshold = -60.0
    /// For this long (ns) before it is said.
    public static let after: Int64 = 3_000_000_000

    /// Since when the microphone has been silent, nil while it hears sound.
    private var silentSince: Int64?
    /// Whether this silence was said (the meter shows it grey and the warning shows until sound).
    public private(set) var reported = false

    public init() {}

    /// The level at `now` (ns, monotonic); true when `microphoneSilent` is to go out now.
    public mutating func heard(_ level: Double, at now: Int64) -> Bool {
        guard level < Self.threshold else {
            reset()
            return false
        }
        let since = silentSince ?? now
        silentSince = since
        guard !reported, now - since >= Self.after else { return false }
        reported = true
        return true
    }

    /// Forgets the silence (not recording, or no microphone).
    public mutating func reset() {
        silentSince = nil
        reported = false
    }
}
