// Decodes a movie's audio stream with libavcodec and converts it with libswresample to the output
// device's format, for the player. Lives on the player's audio thread only.
import CFFmpeg
import KioskCore

/// Samples in the output device's format with the media time of the first one.
struct AudioSamples: Sendable {
    var bytes: [UInt8]
    /// Nanoseconds on the stream's clock; `VideoDecoder.noTimestamp` when unknown.
    var timestamp: Int64
    var frames: Int
}

/// Made of owners: the decoder context, its frame and the resampler. Not thread-safe: one thread.
final class AudioDecoder {
    private let context: CodecContext
    private let frame: Frame
    private var resampler: Resampler?
    /// The input layout the resampler was made for; a stream that changes it gets a new one.
    private var resamplerInput: (format: Int32, rate: Int32, channels: Int32)?
    private let timeBase: AVRational
    private(set) var output: AudioOutputFormat?
    /// Frames whose time did not fit in nanoseconds (they came out without one).
    private(set) var timestampsOutOfRange = 0

    /// Opens a decoder for a demuxed stream (`avcodec_parameters_to_context`, `avcodec_open2`).
    init(stream: UnsafeMutablePointer<AVStream>) throws(AVError) {
        let context = try DecoderContext.make(for: stream)
        try context.open()
        self.context = context
        timeBase = stream.pointee.time_base
        frame = try Frame()
    }

    var codecName: String { context.name }

    /// Sets the format samples come out in (before the first `receive`).
    func convert(to format: AudioOutputFormat) { output = format }

    /// `avcodec_send_packet` (`DecoderContext.send`); nil is the end of the stream.
    func send(_ packet: UnsafeMutablePointer<AVPacket>?) throws(AVError) -> DecoderSend {
        try DecoderContext.send(packet, to: context)
    }

    /// `avcodec_receive_frame`, then `swr_convert` to the output format.
    func receive() throws(AVError) -> DecoderOutput<AudioSamples> {
        guard let output else { return .drained }
        let frame = self.frame.pointer
        let received = avcodec_receive_frame(context.pointer, frame)
        if received == kiosk_AVERROR_EAGAIN() { return .needsInput }
        if received == kiosk_AVERROR_EOF() { return .drained }
        guard received >= 0 else { throw AVError(code: received, call: "avcodec_receive_frame") }
        defer { av_frame_unref(frame) }
        let f = frame.pointee
        // Driver paranoia for hostile streams: a rate of 1 Hz would make swresample write 48000
        // samples for each one in; absurd rates, channel counts and frame lengths are skipped.
        guard (1000...768_000).contains(f.sample_rate), (1...64).contains(f.ch_layout.nb_channels),
              (1...(1 << 17)).contains(f.nb_samples)
        else { throw AVError(code: kiosk_AVERROR_INVALIDDATA(), call: "audio frame (\(f.sample_rate) Hz, \(f.ch_layout.nb_channels) channels, \(f.nb_samples) samples)") }
        let resampler = try resampler(for: frame, output: output)
        // swresample may hold back a few input samples (its filter): the first sample out is older
        // than this frame's first sample by that much.
        let held = swr_get_delay(resampler.pointer, 1_000_000_000)
        let timestamp = VideoDecoder.timestamp(f.best_effort_timestamp, timeBase, less: held, outOfRange: &timestampsOutOfRange)
        let room = swr_get_out_samples(resampler.pointer, f.nb_samples)
        guard room >= 0 else { throw AVError(code: room, call: "swr_get_out_samples") }
        var samples = try convert(resampler, input: frame, room: Int(room), output: output)
        samples.timestamp = timestamp
        return .output(samples)
    }

    /// A seek or a loop: the decoder forgets what it holds (`avcodec_flush_buffers`), and the
    /// resampler's held samples go with a new one.
    func flush() {
        avcodec_flush_buffers(context.pointer)
        resampler = nil
        resamplerInput = nil
    }

    /// What the resampler still holds at the end of the stream.
    func drainResampler() -> AudioSamples? {
        guard let resampler, let output else { return nil }
        let room = swr_get_out_samples(resampler.pointer, 0)
        guard room > 0, let samples = try? convert(resampler, input: nil, room: Int(room), output: output), samples.frames > 0
        else { return nil }
        return samples
    }

    private func convert(_ resampler: Resampler, input: UnsafeMutablePointer<AVFrame>?, room: Int,
                         output: AudioOutputFormat) throws(AVError) -> AudioSamples {
        var converted: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: max(room, 1) * output.bytesPerFrame) { buffer, count in
            var out: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            if let input {
                let planes = Int(max(input.pointee.ch_layout.nb_channels, 1))
                converted = input.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: planes) { data in
                    swr_convert(resampler.pointer, &out, Int32(room), data, input.pointee.nb_samples)
                }
            } else {
                converted = swr_convert(resampler.pointer, &out, Int32(room), nil, 0)
            }
            count = converted > 0 ? Int(converted) * output.bytesPerFrame : 0
        }
        guard converted >= 0 else { throw AVError(code: converted, call: "swr_convert") }
        return AudioSamples(bytes: bytes, timestamp: VideoDecoder.noTimestamp, frames: Int(converted))
    }

    /// The resampler for this frame's layout (`swr_alloc_set_opts2`, `swr_init`), made anew when a
    /// stream changes its rate, format or channels midway.
    private func resampler(for frame: UnsafeMutablePointer<AVFrame>, output: AudioOutputFormat) throws(AVError) -> Resampler {
        let f = frame.pointee
        let key = (f.format, f.sample_rate, f.ch_layout.nb_channels)
        if let resampler, let input = resamplerInput, input == key { return resampler }
        resampler = nil
        resamplerInput = nil
        var inLayout = AVChannelLayout()
        if f.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            // Only a count: take the usual layout for it.
            av_channel_layout_default(&inLayout, f.ch_layout.nb_channels)
        } else {
            let copied = withUnsafePointer(to: &frame.pointee.ch_layout) { av_channel_layout_copy(&inLayout, $0) }
            guard copied >= 0 else { throw AVError(code: copied, call: "av_channel_layout_copy") }
        }
        defer { av_channel_layout_uninit(&inLayout) }
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(output.channels))
        defer { av_channel_layout_uninit(&outLayout) }
        let outFormat = output.sample == .s16 ? AV_SAMPLE_FMT_S16 : AV_SAMPLE_FMT_FLT
        let made = try Resampler(from: &inLayout, AVSampleFormat(rawValue: f.format), f.sample_rate,
                                 to: &outLayout, outFormat, Int32(output.sampleRate))
        resampler = made
        resamplerInput = key
        return made
    }
}
