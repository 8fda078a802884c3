// The microphone's level for the guest's meter and `state.microphoneLevel`: the peak of the sound
// delivered in the last 100 ms, in dBFS, from whichever microphone runs (the one that listens in
// ready, or the take's). Fed on the microphone's thread, read on the UI thread. And the rule that
// turns a silent take's level into `microphoneSilent`.
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem

public final class LevelMeter: Sendable {
    /// The level reported when nothing was heard: a number, never −∞.
    public static let floor = MicrophoneRule.floor
    /// Recent chunks: when each arrived and its loudest sample.
    private let recent = Locked<[(at: Int64, peak: Int)]>([])
    /// When the last chunk with sound in it (at or over `SilenceWatch.threshold`) arrived: every
    /// chunk is looked at here, however seldom the loop looks at the level.
    private let soundAt = Locked<Int64?>(nil)

    /// The booth's clock (`BoothParts.clock`), which stamps each chunk's arrival: the loop reads
    /// the level and the last sound on the same clock.
    private let clock: @Sendable () -> Int64

    public init(clock: @escaping @Sendable () -> Int64) { self.clock = clock }

    /// Takes a chunk (any thread), stamped with its arrival on the booth's clock.
    public func feed(_ chunk: AudioChunk) { feed(chunk, at: clock()) }

    /// Takes a chunk that arrived at `now`: its loudest sample.
    public func feed(_ chunk: AudioChunk, at now: Int64) {
        let peak = chunk.samples.reduce(0) { max($0, abs(Int($1))) }
        if Self.dBFS(peak) >= SilenceWatch.threshold { soundAt.withLock { $0 = now } }
        recent.withLock { list in
            list.append((now, peak))
            // Two seconds are plenty for the peak hold; older ones go.
            if let first = list.first, now - first.at > 2_000_000_000 { list.removeAll { now - $0.at > 2_000_000_000 } }
        }
    }

    /// The peak of the last `window` nanoseconds, in dBFS (`floor` for silence or nothing heard).
    public func level(at now: Int64, window: Int64 = 100_000_000) -> Double {
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
