// The FFmpeg side of one take: H.264 and AAC encoders, pixel and sample conversion, and the
// fragmented MOV/MP4 muxer writing through a FileSink. Lives on the writer's thread only.
import CFFmpeg
import Foundation
import KioskCore

/// What the session says after taking a frame or a chunk.
enum SessionStatus: Equatable {
    case ok
    /// A limit or a failure: the take must end with this reason.
    case stop(StopReason)
}

final class EncodingSession {
    let settings: MovieSettings
    let sink: FileSink
    /// The video encoder actually used, and why it is not the one asked for (if it is not).
    let videoEncoderName: String
    let fallbackNote: String?

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var video: UnsafeMutablePointer<AVCodecContext>?
    private var audio: UnsafeMutablePointer<AVCodecContext>?
    private var videoStream: UnsafeMutablePointer<AVStream>
    private var audioStream: UnsafeMutablePointer<AVStream>?
    private var videoFrame: UnsafeMutablePointer<AVFrame>?
    private var audioFrame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: Scaler?
    private var resampler: OpaquePointer?
    private var fifo: OpaquePointer?

    // Timing: everything is relative to the first video frame's capture time.
    private var origin: Int64?
    private var lastVideoPTS: Int64 = -1
    private var videoFramesWritten = 0
    private var audioSamplesQueued: Int64 = 0   // samples pushed into the FIFO (the audio clock)
    private var audioSamplesEncoded: Int64 = 0
    private var pendingAudio: [AudioChunk] = []
    /// Video time at which the current fragment started.
    private var fragmentStartPTS: Int64 = 0
    private var pendingBytes: Int64 = 0
    private var pendingPackets = 0
    private var fragments = 0
    /// The mehd duration field (file offset) and the movie timescale, kept current at each fragment.
    private var mehd: (offset: Int, timescale: UInt64)?
    /// Free disk space when the last fragment was synced (statvfs), to keep `minFreeDisk` free.
    private var freeAtSync: Int64?
    private(set) var videoEnd: Double = 0
    private(set) var audioEnd: Double = 0

    static let videoTimeBase = AVRational(num: 1, den: 90000)

