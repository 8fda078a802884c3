// One take's way into the hosts' film (Reel): its packets read in file order, its pictures decoded,
// turned upright by its display matrix, scaled to fit the film with black bars, each at its own time
// (libavfilter's transpose, scale, pad), its sound decoded, made 48 kHz stereo (aresample) and set
// to −16 LUFS as the film has it (libebur128's measure after the downmix, libavfilter's volume and
// alimiter).
import CFFmpeg
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem

/// A take checked for the film (Reel.check), to be appended (Reel.take).
public final class ReelTake {
    private let path: String
    private let size: Size
    private let cancelled: @Sendable () -> Bool
    /// The gain (dB) and whether the limiter holds the peaks; nil: no sound, or silence.
    private let leveling: (gain: Double, limiting: Bool)?
    /// Whether the take has a sound track (else the film gives silence with its pictures).
    public let hasSound: Bool
    /// The longest a picture may wait for the next: a longer gap in a take's times (a camera's
    /// clock that jumped, a hostile file's 200,000 s) is closed to one picture's length, the rest of
    /// the take following on; never filled with one picture held for the whole gap.
    static let longestGap: Int64 = 1_000_000_000

    /// Checks that the take has a picture that decodes (else it is left out, before anything of it
    /// is in the film) and measures its sound.
    init(path: String, size: Size, cancelled: @escaping @Sendable () -> Bool) throws(ReelError) {
        (self.path, self.size, self.cancelled) = (path, size, cancelled)
        let reader = try Self.open(path)
        guard let stream = reader.bestStream(AVMEDIA_TYPE_VIDEO) else { throw ReelError("it has no picture") }
        hasSound = reader.bestStream(AVMEDIA_TYPE_AUDIO, related: stream.pointee.index) != nil
        do {
            let decoder = try Self.decoder(for: stream)
            let packet = try Packet(), frame = try Frame()
            var decoded = false
            for _ in 0..<600 where !decoded {
                guard try reader.nextPacket(into: packet.pointer) else { break }
                defer { av_packet_unref(packet.pointer) }
                guard packet.pointer.pointee.stream_index == stream.pointee.index else { continue }
                _ = try? DecoderContext.send(packet.pointer, to: decoder)
                if avcodec_receive_frame(decoder.pointer, frame.pointer) >= 0 { decoded = true }
                av_frame_unref(frame.pointer)
            }
            if !decoded {
                _ = try? DecoderContext.send(nil, to: decoder)
                decoded = avcodec_receive_frame(decoder.pointer, frame.pointer) >= 0
                av_frame_unref(frame.pointer)
            }
            guard decoded else { throw ReelError("no picture of it decodes") }
        } catch let error as ReelError {
            throw error
        } catch {
            throw ReelError("no picture of it decodes: \(error)")
        }
        let measured: (loudness: Double, peak: Double)?
        // Measured as the film has it, in stereo: a 5.1 take's downmix is quieter than its six channels.
        do { measured = try TakeLoudness.measure(path, channels: 2) } catch { measured = nil }
        leveling = measured.map { m -> (gain: Double, limiting: Bool) in
            let gain = min(Reel.loudness - m.loudness, TakeLoudness.maxGain)
            return (gain, m.peak + gain > TakeLoudness.limit)
        }
    }

    private static func open(_ path: String) throws(ReelError) -> Demuxer {
        do { return try Demuxer(path: path, interruption: Interruption(), timeout: MovieProbe.readTimeout) } catch {
            throw ReelError("it cannot be opened: \(error.text) (\(error.call))")
        }
    }

    private static func decoder(for stream: UnsafeMutablePointer<AVStream>) throws(AVError) -> CodecContext {
        let decoder = try DecoderContext.make(for: stream)
        // As many threads as the machine has (the ffmpeg CLI's default too).
        decoder.pointer.pointee.thread_count = 0
        try decoder.open()
        return decoder
    }

