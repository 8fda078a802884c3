// The sound side of a take: FFmpeg's AAC encoder, the conversion of the microphone's S16 samples into
// its float planes (swresample), and the queue (an audio FIFO) that cuts them into whole AAC frames.
import KioskCore
import CFFmpeg

/// Made of owners (codec context, frame, resampler, FIFO): a throw halfway through `init` frees what
/// was made. Used on the writer's thread only.
final class AudioEncoder {
    let codec: CodecContext
    private let frame: Frame
    private let resampler: Resampler
    private let fifo: AudioFIFO
    /// A compensation is in force (`compensate`).
    private var compensating = false

    init(sampleRate: Int, channels: Int, globalHeader: Bool, failure: InjectedFailure) throws(AVError) {
        codec = try Self.openCodec(sampleRate: sampleRate, channels: channels, globalHeader: globalHeader)
        try failure.check(.audioEncoder)
        frame = try Frame()
        try failure.check(.audioFrame)
        // Same rate in and out: swresample only reorders S16 interleaved into float planes.
        var s16Layout = AVChannelLayout()
        av_channel_layout_default(&s16Layout, Int32(channels))
        let c = codec.pointer
        resampler = try Resampler(from: &s16Layout, AV_SAMPLE_FMT_S16, Int32(sampleRate),
                                  to: &c.pointee.ch_layout, c.pointee.sample_fmt, c.pointee.sample_rate)
        try failure.check(.resampler)
        fifo = try AudioFIFO(for: codec)
        try failure.check(.audioFIFO)
    }

