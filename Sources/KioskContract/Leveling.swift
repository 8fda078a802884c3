// What `--loudness` did to a take at its hand-over: the outcome event's `loudness` field.

/// The take's sound as measured (EBU R128 integrated loudness, true peak), the gain applied, whether
/// the limiter held its peaks under the ceiling, and the loudness it came to.
public struct Leveling: Codable, Equatable, Sendable {
    /// LUFS, as the take was recorded.
    public var measured: Double
    /// dBTP, as the take was recorded.
    public var truePeak: Double
    /// dB applied.
    public var gain: Double
    /// The limiter held peaks the gain would have lifted over −1 dBTP.
    public var limited: Bool
    /// LUFS after the gain and the limiter (before the AAC encoder); nil: not measured.
    public var result: Double?
    /// Seconds the leveling took (logged; not on stdout).
    public var seconds: Double

    public init(measured: Double, truePeak: Double, gain: Double, limited: Bool, result: Double?, seconds: Double) {
        (self.measured, self.truePeak, self.gain, self.limited, self.result, self.seconds) = (measured, truePeak, gain, limited, result, seconds)
    }

    enum CodingKeys: String, CodingKey {
        case measured, truePeak, gain, limited, result
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(measured: try c.decode(Double.self, forKey: .measured), truePeak: try c.decode(Double.self, forKey: .truePeak),
                  gain: try c.decode(Double.self, forKey: .gain), limited: try c.decode(Bool.self, forKey: .limited),
                  result: try c.decodeIfPresent(Double.self, forKey: .result), seconds: 0)
    }

    /// Tenths of a dB on stdout.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let tenth = { (x: Double) in (x * 10).rounded() / 10 }
        try c.encode(tenth(measured), forKey: .measured)
        try c.encode(tenth(truePeak), forKey: .truePeak)
        try c.encode(tenth(gain), forKey: .gain)
        try c.encode(limited, forKey: .limited)
        if let result { try c.encode(tenth(result), forKey: .result) }
    }
}
