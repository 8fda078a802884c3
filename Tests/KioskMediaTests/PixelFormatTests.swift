// The one table between our pixel layouts and FFmpeg's, checked against FFmpeg's own descriptions.
import CFFmpeg
import Testing
@testable import KioskMedia
import KioskCore

@Suite("Pixel formats")
struct PixelFormatTests {
    @Test("each layout of ours is FFmpeg's of that name, the same bytes a picture, and maps back",
          arguments: [(PixelFormat.yuyv, "yuyv422"), (.nv12, "nv12"), (.yuv420p, "yuv420p"), (.yuv422p, "yuv422p"), (.xrgb, "bgr0")])
    func ours(format: PixelFormat, ffmpegName: String) throws {
        let av = format.avPixelFormat
        #expect(String(cString: try #require(av_get_pix_fmt_name(av))) == ffmpegName)
        let back = try #require(PixelFormat.matching(av))
        #expect(back.format == format && !back.fullRange)
        // Our plane table and FFmpeg's agree on a tightly packed picture, odd sizes included.
        for size in [Size(width: 640, height: 480), Size(width: 322, height: 241)] {
            let bytes = av_image_get_buffer_size(av, Int32(size.width), Int32(size.height), 1)
            #expect(format.frameBytes(for: size) == Int(bytes), "\(size)")
        }
    }

    @Test("the yuvj* layouts are ours at full range; MJPEG and layouts we do not have map to nothing")
    func others() {
        #expect(PixelFormat.matching(AV_PIX_FMT_YUVJ420P).map { $0.format == .yuv420p && $0.fullRange } == true)
        #expect(PixelFormat.matching(AV_PIX_FMT_YUVJ422P).map { $0.format == .yuv422p && $0.fullRange } == true)
        #expect(PixelFormat.mjpeg.avPixelFormat == AV_PIX_FMT_NONE)
        #expect(PixelFormat.matching(AV_PIX_FMT_NONE) == nil)
        #expect(PixelFormat.matching(AV_PIX_FMT_YUVJ444P) == nil)
        #expect(PixelFormat.matching(AV_PIX_FMT_RGB24) == nil)
    }
}
