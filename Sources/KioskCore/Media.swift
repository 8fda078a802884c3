// Frames and audio chunks as they travel from capture to the preview and the writer, with their
// capture time on one clock (CLOCK_MONOTONIC, in nanoseconds), plus the frame-number stamp that
// the test camera and the fake V4L2 camera draw and the tests read back.

/// The pixel layouts the recorder handles without conversion on the capture side.
public enum PixelFormat: String, CaseIterable, Codable, Sendable {
    /// Packed 4:2:2, Y0 U Y1 V (V4L2 YUYV, SDL YUY2, FFmpeg yuyv422).
    case yuyv
    /// Planar Y, then interleaved UV at half size both ways (V4L2 NV12, SDL NV12, FFmpeg nv12).
    case nv12
    /// Planar Y, U, V, the chroma at half size both ways (V4L2 YU12, SDL IYUV, FFmpeg yuv420p).
    case yuv420p
    /// Planar Y, U, V, the chroma at half width (FFmpeg yuvj422p: what most MJPEG cameras decode to).
    case yuv422p
    /// Compressed JPEG frames (decoded before anything else sees them).
    case mjpeg
    /// Packed 32-bit RGB, bytes B G R X (SDL XRGB8888 alias RGB888, FFmpeg bgr0, V4L2 XR24): what
    /// SDL's software renderer draws with a plain copy. The player makes it (with swscale, on its
    /// video thread) for a renderer without YUV textures, as ffplay does.
    case xrgb

    /// The tightly packed planes of a frame of this size: byte offset, bytes per row, rows.
    public func planes(for size: Size) -> [Plane] {
        let w = size.width, h = size.height
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        switch self {
        case .yuyv: return [Plane(offset: 0, stride: 2 * w, rows: h)]
        case .nv12: return [Plane(offset: 0, stride: w, rows: h), Plane(offset: w * h, stride: 2 * cw, rows: ch)]
        case .yuv420p:
            return [Plane(offset: 0, stride: w, rows: h), Plane(offset: w * h, stride: cw, rows: ch),
                    Plane(offset: w * h + cw * ch, stride: cw, rows: ch)]
        case .yuv422p:
            return [Plane(offset: 0, stride: w, rows: h), Plane(offset: w * h, stride: cw, rows: h),
                    Plane(offset: w * h + cw * h, stride: cw, rows: h)]
        case .mjpeg: return []
        case .xrgb: return [Plane(offset: 0, stride: 4 * w, rows: h)]
        }
    }

    /// Bytes of a tightly packed frame (0 for compressed formats).
    public func frameBytes(for size: Size) -> Int {
        planes(for: size).map { $0.stride * $0.rows }.reduce(0, +)
    }
}

/// One plane of a frame: where it starts in the frame's bytes, its row pitch and its row count.
public struct Plane: Equatable, Sendable {
    public var offset: Int
    public var stride: Int
    public var rows: Int

    public init(offset: Int, stride: Int, rows: Int) {
        self.offset = offset
        self.stride = stride
        self.rows = rows
    }
}

/// One decoded (or raw) video frame. It owns its bytes (an immutable array), so it can go to the
/// preview and to the encoder on different threads at once.
public struct VideoFrame: Sendable {
    public let format: PixelFormat
    public let size: Size
    public let planes: [Plane]
    public let bytes: [UInt8]
    /// Capture time: CLOCK_MONOTONIC nanoseconds (the V4L2 buffer's timestamp for a camera).
    public let timestamp: Int64
    /// The source's frame counter (the driver's sequence number for a camera).
    public let sequence: UInt32
    /// Full-range (0…255, JPEG) samples rather than video range (16…235); MJPEG decodes to full range.
    public let fullRange: Bool

    public init(format: PixelFormat, size: Size, planes: [Plane], bytes: [UInt8], timestamp: Int64, sequence: UInt32,
                fullRange: Bool = false) {
        self.format = format
        self.size = size
        self.planes = planes
        self.bytes = bytes
        self.timestamp = timestamp
        self.sequence = sequence
        self.fullRange = fullRange
    }

    /// The luma (Y) sample at (x, y), whatever the layout: what the stamp reader and tests look at.
    public func luma(x: Int, y: Int) -> UInt8 {
        switch format {
        case .yuyv: return bytes[planes[0].offset + y * planes[0].stride + 2 * x]
        case .nv12, .yuv420p, .yuv422p: return bytes[planes[0].offset + y * planes[0].stride + x]
        case .mjpeg: preconditionFailure("an MJPEG frame has no samples until it is decoded")
        case .xrgb:
            // BT.601 video-range luma from the pixel's R, G, B.
            let p = planes[0].offset + y * planes[0].stride + 4 * x
            let (b, g, r) = (Int(bytes[p]), Int(bytes[p + 1]), Int(bytes[p + 2]))
            return UInt8((66 * r + 129 * g + 25 * b + 128) >> 8 + 16)
        }
    }
}

/// Interleaved signed 16-bit samples with the capture time of the first one.
public struct AudioChunk: Sendable {
    public let samples: [Int16]
    public let channels: Int
    public let sampleRate: Int
    /// Capture time of the first sample: CLOCK_MONOTONIC nanoseconds.
    public let timestamp: Int64

    public init(samples: [Int16], channels: Int, sampleRate: Int, timestamp: Int64) {
        self.samples = samples
        self.channels = channels
        self.sampleRate = sampleRate
        self.timestamp = timestamp
    }

