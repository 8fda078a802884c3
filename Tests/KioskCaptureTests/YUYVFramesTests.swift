// A YUYV camera's frame made 4:2:0 as it is copied out: whole, or a band of rows at a time (as the
// encode benchmark reads a file), every byte as the plain definition says.
import Testing
import KioskCapture
import KioskCore
import KioskPixels

/// YUYV pictures to convert and what each must become, for these tests and the AArch64 ones
/// (CrossPixelsTests).
enum YUYVDefinition {
    /// A YUYV picture of `size` with `pitch` bytes a row (padding after each row), bytes from a
    /// fixed pseudo-random sequence.
    static func picture(_ size: Size, pitch: Int) -> [UInt8] {
        var state: UInt32 = 0x2545F491
        return (0..<(pitch * size.height)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// The definition: luma as it is; each chroma sample the average of its two rows' (rounding
    /// half up), the last row alone at an odd height.
    static func expected(_ source: [UInt8], pitch: Int, size: Size) -> [UInt8] {
        let planes = YUYVFrames.planes(for: size)
        var out = [UInt8](repeating: 0, count: PixelFormat.yuv420p.frameBytes(for: size))
        for y in 0..<size.height {
            for x in 0..<size.width { out[planes[0].offset + y * planes[0].stride + x] = source[y * pitch + 2 * x] }
        }
        for row in 0..<((size.height + 1) / 2) {
            let a = 2 * row * pitch, b = min(2 * row + 1, size.height - 1) * pitch
            for i in 0..<(size.width / 2) {
                out[planes[1].offset + row * planes[1].stride + i] = UInt8((Int(source[a + 4 * i + 1]) + Int(source[b + 4 * i + 1]) + 1) / 2)
                out[planes[2].offset + row * planes[2].stride + i] = UInt8((Int(source[a + 4 * i + 3]) + Int(source[b + 4 * i + 3]) + 1) / 2)
            }
        }
        return out
    }
}

@Suite("YUYV frames")
struct YUYVFramesTests {
    private func picture(_ size: Size, pitch: Int) -> [UInt8] { YUYVDefinition.picture(size, pitch: pitch) }
    private func expected(_ source: [UInt8], pitch: Int, size: Size) -> [UInt8] { YUYVDefinition.expected(source, pitch: pitch, size: size) }

    // Widths for the vector steps and their scalar tails (at the widest steps this CPU has): 50, 70,
    // 102, 640.
    @Test("a whole picture, with padded rows and an odd height, and rows long enough for the vector steps and their tails",
          arguments: [Size(width: 50, height: 9), Size(width: 70, height: 37), Size(width: 102, height: 11), Size(width: 640, height: 480)])
    func whole(size: Size) {
        let pitch = 2 * size.width + 24
        let source = picture(size, pitch: pitch)
        let frame = source.withUnsafeBufferPointer { YUYVFrames.frame($0.baseAddress!, pitch: pitch, size: size, timestamp: 7, sequence: 3) }
        #expect(frame.format == .yuv420p && frame.size == size && frame.planes == YUYVFrames.planes(for: size))
        #expect(frame.timestamp == 7 && frame.sequence == 3 && !frame.fullRange)
        #expect(frame.bytes == expected(source, pitch: pitch, size: size))
    }

    // Widths for each step and its tails: 180 (luma 5 AVX2 steps, 1 SSE2, 4 left; chroma 90 pairs:
    // 2 AVX2, 1 SSE2, 10 left), 50 (luma 1 AVX2, 1 SSE2, 2 left; chroma 1 SSE2, 9 left), 1280.
    @Test("every path (AVX2, SSE2, scalar), the widest this CPU has down to none, gives every byte as the definition says")
    func everyPath() {
        let before = kiosk_pixels_vector_limit(32)
        defer { kiosk_pixels_vector_limit(before) }
        for size in [Size(width: 180, height: 5), Size(width: 50, height: 9), Size(width: 1280, height: 4)] {
            let pitch = 2 * size.width + 8
            let source = picture(size, pitch: pitch), want = expected(source, pitch: pitch, size: size)
            for limit: Int32 in [32, 16, 1] {
                kiosk_pixels_vector_limit(limit)
                let frame = source.withUnsafeBufferPointer { YUYVFrames.frame($0.baseAddress!, pitch: pitch, size: size, timestamp: 0, sequence: 0) }
                #expect(frame.bytes == want, "\(size) in steps of up to \(limit)")
            }
        }
    }

    @Test("band by band (each band from its own buffer, as a file is read) gives the same frame as the whole picture")
    func bands() {
        let size = Size(width: 70, height: 37), pitch = 2 * size.width
        let source = picture(size, pitch: pitch)
        var out = [UInt8](repeating: 0, count: PixelFormat.yuv420p.frameBytes(for: size))
        var row = 0
        while row < size.height {
            let rows = min(6, size.height - row)
            let band = Array(source[(row * pitch)..<((row + rows) * pitch)])
            band.withUnsafeBufferPointer { band in
                out.withUnsafeMutableBufferPointer {
                    YUYVFrames.convert(band.baseAddress!, pitch: pitch, rows: row..<(row + rows), size: size, into: $0.baseAddress!)
                }
            }
            row += rows
        }
        #expect(out == expected(source, pitch: pitch, size: size))
    }
}
