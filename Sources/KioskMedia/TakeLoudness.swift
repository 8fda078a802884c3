// The take's loudness at its hand-over (`--loudness`): its sound measured with libebur128
// (EBU R128 integrated loudness, ITU-R BS.1770 true peak), then set to the target by one gain and,
// where the gain would lift a peak over the ceiling, FFmpeg's lookahead limiter (`alimiter`, its
// delay compensated), a DC offset filtered out first. Where the limiter takes loudness with the
// peaks, trial passes (measured, nothing written) find the gain that makes it up; then the sound is
// re-encoded, the file written, decoded and measured (written again, the limiter lower, while it
// is over the ceiling); every video packet is copied untouched. Each
// AAC packet written takes the time of the packet it replaces (the encoder's priming stands where
// the take's stood), so the sound stays where it was against the picture.
// Like a trim, the new file is written beside the take under a hidden name, synced, and renamed
// over it: a kill -9 during it leaves the whole take, with its marker, for the recovery at launch.
import CEBUR128
import CFFmpeg
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskStorage
import KioskSystem

/// Owns one libebur128 state (`ebur128_init`, `ebur128_destroy`) measuring integrated loudness and
/// true peak.
final class LoudnessMeter {
    private var state: UnsafeMutablePointer<ebur128_state>?
    private let channels: Int
    private let sampleRate: Int
    /// Samples (per channel) measured so far: a take shorter than a gating block is measured whole.
    private var frames = 0
    private let tally: OwnerTally

    init(channels: Int, sampleRate: Int) throws(AVError) {
        let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)
        guard let state = ebur128_init(UInt32(channels), UInt(sampleRate), mode) else {
            throw AVError(code: AVError.code(posix: ENOMEM), call: "ebur128_init")
        }
        self.state = state
        (self.channels, self.sampleRate) = (channels, sampleRate)
        tally = OwnerTally(LoudnessMeter.self)
    }

    deinit { ebur128_destroy(&state) }

    /// A frame of interleaved samples (the filter's output): float (the take as it is, peaks over
    /// full scale kept) or S16 (what is encoded).
    func add(_ frame: UnsafeMutablePointer<AVFrame>) {
        guard let data = frame.pointee.data.0, frame.pointee.nb_samples > 0 else { return }
        let count = Int(frame.pointee.nb_samples)
        frames += count
        if frame.pointee.format == AV_SAMPLE_FMT_FLT.rawValue {
            data.withMemoryRebound(to: Float.self, capacity: count * channels) { _ = ebur128_add_frames_float(state, $0, count) }
        } else {
            data.withMemoryRebound(to: Int16.self, capacity: count * channels) { _ = ebur128_add_frames_short(state, $0, count) }
        }
    }

    /// The integrated loudness (LUFS); nil when nothing was above the gate (silence). R128 gates
    /// 400 ms blocks, so a sound shorter than one has no integrated loudness: it is measured whole,
    /// ungated (`ebur128_loudness_window` over all of it, a momentary loudness of its own length),
    /// so a short loud take is still set to the target and its peaks held under the ceiling.
    var integrated: Double? {
        var value = 0.0
        if ebur128_loudness_global(state, &value) == 0, value.isFinite { return value }
        let milliseconds = frames * 1000 / max(sampleRate, 1)
        guard milliseconds > 0, milliseconds < TakeLoudness.gatingBlock,
              ebur128_loudness_window(state, UInt(milliseconds), &value) == 0, value.isFinite, value > TakeLoudness.silence else { return nil }
        return value
    }

    /// The highest true peak of any channel (dBTP); nil for silence.
    var truePeak: Double? {
        var highest = 0.0
        for channel in 0..<channels {
            var peak = 0.0
            if ebur128_true_peak(state, UInt32(channel), &peak) == 0 { highest = max(highest, peak) }
        }
        return highest > 0 ? 20 * log10(highest) : nil
    }
}

