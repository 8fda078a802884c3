// The picture side of a take: the H.264 encoder (libx264, or another FFmpeg encoder the settings
// name, libx264 when that one cannot open), its reusable picture, and the converter from camera
// frames into it. Hardware encoders run at a bit rate; VA-API takes its pictures as NV12 uploaded
// into the GPU's frames, V4L2 M2M as yuv420p with 64-byte-aligned rows.
import CFFmpeg
import KioskCore

/// Made of owners (codec context, picture, converter): a throw halfway through `init` frees what was
/// made. Used on the writer's thread only.
final class VideoEncoder {
    /// The open encoder; replaced at a key frame by one of another effort (`reopened`).
    private(set) var codec: CodecContext
    /// The encoder actually used, and why it is not the one asked for (if it is not).
    let name: VideoEncoderName
    let fallbackNote: String?
    private let picture: Frame
    /// A camera frame's own bytes, lent to libx264 (`wrapping`).
    private let wrapper: Frame
    /// VA-API's device and frames; the picture is converted to NV12 and uploaded (nil: software
    /// frames go to the encoder as they are).
    private let hardware: HardwareFrames?
    private var scaler: Scaler?
    /// The movie's size: a frame of this size is converted, not scaled.
    private let size: Size
    /// The operator's overlay, blended into `picture` (never into a camera frame's bytes, which the
    /// preview may still be showing).
    private let overlay: OverlayPlanes?

    static let timeBase = AVRational(num: 1, den: 90000)

    init(settings: MovieSettings, globalHeader: Bool, failure: InjectedFailure) throws(AVError) {
        var chosen = settings.videoEncoder
        var note: String?
        let opened: (codec: CodecContext, hardware: HardwareFrames?)
        do {
            opened = try Self.openCodec(chosen, settings: settings, globalHeader: globalHeader)
        } catch where chosen != .libx264 {
            note = "video encoder \(chosen) could not open (\(error.text)); using libx264 for this take"
            chosen = .libx264
            opened = try Self.openCodec(chosen, settings: settings, globalHeader: globalHeader)
        }
        codec = opened.codec
        hardware = opened.hardware
        name = chosen
        fallbackNote = note
        size = settings.videoSize
        try failure.check(.videoEncoder)
        overlay = try settings.overlay.map { overlay throws(AVError) in
            try OverlayPlanes.made(overlay, size: settings.videoSize, quarterTurns: settings.rotationQuarterTurns, interleaved: opened.hardware != nil)
        }
        picture = try Frame()
        wrapper = try Frame()
        try failure.check(.videoPicture)
    }

