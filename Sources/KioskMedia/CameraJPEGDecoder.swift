// The camera's MJPEG decoder: libjpeg-turbo for the 4:2:2 and 4:2:0 pictures webcams send, about a
// fifth cheaper than libavcodec's decoder on the same 720p stream (2.0 against 2.5 ms a picture here),
// with libavcodec's (`VideoDecoder`) for everything else: other samplings, and any picture turbo
// refuses or decodes only with a warning (damaged data), which libavcodec then judges as before.
import CTurboJPEG
import Glibc
import KioskCore

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