public enum TakeLoudness {
    /// The gain is at most this (dB): a take of near silence is not lifted into loud hiss.
    public static let maxGain = 30.0
    /// Where the limiter holds the samples at first (dBFS), under the true-peak ceiling by the room
    /// the peaks between samples and the AAC encoder's overshoot usually take. Usually: a clap (a
    /// burst of clipped square waves in noise) came out of the encoder at −1.1 dBTP with the limiter
    /// at −2.5, at −0.8 with it at −3 and at −0.4 with it at −4 (the overshoot varies with the
    /// noise around it), so no fixed room keeps the promise: the file written is measured, and
    /// written again with the limiter lower by what it went over (`prepare`).
    public static let limit = -3.0
    /// The ceiling the docs promise (dBTP), as the delivered file decodes; and the room kept under
    /// it for meters that oversample differently (ours, libebur128's, and ffmpeg's ebur128).
    static let ceiling = -1.0, meterRoom = 0.3
    /// How many times a file over the ceiling is written again at most.
    public static let rewrites = 3
    /// A gain this small is no change: the take is left as it is.
    static let noChange = 0.1
    /// R128's gating block (ms): a sound shorter than it is measured whole, ungated.
    static let gatingBlock = 400
    /// R128's absolute gate (LUFS): quieter than this is silence.
    static let silence = -70.0
    /// How near the target (LU) the limiter's loss is made up; and in how many trials at most.
    static let closeEnough = 0.5, trials = 4

    /// libavfilter's text for the gain (and the limiter): what every pass that changes the sound
    /// runs, the hand-over's and the reel's. A high-pass at 10 Hz first takes out a DC offset (a
    /// cheap microphone's), which R128's weighting does not hear but which the gain would lift
    /// into the limiter, squashing the voice riding on it; it is far under anything audible.
    public static func chain(gain: Double, limiting: Bool, at limit: Double = limit) -> String {
        var chain = String(printf: "highpass=f=10:poles=2,volume=%.3fdB:precision=float", gain)
        if limiting { chain += String(printf: ",alimiter=limit=%.5f:level=0:attack=5:release=50:latency=1", pow(10, limit / 20)) }
        return chain
    }

    /// Sets `take`'s sound to `target` LUFS in place (`prepare` into a hidden file beside it, then
    /// renamed over it); what was done (`changed` false: nothing). Throws a `ShareError` naming the
    /// step; the take is then untouched and the partial file gone.
    public static func level(_ take: String, to target: Double) throws(ShareError) -> Leveling {
        let partial = TakeFiles.trimmingPath(for: take)
        let done = try prepare(take, to: target, into: partial)
        guard done.changed else { return done }
        guard rename(partial, take) == 0 else {
            let failure = errno
            unlink(partial)
            throw ShareError(step: "renaming the leveled take over \(take)", errno: failure)
        }
        FolderSync.sync(of: take)
        return done
    }

