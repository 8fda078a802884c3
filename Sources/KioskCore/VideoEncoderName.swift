// The name of an H.264 encoder as FFmpeg knows it (`--video-encoder`), or `auto`. The names the
// booth treats in a way of their own are spelled here, once: libx264 (software, always there, the
// fallback), the two hardware encoders `auto` tries, and the test-only ones.

public struct VideoEncoderName: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    /// Probe the hardware encoders at launch (`hardwareCandidates`, in order), else libx264.
    public static let auto: VideoEncoderName = "auto"
    /// Software: every booth has it; it stands in for one that cannot open or stalls.
    public static let libx264: VideoEncoderName = "libx264"
    /// VA-API (Intel and AMD graphics), through a render node.
    public static let vaapi: VideoEncoderName = "h264_vaapi"
    /// The V4L2 memory-to-memory encoder (a Raspberry Pi 4's).
    public static let v4l2m2m: VideoEncoderName = "h264_v4l2m2m"
    /// What `auto` tries, in order.
    public static let hardwareCandidates: [VideoEncoderName] = [.vaapi, .v4l2m2m]
    /// Test-only (KIOSK_TEST_ENCODERS=1): libx264 that stops returning packets after its first
    /// second, as a hardware encoder that hangs would.
    public static let testStalling: VideoEncoderName = "test_stall_h264"
    /// Test-only: libx264 that takes 50 ms over each picture, as on a machine too weak for the rate.
    public static let testSlow: VideoEncoderName = "test_slow_h264"
}
