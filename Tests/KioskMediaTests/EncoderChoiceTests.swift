// The encoder choice: `auto` on a machine without hardware encoders, the V4L2 M2M encoder's limits,
// the bit rate hardware encoders run at, and a forced encoder that cannot open.
import Foundation
import Testing
@testable import KioskMedia
import KioskCore
import KioskSystem

@Suite("Encoder choice")
struct EncoderChoiceTests {
    @Test("auto here (no render node, no M2M encoder) is libx264, saying why each hardware encoder was passed over")
    func autoHere() {
        let here = KioskEnvironment().renderFolder
        let choice = EncoderChoice.resolve("auto", size: Size(width: 1280, height: 720), fps: 30, bitrate: nil, renderFolder: here)
        #expect(choice.name == "libx264")
        #expect(choice.reason.hasPrefix("auto: libx264 (h264_vaapi: "), "\(choice.reason)")
        #expect(choice.reason.contains("; h264_v4l2m2m: "), "\(choice.reason)")
        // A name other than auto is taken as it is.
        #expect(EncoderChoice.resolve("h264_v4l2m2m", size: Size(width: 640, height: 480), fps: 30, bitrate: nil, renderFolder: here).name
                == "h264_v4l2m2m")
    }

    @Test("the Pi 4's encoder only within level 4.1: 1080p at 30 fps at most", arguments: [
        (Size(width: 1920, height: 1080), 30.0, true), (Size(width: 1280, height: 720), 60, true), (Size(width: 1920, height: 1080), 60, false),
        (Size(width: 2560, height: 1440), 15, false), (Size(width: 1080, height: 1920), 30, true), (Size(width: 640, height: 480), 240, false),
    ])
    func m2mLimits(size: Size, fps: Double, fits: Bool) {
        #expect((V4L2M2MLimits.problem(size: size, fps: fps) == nil) == fits)
    }

    @Test("hardware encoders run at 0.1 bit per pixel per frame by default, within 500k and 20M")
    func bitrate() {
        #expect(EncoderChoice.defaultBitrate(size: Size(width: 1280, height: 720), fps: 30) == 2_764_800)
        #expect(EncoderChoice.defaultBitrate(size: Size(width: 1920, height: 1080), fps: 30) == 6_220_800)
        #expect(EncoderChoice.defaultBitrate(size: Size(width: 352, height: 288), fps: 30) == 500_000)
        #expect(EncoderChoice.defaultBitrate(size: Size(width: 3840, height: 2160), fps: 60) == 20_000_000)
        #expect(EncoderChoice.isHardware("h264_vaapi") && !EncoderChoice.isHardware("libx264"))
    }

    @Test("a forced encoder that cannot open: the take is made with libx264, and the writer says why")
    func forcedFallsBack() throws {
        let path = NSTemporaryDirectory() + "kiosk-encoder-fallback-\(getpid()).mov"
        try? FileManager.default.removeItem(atPath: path)
        var settings = MovieSettings(outputPath: path, videoSize: Size(width: 320, height: 240), fps: 30, audio: nil)
        settings.videoEncoder = "h264_vaapi"
        let session = try EncodingSession(settings: settings)
        #expect(session.videoEncoderName == "libx264")
        #expect(session.fallbackNote?.hasPrefix("video encoder h264_vaapi could not open (") == true, "\(String(describing: session.fallbackNote))")
        session.finish()
        try? FileManager.default.removeItem(atPath: path)
    }
}
