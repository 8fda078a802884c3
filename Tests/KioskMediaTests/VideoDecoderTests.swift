// The MJPEG decoder on real JPEGs made by the ffmpeg CLI (an independent encoder).
import Foundation
import Testing
@testable import KioskMedia
import KioskCore
import KioskTestSupport

/// A yuv420p frame with the stamp `number` and grey elsewhere.
func stampedFrame(_ size: Size, number: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 128, count: PixelFormat.yuv420p.frameBytes(for: size))
    for i in 0..<FrameStamp.bits {
        let v = (number >> (15 - i)) & 1 == 1 ? FrameStamp.white : FrameStamp.black
        for y in 0..<FrameStamp.bandHeight(frameHeight: size.height) {
            for x in FrameStamp.cell(i, width: size.width) { bytes[y * size.width + x] = v }
        }
    }
    return bytes
}

@Suite("Video decoder")
struct VideoDecoderTests {
    let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-decoder-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    @Test("JPEGs from ffmpeg decode to planar frames whose stamps read back",
          arguments: [("yuvj422p", PixelFormat.yuv422p), ("yuvj420p", .yuv420p), ("yuvj444p", .yuv420p)])
    func mjpeg(pixelFormat: String, expected: PixelFormat) throws {
        let size = Size(width: 640, height: 480)
        let raw = folder.appendingPathComponent("\(pixelFormat).yuv")
        let jpeg = folder.appendingPathComponent("\(pixelFormat).jpg")
        try Data(stampedFrame(size, number: 0x1234)).write(to: raw)
        let status = try runProgram(["ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "640x480",
                                     "-i", raw.path, "-pix_fmt", pixelFormat, "-q:v", "3", "-frames:v", "1", jpeg.path],
                                    stdout: .discard, stderr: .discard).status
        try #require(status == 0, "ffmpeg made the JPEG")
        let data = try Data(contentsOf: jpeg)
        let decoder = try VideoDecoder(codec: "mjpeg")
        let frame = try data.withUnsafeBytes { try decoder.decode($0, timestamp: 42, sequence: 7) }
        let f = try #require(frame)
        #expect(f.format == expected && f.size == size && f.timestamp == 42 && f.sequence == 7)
        #expect(f.bytes.count == expected.frameBytes(for: size))
        #expect(FrameStamp.read(f) == 0x1234)
        #expect(abs(Int(f.luma(x: 320, y: 300)) - 128) <= 3)
    }

    @Test("garbage and truncated JPEGs are refused without a crash")
    func corrupt() throws {
        let decoder = try VideoDecoder(codec: "mjpeg")
        let garbage = [UInt8](repeating: 0xAB, count: 5000)
        let result = try? garbage.withUnsafeBytes { try decoder.decode($0, timestamp: 0, sequence: 0) }
        #expect(result == nil)
        let empty = try? [UInt8]().withUnsafeBytes { try decoder.decode($0, timestamp: 0, sequence: 0) }
        #expect(empty == nil)
    }

    @Test("a JPEG whose header claims 16000x16000 (with data enough for libavcodec to believe it) is refused by max_pixels before it allocates")
    func hugeHeader() throws {
        let jpeg = folder.appendingPathComponent("small.jpg")
        let made = try runProgram(["ffmpeg", "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=64x64", "-frames:v", "1",
                                   "-pix_fmt", "yuvj422p", jpeg.path])
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        var data = [UInt8](try Data(contentsOf: jpeg))
        // SOF0: FF C0, length (2), precision (1), height (2), width (2).
        let sof = try #require(data.indices.dropLast().first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        data.replaceSubrange((sof + 5)..<(sof + 9), with: [0x3E, 0x80, 0x3E, 0x80])
        // libavcodec takes a picture that big only from a packet of over a megabyte.
        data += [UInt8](repeating: 0, count: 1_100_000)
        let decoder = try VideoDecoder(codec: "mjpeg")
        #expect(throws: AVError.self) { _ = try data.withUnsafeBytes { try decoder.decode($0, timestamp: 0, sequence: 0) } }
        // The same decoder still takes a JPEG of a real size.
        let small = try Data(contentsOf: jpeg)
        #expect(try small.withUnsafeBytes { try decoder.decode($0, timestamp: 0, sequence: 1) }?.size == Size(width: 64, height: 64))
    }

    @Test("an unknown codec name is an AVError naming the call")
    func unknownCodec() {
        #expect(throws: AVError.self) { try VideoDecoder(codec: "no-such-codec") }
    }
}
