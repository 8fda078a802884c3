// Decodes compressed video packets (MJPEG from a camera; H.264 and whatever else a movie holds, for
// the player) into VideoFrames, with libavcodec. Planar 4:2:0 and 4:2:2 and NV12 come out as they
// are; anything else goes through swscale.
import CFFmpeg
import KioskCore

/// What a decoder said to a packet (`avcodec_send_packet`). Flow states, not errors.
enum DecoderSend: Equatable {
    case accepted
    /// EAGAIN: its output must be taken (`receive`) before it takes this packet.
    case full
    /// EOF: it was already drained; nothing more goes in.
    case closed
}

/// What a decoder gave (`avcodec_receive_frame`).
enum DecoderOutput<Output> {
    case output(Output)
    /// EAGAIN: it needs another packet first.
    case needsInput
    /// EOF: drained after the end of the stream.
    case drained
}

/// Made of owners: a decoder context, its reusable frame and (for whole compressed frames) packet;
/// and a zero-padded input buffer. Not thread-safe: one decoder per thread.
public final class VideoDecoder {
    private let context: CodecContext
    private let frame: Frame
    private let packet: Packet?
    /// Input copied here because libavcodec reads up to AV_INPUT_BUFFER_PADDING_SIZE past the end.
    private var padded: [UInt8] = []
    private var scaler: Scaler?
    /// The stream's time base, for a demuxed stream's timestamps (nil: the MJPEG camera path).
    private let timeBase: AVRational?
    private var decoded: UInt32 = 0
    /// Pictures whose time did not fit in nanoseconds (they came out without one).
    private(set) var timestampsOutOfRange = 0

    /// The largest picture a camera's frames may claim (8192x8192, past any UVC camera's).
    public static let maxCameraPixels = 8192 * 8192

    /// Opens the named decoder (`avcodec_find_decoder_by_name`, `avcodec_open2`). Pictures over
    /// `maxPixels` are refused by the decoder (its `max_pixels`): a JPEG whose header claims
    /// 16000x16000 would otherwise make it allocate half a gigabyte.
    public init(codec name: String, threads: Int = 1, maxPixels: Int = maxCameraPixels) throws(AVError) {
        let context = try CodecContext(decoderNamed: name)
        context.pointer.pointee.thread_count = Int32(threads)
        context.pointer.pointee.max_pixels = Int64(maxPixels)
        try context.open()
        self.context = context
        timeBase = nil
        frame = try Frame()
        packet = try Packet()
    }

    /// Opens a decoder for a demuxed stream (`avcodec_parameters_to_context`, `avcodec_open2`).
    /// `threads` 0 lets libavcodec choose (one more than the cores), slice threads only: with frame
    /// threading a decoder flushed for a seek now and then gave back a picture from before the seek
    /// (about one seek in ten through the binary, caught by SeekEndToEndTests: the picture 3 s on,
    /// stamped as the new position's first). Our takes carry two slices a picture (x264's sliced
    /// threads), so their decoding stays parallel. Pictures over `maxPixels` are refused by the
    /// decoder, so a hostile header cannot make it allocate gigabytes.
    init(stream: UnsafeMutablePointer<AVStream>, threads: Int = 0, maxPixels: Int) throws(AVError) {
        let context = try DecoderContext.make(for: stream)
        context.pointer.pointee.thread_count = Int32(threads)
        context.pointer.pointee.thread_type = FF_THREAD_SLICE
        context.pointer.pointee.max_pixels = Int64(maxPixels)
        try context.open()
        self.context = context
        timeBase = stream.pointee.time_base
        frame = try Frame()
        packet = nil
    }

    /// The codec's name, e.g. "h264", for logs.
    var codecName: String { context.name }

    /// Gives the decoder a demuxed packet, or nil for the end of the stream (`DecoderContext.send`).
    /// Throws for a packet it refuses (corrupt data): the caller skips it.
    func send(_ packet: UnsafeMutablePointer<AVPacket>?) throws(AVError) -> DecoderSend {
        try DecoderContext.send(packet, to: context)
    }

