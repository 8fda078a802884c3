// The microphone's silence rule while a take records, as a value fed the time: three seconds below
// -60 dBFS is said once (`microphoneSilent`).

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