    init(settings: MovieSettings) throws(AVError) {
        self.settings = settings
        MediaLibraries.quietLogs()
        sink = try FileSink(path: settings.outputPath)

        var fmt: UnsafeMutablePointer<AVFormatContext>?
        var result = avformat_alloc_output_context2(&fmt, nil, settings.container, settings.outputPath)
        guard result >= 0, let fmt else { throw AVError(code: result, call: "avformat_alloc_output_context2") }
        format = fmt
        packet = av_packet_alloc()
        videoFrame = av_frame_alloc()

        // The video encoder: the one asked for, else libx264.
        var chosen = settings.videoEncoder
        var note: String?
        var context: UnsafeMutablePointer<AVCodecContext>?
        do {
            context = try Self.openVideoEncoder(chosen, settings: settings, globalHeader: fmt.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0)
        } catch where chosen != "libx264" {
            note = "video encoder \(chosen) could not open (\(error.text)); using libx264"
            chosen = "libx264"
            context = try Self.openVideoEncoder(chosen, settings: settings, globalHeader: fmt.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0)
        }
        video = context
        videoEncoderName = chosen
        fallbackNote = note
        guard let video = context, let stream = avformat_new_stream(fmt, nil) else {
            throw AVError(code: AVError.code(posix: ENOMEM), call: "avformat_new_stream")
        }
        videoStream = stream
        result = avcodec_parameters_from_context(stream.pointee.codecpar, video)
        guard result >= 0 else { throw AVError(code: result, call: "avcodec_parameters_from_context") }
        stream.pointee.time_base = video.pointee.time_base
        // The display matrix: players turn the picture by this much clockwise. FFmpeg's sign is the
        // other way round (av_display_rotation_get(set(a)) == -a), so ffprobe shows -90 for a quarter.
        let degrees = Double(((settings.rotationQuarterTurns % 4) + 4) % 4 * 90)
        if degrees != 0, let side = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * 4) {
            side.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_set($0, degrees) }
        }

        if let audioSettings = settings.audio {
            let audio = try Self.openAudioEncoder(sampleRate: audioSettings.sampleRate, channels: audioSettings.channels,
                                                  globalHeader: fmt.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0)
            self.audio = audio
            guard let stream = avformat_new_stream(fmt, nil) else {
                throw AVError(code: AVError.code(posix: ENOMEM), call: "avformat_new_stream")
            }
            audioStream = stream
            result = avcodec_parameters_from_context(stream.pointee.codecpar, audio)
            guard result >= 0 else { throw AVError(code: result, call: "avcodec_parameters_from_context") }
            stream.pointee.time_base = audio.pointee.time_base

            var inLayout = AVChannelLayout()
            av_channel_layout_default(&inLayout, Int32(audioSettings.channels))
            var swr: OpaquePointer?
            result = swr_alloc_set_opts2(&swr, &audio.pointee.ch_layout, audio.pointee.sample_fmt, audio.pointee.sample_rate,
                                         &inLayout, AV_SAMPLE_FMT_S16, Int32(audioSettings.sampleRate), 0, nil)
            guard result >= 0, let swr else { throw AVError(code: result, call: "swr_alloc_set_opts2") }
            resampler = swr
            result = swr_init(swr)
            guard result >= 0 else { throw AVError(code: result, call: "swr_init") }
            fifo = av_audio_fifo_alloc(audio.pointee.sample_fmt, audio.pointee.ch_layout.nb_channels, 4 * max(audio.pointee.frame_size, 1024))
            audioFrame = av_frame_alloc()
        }

        io = try sink.makeIOContext()
        fmt.pointee.pb = io
        fmt.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // Fragmented: a moov without samples first, then self-contained fragments that we cut
        // ourselves (frag_custom) and sync one by one. A file cut anywhere plays up to its last
        // whole fragment.
        var options: OpaquePointer?
        // skip_trailer: no mfra index at the end. Its moof offsets would be the muxer's, 20 bytes short
        // of the file's after the mehd; demuxers find the fragments by walking them anyway.
        av_dict_set(&options, "movflags", "frag_custom+empty_moov+default_base_moof+skip_trailer", 0)
        result = avformat_write_header(fmt, &options)
        av_dict_free(&options)
        guard result >= 0 else { throw AVError(code: result, call: "avformat_write_header") }
        avio_flush(io)
        // Give the header the mehd box FFmpeg leaves out (see MoovDurations).
        if let header = MoovDurations.insertMehd(into: sink.read(upTo: Int(sink.size))), sink.replaceHeader(with: header) {
            mehd = MoovDurations.mehdField(in: header)
        }
        guard sink.sync() else { throw AVError(code: AVError.code(posix: sink.failure ?? EIO), call: "fdatasync") }
        freeAtSync = DiskSpace.available(at: settings.outputPath)
    }

    deinit {
        var v = video, a = audio
        avcodec_free_context(&v)
        avcodec_free_context(&a)
        av_frame_free(&videoFrame)
        av_frame_free(&audioFrame)
        av_packet_free(&packet)
        swr_free(&resampler)
        if let fifo { av_audio_fifo_free(fifo) }
        if let format {
            format.pointee.pb = nil
            avformat_free_context(format)
        }
        if let io {
            av_free(io.pointee.buffer)
            var context: UnsafeMutablePointer<AVIOContext>? = io
            avio_context_free(&context)
        }
    }

    static func openVideoEncoder(_ name: String, settings: MovieSettings, globalHeader: Bool) throws(AVError) -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw AVError(code: AVError.code(posix: ENOENT), call: "avcodec_find_encoder_by_name(\(name))")
        }
        guard let c = avcodec_alloc_context3(codec) else { throw AVError(code: AVError.code(posix: ENOMEM), call: "avcodec_alloc_context3") }
        let fps = max(Int32(settings.fps.rounded()), 1)
        c.pointee.width = Int32(settings.videoSize.width)
        c.pointee.height = Int32(settings.videoSize.height)
        c.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        c.pointee.time_base = videoTimeBase
        c.pointee.framerate = AVRational(num: fps, den: 1)
        c.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        c.pointee.color_range = AVCOL_RANGE_MPEG
        // One keyframe a second: a crash-cut file plays from its first whole second, and seeking
        // in review is quick. No B-frames: each frame leaves the encoder as soon as it is coded.
        c.pointee.gop_size = fps
        c.pointee.max_b_frames = 0
        c.pointee.thread_count = 2
        if globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        if let bitrate = settings.bitrate { c.pointee.bit_rate = Int64(bitrate) }
        var options: OpaquePointer?
        if name == "libx264" {
            av_dict_set(&options, "preset", settings.preset, 0)
            // zerolatency: no look-ahead, no frame threads (slice threads instead), no B-frames:
            // nothing waits inside the encoder, so a crash or a stop loses no extra frames.
            av_dict_set(&options, "tune", "zerolatency", 0)
            if settings.bitrate == nil { av_dict_set(&options, "crf", "\(settings.crf)", 0) }
        }
        let result = avcodec_open2(c, codec, &options)
        av_dict_free(&options)
        guard result >= 0 else {
            var context: UnsafeMutablePointer<AVCodecContext>? = c
            avcodec_free_context(&context)
            throw AVError(code: result, call: "avcodec_open2(\(name))")
        }
        return c
    }

    static func openAudioEncoder(sampleRate: Int, channels: Int, globalHeader: Bool) throws(AVError) -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw AVError(code: AVError.code(posix: ENOENT), call: "avcodec_find_encoder_by_name(aac)")
        }
        guard let c = avcodec_alloc_context3(codec) else { throw AVError(code: AVError.code(posix: ENOMEM), call: "avcodec_alloc_context3") }
        c.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        c.pointee.sample_rate = Int32(sampleRate)
        av_channel_layout_default(&c.pointee.ch_layout, Int32(channels))
        c.pointee.bit_rate = channels > 1 ? 128_000 : 96_000
        c.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        if globalHeader { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let result = avcodec_open2(c, codec, nil)
        guard result >= 0 else {
            var context: UnsafeMutablePointer<AVCodecContext>? = c
            avcodec_free_context(&context)
            throw AVError(code: result, call: "avcodec_open2(aac)")
        }
        return c
    }

    var duration: Double { max(videoEnd, audioEnd) }
    var hasVideo: Bool { videoFramesWritten > 0 && fragments > 0 }

    // MARK: - Video

    /// Encodes a frame; says when the take must end (a limit reached, a failure).
    func encode(_ frame: VideoFrame) -> SessionStatus {
        let start = origin ?? frame.timestamp
        if origin == nil {
            origin = start
            // Audio that came before the first frame is now placed (or trimmed) against it.
            let early = pendingAudio
            pendingAudio = []
            for chunk in early { if case .stop(let r) = encode(chunk) { return .stop(r) } }
        }
        let seconds = Double(frame.timestamp - start) / 1e9
        // Max duration, exact: a frame that would start at or after the limit is not taken.
        if seconds >= settings.maxDuration - 0.0005 { return .stop(.maxDuration) }
        var pts = Int64((seconds * 90000).rounded())
        if pts <= lastVideoPTS { pts = lastVideoPTS + 1 }
        guard let video, let videoFrame else { return .stop(.error) }
        do {
            try fill(videoFrame, from: frame, codec: video)
        } catch {
            Log.info("writer: \(error)")
            return .stop(.error)
        }
        videoFrame.pointee.pts = pts
        lastVideoPTS = pts
        let status = send(videoFrame, to: video, stream: videoStream)
        videoFramesWritten += 1
        videoEnd = Double(pts) / 90000 + 1 / max(settings.fps, 1)
        if status != .ok { return status }
        // Cut a fragment every `fragmentSeconds` of video.
        if Double(pts - fragmentStartPTS) / 90000 >= settings.fragmentSeconds {
            fragmentStartPTS = pts
            return flushFragment()
        }
        return .ok
    }

    /// Converts (or copies) the frame into the encoder's own picture (one pass with swscale).
    private func fill(_ target: UnsafeMutablePointer<AVFrame>, from frame: VideoFrame, codec: UnsafeMutablePointer<AVCodecContext>) throws(AVError) {
        if target.pointee.width != codec.pointee.width || target.pointee.height != codec.pointee.height || target.pointee.buf.0 == nil {
            av_frame_unref(target)
            target.pointee.format = codec.pointee.pix_fmt.rawValue
            target.pointee.width = codec.pointee.width
            target.pointee.height = codec.pointee.height
            let r = av_frame_get_buffer(target, 0)
            guard r >= 0 else { throw AVError(code: r, call: "av_frame_get_buffer") }
        }
        // The encoder may still hold the last picture: write into a fresh buffer if it is shared.
        let r = av_frame_make_writable(target)
        guard r >= 0 else { throw AVError(code: r, call: "av_frame_make_writable") }
        // Full-range camera (MJPEG) pictures become video range, as H.264 players expect. A picture
        // of the movie's size takes the nearest sample (the chroma rows of 4:2:2), others are scaled.
        let key = Scaler.Key(source: frame.format.avPixelFormat, sourceWidth: Int32(frame.size.width), sourceHeight: Int32(frame.size.height),
                             target: codec.pointee.pix_fmt, targetWidth: codec.pointee.width, targetHeight: codec.pointee.height,
                             sourceFullRange: frame.fullRange, targetFullRange: false, bt709: false,
                             flags: frame.size == settings.videoSize ? SWS_POINT : SWS_BILINEAR)
        let scaler = try Scaler.fitting(&scaler, key)
        let picture = target.pointee
        try frame.bytes.withUnsafeBufferPointer { bytes throws(AVError) in
            try scaler.scale(frame.planes.map { UnsafePointer(bytes.baseAddress! + $0.offset) }, pitches: frame.planes.map(\.stride),
                             into: picture.planePointers, pitches: picture.planePitches)
        }
    }

    // MARK: - Audio

    /// Places a chunk on the video's time line (trimming what came before the first frame, filling
    /// or trimming drift over 20 ms) and encodes whole AAC frames.
    func encode(_ chunk: AudioChunk) -> SessionStatus {
        guard let audio, let fifo, let resampler, let audioSettings = settings.audio else { return .ok }
        guard let origin else {
            pendingAudio.append(chunk)
            return .ok
        }
        let rate = Int64(audioSettings.sampleRate)
        let channels = chunk.channels
        // Where the chunk's first sample belongs, in samples from the first video frame.
        var expected = (chunk.timestamp - origin) * rate / 1_000_000_000
        var samples = chunk.samples[...]
        let limit = Int64((settings.maxDuration * Double(rate)).rounded(.down))
        if expected < audioSamplesQueued {
            // Overlap (before the origin, or the mic's clock ran fast): drop the overlapping part.
            let drop = Int(min(audioSamplesQueued - expected, Int64(chunk.frameCount)))
            if audioSamplesQueued > 0 && audioSamplesQueued - expected < rate / 50 && expected >= 0 {
                // Under 20 ms of drift: keep the samples, the clock will catch up.
                expected = audioSamplesQueued
            } else {
                samples = samples.dropFirst(drop * channels)
                expected += Int64(drop)
            }
        }
        if expected > audioSamplesQueued {
            let gap = expected - audioSamplesQueued
            // Start at zero together, and cover a gap over 20 ms with silence.
            if audioSamplesQueued == 0 || gap >= rate / 50 {
                let silence = [Int16](repeating: 0, count: Int(min(gap, limit - audioSamplesQueued).clamped(0, Int64.max)) * channels)
                if !silence.isEmpty { push(silence[...], channels: channels, resampler: resampler, fifo: fifo) }
            }
        }
        let room = Int(max(limit - audioSamplesQueued, 0))
        if samples.count / channels > room { samples = samples.prefix(room * channels) }
        if !samples.isEmpty { push(samples, channels: channels, resampler: resampler, fifo: fifo) }
        return drainAudio(audio: audio, fifo: fifo, final: false)
    }

    private func push(_ samples: ArraySlice<Int16>, channels: Int, resampler: OpaquePointer, fifo: OpaquePointer) {
        let count = samples.count / channels
        guard count > 0, let audioFrame, let audio else { return }
        // Same rate in and out: swresample only reorders S16 interleaved into float planes.
        av_frame_unref(audioFrame)
        audioFrame.pointee.format = audio.pointee.sample_fmt.rawValue
        audioFrame.pointee.nb_samples = Int32(count)
        av_channel_layout_copy(&audioFrame.pointee.ch_layout, &audio.pointee.ch_layout)
        guard av_frame_get_buffer(audioFrame, 0) >= 0 else { return }
        let converted: Int32 = samples.withUnsafeBufferPointer { input in
            var inputPlanes: [UnsafePointer<UInt8>?] = [UnsafeRawPointer(input.baseAddress!).assumingMemoryBound(to: UInt8.self)]
            return withUnsafeMutablePointer(to: &audioFrame.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { out in
                    swr_convert(resampler, out, Int32(count), &inputPlanes, Int32(count))
                }
            }
        }
        guard converted > 0 else { return }
        withUnsafeMutablePointer(to: &audioFrame.pointee.data) { data in
            data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { planes in
                _ = av_audio_fifo_write(fifo, planes, converted)
            }
        }
        audioSamplesQueued += Int64(converted)
        av_frame_unref(audioFrame)
    }

    private func drainAudio(audio: UnsafeMutablePointer<AVCodecContext>, fifo: OpaquePointer, final: Bool) -> SessionStatus {
        guard let audioFrame, let audioStream else { return .ok }
        let frameSize = max(audio.pointee.frame_size, 1024)
        while av_audio_fifo_size(fifo) >= frameSize || (final && av_audio_fifo_size(fifo) > 0) {
            let n = min(frameSize, av_audio_fifo_size(fifo))
            av_frame_unref(audioFrame)
            audioFrame.pointee.format = audio.pointee.sample_fmt.rawValue
            audioFrame.pointee.nb_samples = n
            av_channel_layout_copy(&audioFrame.pointee.ch_layout, &audio.pointee.ch_layout)
            audioFrame.pointee.sample_rate = audio.pointee.sample_rate
            guard av_frame_get_buffer(audioFrame, 0) >= 0 else { return .stop(.error) }
            withUnsafeMutablePointer(to: &audioFrame.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { planes in
                    _ = av_audio_fifo_read(fifo, planes, n)
                }
            }
            audioFrame.pointee.pts = audioSamplesEncoded
            audioSamplesEncoded += Int64(n)
            audioEnd = Double(audioSamplesEncoded) / Double(audio.pointee.sample_rate)
            let status = send(audioFrame, to: audio, stream: audioStream)
            if status != .ok { return status }
        }
        return .ok
    }

    // MARK: - Packets and fragments

    /// Sends a frame (or nil to drain) and writes every packet that comes out.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?, to codec: UnsafeMutablePointer<AVCodecContext>,
                      stream: UnsafeMutablePointer<AVStream>) -> SessionStatus {
        guard let packet, let format else { return .stop(.error) }
        var result = avcodec_send_frame(codec, frame)
        guard result >= 0 || result == kiosk_AVERROR_EOF() else {
            Log.info("writer: \(AVError(code: result, call: "avcodec_send_frame"))")
            return .stop(.error)
        }
        while true {
            result = avcodec_receive_packet(codec, packet)
            if result == kiosk_AVERROR_EAGAIN() || result == kiosk_AVERROR_EOF() { return .ok }
            guard result >= 0 else {
                Log.info("writer: \(AVError(code: result, call: "avcodec_receive_packet"))")
                return .stop(.error)
            }
            // Max file size, exact: the file as it stands, the fragment waiting in the muxer, this
            // packet, the fragment's own boxes and the trailer must all fit under the cap.
            let boxes = Int64(512 + 16 * (pendingPackets + 1))
            let trailer = Int64(256 + 48 * (fragments + 1))
            let needed = pendingBytes + Int64(packet.pointee.size) + boxes + trailer
            if sink.size + needed > settings.maxFileSize {
                av_packet_unref(packet)
                return .stop(.maxFileSize)
            }
            // Min free disk, the same way: stop before the fragment would eat into the reserve, so
            // the take ends on a whole fragment rather than on a failed write.
            if let free = freeAtSync, free - needed < settings.minFreeDisk {
                av_packet_unref(packet)
                return .stop(.diskFull)
            }
            pendingBytes += Int64(packet.pointee.size)
            pendingPackets += 1
            // Tell the muxer each video packet's length, so a fragment's last one is not guessed.
            if packet.pointee.duration == 0 && codec == video {
                packet.pointee.duration = Int64((90000 / max(settings.fps, 1)).rounded())
            }
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            // Interleaved: AAC's first packet starts before zero (its priming), and the muxer can
            // only shift every stream to make that non-negative if it sees it before any video.
            result = av_interleaved_write_frame(format, packet)
            av_packet_unref(packet)
            guard result >= 0 else { return failure(result, call: "av_interleaved_write_frame") }
        }
    }

    /// Writes the open fragment out and makes it durable; checks the free disk space after it.
    func flushFragment() -> SessionStatus {
        guard let format, pendingPackets > 0 else { return .ok }
        // Everything the interleaver holds goes into this fragment, then the fragment is cut.
        var result = av_interleaved_write_frame(format, nil)
        guard result >= 0 else { return failure(result, call: "av_interleaved_write_frame(flush)") }
        result = av_write_frame(format, nil)
        guard result >= 0 else { return failure(result, call: "av_write_frame(flush)") }
        avio_flush(format.pointee.pb)
        if let error = sink.failure { return failure(AVError.code(posix: error), call: "write") }
        if let mehd { MoovDurations.writeMehd(fd: sink.fd, offset: mehd.offset, seconds: duration, timescale: mehd.timescale) }
        guard sink.sync() else { return failure(AVError.code(posix: sink.failure ?? EIO), call: "fdatasync") }
        fragments += 1
        pendingBytes = 0
        pendingPackets = 0
        freeAtSync = DiskSpace.available(at: settings.outputPath)
        if let free = freeAtSync, free < settings.minFreeDisk { return .stop(.diskFull) }
        return .ok
    }

    private func failure(_ code: Int32, call: String) -> SessionStatus {
        let error = AVError(code: code, call: call)
        Log.info("writer: \(error)")
        if sink.failure == ENOSPC || sink.failure == EDQUOT || code == AVError.code(posix: ENOSPC) { return .stop(.diskFull) }
        return .stop(.error)
    }

    /// Ends the take: drains the encoders, writes the last fragment and the trailer, syncs the file
    /// and its folder. After a failed write the file is cut back to its last whole fragment instead.
    func finish() {
        if sink.failure == nil, let format {
            if let video { _ = send(nil, to: video, stream: videoStream) }
            if let audio, let fifo, let audioStream {
                _ = drainAudio(audio: audio, fifo: fifo, final: true)
                _ = send(nil, to: audio, stream: audioStream)
            }
            if sink.failure == nil {
                let r = av_write_trailer(format)
                if r < 0 { Log.info("writer: \(AVError(code: r, call: "av_write_trailer"))") }
                avio_flush(format.pointee.pb)
            }
            if sink.failure == nil, sink.sync() {
                fragments += 1
                var tracks = [videoEnd]
                if audio != nil { tracks.append(audioEnd) }
                if let mehd { MoovDurations.writeMehd(fd: sink.fd, offset: mehd.offset, seconds: duration, timescale: mehd.timescale) }
                MoovDurations.patch(fd: sink.fd, movieSeconds: duration, trackSeconds: tracks)
            }
        }
        if sink.failure != nil {
            sink.truncateToLastSync()
        }
        sink.syncFileAndFolder()
    }
}

extension Comparable {
    func clamped(_ low: Self, _ high: Self) -> Self { min(max(self, low), high) }
}

/// Free space for the user on the disk holding a path (`statvfs`).
public enum DiskSpace {
    public static func available(at path: String) -> Int64? {
        var folder = (path as NSString).deletingLastPathComponent
        if folder.isEmpty { folder = "." }
        var s = statvfs()
        guard statvfs(folder, &s) == 0 else { return nil }
        return Int64(s.f_bavail) * Int64(s.f_frsize)
    }
}