    /// FFmpeg's AAC encoder, open for this rate and channel count.
    private static func openCodec(sampleRate: Int, channels: Int, globalHeader: Bool) throws(AVError) -> CodecContext {
        let codec = try CodecContext(encoderNamed: "aac")
        let c = codec.pointer
        c.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        c.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&c.pointee.ch_layout, Int32(channels))
        c.pointee.bit_rate = Int64(MovieSettings.aacBitrate(channels: channels))
        c.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        if globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try codec.open()
        return codec
    }

    var sampleRate: Int32 { codec.pointer.pointee.sample_rate }
    /// The encoder's priming: a sample queued at pts p comes out of a decoder at p + priming, and
    /// its first packet starts `priming` samples before the first pts it was given (1024 for AAC).
    var priming: Int64 { Int64(max(codec.pointer.pointee.initial_padding, 0)) }

    /// Converts interleaved S16 samples into the encoder's float planes and queues them. Returns how
    /// many samples a channel were queued (under a compensation a few more or fewer than given; 0
    /// when the conversion failed).
    func queue(_ samples: ArraySlice<Int16>, channels: Int) -> Int {
        let count = samples.count / channels
        guard count > 0 else { return 0 }
        let audioFrame = frame.pointer, audio = codec.pointer
        // Room for what a compensation adds (at most 1 % here) and the resampler's filter returns.
        let capacity = count + count / 16 + 64
        av_frame_unref(audioFrame)
        audioFrame.pointee.format = audio.pointee.sample_fmt.rawValue
        audioFrame.pointee.nb_samples = Int32(capacity)
        av_channel_layout_copy(&audioFrame.pointee.ch_layout, &audio.pointee.ch_layout)
        guard av_frame_get_buffer(audioFrame, 0) >= 0 else { return 0 }
        defer { av_frame_unref(audioFrame) }
        let converted: Int32 = samples.withUnsafeBufferPointer { input in
            var inputPlanes: [UnsafePointer<UInt8>?] = [UnsafeRawPointer(input.baseAddress!).assumingMemoryBound(to: UInt8.self)]
            return withUnsafeMutablePointer(to: &audioFrame.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { out in
                    swr_convert(resampler.pointer, out, Int32(capacity), &inputPlanes, Int32(count))
                }
            }
        }
        guard converted > 0 else { return 0 }
        withUnsafeMutablePointer(to: &audioFrame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { planes in
                _ = av_audio_fifo_write(fifo.pointer, planes, converted)
            }
        }
        return Int(converted)
    }

    /// Stretches (`delta` > 0) or squeezes the sound by `delta` samples over the next `distance`
    /// (`swr_set_compensation`, what ffmpeg's `aresample=async` does): a microphone whose clock
    /// runs a little fast or slow is followed smoothly, with no sample cut or inserted. The first
    /// compensation turns swresample's resampling filter on (until then it only converts); 0 ends
    /// one in force.
    func compensate(delta: Int, over distance: Int) {
        guard delta != 0 || compensating else { return }
        let result = swr_set_compensation(resampler.pointer, Int32(clamping: delta), delta == 0 ? 0 : Int32(clamping: distance))
        if result >= 0 { compensating = delta != 0 }
    }

    /// Samples queued and not yet taken as frames.
    var queued: Int { Int(av_audio_fifo_size(fifo.pointer)) }

    /// Keeps only the first `count` samples of the queue: the sound past the picture's end goes.
    func keepQueued(_ count: Int) {
        let queued = self.queued
        guard count < queued else { return }
        guard count > 0 else {
            av_audio_fifo_reset(fifo.pointer)
            return
        }
        let audioFrame = frame.pointer, audio = codec.pointer
        av_frame_unref(audioFrame)
        audioFrame.pointee.format = audio.pointee.sample_fmt.rawValue
        audioFrame.pointee.nb_samples = Int32(count)
        av_channel_layout_copy(&audioFrame.pointee.ch_layout, &audio.pointee.ch_layout)
        guard av_frame_get_buffer(audioFrame, 0) >= 0 else { return }
        defer { av_frame_unref(audioFrame) }
        withUnsafeMutablePointer(to: &audioFrame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { planes in
                _ = av_audio_fifo_peek(fifo.pointer, planes, Int32(count))
                av_audio_fifo_reset(fifo.pointer)
                _ = av_audio_fifo_write(fifo.pointer, planes, Int32(count))
            }
        }
    }

    /// The next whole AAC frame of samples from the queue (with `final`, also a last short one), or
    /// nil when the queue holds too few. Valid until the next call; its `pts` is the caller's to set.
    /// Samples an AAC frame holds.
    var frameSize: Int { Int(max(codec.pointer.pointee.frame_size, 1024)) }

    func nextFrame(final: Bool) throws(AVError) -> UnsafeMutablePointer<AVFrame>? {
        let audioFrame = frame.pointer, audio = codec.pointer
        let frameSize = Int32(self.frameSize)
        let queued = av_audio_fifo_size(fifo.pointer)
        guard queued >= frameSize || (final && queued > 0) else { return nil }
        let n = min(frameSize, queued)
        av_frame_unref(audioFrame)
        audioFrame.pointee.format = audio.pointee.sample_fmt.rawValue
        audioFrame.pointee.nb_samples = n
        av_channel_layout_copy(&audioFrame.pointee.ch_layout, &audio.pointee.ch_layout)
        audioFrame.pointee.sample_rate = audio.pointee.sample_rate
        let result = av_frame_get_buffer(audioFrame, 0)
        guard result >= 0 else { throw AVError(code: result, call: "av_frame_get_buffer") }
        withUnsafeMutablePointer(to: &audioFrame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { planes in
                _ = av_audio_fifo_read(fifo.pointer, planes, n)
            }
        }
        return audioFrame
    }
}

/// Owns one AVAudioFifo (`av_audio_fifo_alloc`, `av_audio_fifo_free`), in the encoder's sample format.
final class AudioFIFO {
    let pointer: OpaquePointer
    private let tally: OwnerTally

    init(for codec: CodecContext) throws(AVError) {
        let c = codec.pointer
        guard let fifo = av_audio_fifo_alloc(c.pointee.sample_fmt, c.pointee.ch_layout.nb_channels, 4 * max(c.pointee.frame_size, 1024)) else {
            throw AVError(code: AVError.code(posix: ENOMEM), call: "av_audio_fifo_alloc")
        }
        pointer = fifo
        tally = OwnerTally(AudioFIFO.self)
    }

    deinit { av_audio_fifo_free(pointer) }
}
