// The real FFmpeg libraries link and have what the recorder and the player need.
import Foundation
import Testing
@testable import KioskMedia

@Suite("FFmpeg (real libraries)")
struct FFmpegSmokeTests {
    @Test("the linked libraries report their versions")
    func versions() throws {
        let versions = MediaLibraries.versions
        #expect(Set(versions.keys) == ["libavformat", "libavcodec", "libavutil", "libswscale", "libswresample"])
        let major = try #require(versions["libavcodec"]?.split(separator: ".").first.flatMap { Int($0) })
        #expect(major >= 59, "FFmpeg 5.1 or newer (Debian 12) has the channel-layout API the writer uses")
        #expect(MediaLibraries.avcodecHeaderVersion.hasPrefix("\(major)."))
    }

    @Test("the codecs and containers of a take are present")
    func codecs() {
        #expect(MediaLibraries.hasEncoder("libx264"))
        #expect(MediaLibraries.hasEncoder("aac"))
        #expect(MediaLibraries.hasDecoder("h264"))
        #expect(MediaLibraries.hasDecoder("mjpeg"))
        #expect(MediaLibraries.hasMuxer("mov"))
        #expect(MediaLibraries.hasMuxer("mp4"))
        #expect(!MediaLibraries.hasEncoder("no-such-encoder"))
    }

    @Test("AVError carries FFmpeg's own text")
    func errorText() {
        let e = AVError(code: AVError.code(posix: ENOENT), call: "avformat_open_input")
        #expect(e.code == -ENOENT)
        #expect(e.text == "No such file or directory")
        #expect(e.description == "avformat_open_input failed: No such file or directory (\(-ENOENT))")
        #expect(AVError(code: AVError.endOfFile, call: "av_read_frame").text == "End of file")
    }
}
