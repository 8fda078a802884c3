// The camera's MJPEG decoder: libjpeg-turbo for the 4:2:2 and 4:2:0 pictures webcams send, about a
// fifth cheaper than libavcodec's decoder on the same 720p stream (2.0 against 2.5 ms a picture here),
// with libavcodec's (`VideoDecoder`) for everything else: other samplings, and any picture turbo
// refuses or decodes only with a warning (damaged data), which libavcodec then judges as before.
import CTurboJPEG
import Glibc
import KioskCore
import KioskPixels

/// Not shared between threads (one per capture session, like every `FrameDecoder`).
public final class CameraJPEGDecoder: FrameDecoder {
    private let handle: tjhandle
    private let fallback: VideoDecoder
    private let maxPixels: Int
    /// The decoded planes before the copy into the frame (turbo writes into ours), kept for the next picture.
    private var scratch: [UInt8] = []
    /// Pictures decoded by libjpeg-turbo and by libavcodec (tests read them).
    public private(set) var turboPictures = 0
    public private(set) var fallbackPictures = 0

    /// What capture sessions are given for cameras that send MJPEG.
    public static let factory: FrameDecoderFactory = { try CameraJPEGDecoder() }

    public init(maxPixels: Int = VideoDecoder.maxCameraPixels) throws {
        fallback = try VideoDecoder(codec: "mjpeg", maxPixels: maxPixels)
        guard let handle = tjInitDecompress() else {
            throw AVError(code: AVError.code(posix: ENOMEM), call: "tjInitDecompress")
        }
        self.handle = handle
        self.maxPixels = maxPixels
    }

    deinit { tjDestroy(handle) }

    public func decode(_ data: UnsafeRawBufferPointer, timestamp: Int64, sequence: UInt32) throws -> VideoFrame? {
        if let frame = decodeWithTurbo(data, timestamp: timestamp, sequence: sequence) {
            turboPictures += 1
            return frame
        }
        fallbackPictures += 1
        return try fallback.decode(data, timestamp: timestamp, sequence: sequence)
    }

    /// nil when the picture is not one for turbo: not a JPEG it can read, another sampling or
    /// colour space, more pixels than allowed, or damaged (it stops at the first warning).
    private func decodeWithTurbo(_ data: UnsafeRawBufferPointer, timestamp: Int64, sequence: UInt32) -> VideoFrame? {
        guard let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count > 4 else { return nil }
        var width: Int32 = 0, height: Int32 = 0, sampling: Int32 = 0, colourSpace: Int32 = 0
        guard tjDecompressHeader3(handle, base, UInt(data.count), &width, &height, &sampling, &colourSpace) == 0,
              width > 0, height > 0, Int(width) * Int(height) <= maxPixels, colourSpace == Int32(TJCS_YCbCr.rawValue),
              sampling == Int32(TJSAMP_422.rawValue) || sampling == Int32(TJSAMP_420.rawValue) else { return nil }
        let widths = (0..<3).map { Int(tjPlaneWidth(Int32($0), width, sampling)) }
        let heights = (0..<3).map { Int(tjPlaneHeight(Int32($0), height, sampling)) }
        guard widths.allSatisfy({ $0 > 0 }), heights.allSatisfy({ $0 > 0 }) else { return nil }
        let offsets = [0, widths[0] * heights[0], widths[0] * heights[0] + widths[1] * heights[1]]
        let total = offsets[2] + widths[2] * heights[2]
        if scratch.count < total { scratch = [UInt8](repeating: 0, count: total) }
        return scratch.withUnsafeMutableBufferPointer { buffer -> VideoFrame? in
            let planeBase = buffer.baseAddress!
            var planes: [UnsafeMutablePointer<UInt8>?] = offsets.map { planeBase + $0 }
            var strides = widths.map { Int32($0) }
            // Stop at the first warning (damaged data): libavcodec then decides about the picture.
            // At most 500 scans: a hostile progressive JPEG cannot make it work forever.
            let flags = Int32(TJFLAG_STOPONWARNING) | Int32(TJFLAG_LIMITSCANS)
            guard tjDecompressToYUVPlanes(handle, base, UInt(data.count), &planes, width, &strides, height, flags) == 0 else { return nil }
            let sources = (0..<3).map { (pointer: UnsafePointer(planeBase + offsets[$0]), pitch: widths[$0]) }
            return VideoRange.yuv420pFrame(size: Size(width: Int(width), height: Int(height)), planes: sources,
                                           halfRows: sampling == Int32(TJSAMP_422.rawValue), fullRange: true,
                                           timestamp: timestamp, sequence: sequence)
        }
    }
}

// MARK: - Video range
//
// Full-range (JPEG) 8-bit YUV samples into video range, the range H.264 players and SDL's BT.601
// mode expect: what an MJPEG camera's pictures need before they are recorded. Done while they are
// copied out of the decoder, so the conversion costs no pass of its own (the ffmpeg CLI spends a
// swscale pass on it); and a 4:2:2 picture's chroma rows are averaged in pairs on the way, so the
// picture leaves the copy as the 4:2:0 the encoder takes.
//
// The per-sample loops are KioskPixels' (C, -O2 in every build, left out of ThreadSanitizer's
// instrumentation): about 0.16 ms for a 1280x720 picture, in debug and sanitizer builds too.

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
