// The overlay's blend alone (`--overlay`): microseconds a picture to burn an overlay into a
// yuv420p picture's planes (OverlayPlanes, as the writer does before each encode), against a plain
// copy of the same planes, at each vector width this CPU has.
import Foundation
import KioskCore
import KioskMedia
import KioskPixels
import KioskSystem

/// `overlay-blend`: for each size, two overlays: a booth's frame (an opaque border a twentieth of
/// the height, a half-transparent band along the bottom fifth, a logo in a corner; the middle
/// transparent) and the worst case (every pixel half-transparent). Best of 5 runs of 100 pictures.
func overlayBlend(_ o: [String: String]) {
    let sizes = (o["sizes"] ?? "1280x720,1920x1080").split(separator: ",").map { size(String($0)) }
    let before = kiosk_pixels_vector_limit(32)
    defer { kiosk_pixels_vector_limit(before) }
    for frameSize in sizes {
        let (w, h) = (frameSize.width, frameSize.height)
        var state: UInt32 = 0x2545F491
        let picture = (0..<PixelFormat.yuv420p.frameBytes(for: frameSize)).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        func overlay(_ alphaAt: (Int, Int) -> UInt8) -> OverlayPicture {
            var rgba = [UInt8](repeating: 0, count: w * h * 4)
            for y in 0..<h {
                for x in 0..<w {
                    let at = (y * w + x) * 4
                    (rgba[at], rgba[at + 1], rgba[at + 2], rgba[at + 3]) = (200, 30, 90, alphaAt(x, y))
                }
            }
            return OverlayPicture(size: frameSize, rgba: rgba)
        }
        let border = h / 20
        let frame = overlay { x, y in
            if x < border || y < border || x >= w - border || y >= h - border { return 255 }
            if y >= h * 4 / 5 { return 160 }
            if x >= w * 3 / 4 && y < h / 5 { return 255 }
            return 0
        }
        let everywhere = overlay { _, _ in 128 }
        let planes = PixelFormat.yuv420p.planes(for: frameSize)
        var target = picture
        var copy = 0.0
        var results: [String: Any] = [:]
        target.withUnsafeMutableBufferPointer { t in
            picture.withUnsafeBufferPointer { p in
                copy = fastestMicroseconds { t.baseAddress!.update(from: p.baseAddress!, count: p.count) }
            }
            let pointers = planes.map { t.baseAddress! + $0.offset }, pitches = planes.map(\.stride)
            for (name, picture) in [("frame", frame), ("everywhere", everywhere)] {
                let start = MonotonicClock.now()
                guard let prepared = try? OverlayPlanes(TakeOverlay(landscape: picture), size: frameSize, quarterTurns: 0, interleaved: false) else {
                    fail("the overlay could not be made")
                }
                let made = Double(MonotonicClock.now() - start) / 1e6
                var widths: [String: Double] = [:]
                for (vector, limit) in [("avx2", Int32(32)), ("sse2", 16), ("scalar", 1)] {
                    kiosk_pixels_vector_limit(limit)
                    widths[vector] = fastestMicroseconds { prepared.blend(planes: pointers, pitches: pitches) }
                }
                kiosk_pixels_vector_limit(32)
                results[name] = ["blendMicroseconds": widths, "samplesBlended": prepared.blendedSamples,
                                 "preparedOnceMilliseconds": (made * 10).rounded() / 10]
            }
        }
        printLine(["size": "\(frameSize)", "copyMicroseconds": copy, "overlays": results,
                   "note": "a picture's three planes; copy: the same bytes copied (memcpy); avx2 is sse2 on a CPU without AVX2"])
    }
}