    /// Writes `take` with its sound set to `target` LUFS into a new file at `copy` (the take's mode,
    /// synced), the take untouched: what the hand-over renames over it (the booth makes it while the
    /// guest reviews the take). No file is made when there is nothing to do (`changed` false): no
    /// sound track, silence, or a gain under 0.1 dB. Throws a `ShareError` naming the step; no file
    /// is left at `copy`.
    /// `limit` and `rewrites` are where the limiter starts and how often a file over the ceiling is
    /// written again (a test starts it over the ceiling to see the file written again).
    public static func prepare(_ take: String, to target: Double, into copy: String,
                               limit: Double = limit, rewrites: Int = rewrites) throws(ShareError) -> Leveling {
        let took = MonotonicClock.now()
        var info = stat()
        guard stat(take, &info) == 0 else { throw ShareError(step: "reading \(take)", errno: errno) }
        let sound = try pass(take, chain: "anull", into: nil)
        guard sound.track else { return Leveling(.noSound) }
        guard let measured = sound.loudness, let peak = sound.peak else { return Leveling(.silence) }
        var gain = min(target - measured, maxGain)
        var limiting = peak + gain > limit
        guard abs(gain) >= noChange || limiting else { return Leveling(.atTarget, measured: measured, truePeak: peak) }
        // The limiter takes some loudness with the peaks: trial passes (measured, nothing written)
        // lift the gain by what it took until the sound lands near the target. The file is then
        // written once, so no pass ever meets a copy of its own (or one planted) at `copy`.
        for _ in 0..<trials where limiting {
            guard let reached = try pass(take, chain: chain(gain: gain, limiting: true), into: nil).loudness,
                  abs(target - reached) > closeEnough, gain < maxGain else { break }
            gain = min(gain + target - reached, maxGain)
            limiting = peak + gain > limit
        }
        // The encoder's overshoot on a sharp peak varies with the sound around it: the file written
        // is decoded and measured, and written again, the limiter lower by what it went over (on,
        // where the gain alone had kept the peaks under it), until it is under the ceiling; the gain
        // makes up what the lower limiter takes.
        var held = limiting ? limit : peak + gain
        var rewrite = 0
        while true {
            unlink(copy)
            do throws(ShareError) {
                let result = try pass(take, chain: chain(gain: gain, limiting: limiting, at: held), into: (copy, Int(info.st_mode & 0o7777)))
                let most = ceiling - meterRoom
                if rewrite < rewrites, let written = try measure(copy)?.peak, written > most {
                    Log.info("loudness: \(Log.escaped(copy)) came out of the encoder at \(String(printf: "%.1f", written)) dBTP, over the ceiling; written again with the limiter \(String(printf: "%.1f", written - most + 0.5)) dB lower")
                    (held, limiting, rewrite) = (held - (written - most) - 0.5, true, rewrite + 1)
                    // The lower limiter takes more loudness with the peaks: the gain makes it up.
                    if let reached = result.loudness, abs(target - reached) > closeEnough { gain = min(gain + target - reached, maxGain) }
                    continue
                }
                return Leveling(limiting ? .limited : .leveled, measured: measured, truePeak: peak, gain: gain, limited: limiting,
                                reached: result.loudness, seconds: Double(MonotonicClock.now() - took) / 1e9)
            } catch {
                unlink(copy)
                throw error
            }
        }
    }

    /// The take's integrated loudness (LUFS) and true peak (dBTP); nil: no sound track, or silence.
    /// With `channels`, as its sound comes to that many channels (the reel's stereo: a 5.1 take is
    /// measured after the downmix it will be heard through).
    public static func measure(_ take: String, channels: Int32? = nil) throws(ShareError) -> (loudness: Double, peak: Double)? {
        let measured = try pass(take, chain: "anull", channels: channels, into: nil)
        guard let loudness = measured.loudness, let peak = measured.peak else { return nil }
        return (loudness, peak)
    }

    struct Pass {
        var loudness: Double?
        var peak: Double?
        /// The take has a sound track (false: nothing was measured).
        var track = true
    }

