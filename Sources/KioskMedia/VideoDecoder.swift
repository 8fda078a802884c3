// Decodes compressed video packets (MJPEG from a camera; H.264 for the player) into VideoFrames,
// with libavcodec. Planar 4:2:0 and 4:2:2 come out as they are; anything else goes through swscale.
import CFFmpeg
import KioskCore

/// Owns a decoder context, its reusable frame and packet, and a zero-padded input buffer.
/// Not thread-safe: one decoder per thread.
public final class VideoDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// Input copied here because libavcodec reads up to AV_INPUT_BUFFER_PADDING_SIZE past the end.
    private var padded: [UInt8] = []
    private var scaler: OpaquePointer?
    private var scalerKey: (Int32, Int32, Int32) = (0, 0, -1)

    /// Opens the named decoder (`avcodec_find_decoder_by_name`, `avcodec_open2`).
    public init(codec name: String, threads: Int = 1) throws(AVError) {
        guard let codec = avcodec_find_decoder_by_name(name) else {
            throw AVError(code: AVError.code(posix: ENOENT), call: "avcodec_find_decoder_by_name(\(name))")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw AVError(code: AVError.code(posix: ENOMEM), call: "avcodec_alloc_context3")
        }
        self.context = context
        context.pointee.thread_count = Int32(threads)
        let opened = avcodec_open2(context, codec, nil)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        // deinit runs for a throwing init of a final class once every stored property is set.
        guard opened >= 0 else { throw AVError(code: opened, call: "avcodec_open2(\(name))") }
        guard frame != nil, packet != nil else { throw AVError(code: AVError.code(posix: ENOMEM), call: "av_frame_alloc") }
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
        av_frame_free(&frame)
        av_packet_free(&packet)
        sws_freeContext(scaler)
    }

    /// Decodes one whole compressed frame. Returns nil when the decoder needs more input before it
    /// can give a frame (not for MJPEG, where every packet is a picture); throws for a corrupt one.
    public func decode(_ data: UnsafeRawBufferPointer, timestamp: Int64, sequence: UInt32) throws(AVError) -> VideoFrame? {
        guard let packet, let frame else { return nil }
        let padding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
        if padded.count < data.count + padding { padded = [UInt8](repeating: 0, count: data.count + padding) }
        let sent: Int32 = padded.withUnsafeMutableBytes { buffer in
            if let base = data.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: data.count) }
            // Only the padding right after this packet must be zero.
            (buffer.baseAddress! + data.count).initializeMemory(as: UInt8.self, repeating: 0, count: padding)
            packet.pointee.data = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            packet.pointee.size = Int32(data.count)
            let result = avcodec_send_packet(context, packet)
            packet.pointee.data = nil
            packet.pointee.size = 0
            return result
        }
        guard sent >= 0 || sent == kiosk_AVERROR_EAGAIN() else { throw AVError(code: sent, call: "avcodec_send_packet") }
        let received = avcodec_receive_frame(context, frame)
        if received == kiosk_AVERROR_EAGAIN() || received == kiosk_AVERROR_EOF() { return nil }
        guard received >= 0 else { throw AVError(code: received, call: "avcodec_receive_frame") }
        defer { av_frame_unref(frame) }
        return try copyOut(frame, timestamp: timestamp, sequence: sequence)
    }

    /// Copies the decoded picture into a tightly packed VideoFrame (the one copy of its pixels).
    private func copyOut(_ frame: UnsafeMutablePointer<AVFrame>, timestamp: Int64, sequence: UInt32) throws(AVError) -> VideoFrame {
        let f = frame.pointee
        let size = Size(width: Int(f.width), height: Int(f.height))
        let source = AVPixelFormat(rawValue: f.format)
        let format: PixelFormat
        switch source {
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P: format = .yuv420p
        case AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUVJ422P: format = .yuv422p
        default: return try convert(frame, size: size, timestamp: timestamp, sequence: sequence)
        }
        let planes = format.planes(for: size)
        let sources = [(f.data.0, f.linesize.0), (f.data.1, f.linesize.1), (f.data.2, f.linesize.2)]
        let bytes = [UInt8](unsafeUninitializedCapacity: format.frameBytes(for: size)) { buffer, count in
            for (plane, (data, linesize)) in zip(planes, sources) {
                guard let data else { continue }
                for row in 0..<plane.rows {
                    let destination = buffer.baseAddress! + plane.offset + row * plane.stride
                    destination.update(from: data + row * Int(linesize), count: plane.stride)
                }
            }
            count = buffer.count
        }
        let full = source == AV_PIX_FMT_YUVJ420P || source == AV_PIX_FMT_YUVJ422P || f.color_range == AVCOL_RANGE_JPEG
        return VideoFrame(format: format, size: size, planes: planes, bytes: bytes, timestamp: timestamp, sequence: sequence,
                          fullRange: full)
    }

    /// Any other decoded layout → yuv420p with swscale.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, size: Size, timestamp: Int64, sequence: UInt32) throws(AVError) -> VideoFrame {
        let f = frame.pointee
        let key = (f.width, f.height, f.format)
        if scaler == nil || scalerKey != key {
            sws_freeContext(scaler)
            scaler = sws_getContext(f.width, f.height, AVPixelFormat(rawValue: f.format), f.width, f.height,
                                    AV_PIX_FMT_YUV420P, SWS_BILINEAR, nil, nil, nil)
            scalerKey = key
        }
        guard let scaler else { throw AVError(code: AVError.code(posix: EINVAL), call: "sws_getContext") }
        let planes = PixelFormat.yuv420p.planes(for: size)
        var result: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: PixelFormat.yuv420p.frameBytes(for: size)) { buffer, count in
            var destinations: [UnsafeMutablePointer<UInt8>?] = planes.map { buffer.baseAddress! + $0.offset } + [nil]
            var strides: [Int32] = planes.map { Int32($0.stride) } + [0]
            result = withUnsafePointer(to: f.data) { data in
                withUnsafePointer(to: f.linesize) { linesize in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                        linesize.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                            sws_scale(scaler, src, srcStride, 0, f.height, &destinations, &strides)
                        }
                    }
                }
            }
            count = buffer.count
        }
        guard result > 0 else { throw AVError(code: result, call: "sws_scale") }
        // swscale turns the full-range yuvj* layouts into video range on the way: the result is video range.
        return VideoFrame(format: .yuv420p, size: size, planes: planes, bytes: bytes, timestamp: timestamp, sequence: sequence)
    }
}