    /// Takes a decoded picture (`avcodec_receive_frame`) as it is, in the decoder's buffers (no
    /// copy). Its `timestamp` is the presentation time in nanoseconds on the stream's clock
    /// (`VideoDecoder.noTimestamp` when the file has none), its `sequence` the count of pictures
    /// decoded before it; `duration` 0 when the file does not say.
    func receive() throws(AVError) -> DecoderOutput<(picture: DecodedPicture, duration: Int64)> {
        let frame = self.frame.pointer
        let received = avcodec_receive_frame(context.pointer, frame)
        if received == kiosk_AVERROR_EAGAIN() { return .needsInput }
        if received == kiosk_AVERROR_EOF() { return .drained }
        guard received >= 0 else { throw AVError(code: received, call: "avcodec_receive_frame") }
        let tb = timeBase ?? AVRational(num: 1, den: 1_000_000_000)
        let timestamp = Self.timestamp(frame.pointee.best_effort_timestamp, tb, outOfRange: &timestampsOutOfRange)
        let duration = frame.pointee.pkt_duration > 0 ? Self.nanoseconds(frame.pointee.pkt_duration, tb) ?? 0 : 0
        guard let reference = FrameReference(moving: frame) else {
            av_frame_unref(frame)
            throw AVError(code: AVError.code(posix: ENOMEM), call: "av_frame_alloc")
        }
        decoded &+= 1
        return .output((DecodedPicture(reference, timestamp: timestamp, sequence: decoded &- 1), duration))
    }

    /// A seek or a loop: the decoder forgets the pictures it holds (`avcodec_flush_buffers`).
    func flush() { avcodec_flush_buffers(context.pointer) }

    /// A frame without a timestamp.
    static let noTimestamp = Int64.min

    /// A count of `timeBase` units in nanoseconds (`av_rescale_q`, which cannot overflow midway);
    /// nil when the result does not fit, or the time base is no time base (av_rescale_q's INT64_MIN).
    static func nanoseconds(_ value: Int64, _ timeBase: AVRational) -> Int64? {
        let result = av_rescale_q(value, timeBase, AVRational(num: 1, den: 1_000_000_000))
        return result == Int64.min ? nil : result
    }

    /// A stream time (`pts` in `timeBase`, less `delay` nanoseconds) in nanoseconds; `noTimestamp`
    /// when there is none (AV_NOPTS_VALUE), and also when it does not fit, which `outOfRange` counts.
    static func timestamp(_ pts: Int64, _ timeBase: AVRational, less delay: Int64 = 0, outOfRange: inout Int) -> Int64 {
        guard pts != kiosk_AV_NOPTS_VALUE() else { return noTimestamp }
        guard let time = nanoseconds(pts, timeBase)?.checkedSubtracting(delay), time != noTimestamp else {
            outOfRange += 1
            return noTimestamp
        }
        return time
    }

