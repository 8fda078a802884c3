// Our pixel layouts under FFmpeg's names, in one table read both ways: the writer names a camera
// frame's layout to swscale with it, the decoders name a decoded picture's layout with it.
import CFFmpeg
import KioskCore

extension PixelFormat {
    /// Each of our layouts and FFmpeg's with the same planes. The yuvj* layouts are the same planes
    /// at full range: deprecated in FFmpeg, but what its MJPEG decoder gives. MJPEG is not pixels.
    static let ffmpegLayouts: [(format: PixelFormat, av: AVPixelFormat, fullRange: Bool)] = [
        (.yuyv, AV_PIX_FMT_YUYV422, false),
        (.nv12, AV_PIX_FMT_NV12, false),
        (.yuv420p, AV_PIX_FMT_YUV420P, false),
        (.yuv420p, AV_PIX_FMT_YUVJ420P, true),
        (.yuv422p, AV_PIX_FMT_YUV422P, false),
        (.yuv422p, AV_PIX_FMT_YUVJ422P, true),
        (.xrgb, AV_PIX_FMT_BGR0, false),
    ]

    /// FFmpeg's layout for ours; `AV_PIX_FMT_NONE` for MJPEG.
    var avPixelFormat: AVPixelFormat {
        Self.ffmpegLayouts.first { $0.format == self && !$0.fullRange }?.av ?? AV_PIX_FMT_NONE
    }

    /// Our layout for FFmpeg's, and whether the layout itself means full range (yuvj*); nil for a
    /// layout we do not have.
    static func matching(_ av: AVPixelFormat) -> (format: PixelFormat, fullRange: Bool)? {
        ffmpegLayouts.first { $0.av == av }.map { ($0.format, $0.fullRange) }
    }
}
