// The share folder's poster: one key frame of the take, decoded with our own decoder,
// turned upright (a JPEG carries no display matrix, so the pixels turn), at most 1280 pixels on its
// long side, as a JPEG from libjpeg-turbo.
import CFFmpeg
import CTurboJPEG
import KioskCore
import KioskStorage

enum SharePoster {
    /// The poster's long side at most, in pixels.
    static let longSide = 1280
    /// libjpeg-turbo's quality (1–100).
    static let quality: Int32 = 85

    /// The JPEG of the picture in `packet` (a key frame of `stream`) and its upright size.
    /// `longSide`: at most this many pixels on its long side (the library's thumbnails are smaller).
    static func jpeg(of packet: Packet, in stream: UnsafeMutablePointer<AVStream>, longSide: Int = longSide,
                     step: String = "making poster.jpg") throws(ShareError) -> (bytes: [UInt8], size: Size) {
        let picture: DecodedPicture
        do { picture = try decode(packet, in: stream) } catch { throw ShareError(step: step, error) }
        let turns = Int((MoviePlayer.rotation(of: stream) / 90).rounded()) % 4
        let rgb: (pixels: [UInt8], size: Size, pitch: Int)
        do { rgb = try scaledRGB(picture, turns: turns, longSide: longSide) } catch { throw ShareError(step: step, error) }
        let upright = turns == 0 ? rgb : turn(rgb.pixels, size: rgb.size, pitch: rgb.pitch, quarterTurns: turns)
        return (try compress(upright.pixels, size: upright.size, pitch: upright.pitch, step: step), upright.size)
    }

    /// The key frame's picture (`avcodec_send_packet`, the end of the stream, `avcodec_receive_frame`).
    static func decode(_ packet: Packet, in stream: UnsafeMutablePointer<AVStream>) throws(AVError) -> DecodedPicture {
        let decoder = try VideoDecoder(stream: stream, threads: 0, maxPixels: VideoDecoder.maxCameraPixels)
        _ = try decoder.send(packet.pointer)
        var ended = false
        while true {
            switch try decoder.receive() {
            case .output(let output): return output.picture
            case .needsInput where !ended:
                _ = try decoder.send(nil)
                ended = true
            case .needsInput, .drained:
                throw AVError(code: kiosk_AVERROR_INVALIDDATA(), call: "avcodec_receive_frame (no picture from the key frame)")
            }
        }
    }

    /// The picture as packed RGB (swscale, bicubic), scaled so that once turned its long side is at
    /// most `longSide` (the poster's; the trimmer's pictures ask for less). Rows are padded to 64 bytes, and 64 bytes follow the last: swscale may write
    /// a little past a row's end.
    static func scaledRGB(_ picture: DecodedPicture, turns: Int, longSide: Int = longSide) throws(AVError) -> (pixels: [UInt8], size: Size, pitch: Int) {
        try withExtendedLifetime(picture.reference) { () throws(AVError) -> (pixels: [UInt8], size: Size, pitch: Int) in
            let f = picture.reference.frame.pointee
            let (width, height) = (Int(f.width), Int(f.height))
            let scale = min(1, Double(longSide) / Double(max(width, height, 1)))
            let size = Size(width: max(1, Int((Double(width) * scale).rounded())), height: max(1, Int((Double(height) * scale).rounded())))
            let key = Scaler.Key(source: AVPixelFormat(rawValue: f.format), sourceWidth: f.width, sourceHeight: f.height,
                                 target: AV_PIX_FMT_RGB24, targetWidth: Int32(size.width), targetHeight: Int32(size.height),
                                 sourceFullRange: DecodedPicture.isFullRange(f), targetFullRange: true,
                                 bt709: DecodedPicture.isBT709(f), flags: SWS_BICUBIC)
            let scaler = try Scaler(key)
            let pitch = (size.width * 3 + 63) & ~63
            var pixels = [UInt8](repeating: 0, count: pitch * size.height + 64)
            let failure = pixels.withUnsafeMutableBufferPointer { buffer -> AVError? in
                do throws(AVError) {
                    try scaler.scale(f.planePointers.map { UnsafePointer($0) }, pitches: f.planePitches,
                                     into: [buffer.baseAddress!], pitches: [pitch])
                    return nil
                } catch { return error }
            }
            if let failure { throw failure }
            return (pixels, size, pitch)
        }
    }

    /// Packed RGB turned `quarterTurns` × 90° clockwise, into tightly packed rows.
    static func turn(_ pixels: [UInt8], size: Size, pitch: Int, quarterTurns: Int) -> (pixels: [UInt8], size: Size, pitch: Int) {
        let turns = ((quarterTurns % 4) + 4) % 4
        let (w, h) = (size.width, size.height)
        let out = turns % 2 == 0 ? size : size.transposed
        let outPitch = out.width * 3
        var turned = [UInt8](repeating: 0, count: outPitch * out.height)
        pixels.withUnsafeBufferPointer { source in
            turned.withUnsafeMutableBufferPointer { target in
                let s = source.baseAddress!, t = target.baseAddress!
                for y in 0..<h {
                    let row = s + y * pitch
                    for x in 0..<w {
                        // Where the source pixel (x, y) lands.
                        let (tx, ty): (Int, Int)
                        switch turns {
                        case 1: (tx, ty) = (h - 1 - y, x)
                        case 2: (tx, ty) = (w - 1 - x, h - 1 - y)
                        case 3: (tx, ty) = (y, w - 1 - x)
                        default: (tx, ty) = (x, y)
                        }
                        let to = t + ty * outPitch + tx * 3
                        let from = row + x * 3
                        to[0] = from[0]
                        to[1] = from[1]
                        to[2] = from[2]
                    }
                }
            }
        }
        return (turned, out, outPitch)
    }

    /// A baseline JPEG of packed RGB, 4:2:0, at `quality` (`tjCompress2`).
    static func compress(_ pixels: [UInt8], size: Size, pitch: Int, step: String = "making poster.jpg") throws(ShareError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw ShareError(step: step, reason: "tjInitCompress failed") }
        defer { tjDestroy(handle) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let result = tjCompress2(handle, pixels, Int32(size.width), Int32(pitch), Int32(size.height), Int32(TJPF_RGB.rawValue),
                                 &jpeg, &length, Int32(TJSAMP_420.rawValue), quality, 0)
        defer { tjFree(jpeg) }
        guard result == 0, let jpeg else {
            throw ShareError(step: step, reason: "tjCompress2: " + String(cString: tjGetErrorStr2(handle)))
        }
        return Array(UnsafeBufferPointer(start: jpeg, count: Int(length)))
    }
}
