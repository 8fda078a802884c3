// HD by default (`--size auto`): with no --size the booth records the camera's largest mode up to
// 1280x720 that keeps --fps, the test pattern at 1280x720; `ready` names the size chosen; a size
// given still wins. Through the binary, with the test pattern and the fake V4L2 camera.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("HD by default: --size auto end to end", .serialized)
struct HDEndToEndTests {
    /// `ready`'s size, from a recorder started with `arguments` (and no --size unless they give one).
    static func readySize(_ r: RecorderProcess) throws -> Size {
        let ready = try #require(r.events.first { $0.name == "ready" }, "\(r.stderr)")
        guard case let .ready(_, width, height, _, _, _, _) = ready else { throw CocoaError(.featureUnsupported) }
        return Size(width: width, height: height)
    }

    /// A take of about a second through `r` (in ready): its file.
    static func take(_ r: RecorderProcess) throws -> String {
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        try #require(r.waitRecorded(1), "\(r.stderr)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.stderr)")
        return try #require(r.lastResult?.outputPath)
    }

    @Test("no --size, the test pattern: ready says 1280x720 and the take is 1280x720; --size 352x288 still gives 352x288")
    func testPatternIsHD() throws {
        for (arguments, expected) in [([String](), Size(width: 1280, height: 720)), (["--size", "352x288"], Size(width: 352, height: 288))] {
            let folder = try testFolder("hd-pattern-\(expected.width)")
            let r = try RecorderProcess(["--camera", "test", "--microphone", "none", "--windowed", "800x480", "--countdown", "0",
                                         "--output", folder.appendingPathComponent("take.mov").path] + arguments)
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            #expect(try Self.readySize(r) == expected)
            let file = try Self.take(r)
            #expect(try ffprobe(file, "stream=width,height", stream: "v:0") == "\(expected.width)\n\(expected.height)")
            r.command("quit")
            #expect(r.exitStatus() == 0)
        }
    }

    @Test("a camera that offers 640x480, 1280x720 and 1920x1080 at 30 fps opens at 1280x720; a USB 2 camera whose raw 720p gives 10 fps opens MJPEG 720p at 30",
          needsFakeCamera)
    func cameraOpensAt720p() throws {
        let cases = [
            ("format=YUYV 640x480@30 1280x720@30 1920x1080@30\n", "yuyv"),
            // The fake's default: a USB 2 webcam.
            ("format=YUYV 640x480@30/15 352x288@30 1280x720@10\nformat=NV12 640x480@30/15 1280x720@10\nformat=MJPG 640x480@30 1280x720@30\n", "mjpeg"),
        ]
        for (index, (conf, format)) in cases.enumerated() {
            let folder = try testFolder("hd-camera-\(index)")
            let device = try fakeCamera(in: folder, conf)
            let r = try RecorderProcess(["--camera", device, "--microphone", "none", "--windowed", "800x480", "--countdown", "0",
                                         "--output", folder.appendingPathComponent("take.mov").path])
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            #expect(try Self.readySize(r) == Size(width: 1280, height: 720), "\(r.stderr)")
            // The camera's log line: "camera PATH: 1280x720 mjpeg at 30.0 fps".
            #expect(r.waitForLog(": 1280x720 \(format) at 30"), "\(r.stderr)")
            let file = try Self.take(r)
            #expect(try ffprobe(file, "stream=width,height", stream: "v:0") == "1280\n720")
            r.command("quit")
            #expect(r.exitStatus() == 0)
        }
    }
}