    /// Decodes one whole compressed frame. Returns nil when the decoder needs more input before it
    /// can give a frame (not for MJPEG, where every packet is a picture); throws for a corrupt one.
    public func decode(_ data: UnsafeRawBufferPointer, timestamp: Int64, sequence: UInt32) throws(AVError) -> VideoFrame? {
        guard let packet = packet?.pointer else { return nil }
        let frame = self.frame.pointer
        let padding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
        if padded.count < data.count + padding { padded = [UInt8](repeating: 0, count: data.count + padding) }
        let sent: Int32 = padded.withUnsafeMutableBytes { buffer in
            if let base = data.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: data.count) }
            // Only the padding right after this packet must be zero.
            (buffer.baseAddress! + data.count).initializeMemory(as: UInt8.self, repeating: 0, count: padding)
            packet.pointee.data = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            packet.pointee.size = Int32(data.count)
            let result = avcodec_send_packet(context.pointer, packet)
            packet.pointee.data = nil
            packet.pointee.size = 0
            return result
        }
        guard sent >= 0 || sent == kiosk_AVERROR_EAGAIN() else { throw AVError(code: sent, call: "avcodec_send_packet") }
        let received = avcodec_receive_frame(context.pointer, frame)
        if received == kiosk_AVERROR_EAGAIN() || received == kiosk_AVERROR_EOF() { return nil }
        guard received >= 0 else { throw AVError(code: received, call: "avcodec_receive_frame") }
        defer { av_frame_unref(frame) }
        return try Self.copy(frame, timestamp: timestamp, sequence: sequence, scaler: &scaler)
    }

    /// Copies a decoded camera picture into a tightly packed VideoFrame (the one pass over its
    /// pixels), as the video-range 4:2:0 the encoder takes: planar 4:2:0 and 4:2:2 in our own copy
    /// loop, full range (an MJPEG camera's) made video range on the way and 4:2:2's chroma rows
    /// averaged in pairs (`VideoRange`); NV12 as it is; any other layout converted to yuv420p with
    /// swscale (`scaler` is kept for the next frame).
    static func copy(_ frame: UnsafePointer<AVFrame>, timestamp: Int64, sequence: UInt32, scaler: inout Scaler?) throws(AVError) -> VideoFrame {
        let f = frame.pointee
        let size = Size(width: Int(f.width), height: Int(f.height))
        let layout = PixelFormat.matching(AVPixelFormat(rawValue: f.format))?.format
        let fullRange = DecodedPicture.isFullRange(f)
        let sources = [(f.data.0, Int(f.linesize.0)), (f.data.1, Int(f.linesize.1)), (f.data.2, Int(f.linesize.2))]
        if layout == .yuv420p || layout == .yuv422p, sources.allSatisfy({ $0.0 != nil && $0.1 > 0 }) {
            return VideoRange.yuv420pFrame(size: size, planes: sources.map { (UnsafePointer($0.0!), $0.1) }, halfRows: layout == .yuv422p,
                                           fullRange: fullRange, timestamp: timestamp, sequence: sequence)
        }
        guard layout == .nv12 else {
            // swscale makes video range of full range on the way (the Scaler tells it both ranges).
            // It may write past a row's end (12 bytes past a 3x3 picture's last row here; the
            // fuzzer's odd JPEGs corrupted the heap so), so it writes into a padded picture of its
            // own (rows aligned to 64 bytes), copied out packed.
            let converter = try Scaler.fitting(&scaler, Scaler.Key(f, to: AV_PIX_FMT_YUV420P))
            let padded = try Frame()
            let p = padded.pointer
            (p.pointee.format, p.pointee.width, p.pointee.height) = (AV_PIX_FMT_YUV420P.rawValue, f.width, f.height)
            let r = av_frame_get_buffer(p, 64)
            guard r >= 0 else { throw AVError(code: r, call: "av_frame_get_buffer") }
            try converter.scale(f.planePointers.map { UnsafePointer($0) }, pitches: f.planePitches,
                                into: p.pointee.planePointers, pitches: p.pointee.planePitches)
            let planes = [(p.pointee.data.0, p.pointee.linesize.0), (p.pointee.data.1, p.pointee.linesize.1), (p.pointee.data.2, p.pointee.linesize.2)]
            return VideoRange.yuv420pFrame(size: size, planes: planes.map { (UnsafePointer($0.0!), Int($0.1)) }, halfRows: false,
                                           fullRange: false, timestamp: timestamp, sequence: sequence)
        }
        let planes = PixelFormat.nv12.planes(for: size)
        let bytes = [UInt8](unsafeUninitializedCapacity: PixelFormat.nv12.frameBytes(for: size)) { buffer, count in
            for (plane, (data, linesize)) in zip(planes, sources) {
                guard let data else { continue }
                for row in 0..<plane.rows {
                    (buffer.baseAddress! + plane.offset + row * plane.stride).update(from: data + row * linesize, count: plane.stride)
                }
            }
            count = buffer.count
        }
        return VideoFrame(format: .nv12, size: size, planes: planes, bytes: bytes, timestamp: timestamp, sequence: sequence,
                          fullRange: fullRange)
    }
}

extension VideoDecoder: FrameDecoder {
    /// Makes libavcodec's MJPEG decoder: what the capture side is given for cameras that send MJPEG.
    public static let mjpeg: FrameDecoderFactory = { try VideoDecoder(codec: "mjpeg") }
}
