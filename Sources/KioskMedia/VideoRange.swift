// Full-range (JPEG) 8-bit YUV samples into video range, the range H.264 players and SDL's BT.601
// mode expect: what an MJPEG camera's pictures need before they are recorded. Done while they are
// copied out of the decoder, so the conversion costs no pass of its own (the ffmpeg CLI spends a
// swscale pass on it); and a 4:2:2 picture's chroma rows are averaged in pairs on the way, so the
// picture leaves the copy as the 4:2:0 the encoder takes.
//
// The per-sample loops are KioskPixels' (C, -O2 in every build, left out of ThreadSanitizer's
// instrumentation): about 0.16 ms for a 1280x720 picture, in debug and sanitizer builds too.
import KioskCore
import KioskPixels

/// Sample conversions, each exactly rounded (a test checks every value): luma y' = round(16 + 219·y
/// / 255), chroma c' = round(128 + 224·(c − 128) / 255).
public enum VideoRange {
    /// One row of luma samples, converted (`fromFull`) or copied.
    public static func lumaRow(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, count: Int, fromFull: Bool) {
        kiosk_luma_row(source, target, count, fromFull ? 1 : 0)
    }

    /// One row of chroma samples, converted (`fromFull`) or copied.
    public static func chromaRow(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, count: Int, fromFull: Bool) {
        kiosk_chroma_row(source, target, count, fromFull ? 1 : 0)
    }

    /// Two chroma rows averaged (rounding half up) into one, then converted (`fromFull`): 4:2:2 to 4:2:0.
    public static func chromaRows(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>,
                                  count: Int, fromFull: Bool) {
        kiosk_chroma_rows(a, b, target, count, fromFull ? 1 : 0)
    }
}

extension VideoRange {
    /// A decoded planar 4:2:0 or 4:2:2 picture (`halfRows` false or true: one chroma row per two
    /// picture rows, or per row) as a tightly packed video-range yuv420p VideoFrame: the one pass
    /// over its pixels between a decoder's buffers and the frame the preview and the encoder share.
    /// `planes`: Y, U, V, each a pointer and a pitch in bytes.
    public static func yuv420pFrame(size: Size, planes sources: [(pointer: UnsafePointer<UInt8>, pitch: Int)], halfRows: Bool,
                                    fullRange: Bool, timestamp: Int64, sequence: UInt32) -> VideoFrame {
        precondition(sources.count == 3, "three planes")
        let planes = PixelFormat.yuv420p.planes(for: size)
        let bytes = [UInt8](unsafeUninitializedCapacity: PixelFormat.yuv420p.frameBytes(for: size)) { buffer, count in
            let base = buffer.baseAddress!
            for row in 0..<planes[0].rows {
                lumaRow(sources[0].pointer + row * sources[0].pitch, into: base + planes[0].offset + row * planes[0].stride,
                        count: planes[0].stride, fromFull: fullRange)
            }
            for (plane, source) in zip(planes.dropFirst(), sources.dropFirst()) {
                for row in 0..<plane.rows {
                    let target = base + plane.offset + row * plane.stride
                    if halfRows {
                        // 4:2:2 has a chroma row per picture row: rows 2r and 2r + 1 (the last alone at an odd height).
                        chromaRows(source.pointer + 2 * row * source.pitch, source.pointer + min(2 * row + 1, size.height - 1) * source.pitch,
                                   into: target, count: plane.stride, fromFull: fullRange)
                    } else {
                        chromaRow(source.pointer + row * source.pitch, into: target, count: plane.stride, fromFull: fullRange)
                    }
                }
            }
            count = buffer.count
        }
        return VideoFrame(format: .yuv420p, size: size, planes: planes, bytes: bytes, timestamp: timestamp, sequence: sequence)
    }
}

extension VideoRange {
    /// A YUYV picture (packed 4:2:2, video range, as cameras send it; an even width) into planar
    /// 4:2:0 planes, in one pass over the picture: luma taken out of the pairs, each chroma sample the average of the
    /// two rows' (rounding half up; the last row alone at an odd height). What the writer gives the
    /// encoder from a YUYV camera, instead of a general swscale conversion (which takes one of the
    /// two chroma rows, at more than twice the cost).
    public static func yuyvTo420(_ source: UnsafePointer<UInt8>, pitch: Int, size: Size,
                                 y: UnsafeMutablePointer<UInt8>, yPitch: Int, u: UnsafeMutablePointer<UInt8>, uPitch: Int,
                                 v: UnsafeMutablePointer<UInt8>, vPitch: Int) {
        precondition(size.width % 2 == 0, "YUYV has an even width")
        // A pair of rows at a time: its chroma is read while the pair is still in the cache from
        // taking out its luma, so the picture comes from memory once (a 720p frame is 1.8 MiB).
        kiosk_yuyv_to_420(source, pitch, size.width, size.height, y, yPitch, u, uPitch, v, vPitch)
    }
}
