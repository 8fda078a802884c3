// A photo (`--photo-button`): one camera frame at its capture size made a JPEG. The frame
// is converted as the take converts it (swscale into video-range 4:2:0), the operator's overlay is
// burnt in with the take's own planes and blend (`OverlayPlanes`, made for the stored picture and
// its turn, so photo and take show the same overlay), then the planes are turned upright (a JPEG
// carries no display matrix, so the pixels turn; never mirrored, like the take) and made full range
// on the way (JFIF's YCbCr), and libjpeg-turbo compresses the planes as they are
// (`tjCompressFromYUVPlanes`: no RGB round trip). Runs on a worker; it only reads the frame.
import CFFmpeg
import CTurboJPEG
import KioskCore
import KioskStorage
import KioskPixels

public enum PhotoJPEG {
    /// libjpeg-turbo's quality (1–100).
    public static let quality: Int32 = 92

    /// A photo's JPEG and its upright size.
    public struct Photo: Sendable {
        public let bytes: [UInt8]
        public let size: Size
    }

    /// The JPEG of `frame`, a picture a player turns `quarterTurns` clockwise to show upright (the
    /// take's `rotationQuarterTurns`), with `overlay` burnt in when there is one.
    public static func make(_ frame: VideoFrame, quarterTurns: Int, overlay: TakeOverlay?) throws(PhotoError) -> Photo {
        guard frame.format != .mjpeg, frame.size.width > 0, frame.size.height > 0,
              frame.bytes.count >= frame.format.frameBytes(for: frame.size) else {
            throw PhotoError("the camera's picture is not one to convert (\(frame.format.rawValue), \(frame.size))")
        }
        let turns = ((quarterTurns % 4) + 4) % 4
        var stored = try planes(of: frame)
        if let overlay {
            do {
                let planes = try OverlayPlanes.made(overlay, size: frame.size, quarterTurns: turns, interleaved: false)
                let pitches = stored.pitches
                stored.withPointers { planes.blend(planes: $0, pitches: pitches) }
            } catch { throw PhotoError("the overlay: \(error)") }
        }
        let upright = turns % 2 == 0 ? frame.size : frame.size.transposed
        let turned = stored.turned(turns, upright: upright)
        return Photo(bytes: try compress(turned, size: upright), size: upright)
    }

    /// Three 4:2:0 planes and their pitches, held in one array.
    struct Planes {
        var bytes: [UInt8]
        let offsets: [Int]
        let pitches: [Int]
        let sizes: [Size]

        /// Room for a picture of `size`; `aligned`: rows padded to 64 bytes, and 64 bytes after the
        /// last (swscale may write a little past a row's end).
        init(_ size: Size, aligned: Bool) {
            let chroma = Size(width: (size.width + 1) / 2, height: (size.height + 1) / 2)
            sizes = [size, chroma, chroma]
            pitches = sizes.map { aligned ? ($0.width + 63) & ~63 : $0.width }
            var offsets: [Int] = [], at = 0
            for (pitch, plane) in zip(pitches, sizes) {
                offsets.append(at)
                at += pitch * plane.height
            }
            self.offsets = offsets
            bytes = [UInt8](repeating: 0, count: at + (aligned ? 64 : 0))
        }

        mutating func withPointers<R>(_ body: ([UnsafeMutablePointer<UInt8>]) throws -> R) rethrows -> R {
            let offsets = offsets
            return try bytes.withUnsafeMutableBufferPointer { buffer in try body(offsets.map { buffer.baseAddress! + $0 }) }
        }

        /// Each plane turned `turns` clockwise into tight planes of the upright picture, video range
        /// made full range.
        func turned(_ turns: Int, upright: Size) -> Planes {
            var out = Planes(upright, aligned: false)
            let (luma, chroma) = (PhotoJPEG.fullRange(luma: true), PhotoJPEG.fullRange(luma: false))
            let (sizes, pitches, offsets) = (sizes, pitches, offsets)
            let (targetPitches, targetOffsets) = (out.pitches, out.offsets)
            bytes.withUnsafeBufferPointer { source in
                out.bytes.withUnsafeMutableBufferPointer { target in
                    for i in 0..<3 {
                        (i == 0 ? luma : chroma).withUnsafeBufferPointer { lut in
                            kiosk_turn_plane(source.baseAddress! + offsets[i], pitches[i], sizes[i].width, sizes[i].height,
                                             target.baseAddress! + targetOffsets[i], targetPitches[i], Int32(turns), lut.baseAddress)
                        }
                    }
                }
            }
            return out
        }
    }

