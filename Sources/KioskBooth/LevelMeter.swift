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
    /// When the last chunk with sound in it (at or over `SilenceWatch.threshold`) arrived: every
    /// chunk is looked at here, however seldom the loop looks at the level.
    private let soundAt = Locked<Int64?>(nil)

    public init() {}

    /// Takes a chunk (any thread): its loudest sample, stamped with its arrival.
    public func feed(_ chunk: AudioChunk, at now: Int64 = MonotonicClock.now()) {
        let peak = chunk.samples.reduce(0) { max($0, abs(Int($1))) }
        if Self.dBFS(peak) >= SilenceWatch.threshold { soundAt.withLock { $0 = now } }
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

    /// When a chunk with sound in it last arrived (nil: none since the start or a reset).
    public var lastSound: Int64? { soundAt.withLock { $0 } }

    /// Forgets what was heard (a microphone closed).
    public func reset() {
        recent.withLock { $0.removeAll() }
        soundAt.withLock { $0 = nil }
    }
}

/// The silent-microphone rule of a take, as a value with time passed in: 3 s with no chunk at or over
/// −60 dBFS is `microphoneSilent`, said once; sound starts it afresh, so a microphone that goes
/// quiet again is reported again. It goes by when sound last arrived (`LevelMeter.lastSound`, which
/// sees every chunk), not by the level at the loop's turns: a loop kept busy (a flood of commands)
/// that looks between a test tone's beeps must not call it silent.
public struct SilenceWatch: Sendable {
    /// Quieter than this is silence (dBFS).
    public static let threshold = -60.0
    /// For this long (ns) before it is said.
    public static let after: Int64 = 3_000_000_000

    /// When the watch began (the take's first look), and the last sound it has seen.
    private var watchingSince: Int64?
    private var seenSound: Int64?
    /// Whether this silence was said (the meter shows it grey and the warning shows until sound).
    public private(set) var reported = false

    public init() {}

    /// A look at `now` (ns, monotonic), given when sound last arrived; true when
    /// `microphoneSilent` is to go out now.
    public mutating func heard(lastSound: Int64?, at now: Int64) -> Bool {
        let start = watchingSince ?? now
        watchingSince = start
        if let lastSound, lastSound > (seenSound ?? .min) {
            seenSound = lastSound
            if lastSound >= start { reported = false }
        }
        let silentSince = max(start, seenSound ?? .min)
        guard !reported, now - silentSince >= Self.after else { return false }
        reported = true
        return true
    }

    /// Forgets the silence (not recording, or no microphone).
    public mutating func reset() {
        watchingSince = nil
        seenSound = nil
        reported = false
    }
}