    /// libavfilter's text for the pictures: upright, within the film's size with black bars. Each
    /// keeps its own time (a take kept every 2nd picture where the CPU was short: so does the film;
    /// `fps` would drop the last picture, whose length it cannot know at the end).
    private func pictureChain(quarterTurns: Int) -> String {
        let turn = ["", "transpose=clock,", "hflip,vflip,", "transpose=cclock,"][quarterTurns & 3]
        let (w, h) = (size.width, size.height)
        return turn + "scale=\(w):\(h):force_original_aspect_ratio=decrease:force_divisible_by=2:flags=bicubic,"
            + "pad=\(w):\(h):(ow-iw)/2:(oh-ih)/2:black,setsar=1"
    }

    /// Reads the take through: `video` gets each picture (yuv420p at the film's size) and its time
    /// from the take's first picture (ns), `audio` each piece of its sound (48 kHz stereo S16) and its
    /// time. The take's length on the film (ns): to its last picture's end.
    func run(video: ([UInt8], Int64) -> Void, audio: ([Int16], Int64) -> Void) throws(ReelError) -> Int64 {
        let reader = try Self.open(path)
        guard let stream = reader.bestStream(AVMEDIA_TYPE_VIDEO) else { throw ReelError("it has no picture") }
        let turns = Int((MoviePlayer.rotation(of: stream) / 90).rounded()) % 4
        var pictures = 0, lastPicture: Int64 = 0
        // What the closed gaps took out of the take's own times (ns), later pictures moved back by it.
        var closed: Int64 = 0
        // A picture's length: the stream's base rate's (the camera's), else its average's (which a
        // gap in its times makes tiny), 1/30 s where neither is a picture's length (1 ms … 1 s).
        let step = [stream.pointee.r_frame_rate, stream.pointee.avg_frame_rate].lazy
            .compactMap { rate -> Int64? in
                guard rate.num > 0, rate.den > 0 else { return nil }
                let seconds = Double(rate.den) / Double(rate.num)
                return (0.001...1).contains(seconds) ? Int64(seconds * 1e9) : nil
            }.first ?? Int64(1e9 / Reel.fps)
        var pictureFilter: FilterGraph?
        var sound: (stream: UnsafeMutablePointer<AVStream>, decoder: CodecContext, filter: FilterGraph)?
        // Where the take's first picture is on its own clock (ns): its 0 on the film.
        var origin: Int64?
        var soundStart: Int64?, soundSamples: Int64 = 0, skippedPriming = false
        // The sound stops with the picture: its length as the file says it, when it says it.
        let length = VideoDecoder.nanoseconds(stream.pointee.duration, stream.pointee.time_base).flatMap { $0 > 0 ? $0 : nil }
        do {
            let decoder = try Self.decoder(for: stream)
            if let audioStream = reader.bestStream(AVMEDIA_TYPE_AUDIO, related: stream.pointee.index) {
                let d = try DecoderContext.make(for: audioStream)
                d.pointer.pointee.flags2 |= AV_CODEC_FLAG2_SKIP_MANUAL
                try d.open()
                // Down to the film's stereo first (as it was measured), then the gain and limiter.
                var chain = "aresample=48000,aformat=channel_layouts=stereo"
                if let leveling { chain += "," + TakeLoudness.chain(gain: leveling.gain, limiting: leveling.limiting) }
                let filter = try FilterGraph(chain, sampleRate: d.pointer.pointee.sample_rate, channels: d.pointer.pointee.ch_layout.nb_channels,
                                             format: d.pointer.pointee.sample_fmt, output: AV_SAMPLE_FMT_S16, outputRate: 48000, outputChannels: 2)
                sound = (audioStream, d, filter)
            }
            let packet = try Packet(), frame = try Frame()
            let f = frame.pointer
            func pullPictures() throws(AVError) {
                guard let pictureFilter else { return }
                while try pictureFilter.pull(into: f) {
                    defer { av_frame_unref(f) }
                    // Its own time from the first picture's, less the gaps closed before it (never
                    // before the one before it); a time that does not fit is one picture on.
                    let time = VideoDecoder.nanoseconds(f.pointee.pts, stream.pointee.time_base)
                        .flatMap { $0.checkedSubtracting(origin ?? 0) }.flatMap { $0.checkedSubtracting(closed) } ?? lastPicture + step
                    var at = pictures == 0 ? 0 : max(time, lastPicture + 1_000_000)
                    // A jump either way longer than `longestGap` is closed: the picture one on.
                    if pictures > 0, at - lastPicture > Self.longestGap || time < lastPicture - Self.longestGap {
                        at = lastPicture + step
                        closed = closed.saturatingAdding(time.saturatingSubtracting(at))
                    }
                    video(Reel.copyPlanes(f, size: size), at)
                    lastPicture = at
                    pictures += 1
                }
            }
            func decodePictures() throws(AVError) {
                while avcodec_receive_frame(decoder.pointer, f) >= 0 {
                    let time = f.pointee.best_effort_timestamp
                    if origin == nil { origin = VideoDecoder.nanoseconds(time, stream.pointee.time_base) }
                    if pictureFilter == nil {
                        pictureFilter = try FilterGraph(pictures: pictureChain(quarterTurns: turns),
                                                        size: Size(width: Int(f.pointee.width), height: Int(f.pointee.height)),
                                                        format: AVPixelFormat(rawValue: f.pointee.format), timeBase: stream.pointee.time_base)
                    }
                    f.pointee.pts = time
                    try pictureFilter!.push(f)
                    av_frame_unref(f)
                    try pullPictures()
                }
            }
            func pullSound() throws(AVError) {
                guard let sound else { return }
                while try sound.filter.pull(into: f) {
                    defer { av_frame_unref(f) }
                    let start = (soundStart ?? 0) + Int64(Double(soundSamples) * 1e9 / 48000)
                    var n = Int(f.pointee.nb_samples)
                    soundSamples += Int64(n)
                    if let length { n = Int(min(max(Double(length.saturatingSubtracting(start)) * 48000 / 1e9, 0), Double(n))) }
                    guard n > 0 else { continue }
                    let samples = f.pointee.data.0!.withMemoryRebound(to: Int16.self, capacity: 2 * n) { Array(UnsafeBufferPointer(start: $0, count: 2 * n)) }
                    audio(samples, start)
                }
            }
            func decodeSound() throws(AVError) {
                guard let sound else { return }
                while avcodec_receive_frame(sound.decoder.pointer, f) >= 0 {
                    // The first frame is the AAC encoder's priming as the take has it (silence).
                    guard skippedPriming else {
                        skippedPriming = true
                        av_frame_unref(f)
                        continue
                    }
                    if soundStart == nil, let t = VideoDecoder.nanoseconds(f.pointee.best_effort_timestamp, sound.stream.pointee.time_base) {
                        // Where it starts against the picture, within the longest gap either way.
                        soundStart = min(max(t.saturatingSubtracting(origin ?? 0), -Self.longestGap), Self.longestGap)
                    }
                    f.pointee.pts = kiosk_AV_NOPTS_VALUE()
                    try sound.filter.push(f)
                    av_frame_unref(f)
                    try pullSound()
                }
            }
            while true {
                if cancelled() { throw ReelError("interrupted") }
                let read: Bool
                do { read = try reader.nextPacket(into: packet.pointer) } catch {
                    Log.info("reel: \(path) breaks off after \(pictures) pictures: \(error.text) (\(error.call))")
                    break
                }
                guard read else { break }
                let p = packet.pointer
                defer { av_packet_unref(p) }
                if p.pointee.stream_index == stream.pointee.index {
                    if (try? DecoderContext.send(p, to: decoder)) == nil { Log.info("reel: a damaged picture of \(path) left out") }
                    try decodePictures()
                } else if let sound, p.pointee.stream_index == sound.stream.pointee.index {
                    _ = try? DecoderContext.send(p, to: sound.decoder)
                    try decodeSound()
                }
            }
            _ = try? DecoderContext.send(nil, to: decoder)
            try decodePictures()
            try pictureFilter?.push(nil)
            try pullPictures()
            if let sound {
                _ = try? DecoderContext.send(nil, to: sound.decoder)
                try decodeSound()
                try sound.filter.push(nil)
                try pullSound()
            }
        } catch let error as ReelError {
            throw error
        } catch {
            throw ReelError("\(error)")
        }
        return pictures == 0 ? 0 : lastPicture + step
    }
}
