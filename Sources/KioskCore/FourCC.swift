// The V4L2 fourcc ↔ PixelFormat table (the FFmpeg and SDL sides are in their wrapper modules).

public enum FourCC {
    /// The four characters of a V4L2 pixel format code, e.g. 0x56595559 → "YUYV".
    public static func string(_ code: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The code of a four-character string ("YUYV" → 0x56595559); nil unless exactly four ASCII characters.
    public static func code(_ string: String) -> UInt32? {
        let bytes = Array(string.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 128 }) else { return nil }
        return bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) }
    }

    /// The formats the recorder takes from a camera, by V4L2 fourcc.
    public static let pixelFormats: [String: PixelFormat] = [
        "YUYV": .yuyv, "NV12": .nv12, "YU12": .yuv420p, "MJPG": .mjpeg, "JPEG": .mjpeg,
    ]

    /// The V4L2 fourcc to ask the driver for a format.
    public static func fourcc(for format: PixelFormat) -> String? {
        switch format {
        case .yuyv: "YUYV"
        case .nv12: "NV12"
        case .yuv420p: "YU12"
        case .mjpeg: "MJPG"
        case .yuv422p: nil
        case .xrgb: "XR24"
        }
    }
}
