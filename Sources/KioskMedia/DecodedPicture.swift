// The player's pictures travel from the decoder to the screen without a copy of ours: a
// DecodedPicture keeps a reference to libavcodec's own frame buffers, and the screen either takes
// its YUV planes where they lie (a YUV texture) or has `PictureScaler` write it as RGB straight into
// the texture's memory (SDL's software renderer). That is how ffplay does it; a copy into a Swift
// array and a second one into the texture cost 8 % of the player's CPU (bench/play-vs-ffplay).
import CFFmpeg
import KioskCore

/// Owns one AVFrame (`av_frame_free` in deinit).
///
/// `@unchecked Sendable` is sound: the frame is never changed after `init` (it is only read: its
/// planes by swscale or SDL, its fields here), and libavcodec counts the references to its buffers
/// atomically (AVBufferRef), so dropping the last one on whichever thread frees them safely. With
/// frame threading a frame is complete when `avcodec_receive_frame` returns it; the decoder's
/// threads only read it afterwards (as a reference picture).
final class FrameReference: @unchecked Sendable {
    let frame: UnsafeMutablePointer<AVFrame>

    /// Takes `source`'s references (`av_frame_move_ref`), leaving it empty; nil when out of memory.
    init?(moving source: UnsafeMutablePointer<AVFrame>) {
        guard let frame = av_frame_alloc() else { return nil }
        av_frame_move_ref(frame, source)
        self.frame = frame
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&f)
    }
}

/// A decoded picture still in the decoder's buffers.
public struct DecodedPicture: Sendable {
    let reference: FrameReference
    /// Nanoseconds on the media timeline.
    public var timestamp: Int64
    public let size: Size
    /// Full-range (JPEG) samples rather than video range.
    public let fullRange: Bool
    /// The count of pictures the decoder made before this one.
    public let sequence: UInt32
    /// Its YUV samples use the BT.709 matrix (else BT.601).
    public let bt709: Bool

    init(_ reference: FrameReference, timestamp: Int64, sequence: UInt32) {
        self.reference = reference
        self.timestamp = timestamp
        self.sequence = sequence
        let f = reference.frame.pointee
        size = Size(width: Int(f.width), height: Int(f.height))
        fullRange = Self.isFullRange(f)
        bt709 = Self.isBT709(f)
    }

    /// Full-range samples: the yuvj* layouts (yuvj444p is the one that is not ours), or a frame
    /// that says so.
    static func isFullRange(_ f: AVFrame) -> Bool {
        let format = AVPixelFormat(rawValue: f.format)
        return PixelFormat.matching(format)?.fullRange == true || format == AV_PIX_FMT_YUVJ444P
            || f.color_range == AVCOL_RANGE_JPEG
    }

    /// The BT.709 matrix (HD video that says so); anything else is taken as BT.601, which is what
    /// the recorder's cameras give and what an untagged file means.
    static func isBT709(_ f: AVFrame) -> Bool { f.colorspace == AVCOL_SPC_BT709 }

    /// Calls `body` with the three planes of a 4:2:0 picture where they lie (valid during the
    /// call only); nil, without calling it, for any other layout.
    public func withYUV420Planes<R>(_ body: (YUVPlanes) throws -> R) rethrows -> R? {
        let f = reference.frame.pointee
        guard PixelFormat.matching(AVPixelFormat(rawValue: f.format))?.format == .yuv420p,
              let y = f.data.0, let u = f.data.1, let v = f.data.2,
              f.linesize.0 > 0, f.linesize.1 > 0, f.linesize.2 > 0 else { return nil }
        return try withExtendedLifetime(reference) {
            try body(YUVPlanes(y: UnsafePointer(y), yPitch: Int(f.linesize.0), u: UnsafePointer(u), uPitch: Int(f.linesize.1),
                               v: UnsafePointer(v), vPitch: Int(f.linesize.2)))
        }
    }

    /// A tightly packed copy as a VideoFrame: yuv420p, yuv422p and nv12 as they are, any other
    /// layout converted to yuv420p. For tests and snapshots; the player's screen takes the picture
    /// as it is.
    public func videoFrame() throws(AVError) -> VideoFrame {
        var scaler: Scaler?
        return try withExtendedLifetime(reference) { () throws(AVError) -> VideoFrame in
            try VideoDecoder.copy(reference.frame, timestamp: timestamp, sequence: sequence, scaler: &scaler)
        }
    }
}

/// Writes pictures as packed RGB into memory the caller gives (a locked streaming texture), with
/// swscale. Not thread-safe: one per UI thread.
public final class PictureScaler {
    private var scaler: Scaler?

    public init() {}

    /// Writes `picture` as xrgb (bytes B, G, R, 0: SDL's RGB888) into `pixels`, `pitch` bytes a
    /// row, `picture.size` large.
    public func writeXRGB(_ picture: DecodedPicture, into pixels: UnsafeMutableRawPointer, pitch: Int) throws(AVError) {
        try withExtendedLifetime(picture.reference) { () throws(AVError) in
            let frame = UnsafePointer(picture.reference.frame)
            let scaler = try Scaler.fitting(&scaler, Scaler.Key(frame.pointee, to: AV_PIX_FMT_BGR0))
            try scaler.scale(frame.pointee.planePointers.map { UnsafePointer($0) }, pitches: frame.pointee.planePitches,
                             into: [pixels.assumingMemoryBound(to: UInt8.self)], pitches: [pitch])
        }
    }
}

/// A decoded picture as the screen takes it: its planes where the decoder left them, or written
/// as RGB by swscale straight into the texture.
public struct ScreenPicture: PlaybackPicture {
    public let picture: DecodedPicture
    let scaler: PictureScaler

    public init(_ picture: DecodedPicture, scaler: PictureScaler) {
        self.picture = picture
        self.scaler = scaler
    }

    public var size: Size { picture.size }
    public var fullRange: Bool { picture.fullRange }
    public var bt709: Bool { picture.bt709 }

    public func withYUV420Planes<R>(_ body: (YUVPlanes) throws -> R) rethrows -> R? {
        try picture.withYUV420Planes(body)
    }

    public func writeXRGB(into pixels: UnsafeMutableRawPointer, pitch: Int) throws {
        try scaler.writeXRGB(picture, into: pixels, pitch: pitch)
    }
}