    /// `jpeg` with `text` in a comment segment (COM, `FF FE`), after its JFIF header (APP0) when it
    /// has one, else right after its start: `--consent`'s choices in the photo's own file, as a take's
    /// `comment` tag carries them. Bytes that are no JPEG, or a text over one segment's 65,533 bytes,
    /// are left as they are.
    public static func commented(_ jpeg: [UInt8], _ text: String) -> [UInt8] {
        let body = Array(text.utf8)
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8, body.count <= 65_533 else { return jpeg }
        var at = 2
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, jpeg.count >= 6 {
            at = min(4 + (Int(jpeg[4]) << 8 | Int(jpeg[5])), jpeg.count)
        }
        let length = body.count + 2
        return Array(jpeg[..<at]) + [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + body + jpeg[at...]
    }

    /// The frame as video-range yuv420p at its own size (swscale, nearest sample: the take's
    /// conversion).
    static func planes(of frame: VideoFrame) throws(PhotoError) -> Planes {
        var planes = Planes(frame.size, aligned: true)
        let key = Scaler.Key(source: frame.format.avPixelFormat, sourceWidth: Int32(frame.size.width), sourceHeight: Int32(frame.size.height),
                             target: AV_PIX_FMT_YUV420P, targetWidth: Int32(frame.size.width), targetHeight: Int32(frame.size.height),
                             sourceFullRange: frame.fullRange, targetFullRange: false, bt709: false, flags: SWS_POINT)
        let pitches = planes.pitches
        let failure = planes.withPointers { targets -> AVError? in
            do throws(AVError) {
                let scaler = try Scaler(key)
                try frame.bytes.withUnsafeBufferPointer { bytes throws(AVError) in
                    try scaler.scale(frame.planes.map { UnsafePointer(bytes.baseAddress! + $0.offset) }, pitches: frame.planes.map(\.stride),
                                     into: targets, pitches: pitches)
                }
                return nil
            } catch { return error }
        }
        if let failure { throw PhotoError("converting the camera's picture: \(failure)") }
        return planes
    }

    /// Video range to full range (JFIF), per sample: luma 16…235 → 0…255, chroma 16…240 → 0…255
    /// around 128, rounded and clamped.
    static func fullRange(luma: Bool) -> [UInt8] {
        (0..<256).map { v in
            let f = luma ? (Double(v) - 16) * 255 / 219 : (Double(v) - 128) * 255 / 224 + 128
            return UInt8(min(max(f.rounded(), 0), 255))
        }
    }

    /// A baseline 4:2:0 JPEG of tight planes at `quality` (`tjCompressFromYUVPlanes`).
    static func compress(_ planes: Planes, size: Size) throws(PhotoError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw PhotoError("tjInitCompress failed") }
        defer { tjDestroy(handle) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        defer { tjFree(jpeg) }
        let result = planes.bytes.withUnsafeBufferPointer { bytes -> Int32 in
            var sources: [UnsafePointer<UInt8>?] = planes.offsets.map { bytes.baseAddress! + $0 }
            var strides = planes.pitches.map { Int32($0) }
            return tjCompressFromYUVPlanes(handle, &sources, Int32(size.width), &strides, Int32(size.height), Int32(TJSAMP_420.rawValue),
                                           &jpeg, &length, quality, 0)
        }
        guard result == 0, let jpeg else { throw PhotoError("tjCompressFromYUVPlanes: " + String(cString: tjGetErrorStr2(handle))) }
        return Array(UnsafeBufferPointer(start: jpeg, count: Int(length)))
    }
}
