// What `--loudness` did to a take at its hand-over: the outcome event's `loudness` field, on every
// take's outcome while `--loudness` is set, its `result` naming which case applied.

/// The take's sound as measured (EBU R128 integrated loudness, true peak), the gain applied, whether
/// the limiter held its peaks under the ceiling, the loudness it came to, and which case that was.
public struct Leveling: Codable, Equatable, Sendable {
    /// Which case applied: the sound set to the target (`leveled`, `limited`), or left as recorded
    /// and why.
    public enum Result: String, Codable, CaseIterable, Sendable {
        /// The gain set the take to the target.
        case leveled
        /// The gain set it, and the limiter held peaks the gain would have lifted over −1 dBTP.
        case limited
        /// Within 0.1 dB of the target, its peaks under the limiter: left as recorded.
        case atTarget
        /// Nothing above R128's gate (−70 LUFS): left as recorded (not lifted into hiss).
        case silence
        /// No sound track: left as recorded.
        case noSound
        /// The leveling failed (the `loudnessFailed` error before the outcome says why): handed
        /// over as recorded.
        case failed
    }

    /// Which case applied.
    public var result: Result
    /// LUFS, as the take was recorded; nil: no sound track, silence, or not measured.
    public var measured: Double?
    /// dBTP, as the take was recorded; nil as `measured`.
    public var truePeak: Double?
    /// dB applied (0 when the take was left as recorded).
    public var gain: Double
    /// The limiter held peaks the gain would have lifted over −1 dBTP.
    public var limited: Bool
    /// LUFS after the gain and the limiter (before the AAC encoder); nil: not changed, or not measured.
    public var reached: Double?
    /// Seconds the leveling took (logged; not on stdout).
    public var seconds: Double

    public init(_ result: Result, measured: Double? = nil, truePeak: Double? = nil, gain: Double = 0, limited: Bool = false,
                reached: Double? = nil, seconds: Double = 0) {
        (self.result, self.measured, self.truePeak, self.gain, self.limited, self.reached, self.seconds)
            = (result, measured, truePeak, gain, limited, reached, seconds)
    }

    /// The take's sound was changed (a leveled file replaces it).
    public var changed: Bool { result == .leveled || result == .limited }

    enum CodingKeys: String, CodingKey {
        case result, measured, truePeak, gain, limited, reached
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try c.decode(Result.self, forKey: .result), measured: try c.decodeIfPresent(Double.self, forKey: .measured),
                  truePeak: try c.decodeIfPresent(Double.self, forKey: .truePeak), gain: try c.decode(Double.self, forKey: .gain),
                  limited: try c.decode(Bool.self, forKey: .limited), reached: try c.decodeIfPresent(Double.self, forKey: .reached))
    }

    /// Tenths of a dB on stdout.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let tenth = { (x: Double) in (x * 10).rounded() / 10 }
        try c.encode(result, forKey: .result)
        if let measured { try c.encode(tenth(measured), forKey: .measured) }
        if let truePeak { try c.encode(tenth(truePeak), forKey: .truePeak) }
        try c.encode(tenth(gain), forKey: .gain)
        try c.encode(limited, forKey: .limited)
        if let reached { try c.encode(tenth(reached), forKey: .reached) }
    }
}
