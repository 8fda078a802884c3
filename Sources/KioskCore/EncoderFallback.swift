// The video encoder each take asks for, as a value: `auto` as resolved at launch (or libx264 when
// nothing was resolved), and libx264 in place of an encoder that stopped returning packets in an
// earlier take (a hung hardware encoder is not given the next guest). An encoder that cannot open
// at Start falls back to libx264 in the writer itself (KioskMedia's VideoEncoder), take by take.

public struct EncoderFallback: Equatable, Sendable {
    /// The encoder every booth has: software, always there.
    public static let software = VideoEncoderName.libx264
    /// Encoders that stopped returning packets in a take.
    public private(set) var stalled: Set<VideoEncoderName> = []

    public init() {}

    /// The encoder the next take asks for, given the setting (`auto` or a name) and what `auto`
    /// resolved to at launch.
    public func next(configured: VideoEncoderName, auto resolved: VideoEncoderName?) -> VideoEncoderName {
        let wanted = configured == .auto ? resolved ?? Self.software : configured
        return stalled.contains(wanted) ? Self.software : wanted
    }

    /// A take ended with `encoder` stalled (`encoderStalled`): what to log, once, or nil (libx264
    /// itself, or one already known to stall, changes nothing).
    public mutating func takeEnded(encoder: VideoEncoderName?, stalled encoderStalled: Bool) -> String? {
        guard encoderStalled, let encoder, encoder != Self.software, stalled.insert(encoder).inserted else { return nil }
        return "video encoder \(encoder) stopped returning packets; \(Self.software) from the next take on"
    }
}