    /// One pass over the take's sound: decoded, through `chain` (nothing, or the gain and the
    /// limiter) and to `channels` (as it is, by default), measured; with `output`, encoded into a
    /// new file at its path (with its mode) beside the video's packets.
    private static func pass(_ take: String, chain: String, channels: Int32? = nil, into output: (path: String, mode: Int)?) throws(ShareError) -> Pass {
        let step = output.map { "writing the leveled take " + $0.path } ?? "measuring \(take)'s loudness"
        let demuxer: Demuxer
        do { demuxer = try Demuxer(path: take, interruption: Interruption(), timeout: MovieProbe.readTimeout) } catch {
            throw ShareError(step: "opening the take \(take)", error)
        }
        guard let audioStream = demuxer.bestStream(AVMEDIA_TYPE_AUDIO) else { return Pass(track: false) }
        var file: ShareMP4?
        do {
            let sound = try SoundPass(stream: audioStream, chain: chain, channels: channels, encoding: output != nil)
            var map: [Int32] = [], outputs: [UnsafeMutablePointer<AVStream>] = []
            if let output {
                let made = try ShareMP4(path: output.path, mode: output.mode, container: take.lowercased().hasSuffix(".mp4") ? "mp4" : "mov")
                file = made
                (map, outputs, _) = try made.addStreams(copying: demuxer.format, encoding: audioStream.pointee.index, with: sound.encoder)
                try made.writeHeader()
            }
            let packet = try Packet()
            while try demuxer.nextPacket(into: packet.pointer) {
                let p = packet.pointer
                let index = Int(p.pointee.stream_index)
                if index == audioStream.pointee.index {
                    try sound.take(p)
                    av_packet_unref(p)
                } else if let file, index < map.count, map[index] >= 0, let stream = demuxer.format.pointee.streams[index] {
                    try file.write(p, from: stream, to: outputs[Int(map[index])])
                } else {
                    av_packet_unref(p)
                }
                if let file { try sound.writeEncoded(to: file, stream: outputs[Int(map[Int(audioStream.pointee.index)])], timeBase: audioStream.pointee.time_base) }
            }
            try sound.finish()
            if let file {
                try sound.writeEncoded(to: file, stream: outputs[Int(map[Int(audioStream.pointee.index)])], timeBase: audioStream.pointee.time_base, final: true)
                _ = try file.finish(name: output!.path)
            }
            return Pass(loudness: sound.meter.integrated, peak: sound.meter.truePeak)
        } catch {
            if let file { throw file.failure(at: step, error) }
            if let error = error as? ShareError { throw error }
            if let error = error as? AVError { throw ShareError(step: step, error) }
            throw ShareError(step: step, reason: "\(error)")
        }
    }
}

/// The sound's way through one pass: the AAC decoder, the filter (the pass's chain; S16 out in AAC
/// frames), the meter, and with `encoding` the AAC encoder whose packets take the times of the
/// packets read, in order.
private final class SoundPass {
    let decoder: CodecContext
    let filter: FilterGraph
    let meter: LoudnessMeter
    let encoder: AudioEncoder?
    private let frame: Frame
    private let encoded: Packet
    /// The times (pts, dts, duration) of the packets read, the next written takes the first.
    private var times: [(pts: Int64, dts: Int64, duration: Int64)] = []
    private var timesUsed = 0
    /// The decoder's first frame is the encoder's priming as the take has it: the new encoder
    /// makes its own in its place.
    private var skippedPriming = false
    /// Samples given to the filter: the next frame's time there.
    private var filtered: Int64 = 0

    init(stream: UnsafeMutablePointer<AVStream>, chain: String, channels outputChannels: Int32?, encoding: Bool) throws(AVError) {
        decoder = try DecoderContext.make(for: stream)
        // Every frame whole: a trimmed take's edit list asks to skip samples, which the new packets,
        // one for one, keep in place.
        decoder.pointer.pointee.flags2 |= AV_CODEC_FLAG2_SKIP_MANUAL
        try decoder.open()
        let rate = decoder.pointer.pointee.sample_rate, channels = decoder.pointer.pointee.ch_layout.nb_channels
        // Measured as floats (a take's peaks over full scale count); encoded from S16, as a take is.
        filter = try FilterGraph(chain, sampleRate: rate, channels: channels, format: decoder.pointer.pointee.sample_fmt,
                                 output: encoding ? AV_SAMPLE_FMT_S16 : AV_SAMPLE_FMT_FLT, outputChannels: outputChannels, frameSize: 1024)
        meter = try LoudnessMeter(channels: Int(filter.channels), sampleRate: Int(rate))
        encoder = encoding ? try AudioEncoder(sampleRate: Int(rate), channels: Int(filter.channels), globalHeader: true, failure: InjectedFailure(after: nil)) : nil
        frame = try Frame()
        encoded = try Packet()
    }

