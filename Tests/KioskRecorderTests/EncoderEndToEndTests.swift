// The encoder choice through the binary, on a machine without hardware encoders: `auto` takes
// libx264 and says why; a forced encoder that cannot open is replaced for the take; an encoder
// that stops returning packets mid-take (the test-only `test_stall_h264`, KIOSK_TEST_ENCODERS=1)
// ends the take with reason error, the file playable, and libx264 records the next take.
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

@Suite("encoder choice end to end", .serialized)
struct EncoderEndToEndTests {
    static func take(_ r: RecorderProcess, count: Int, seconds: Double) throws -> RecordingResult {
        r.command("start")
        try #require(r.wait(for: "recordingStarted", count: count) != nil, "\(r.events)")
        try #require(r.waitRecorded(seconds), "\(r.events)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished", count: count) != nil, "\(r.stderr)")
        return try #require(r.lastResult)
    }

    @Test("auto (the default) picks libx264 here and says why; ready and recordingFinished name it")
    func auto() throws {
        let output = try testFolder("encoder-auto").appendingPathComponent("t.mov").path
        let r = try RecorderProcess(booth + ["--output", output])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        #expect(r.rawLines.first?.contains(#","encoder":"libx264""#) == true, "\(r.rawLines)")
        #expect(r.waitForLog("video encoder auto: libx264 (h264_vaapi: "), "\(r.stderr)")
        #expect(r.said("; h264_v4l2m2m: "), "\(r.stderr)")
        let result = try Self.take(r, count: 1, seconds: 0.8)
        #expect(result.encoder == "libx264" && result.success)
        #expect(r.rawLines.contains { $0.contains(#""event":"recordingFinished""#) && $0.hasSuffix(#","encoder":"libx264"}"#) })
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("a forced encoder that cannot open: the take is made with libx264 at once, and stderr says why")
    func forced() throws {
        let output = try testFolder("encoder-forced").appendingPathComponent("t.mov").path
        let r = try RecorderProcess(booth + ["--output", output, "--video-encoder", "h264_vaapi"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let result = try Self.take(r, count: 1, seconds: 0.8)
        #expect(result.encoder == "libx264" && result.success && result.reason == .user, "\(result)")
        #expect(r.waitForLog("video encoder h264_vaapi could not open ("), "\(r.stderr)")
        #expect(try decodesCleanly(output))
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("an encoder that stops returning packets: the take ends within about 1 s with reason error and plays; the next take is libx264")
    func stall() throws {
        let output = try testFolder("encoder-stall").appendingPathComponent("t.mov").path
        let r = try RecorderProcess(booth + ["--output", output, "--video-encoder", TestEncoderName.stalling],
                                    environment: ["KIOSK_TEST_ENCODERS": "1"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil)
        // One second of packets, then none: the writer gives up a second later.
        try #require(r.wait(for: "recordingFinished", timeout: 8) != nil, "\(r.stderr)")
        let stalled = try #require(r.lastResult)
        #expect(stalled.reason == .error && stalled.success && stalled.encoder == TestEncoderName.stalling, "\(stalled)")
        // What reached the file: the first second's pictures (the sound goes on to the end).
        #expect(stalled.duration > 1.5 && stalled.duration < 3.5, "\(stalled.duration)")
        #expect(try decodesCleanly(output))
        let frames = try pictureCount(output)
        #expect(frames.map { (28...32).contains($0) } == true, "\(String(describing: frames)) frames")
        #expect(r.waitForLog("has returned no packet for"), "\(r.stderr)")
        #expect(r.waitForLog("video encoder \(TestEncoderName.stalling) stopped returning packets; libx264 from the next take on"), "\(r.stderr)")
        r.command("retake")
        let next = try Self.take(r, count: 2, seconds: 1.5)
        #expect(next.encoder == "libx264" && next.success && next.reason == .user, "\(next)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}

/// The test-only encoders' names (KioskMedia's TestEncoders, which this target cannot import).
enum TestEncoderName {
    static let stalling = "test_stall_h264"
    static let slow = "test_slow_h264"
}
