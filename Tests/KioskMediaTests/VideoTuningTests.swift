// The writer's encoder settings, the one table both the writer and the benchmarks' ffmpeg CLI use.
import Foundation
import KioskCore
import KioskTestSupport
import Testing
@testable import KioskMedia

@Suite("Video tuning")
struct VideoTuningTests {
    @Test("libx264: the preset, zerolatency and crf; a keyframe a second, no B-frames, two threads; as ffmpeg CLI options")
    func libx264() {
        var settings = MovieSettings(outputPath: "/tmp/t.mov", videoSize: Size(width: 1280, height: 720), fps: 25, audio: nil)
        settings.crf = 20
        let tuning = settings.videoTuning()
        #expect(tuning.gop == 25 && tuning.bFrames == 0 && tuning.threads == 2)
        #expect(tuning.ffmpegArguments == ["-c:v", "libx264", "-g", "25", "-bf", "0", "-threads", "2", "-preset", "veryfast",
                                           "-tune", "zerolatency", "-crf", "20", "-pix_fmt", "yuv420p", "-color_range", "tv",
                                           "-colorspace", "smpte170m"])
        settings.bitrate = 4_000_000
        #expect(!settings.videoTuning().ffmpegArguments.contains("-crf"))
        #expect(settings.videoTuning().ffmpegArguments.suffix(8) == ["-b:v", "4000000", "-pix_fmt", "yuv420p", "-color_range", "tv",
                                                                        "-colorspace", "smpte170m"])
        // Other encoders take no x264 options.
        #expect(settings.videoTuning(encoder: "h264_v4l2m2m").options.isEmpty)
    }

    @Test("the ffmpeg CLI given these options writes the stream the writer's settings describe: no B-frames, a keyframe every 25 frames")
    func cliMatches() throws {
        let settings = MovieSettings(outputPath: "/tmp/t.mov", videoSize: Size(width: 320, height: 240), fps: 25, audio: nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-tuning-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("cli.mov").path
        let encode = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "60"]
                                    + settings.videoTuning().ffmpegArguments + [out])
        try #require(encode.status == 0, "\(encode.stderr)")
        let frames = try runProgram(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pict_type,key_frame",
                                     "-of", "csv=p=0", out]).stdout.split(separator: "\n")
        #expect(frames.count == 60)
        #expect(!frames.contains { $0.contains("B") })
        let keys = frames.enumerated().filter { $0.element.hasPrefix("1") }.map(\.offset)
        #expect(keys == [0, 25, 50], "\(keys)")
    }
}
