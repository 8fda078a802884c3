// `--key auto`'s samples of the camera's picture, for KioskOptions' `BackdropMeasure`: the picture made
// half its size (swscale, by area: where a 4:2:0 picture's chroma is) as RGB, and every `step`th
// sample of that taken both ways: what the key will compare with its colour, noise included, without
// sorting a whole picture's worth. The key itself works on a smaller copy (PictureKey: 256x144 for
// 1280x720), where its 3x3 average smooths the noise more: the spread measured here is on the safe side.
import CFFmpeg
import KioskCore

/// Makes RGB samples of camera pictures; one picture at a time (its scaler is reused).
public final class BackdropSamples {
    private var scaler: Scaler?
    private var half = [UInt8]()
    /// Every `step`th sample of the half-size picture, across and down.
    public static let step = 4

    public init() {}

    /// `frame`'s samples: red, green, blue, one after another; nil for a frame with no samples of its own
    /// (MJPEG before decoding) or one swscale cannot read.
    public func rgb(of frame: VideoFrame) -> [UInt8]? {
        guard frame.format != .mjpeg, frame.size.width >= 2, frame.size.height >= 2 else { return nil }
        let (w, h) = (frame.size.width / 2, frame.size.height / 2)
        let key = Scaler.Key(source: frame.format.avPixelFormat, sourceWidth: Int32(frame.size.width), sourceHeight: Int32(frame.size.height),
                             target: AV_PIX_FMT_RGB24, targetWidth: Int32(w), targetHeight: Int32(h),
                             sourceFullRange: frame.fullRange || frame.format == .xrgb, targetFullRange: true, bt709: false, flags: SWS_AREA)
        if half.count != w * h * 3 { half = [UInt8](repeating: 0, count: w * h * 3) }
        do throws(AVError) {
            let scaler = try Scaler.fitting(&scaler, key)
            try frame.bytes.withUnsafeBufferPointer { bytes throws(AVError) in
                let base = bytes.baseAddress!
                try half.withUnsafeMutableBufferPointer { out throws(AVError) in
                    try scaler.scale(frame.planes.map { base + $0.offset }, pitches: frame.planes.map(\.stride),
                                     into: [out.baseAddress], pitches: [w * 3])
                }
            }
        } catch {
            return nil
        }
        var samples = [UInt8]()
        samples.reserveCapacity((w / Self.step + 1) * (h / Self.step + 1) * 3)
        for y in stride(from: Self.step / 2, to: h, by: Self.step) {
            for x in stride(from: Self.step / 2, to: w, by: Self.step) {
                let p = (y * w + x) * 3
                samples.append(contentsOf: half[p..<(p + 3)])
            }
        }
        return samples
    }
}