    /// The encoder of this name, open for the settings' size, rate and quality; for VA-API with its
    /// device and frames. The test-only encoders are libx264 under other names.
    static func openCodec(_ name: VideoEncoderName, settings: MovieSettings, globalHeader: Bool,
                          lowPower: Bool = false, effort: Int = 0, threads: Int? = nil) throws(AVError) -> (CodecContext, HardwareFrames?) {
        let underlying = TestEncoders.underlying(name, enabled: settings.encoderHost.testEncoders)
        let codec = try CodecContext(encoderNamed: underlying.rawValue)
        let c = codec.pointer
        let fps = max(Int32(settings.fps.rounded()), 1)
        c.pointee.width = Int32(settings.videoSize.width)
        c.pointee.height = Int32(settings.videoSize.height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        c.pointee.time_base = timeBase
        c.pointee.framerate = AVRational(num: fps, den: 1)
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        // Video range with the BT.601 matrix, said in the stream: what the cameras' samples are (the
        // MJPEG decoder's copy makes them so). Left unsaid, players guess BT.709 for HD.
        c.pointee.color_range = AVCOL_RANGE_MPEG
        c.pointee.colorspace = AVCOL_SPC_SMPTE170M
        let tuning = settings.videoTuning(encoder: underlying, effort: effort)
        c.pointee.gop_size = Int32(tuning.gop)
        c.pointee.max_b_frames = Int32(tuning.bFrames)
        c.pointee.thread_count = Int32(threads ?? tuning.threads)
        if globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        if let bitrate = tuning.bitrate { c.pointee.bit_rate = Int64(bitrate) }
        // libx264's preset, tune and crf come with the tuning (`MovieSettings.videoTuning`).
        var options = tuning.options.map { (name: $0.name, value: $0.value) }
        var hardware: HardwareFrames?
        if underlying != .libx264 {
            // Preset and CRF mean nothing to a hardware encoder: it runs at a bit rate.
            let bitrate = settings.bitrate ?? EncoderChoice.defaultBitrate(size: settings.videoSize, fps: settings.fps)
            c.pointee.bit_rate = Int64(bitrate)
            c.pointee.rc_max_rate = Int64(bitrate) * 3 / 2
            c.pointee.rc_buffer_size = Int32(clamping: bitrate)
            if underlying == .vaapi {
                let frames = try HardwareFrames(vaapiFor: settings.videoSize, renderFolder: settings.encoderHost.renderFolder)
                c.pointee.pix_fmt = AV_PIX_FMT_VAAPI
                c.pointee.hw_frames_ctx = av_buffer_ref(frames.frames)
                hardware = frames
                if lowPower { options.append(("low_power", "1")) }
            }
        }
        do {
            try codec.open(options: options)
        } catch where underlying == .vaapi && !lowPower {
            // Some Intel chips encode H.264 only through their low-power (VDEnc) entry point.
            return try openCodec(name, settings: settings, globalHeader: globalHeader, lowPower: true)
        }
        return (codec, hardware)
    }

    /// Steps of effort this encoder has (`MovieSettings.effortLadder`): libx264's; a hardware
    /// encoder has one.
    func effortLevels(_ settings: MovieSettings) -> Int { hardware == nil && codec.isLibx264 ? settings.effortLadder.count : 1 }

    /// libx264 opened again at step `effort`, to take the next picture (a key frame: a new encoder
    /// begins with an IDR picture), when its parameter sets (the extradata: SPS and PPS, what the
    /// file's `avcC` holds once for the whole track) are byte for byte the ones the take began with;
    /// otherwise nil, and the encoder is kept. The caller drains the old encoder first
    /// (`EncodingSession.changeEffort`): with no B-frames and no look-ahead it holds nothing.
    /// libavcodec's libx264 wrapper changes only the rate control mid-stream (`reconfig_encoder`:
    /// bit rate, CRF, QP, the VBV; x264's search settings only at open), so a new instance is the
    /// way to a cheaper search.
    func opened(effort: Int, settings: MovieSettings, globalHeader: Bool) throws(AVError) -> CodecContext? {
        let (fresh, _) = try Self.openCodec(name, settings: settings, globalHeader: globalHeader, effort: effort)
        return fresh.extradata == codec.extradata ? fresh : nil
    }

    /// Takes `fresh` (from `opened`) as the encoder; the old one is freed.
    func use(_ fresh: CodecContext) { codec = fresh }

    /// libx264's CRF from the next picture on (`av_opt_set` on its private options; the wrapper's
    /// `reconfig_encoder` hands it to `x264_encoder_reconfig` before that picture is encoded). No
    /// new parameter sets: the slices carry their QP against the PPS's.
    func setCRF(_ crf: Int) throws(AVError) {
        let result = av_opt_set(codec.pointer.pointee.priv_data, "crf", "\(crf)", 0)
        guard result >= 0 else { throw AVError(code: result, call: "av_opt_set(crf)") }
    }

    /// A picture holding `frame`, valid until the next call; its `pts` is the caller's to set.
    /// libx264 is handed the frame's own bytes when they are already what it takes (video-range
    /// yuv420p of the movie's size: what the MJPEG decoder's copy makes): x264 copies its input into
    /// its own frames inside the encode call, so another copy of ours would be a pass over every
    /// pixel for nothing. Otherwise the encoder's own picture, converted (or copied) in one pass with
    /// swscale. With an overlay, always the encoder's own picture, blended after the conversion.
    func picture(holding frame: VideoFrame) throws(AVError) -> UnsafeMutablePointer<AVFrame> {
        if name == .libx264, hardware == nil, overlay == nil, frame.format == .yuv420p, frame.size == size, !frame.fullRange,
           frame.planes == PixelFormat.yuv420p.planes(for: size), frame.bytes.count >= PixelFormat.yuv420p.frameBytes(for: size) {
            return try wrapping(frame)
        }
        let target = picture.pointer, c = codec.pointer
        // VA-API takes NV12 uploaded into its frames; the others the codec's own format.
        let format = hardware == nil ? c.pointee.pix_fmt : AV_PIX_FMT_NV12
        if target.pointee.width != c.pointee.width || target.pointee.height != c.pointee.height || target.pointee.buf.0 == nil {
            av_frame_unref(target)
            target.pointee.format = format.rawValue
            target.pointee.width = c.pointee.width
            target.pointee.height = c.pointee.height
            // Rows aligned to 64 bytes: what the V4L2 M2M encoder (the Pi 4's) needs, harmless to
            // the others.
            let r = av_frame_get_buffer(target, 64)
            guard r >= 0 else { throw AVError(code: r, call: "av_frame_get_buffer") }
        }
        // The encoder may still hold the last picture: write into a fresh buffer if it is shared.
        let r = av_frame_make_writable(target)
        guard r >= 0 else { throw AVError(code: r, call: "av_frame_make_writable") }
        let planes = target.pointee
        // A YUYV camera's picture of the movie's size (video range already): our one-pass
        // conversion straight into the picture, chroma rows averaged.
        if hardware == nil, format == AV_PIX_FMT_YUV420P, frame.format == .yuyv, !frame.fullRange, frame.size == size, size.width % 2 == 0,
           frame.planes == PixelFormat.yuyv.planes(for: size), frame.bytes.count >= PixelFormat.yuyv.frameBytes(for: size),
           let y = planes.data.0, let u = planes.data.1, let v = planes.data.2 {
            frame.bytes.withUnsafeBufferPointer { bytes in
                VideoRange.yuyvTo420(bytes.baseAddress!, pitch: frame.planes[0].stride, size: size, y: y, yPitch: Int(planes.linesize.0),
                                     u: u, uPitch: Int(planes.linesize.1), v: v, vPitch: Int(planes.linesize.2))
            }
            overlay?.blend(into: target)
            return target
        }
        // Full-range camera (MJPEG) pictures become video range, as H.264 players expect. A picture
        // of the movie's size takes the nearest sample (the chroma rows of 4:2:2), others are scaled.
        let key = Scaler.Key(source: frame.format.avPixelFormat, sourceWidth: Int32(frame.size.width), sourceHeight: Int32(frame.size.height),
                             target: format, targetWidth: c.pointee.width, targetHeight: c.pointee.height,
                             sourceFullRange: frame.fullRange, targetFullRange: false, bt709: false,
                             flags: frame.size == size ? SWS_POINT : SWS_BILINEAR)
        let scaler = try Scaler.fitting(&scaler, key)
        try frame.bytes.withUnsafeBufferPointer { bytes throws(AVError) in
            try scaler.scale(frame.planes.map { UnsafePointer(bytes.baseAddress! + $0.offset) }, pitches: frame.planes.map(\.stride),
                             into: planes.planePointers, pitches: planes.planePitches)
        }
        overlay?.blend(into: target)
        if let hardware { return try hardware.upload(target) }
        return target
    }

    /// `frame`'s bytes as a reference-counted AVFrame (`av_buffer_create`), which libavcodec then
    /// references instead of copying. The buffer's reference holds the frame (its array) until
    /// libavcodec and `wrapper` let go of it: the last `av_buffer_unref`, on whichever thread, releases it.
    private func wrapping(_ frame: VideoFrame) throws(AVError) -> UnsafeMutablePointer<AVFrame> {
        let target = wrapper.pointer
        av_frame_unref(target)
        let held = Unmanaged.passRetained(HeldFrame(frame))
        // The array's storage: it stays where it is while `held` keeps the array alive, and nothing
        // writes it (a `let` of an immutable frame); libavcodec only reads it (AV_BUFFER_FLAG_READONLY).
        let base = frame.bytes.withUnsafeBufferPointer { UnsafeMutablePointer(mutating: $0.baseAddress!) }
        guard let buffer = av_buffer_create(base, frame.bytes.count, { opaque, _ in
            if let opaque { Unmanaged<HeldFrame>.fromOpaque(opaque).release() }
        }, held.toOpaque(), Int32(AV_BUFFER_FLAG_READONLY)) else {
            held.release()
            throw AVError(code: AVError.code(posix: ENOMEM), call: "av_buffer_create")
        }
        let planes = frame.planes
        target.pointee.buf.0 = buffer
        target.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        target.pointee.width = Int32(size.width)
        target.pointee.height = Int32(size.height)
        (target.pointee.data.0, target.pointee.data.1, target.pointee.data.2) = (base + planes[0].offset, base + planes[1].offset, base + planes[2].offset)
        (target.pointee.linesize.0, target.pointee.linesize.1, target.pointee.linesize.2) =
            (Int32(planes[0].stride), Int32(planes[1].stride), Int32(planes[2].stride))
        target.pointee.color_range = AVCOL_RANGE_MPEG
        return target
    }
}

/// A camera frame kept alive by the AVBufferRef that lends its bytes to the encoder (counted like
/// the owners, so a test sees each one let go).
private final class HeldFrame {
    let frame: VideoFrame
    private let tally: OwnerTally
    init(_ frame: VideoFrame) {
        self.frame = frame
        tally = OwnerTally(HeldFrame.self)
    }
}

extension CodecContext {
    /// The codec's extradata once open: with a global header, H.264's SPS and PPS, as the muxer
    /// writes them into the track's `avcC`.
    var extradata: [UInt8] {
        guard let data = pointer.pointee.extradata, pointer.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.extradata_size)))
    }

    var isLibx264: Bool { String(cString: codec.pointee.name) == VideoEncoderName.libx264.rawValue }
}
