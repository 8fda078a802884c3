// The decoder a camera that sends compressed pictures (MJPEG) needs, as a protocol: the capture
// module takes one without depending on the media module, whose libavcodec decoder conforms, and
// whoever builds cameras passes it in.

/// Turns one whole compressed picture (a camera's MJPEG frame) into a VideoFrame. Not shared
/// between threads: each capture session makes its own with a `FrameDecoderFactory`.
public protocol FrameDecoder: AnyObject {
    /// Decodes `data`; nil when the decoder needs more input first (never for MJPEG, where each
    /// packet is a picture). Throws for a corrupt picture, which the caller drops and counts.
    func decode(_ data: UnsafeRawBufferPointer, timestamp: Int64, sequence: UInt32) throws -> VideoFrame?
}

/// Makes a decoder, on the thread that will use it (a camera's capture thread, each time it opens
/// the device).
public typealias FrameDecoderFactory = @Sendable () throws -> any FrameDecoder