    /// A packet of the take's sound: its time kept, decoded, filtered.
    func take(_ p: UnsafeMutablePointer<AVPacket>) throws(AVError) {
        times.append((p.pointee.pts, p.pointee.dts, p.pointee.duration))
        _ = try DecoderContext.send(p, to: decoder)
        try drainDecoder()
    }

    /// The end of the sound: what the decoder and the filter hold comes out.
    func finish() throws(AVError) {
        _ = try DecoderContext.send(nil, to: decoder)
        try drainDecoder()
        try filter.push(nil)
        try drainFilter()
    }

    private func drainDecoder() throws(AVError) {
        let f = frame.pointer
        while true {
            let received = avcodec_receive_frame(decoder.pointer, f)
            if received == kiosk_AVERROR_EAGAIN() || received == kiosk_AVERROR_EOF() { return }
            guard received >= 0 else { throw AVError(code: received, call: "avcodec_receive_frame") }
            defer { av_frame_unref(f) }
            guard skippedPriming else {
                skippedPriming = true
                continue
            }
            f.pointee.pts = filtered
            filtered += Int64(f.pointee.nb_samples)
            try filter.push(f)
            av_frame_unref(f)
            try drainFilter()
        }
    }

    private func drainFilter() throws(AVError) {
        let f = frame.pointer
        while try filter.pull(into: f) {
            defer { av_frame_unref(f) }
            meter.add(f)
            guard let encoder else { continue }
            let n = Int(f.pointee.nb_samples) * Int(filter.channels)
            let samples = f.pointee.data.0!.withMemoryRebound(to: Int16.self, capacity: n) { Array(UnsafeBufferPointer(start: $0, count: n)) }
            _ = encoder.queue(samples[...], channels: Int(filter.channels))
        }
    }

    /// The encoder's packets so far (with `final`, all of them), each with the time of the next
    /// packet read, written into `file` as `stream`'s.
    func writeEncoded(to file: ShareMP4, stream: UnsafeMutablePointer<AVStream>, timeBase: AVRational, final: Bool = false) throws(AVError) {
        guard let encoder else { return }
        while let f = try encoder.nextFrame(final: final) {
            try send(f, encoder: encoder, to: file, stream: stream, timeBase: timeBase)
        }
        if final { try send(nil, encoder: encoder, to: file, stream: stream, timeBase: timeBase) }
    }

    private var nextPts: Int64 = 0

    private func send(_ f: UnsafeMutablePointer<AVFrame>?, encoder: AudioEncoder, to file: ShareMP4, stream: UnsafeMutablePointer<AVStream>,
                      timeBase: AVRational) throws(AVError) {
        if let f {
            f.pointee.pts = nextPts
            nextPts += Int64(f.pointee.nb_samples)
        }
        var result = avcodec_send_frame(encoder.codec.pointer, f)
        guard result >= 0 || result == kiosk_AVERROR_EOF() else { throw AVError(code: result, call: "avcodec_send_frame") }
        let p = encoded.pointer
        while true {
            result = avcodec_receive_packet(encoder.codec.pointer, p)
            if result == kiosk_AVERROR_EAGAIN() || result == kiosk_AVERROR_EOF() { return }
            guard result >= 0 else { throw AVError(code: result, call: "avcodec_receive_packet") }
            // The packet read at this place gives its time; past the last, they go on a frame apart.
            if timesUsed < times.count {
                let t = times[timesUsed]
                (p.pointee.pts, p.pointee.dts, p.pointee.duration) = (t.pts, t.dts, t.duration)
            } else if let last = times.last {
                let step = Int64(timesUsed - times.count + 1) * max(last.duration, 1)
                (p.pointee.pts, p.pointee.dts, p.pointee.duration) = (last.pts + step, last.dts + step, last.duration)
            }
            timesUsed += 1
            p.pointee.stream_index = stream.pointee.index
            p.pointee.pos = -1
            av_packet_rescale_ts(p, timeBase, stream.pointee.time_base)
            try file.write(p)
        }
    }
}
