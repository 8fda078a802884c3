// The steps every stream decoder (audio or video) takes to exist: find the codec for the stream,
// make a context from the stream's parameters; and the one way both take a packet. Kept in one place
// so both decoders fail the same way, with the call named.
import CFFmpeg

enum DecoderContext {
    /// A context for the stream's codec with the stream's parameters and time base, not yet opened
    /// (`avcodec_find_decoder`, `avcodec_alloc_context3`, `avcodec_parameters_to_context`).
    static func make(for stream: UnsafeMutablePointer<AVStream>) throws(AVError) -> CodecContext {
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
            throw AVError(code: kiosk_AVERROR_DECODER_NOT_FOUND(), call: "avcodec_find_decoder(\(name))")
        }
        let context = try CodecContext(codec)
        let result = avcodec_parameters_to_context(context.pointer, parameters)
        guard result >= 0 else { throw AVError(code: result, call: "avcodec_parameters_to_context") }
        context.pointer.pointee.pkt_timebase = stream.pointee.time_base
        return context
    }

    /// Gives the decoder a demuxed packet, or nil for the end of the stream (`avcodec_send_packet`).
    /// EAGAIN and EOF are what it says (full, closed); a packet it refuses (corrupt data) throws.
    static func send(_ packet: UnsafeMutablePointer<AVPacket>?, to context: CodecContext) throws(AVError) -> DecoderSend {
        let result = avcodec_send_packet(context.pointer, packet)
        if result == kiosk_AVERROR_EAGAIN() { return .full }
        if result == kiosk_AVERROR_EOF() { return .closed }
        guard result >= 0 else { throw AVError(code: result, call: "avcodec_send_packet") }
        return .accepted
    }
}
