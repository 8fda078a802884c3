// The levels and colours of a take from an MJPEG camera, through the binary. A webcam's JPEGs are
// full range (black 0, white 255); H.264 players read the take as video range (16…235) with the
// BT.601 matrix the take names. The fake camera serves JPEGs the ffmpeg CLI made from known
// video-range samples (4:2:2 as most webcams send, and 4:2:0); the take must hold those samples.
import Foundation
import KioskCore
import KioskTestSupport
import Testing

@Suite("Colour through the binary", .serialized)
struct ColourEndToEndTests {
    static let size = Size(width: 320, height: 240)

    /// Frame k: its stamp (Y 16 and 235) over grey (128), the top half's chroma (64, 192), the bottom
    /// half's (192, 64); video-range yuv420p.
    static func frame(_ k: Int) -> [UInt8] {
        let planes = PixelFormat.yuv420p.planes(for: size)
        var bytes = [UInt8](repeating: 128, count: PixelFormat.yuv420p.frameBytes(for: size))
        for i in 0..<FrameStamp.bits {
            let value = (k >> (15 - i)) & 1 == 1 ? FrameStamp.white : FrameStamp.black
            for y in 0..<FrameStamp.bandHeight(frameHeight: size.height) {
                for x in FrameStamp.cell(i, width: size.width) { bytes[y * size.width + x] = value }
            }
        }
        for row in 0..<planes[1].rows {
            let top = row < planes[1].rows / 2
            for x in 0..<planes[1].stride {
                bytes[planes[1].offset + row * planes[1].stride + x] = top ? 64 : 192
                bytes[planes[2].offset + row * planes[2].stride + x] = top ? 192 : 64
            }
        }
        return bytes
    }

    @Test("an MJPEG camera's full-range pictures are recorded video range, BT.601 named: black 16, white 235, grey and chroma as they were",
          arguments: ["yuvj422p", "yuvj420p"])
    func mjpegLevels(jpegLayout: String) throws {
        let folder = try testFolder("colour-\(jpegLayout)")
        let raw = folder.appendingPathComponent("frames.yuv")
        var data = Data()
        for k in 0..<60 { data.append(contentsOf: Self.frame(k)) }
        try data.write(to: raw)
        let clip = folder.appendingPathComponent("clip.mjpeg").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(Self.size)",
                                   "-i", raw.path, "-pix_fmt", jpegLayout, "-q:v", "2", "-f", "mjpeg", clip], stdout: .discard)
        try #require(made.status == 0, "\(made.stderr)")
        let device = folder.appendingPathComponent("video0").path
        try Data().write(to: URL(fileURLWithPath: device))
        try "card=Clip Cam\nformat=MJPG \(Self.size)@30\nclip=\(clip)\n".write(toFile: device + ".conf", atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(["--camera", device, "--microphone", "none", "--size", "\(Self.size)", "--countdown", "0",
                                     "--windowed", "640x480", "--output", output])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        _ = try ServiceEndToEndTests.take(r, seconds: 1)
        r.command("useVideo")
        #expect(r.exitStatus() == 0, "\(r.stderr)")

        // The take names its matrix and range (players would guess BT.709 for HD without it).
        #expect(try ffprobe(output, "stream=color_space", stream: "v") == "smpte170m")
        #expect(try ffprobe(output, "stream=color_range", stream: "v") == "tv")
        // Its 10th picture's samples, as stored (no conversion on the way out).
        let planes = PixelFormat.yuv420p.planes(for: Self.size)
        let frameBytes = PixelFormat.yuv420p.frameBytes(for: Self.size)
        let rawTake = folder.appendingPathComponent("take.yuv").path
        let decoded = try runProgram(["ffmpeg", "-v", "error", "-y", "-noautorotate", "-i", output, "-frames:v", "10",
                                      "-f", "rawvideo", "-pix_fmt", "yuv420p", rawTake], stdout: .discard)
        try #require(decoded.status == 0, "\(decoded.stderr)")
        let samples = try [UInt8](Data(contentsOf: URL(fileURLWithPath: rawTake)))
        try #require(samples.count == 10 * frameBytes, "\(samples.count) bytes of 10 pictures")
        let base = 9 * frameBytes
        let stamp = FrameStamp.read(width: Self.size.width, height: Self.size.height) { x, y in samples[base + y * Self.size.width + x] }
        // The stamp's cells: the white and black ones of this picture's number.
        let band = FrameStamp.bandHeight(frameHeight: Self.size.height)
        var white: [Int] = [], black: [Int] = []
        for i in 0..<FrameStamp.bits {
            let cell = FrameStamp.cell(i, width: Self.size.width)
            let value = Int(samples[base + (band / 2) * Self.size.width + (cell.lowerBound + cell.upperBound) / 2])
            if (stamp >> (15 - i)) & 1 == 1 { white.append(value) } else { black.append(value) }
        }
        let grey = Int(samples[base + 150 * Self.size.width + 160])
        let chroma = { (plane: Int, row: Int) in Int(samples[base + planes[plane].offset + row * planes[plane].stride + 80]) }
        let rows = planes[1].rows
        print("colour \(jpegLayout): picture \(stamp), white \(white), black \(black), grey \(grey), chroma top (\(chroma(1, rows / 4)), \(chroma(2, rows / 4))) bottom (\(chroma(1, rows * 3 / 4)), \(chroma(2, rows * 3 / 4)))")
        // Left full range they read 255, 0, 130, (55, 201) and (201, 55).
        #expect(!white.isEmpty && white.allSatisfy { abs($0 - 235) <= 5 }, "white cells \(white)")
        #expect(!black.isEmpty && black.allSatisfy { abs($0 - 16) <= 5 }, "black cells \(black)")
        #expect(abs(grey - 128) <= 4)
        #expect(abs(chroma(1, rows / 4) - 64) <= 5 && abs(chroma(2, rows / 4) - 192) <= 5)
        #expect(abs(chroma(1, rows * 3 / 4) - 192) <= 5 && abs(chroma(2, rows * 3 / 4) - 64) <= 5)
    }
}
