// The one cached swscale converter: the writer's (camera frames into the encoder's picture) and the
// player's (decoded pictures into RGB, or into a packed yuv420p copy). Made once and again only when
// what it converts changes.
import CFFmpeg
import KioskCore

/// One swscale context (`sws_getContext`, `sws_freeContext` in deinit).
final class Scaler {
    let context: OpaquePointer
    let key: Key
    private let tally: OwnerTally

    /// What a context converts: the layouts and sizes on both sides, the ranges, the matrix (both
    /// sides the same: a YUV to YUV conversion then changes the range only) and the filter.
    struct Key: Equatable {
        var source: AVPixelFormat, sourceWidth: Int32, sourceHeight: Int32
        var target: AVPixelFormat, targetWidth: Int32, targetHeight: Int32
        var sourceFullRange: Bool, targetFullRange: Bool
        var bt709: Bool
        /// `SWS_BILINEAR`, or `SWS_POINT` where a same-size conversion may take the nearest sample.
        var flags: Int32

        /// A same-size, bilinear conversion of a decoded picture to `target`, with the picture's own
        /// matrix and range (BT.601 when it does not say: what the recorder's cameras give). RGB
        /// comes out full range, YUV video range.
        init(_ f: AVFrame, to target: AVPixelFormat) {
            self.init(source: AVPixelFormat(rawValue: f.format), sourceWidth: f.width, sourceHeight: f.height,
                      target: target, targetWidth: f.width, targetHeight: f.height,
                      sourceFullRange: DecodedPicture.isFullRange(f), targetFullRange: target == AV_PIX_FMT_BGR0,
                      bt709: DecodedPicture.isBT709(f), flags: SWS_BILINEAR)
        }

        init(source: AVPixelFormat, sourceWidth: Int32, sourceHeight: Int32, target: AVPixelFormat, targetWidth: Int32,
             targetHeight: Int32, sourceFullRange: Bool, targetFullRange: Bool, bt709: Bool, flags: Int32) {
            (self.source, self.sourceWidth, self.sourceHeight) = (source, sourceWidth, sourceHeight)
            (self.target, self.targetWidth, self.targetHeight) = (target, targetWidth, targetHeight)
            (self.sourceFullRange, self.targetFullRange, self.bt709, self.flags) = (sourceFullRange, targetFullRange, bt709, flags)
        }
    }

    /// The ranges go in before `sws_init_context`, which picks its path by them: told only
    /// afterwards (`sws_setColorspaceDetails`), a same-size conversion between two layouts of one
    /// subsampling keeps the plain plane copy it chose, and full-range samples came out unconverted.
    init(_ key: Key) throws(AVError) {
        guard let context = sws_alloc_context() else { throw AVError(code: AVError.code(posix: ENOMEM), call: "sws_alloc_context") }
        let options: [(String, Int64)] = [
            ("srcw", Int64(key.sourceWidth)), ("srch", Int64(key.sourceHeight)), ("src_format", Int64(key.source.rawValue)),
            ("dstw", Int64(key.targetWidth)), ("dsth", Int64(key.targetHeight)), ("dst_format", Int64(key.target.rawValue)),
            ("sws_flags", Int64(key.flags)), ("src_range", key.sourceFullRange ? 1 : 0), ("dst_range", key.targetFullRange ? 1 : 0),
        ]
        for (name, value) in options {
            let r = av_opt_set_int(UnsafeMutableRawPointer(context), name, value, 0)
            guard r >= 0 else {
                sws_freeContext(context)
                throw AVError(code: r, call: "av_opt_set_int(\(name))")
            }
        }
        let r = sws_init_context(context, nil, nil)
        guard r >= 0 else {
            sws_freeContext(context)
            throw AVError(code: r, call: "sws_init_context")
        }
        self.context = context
        self.key = key
        let coefficients = sws_getCoefficients(key.bt709 ? SWS_CS_ITU709 : SWS_CS_ITU601)
        _ = sws_setColorspaceDetails(context, coefficients, key.sourceFullRange ? 1 : 0, coefficients, key.targetFullRange ? 1 : 0,
                                     0, 1 << 16, 1 << 16)
        tally = OwnerTally(Scaler.self)
    }

    deinit { sws_freeContext(context) }

    /// The scaler for `key`: `current` when it was made for it, else a new one in its place.
    static func fitting(_ current: inout Scaler?, _ key: Key) throws(AVError) -> Scaler {
        if let scaler = current, scaler.key == key { return scaler }
        current = nil
        let scaler = try Scaler(key)
        current = scaler
        return scaler
    }

    /// Converts one whole picture (`sws_scale`): plane pointers and their pitches in bytes, as many
    /// as the layout has.
    func scale(_ sources: [UnsafePointer<UInt8>?], pitches sourcePitches: [Int],
               into targets: [UnsafeMutablePointer<UInt8>?], pitches targetPitches: [Int]) throws(AVError) {
        // sws_scale reads four pointers and strides a side, whatever the layout.
        func four<T>(_ values: [T], _ filler: T) -> [T] { Array((values + Array(repeating: filler, count: 4)).prefix(4)) }
        let result = sws_scale(context, four(sources, nil), four(sourcePitches.map { Int32($0) }, 0), 0, key.sourceHeight,
                               four(targets, nil), four(targetPitches.map { Int32($0) }, 0))
        guard result > 0 else { throw AVError(code: result < 0 ? result : AVError.code(posix: EINVAL), call: "sws_scale") }
    }
}

extension AVFrame {
    /// The first four plane pointers and their pitches (what swscale reads of a picture).
    var planePointers: [UnsafeMutablePointer<UInt8>?] { [data.0, data.1, data.2, data.3] }
    var planePitches: [Int] { [Int(linesize.0), Int(linesize.1), Int(linesize.2), Int(linesize.3)] }
}