    /// Samples per channel.
    public var frameCount: Int { channels > 0 ? samples.count / channels : 0 }
    /// Length in nanoseconds.
    public var duration: Int64 { sampleRate > 0 ? Int64(frameCount) * 1_000_000_000 / Int64(sampleRate) : 0 }
}

/// The frame number drawn into the top of a test frame, readable back after scaling or JPEG.
///
/// The top band (`bandHeight` rows) is cut into 16 equal cells; cell i from the left is white
/// (Y = 235) when bit 15 − i of the frame number is set, black (Y = 16) otherwise. Big cells survive
/// JPEG and scaling; reading samples each cell's centre and compares with 128. The fake V4L2 camera
/// (C, Tests/FakeV4L2Camera) draws the same stamp.
///
/// A flash frame (the white frame a test source sends first after each whole second of
/// CLOCK_MONOTONIC, for measuring audio/video sync) carries a second band of the same height right
/// under the first, drawn the same way: its *phase*, how long after the whole second the frame was
/// captured, in `phaseUnitNanoseconds` (0…9999). Band 0 is still the frame number.
public enum FrameStamp {
    public static let bits = 16
    public static let white: UInt8 = 235
    public static let black: UInt8 = 16

    /// The stamp's height for a frame height: a sixteenth, at least 8 rows.
    public static func bandHeight(frameHeight: Int) -> Int { max(8, frameHeight / 16) }

    /// The x range of cell `i` (0 = most significant bit) for a frame width.
    public static func cell(_ i: Int, width: Int) -> Range<Int> {
        (i * width / bits)..<((i + 1) * width / bits)
    }

    /// The rows of band `band` (0: the frame number; 1: a flash frame's phase) for a frame height.
    public static func bandRows(_ band: Int, frameHeight: Int) -> Range<Int> {
        let height = bandHeight(frameHeight: frameHeight)
        return (band * height)..<((band + 1) * height)
    }

    /// The unit of a flash frame's phase (band 1): a tenth of a millisecond, so a second's phases
    /// (0…9999) fit the 16 cells.
    public static let phaseUnitNanoseconds: Int64 = 100_000

    /// The phase a flash frame captured at `timestamp` (CLOCK_MONOTONIC nanoseconds, ≥ 0) carries:
    /// the time since the whole second, in `phaseUnitNanoseconds`, rounded down.
    public static func phase(timestamp: Int64) -> Int {
        Int(timestamp % 1_000_000_000 / phaseUnitNanoseconds)
    }

    /// Reads the number back from a frame's luma.
    public static func read(_ frame: VideoFrame) -> Int {
        read(frame, band: 0)
    }

    /// Reads band `band` back from a frame's luma (1: a flash frame's phase).
    public static func read(_ frame: VideoFrame, band: Int) -> Int {
        read(width: frame.size.width, height: frame.size.height, band: band) { frame.luma(x: $0, y: $1) }
    }

    /// Reads the number from any luma accessor (x, y) → Y.
    public static func read(width: Int, height: Int, luma: (Int, Int) -> UInt8) -> Int {
        read(width: width, height: height, band: 0, luma: luma)
    }

    /// Reads band `band` (0: the frame number; 1: a flash frame's phase) from any luma accessor
    /// (x, y) → Y, on the band's middle row. The frame must be at least `band + 1` bands tall.
    public static func read(width: Int, height: Int, band: Int, luma: (Int, Int) -> UInt8) -> Int {
        let rows = bandRows(band, frameHeight: height)
        let y = (rows.lowerBound + rows.upperBound) / 2
        var n = 0
        for i in 0..<bits {
            let r = cell(i, width: width)
            let x = (r.lowerBound + r.upperBound) / 2
            n = n << 1 | (luma(x, y) >= 128 ? 1 : 0)
        }
        return n
    }
}

/// The three planes of a 4:2:0 picture where they lie in someone else's memory, with their row
/// pitches: what a YUV texture upload takes without a copy.
public struct YUVPlanes {
    public var y: UnsafePointer<UInt8>
    public var yPitch: Int
    public var u: UnsafePointer<UInt8>
    public var uPitch: Int
    public var v: UnsafePointer<UInt8>
    public var vPitch: Int

    public init(y: UnsafePointer<UInt8>, yPitch: Int, u: UnsafePointer<UInt8>, uPitch: Int, v: UnsafePointer<UInt8>, vPitch: Int) {
        self.y = y
        self.yPitch = yPitch
        self.u = u
        self.uPitch = uPitch
        self.v = v
        self.vPitch = vPitch
    }
}

/// A player's picture as the screen takes it, without a copy on the player's side.
public protocol PlaybackPicture {
    var size: Size { get }
    /// Full-range (JPEG) samples rather than video range.
    var fullRange: Bool { get }
    /// The BT.709 matrix rather than BT.601.
    var bt709: Bool { get }
    /// Calls `body` with the picture's 4:2:0 planes where they lie; nil, without calling it, when
    /// the picture is in another layout.
    func withYUV420Planes<R>(_ body: (YUVPlanes) throws -> R) rethrows -> R?
    /// Writes the picture as xrgb (bytes B, G, R, 0: SDL's RGB888), `size` large, into memory
    /// of `pitch` bytes a row; throws when it cannot.
    func writeXRGB(into pixels: UnsafeMutableRawPointer, pitch: Int) throws
}
