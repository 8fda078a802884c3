// The YUYV camera's conversion alone (YUYVFrames, as V4L2Camera's copy out of the driver's buffer
// makes it): microseconds a frame at each width of vector step this CPU has, on the same picture.
import Foundation
import KioskCapture
import KioskCore
import KioskPixels
import KioskSystem

/// `convert-yuyv`: a frame of `size` converted whole (its source in memory, as a camera's buffer
/// is), and band by band (16 rows, each band in the cache, as the encode benchmark reads a file);
/// the best of 5 runs of 100 frames for each limit (AVX2 32, SSE2 16, scalar 1).
func convertYUYV(_ o: [String: String]) {
    let frameSize = size(o["size"])
    let pitch = 2 * frameSize.width
    var state: UInt32 = 0x2545F491
    let source = (0..<(pitch * frameSize.height)).map { _ -> UInt8 in
        state = state &* 1_664_525 &+ 1_013_904_223
        return UInt8(truncatingIfNeeded: state >> 24)
    }
    var target = [UInt8](repeating: 0, count: PixelFormat.yuv420p.frameBytes(for: frameSize))
    let before = kiosk_pixels_vector_limit(32)
    defer { kiosk_pixels_vector_limit(before) }
    var whole: [String: Double] = [:], bands: [String: Double] = [:]
    source.withUnsafeBufferPointer { s in
        target.withUnsafeMutableBufferPointer { t in
            for (name, limit) in [("avx2", Int32(32)), ("sse2", 16), ("scalar", 1)] {
                kiosk_pixels_vector_limit(limit)
                whole[name] = fastestMicroseconds { YUYVFrames.convert(s.baseAddress!, pitch: pitch, rows: 0..<frameSize.height, size: frameSize, into: t.baseAddress!) }
                // A 16-row band of the frame, the same one each time: in the cache after the first.
                let band = fastestMicroseconds { YUYVFrames.convert(s.baseAddress!, pitch: pitch, rows: 0..<16, size: frameSize, into: t.baseAddress!) }
                bands[name] = (band * Double(frameSize.height) / 16 * 10).rounded() / 10
            }
        }
    }
    printLine(["size": "\(frameSize)", "wholeFrameMicroseconds": whole, "frameInCachedBandsMicroseconds": bands,
               "note": "avx2 is sse2 on a CPU without AVX2"])
}
