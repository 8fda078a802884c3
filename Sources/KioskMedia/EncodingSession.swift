// The FFmpeg side of one take: the H.264 and AAC encoders and the fragmented MOV/MP4 muxer writing
// through a FileSink, and what ties them together: the time line, the fragments, the limits. Lives
// on the writer's thread only.
import CFFmpeg
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskStorage
import KioskSystem

/// What the session says after taking a frame or a chunk.
enum SessionStatus: Equatable {
    case ok
    /// A limit or a failure: the take must end with this reason.
    case stop(StopReason)
}

/// Made of owners, built step by step (STYLE 16): the file (FileSink), the IOContext writing into
/// it, the Muxer writing through that, a Packet, the VideoEncoder and the AudioEncoder (each made of
/// owners in turn). A throw at any step frees what the steps before it made.
final class EncodingSession {
    let settings: MovieSettings
    private let muxer: Muxer
    private let packet: Packet
    /// The latest video packet, written once the next one gives its real length.
    private let heldVideo: HeldVideoPacket
    private let video: VideoEncoder
    private let videoStream: UnsafeMutablePointer<AVStream>
    /// The sound's encoder and stream; nil without a microphone.
    let audio: (encoder: AudioEncoder, stream: UnsafeMutablePointer<AVStream>)?
    /// `--high-pass`: the filter the microphone's samples go through before the encoder, and its frame.
    let highPass: (filter: FilterGraph, scratch: Frame)?

    // Timing: everything is relative to the first video frame's capture time, which is pts 0. The
    // sound's clock counts samples on the same time line, from `sound.start` on: AAC's priming fills
    // the file's first `sound.start` samples (a decoder plays the encoder's delay there), so the sound
    // captured before that is not kept and no packet of either stream has a negative time. That
    // keeps the muxer from shifting anything: every frame is at its own capture time.
    var pictures = PictureLine()
    var sound: SoundLine
    private var cuts = Fragmenting()
    private var effort = EffortLine()
    /// The video encoder took pictures for `stallNanoseconds` and gave nothing back: the take ended
    /// (reason `error`) and the encoder is not drained (a hung one may never answer).
    var videoEncoderStalled: Bool { pictures.stalled }
    static let stallNanoseconds: Int64 = 1_000_000_000
    /// `test_stall_h264` (tests only): pictures after the first second go into the void.
    private let swallowsAfter: Int?
    /// `test_slow_h264` (tests only): each picture takes `TestEncoders.slowPictureMicroseconds` more.
    private let slowsEachPicture: Bool
    /// Syncs each fragment on a thread of its own (the encoder does not wait for the disk).
    private let syncer: FileSyncer
    private(set) var videoEnd: Double = 0
    var audioEnd: Double = 0
    /// The take's file is no longer in any folder (it, or its folder, was removed mid-take): what
    /// was written is gone with it, and the take has failed. The message says so.
    private(set) var lost: String?

    /// Opens the file, the encoders and the muxer, writes the header and syncs it. `failingAfter` is
    /// for tests: the init throws right after that step, as if the next call had failed.
    /// `clock` times the take's syncs.
    init(settings: MovieSettings, failingAfter step: Step? = nil, clock: SyncClock = SyncClock()) throws(AVError) {
        let failure = InjectedFailure(after: step)
        self.settings = settings
        MediaLibraries.quietLogs()
        let sink = try FileSink(path: settings.outputPath, mode: settings.fileMode, clock: clock)
        try failure.check(.file)
        let io = try IOContext(writingTo: sink)
        try failure.check(.ioContext)
        muxer = try Muxer(settings: settings, io: io)
        try failure.check(.muxer)
        packet = try Packet()
        heldVideo = try HeldVideoPacket()
        try failure.check(.packet)
        video = try VideoEncoder(settings: settings, globalHeader: muxer.globalHeader, failure: failure)
        videoStream = try muxer.addStream(for: video.codec, quarterTurns: settings.rotationQuarterTurns)
        try failure.check(.videoStream)
        if let audioSettings = settings.audio {
            let encoder = try AudioEncoder(sampleRate: audioSettings.sampleRate, channels: audioSettings.channels,
                                           globalHeader: muxer.globalHeader, failure: failure)
            let stream = try muxer.addStream(for: encoder.codec)
            try failure.check(.audioStream)
            audio = (encoder, stream)
            // `--high-pass`: the microphone's sound filtered as it is recorded. A filter that cannot be
            // made (a machine without libavfilter) records the sound unfiltered, as a call that fails
            // mid-take does: the guest's take matters more than the rumble.
            if let hertz = settings.highPass {
                do {
                    highPass = (try FilterGraph(FilterGraph.highPass(hertz), sampleRate: Int32(audioSettings.sampleRate),
                                                channels: Int32(audioSettings.channels), format: AV_SAMPLE_FMT_S16, output: AV_SAMPLE_FMT_S16),
                                try Frame())
                } catch {
                    Log.info("writer: --high-pass \(String(printf: "%g", hertz)) Hz: \(error); this take's sound is recorded unfiltered")
                    highPass = nil
                }
            } else {
                highPass = nil
            }
        } else {
            audio = nil
            highPass = nil
        }
        swallowsAfter = video.name == TestEncoders.stalling ? max(Int(settings.fps.rounded()), 1) : nil
        slowsEachPicture = video.name == TestEncoders.slow
        effortLevels = video.effortLevels(settings)
        sound = SoundLine(start: audio?.encoder.priming ?? 0)
        try muxer.writeHeader()
        guard sink.sync() else { throw AVError(code: AVError.code(posix: sink.failure ?? EIO), call: "fdatasync") }
        try failure.check(.header)
        cuts.freeAtSync = DiskSpace.available(at: settings.outputPath)
        syncer = try FileSyncer(duplicating: sink.file, clock: clock)
    }

    /// The output file.
    var sink: FileSink { muxer.sink }
    /// The video encoder actually used, and why it is not the one asked for (if it is not).
    var videoEncoderName: VideoEncoderName { video.name }
    var fallbackNote: String? { video.fallbackNote }
    /// Steps of effort the encoder has (`MovieSettings.effortLadder`; 1 for a hardware encoder).
    let effortLevels: Int
    /// The step of effort the writer wants: taken at the next key frame (`effortNews` says how it
    /// went); with `soon`, at the next picture (a key frame of the new encoder's own).
    var wantedEffort: Int { effort.wanted }
    func want(effort wanted: Int, soon: Bool) {
        effort.wanted = min(max(wanted, 0), effortLevels - 1)
        effort.soon = soon
    }
    /// What the last change of effort came to, once (nil: none since the last call).
    func effortNews() -> EffortNews? {
        defer { effort.news = nil }
        return effort.news
    }
    /// The pictures a second the take has: its pictures over its length.
    var frameRate: Double { videoEnd > 0 ? Double(pictures.written) / videoEnd : 0 }
    /// One picture's length, in the time base (1/90000), at the camera's rate: the length a packet
    /// is given (what the muxer takes for a fragment's last picture). Also when the take keeps every
    /// 2nd or 3rd picture: the pictures still queued when the rate stepped are one interval apart,
    /// and a fragment's last picture may not run past the next one's start; the pictures' own
    /// times (their capture times) make the track's variable rate.
    private var pictureLength: Int64 { Int64((90000 / max(settings.fps, 1)).rounded()) }

    var duration: Double { max(videoEnd, audioEnd) }
    /// Seconds the sound queued falls short of the picture's end (0 without sound or pictures, or
    /// when it reaches it): what a stopped live take still waits for from its microphone.
    var soundShortBy: Double {
        guard let audio, pictures.written > 0 else { return 0 }
        let rate = Double(audio.encoder.sampleRate)
        // (A take stopped at its length limit has no sound past it.)
        let end = min(Int64((videoEnd * rate).rounded()), Int64((settings.maxDuration * rate).rounded(.down)))
        return sound.queued < end ? Double(end - sound.queued) / rate : 0
    }
    var soundShort: Bool { soundShortBy > 0 }
    /// The take's length up to the last fragment that reached the disk: what a file cut there holds.
    private(set) var syncedDuration: Double = 0
    var hasVideo: Bool { pictures.written > 0 && cuts.synced > 0 }
    /// Bytes of the take so far: the file and what waits in the open fragment.
    var bytesWritten: Int64 { sink.size + cuts.pendingBytes }
    /// Bytes the take may still grow by before a limit stops it: the file-size cap, or the free
    /// space above the reserve as the last sync measured it.
    var bytesLeft: Int64 {
        let bySize = settings.maxFileSize - bytesWritten
        let byDisk = cuts.freeAtSync.map { $0 - settings.minFreeDisk - cuts.pendingBytes } ?? Int64.max
        return max(min(bySize, byDisk), 0)
    }

    // MARK: - Video

    /// Encodes a frame; says when the take must end (a limit reached, a failure).
    func encode(_ frame: VideoFrame) -> SessionStatus {
        let start = pictures.origin ?? frame.timestamp
        if pictures.origin == nil {
            pictures.origin = start
            // Audio that came before the first frame is now placed (or trimmed) against it.
            let early = sound.early
            sound.early = []
            for chunk in early { if case .stop(let r) = encode(chunk) { return .stop(r) } }
        }
        let seconds = Double(frame.timestamp.saturatingSubtracting(start)) / 1e9
        // Max duration, exact: a frame that would start at or after the limit is not taken.
        if seconds >= settings.maxDuration - 0.0005 { return .stop(.maxDuration) }
        var pts = Int64((seconds * 90000).rounded())
        if pts <= pictures.lastPTS { pts = pictures.lastPTS + 1 }
        // A step of effort waits for the next key frame (a new encoder begins with one): the GOP's
        // end, or at most a GOP's worth of pictures (x264's own key frames at scene cuts restart
        // its count; a flash each second would put the GOP's end off for ever).
        if effort.wanted != effort.current {
            let gop = settings.videoTuning().gop
            if effort.sinceKey >= gop || effort.waited >= gop || effort.soon, case let .stop(r) = changeEffort() { return .stop(r) }
            effort.waited += 1
        }
        let picture: UnsafeMutablePointer<AVFrame>
        do {
            picture = try video.picture(holding: frame)
        } catch {
            Log.info("writer: \(error)")
            return .stop(.error)
        }
        picture.pointee.pts = pts
        pictures.place(pts)
        let now = MonotonicClock.now()
        if pictures.lastPacketAt == nil { pictures.lastPacketAt = now }
        if slowsEachPicture { usleep(TestEncoders.slowPictureMicroseconds) }
        let status = swallowsAfter.map { pictures.written >= $0 } == true ? .ok : send(picture, to: video.codec, stream: videoStream)
        pictures.written += 1
        effort.sinceKey += 1
        // A hardware encoder that stopped answering: end the take while the file is whole.
        if status == .ok, let last = pictures.lastPacketAt, now - last > Self.stallNanoseconds {
            pictures.stalled = true
            // The pictures it swallowed are not in the file.
            videoEnd = pictures.packetsEnd
            Log.info("writer: the video encoder \(video.name) has returned no packet for \((now - last) / 1_000_000) ms; ending the take")
            return .stop(.error)
        }
        videoEnd = Double(pts + pictures.spacing(interval: pictureLength)) / 90000
        if status != .ok { return status }
        // The sound that waited for this picture (`drainAudio`) goes into the same fragment.
        if case let .stop(reason) = drainAudio(final: false) { return .stop(reason) }
        // Cut a fragment every `fragmentSeconds` of video.
        if Double(pts - cuts.startPTS) / 90000 >= settings.fragmentSeconds {
            // This picture's packet is held (HeldVideoPacket): the fragment ends where it begins.
            cuts.startPTS = pts
            return flushFragment()
        }
        return .ok
    }

    // MARK: - Packets and fragments

    /// Sends a frame (or nil to drain) and writes every packet that comes out.
    func send(_ frame: UnsafeMutablePointer<AVFrame>?, to codec: CodecContext,
                      stream: UnsafeMutablePointer<AVStream>) -> SessionStatus {
        let packet = packet.pointer
        var result = avcodec_send_frame(codec.pointer, frame)
        guard result >= 0 || result == kiosk_AVERROR_EOF() else {
            Log.info("writer: \(AVError(code: result, call: "avcodec_send_frame"))")
            return .stop(.error)
        }
        while true {
            result = avcodec_receive_packet(codec.pointer, packet)
            if result == kiosk_AVERROR_EAGAIN() || result == kiosk_AVERROR_EOF() { return .ok }
            guard result >= 0 else {
                Log.info("writer: \(AVError(code: result, call: "avcodec_receive_packet"))")
                return .stop(.error)
            }
            // Max file size, exact: the file as it stands, the fragment waiting in the muxer, this
            // packet, the fragment's own boxes and the trailer must all fit under the cap.
            let boxes = Int64(512 + 16 * (cuts.pendingPackets + 1))
            let trailer = Int64(256 + 48 * (cuts.written + 1))
            let needed = cuts.pendingBytes + Int64(packet.pointee.size) + boxes + trailer
            if sink.size + needed > settings.maxFileSize {
                av_packet_unref(packet)
                return .stop(.maxFileSize)
            }
            // Min free disk, the same way: stop before the fragment would eat into the reserve, so
            // the take ends on a whole fragment rather than on a failed write.
            if let free = cuts.freeAtSync, free - needed < settings.minFreeDisk {
                av_packet_unref(packet)
                return .stop(.diskFull)
            }
            cuts.pendingBytes += Int64(packet.pointee.size)
            cuts.pendingPackets += 1
            if codec === video.codec {
                pictures.lastPacketAt = MonotonicClock.now()
                if packet.pointee.flags & AV_PKT_FLAG_KEY != 0 { effort.sinceKey = 0 }
            }
            // Tell the muxer each video packet's length, so a fragment's last one is not guessed
            // (nor cut short when the take keeps every 2nd or 3rd picture).
            if packet.pointee.duration == 0 && codec === video.codec { packet.pointee.duration = pictures.spacing(interval: pictureLength) }
            if codec === video.codec { pictures.packetsEnd = Double(packet.pointee.pts + packet.pointee.duration) / 90000 }
            do {
                if codec === video.codec {
                    // Held until the next picture's packet gives its real length (the take's end: as guessed).
                    try heldVideo.hold(packet, timeBase: codec.pointer.pointee.time_base, stream: stream, muxer: muxer)
                } else {
                    av_packet_rescale_ts(packet, codec.pointer.pointee.time_base, stream.pointee.time_base)
                    packet.pointee.stream_index = stream.pointee.index
                    try muxer.write(packet)
                }
            } catch {
                return failure(error)
            }
        }
    }

    /// The encoder opened again at the wanted effort, before a key frame, when the stream stays one
    /// (`VideoEncoder.opened`): the old one drained (it holds nothing: no B-frames, no look-ahead),
    /// then replaced. Refused (the effort stays) when the new one's parameter sets would differ or it
    /// does not open.
    private func changeEffort() -> SessionStatus {
        let target = effort.wanted
        effort.waited = 0
        effort.soon = false
        let (from, to) = (settings.effortLadder[effort.current], settings.effortLadder[target])
        do {
            // The same preset: only the CRF changes, in the encoder as it is.
            if from.preset == to.preset {
                try video.setCRF(settings.crf + to.crfRaise)
                effort.current = target
                effort.news = .applied(target)
                return .ok
            }
            guard let fresh = try video.opened(effort: target, settings: settings, globalHeader: muxer.globalHeader) else {
                effort.news = .refused(target, "its SPS/PPS would differ from the take's")
                effort.wanted = effort.current
                return .ok
            }
            let status = send(nil, to: video.codec, stream: videoStream)
            if status != .ok { return status }
            video.use(fresh)
            if to.crfRaise > 0 { try video.setCRF(settings.crf + to.crfRaise) }
            effort.current = target
            effort.news = .applied(target)
        } catch {
            effort.news = .refused(target, "\(error)")
            effort.wanted = effort.current
        }
        return .ok
    }

    /// Writes the open fragment out and asks for it to be made durable (`FileSyncer`: the encoder
    /// goes on meanwhile); checks the free disk space after it. A failed sync of an earlier fragment
    /// ends the take here.
    func flushFragment() -> SessionStatus {
        guard cuts.pendingPackets > 0 else { return .ok }
        // Everything the interleaver holds goes into this fragment, then the fragment is cut.
        do {
            try muxer.cutFragment()
        } catch {
            return failure(error)
        }
        if let error = sink.failure { return failure(AVError(code: AVError.code(posix: error), call: "write")) }
        if let status = absorb(syncer.progress) { return status }
        muxer.writeDuration(seconds: duration)
        cuts.written += 1
        syncer.request(FileSyncer.Point(end: sink.size, duration: duration, fragments: cuts.written))
        // The picture held for its length goes into the next fragment: it counts there.
        cuts.pendingBytes = heldVideo.bytes
        cuts.pendingPackets = heldVideo.bytes > 0 ? 1 : 0
        cuts.freeAtSync = DiskSpace.available(at: settings.outputPath)
        if checkLost() { return .stop(.error) }
        if let free = cuts.freeAtSync, free < settings.minFreeDisk { return .stop(.diskFull) }
        return .ok
    }

    /// Whether the take's file has gone from its folder (`fstat`'s link count 0: it, or its whole
    /// folder, was removed), as a fragment is cut and at the end. The writes go on into the
    /// removed file without an error; a take nobody can open must not be reported as made.
    private func checkLost() -> Bool {
        guard lost == nil else { return true }
        var info = stat()
        guard fstat(sink.file.rawValue, &info) == 0, info.st_nlink == 0 else { return false }
        let folder = PathText.folder(of: settings.outputPath)
        lost = FileManager.default.fileExists(atPath: folder)
            ? "the take's file \(settings.outputPath) was removed while it was recorded"
            : "the take's folder \(folder) was removed while the take was recorded; the take is lost"
        Log.info("writer: \(lost!)")
        return true
    }

    /// Takes in what the fragments' syncs have reached: the synced point moves on; a failed sync is
    /// the file's failure, and the take's end (`.stop`).
    private func absorb(_ progress: FileSyncer.Progress) -> SessionStatus? {
        if let point = progress.synced {
            sink.synced(upTo: point.end)
            syncedDuration = point.duration
            cuts.synced = point.fragments
        }
        guard let error = progress.failure else { return nil }
        sink.failed(error)
        return failure(AVError(code: AVError.code(posix: error), call: "fdatasync"))
    }

    private func failure(_ error: AVError) -> SessionStatus {
        Log.info("writer: \(error)")
        if sink.failure == ENOSPC || sink.failure == EDQUOT || error.code == AVError.code(posix: ENOSPC) { return .stop(.diskFull) }
        return .stop(.error)
    }

    /// Ends the take: drains the encoders, writes the last fragment and the trailer, syncs the file
    /// and its folder. After a failed write the file is cut back to its last whole fragment instead.
    /// Returns the take's length as the disk holds it: all of it, or, when its end could not be
    /// written or synced, up to its last synced fragment.
    @discardableResult
    func finish() -> Double {
        // The fragments' syncs end first: one that failed is the take's failure.
        _ = absorb(syncer.settle())
        if sink.failure == nil {
            if !videoEncoderStalled { _ = send(nil, to: video.codec, stream: videoStream) }
            do throws(AVError) { try heldVideo.release(stream: videoStream, muxer: muxer) } catch { _ = failure(error) }
            if let audio {
                // The sound ends with the picture: a microphone ahead of the camera (its last
                // chunk, or a source held only to within 0.25 s of the clock) adds nothing after it.
                let end = Int64((videoEnd * Double(audio.encoder.sampleRate)).rounded())
                if pictures.written > 0, sound.queued > end {
                    let keep = max(end - sound.encoded, 0)
                    audio.encoder.keepQueued(Int(keep))
                    sound.queued = sound.encoded + Int64(audio.encoder.queued)
                }
                _ = drainAudio(final: true)
                _ = send(nil, to: audio.encoder.codec, stream: audio.stream)
            }
            if sink.failure == nil { muxer.writeTrailer() }
            if sink.failure == nil, sink.sync() {
                cuts.written += 1
                cuts.synced = cuts.written
                syncedDuration = duration
                var tracks = [videoEnd]
                if audio != nil { tracks.append(audioEnd) }
                muxer.writeDuration(seconds: duration)
                if !MoovDurations.patch(fd: sink.file.rawValue, movieSeconds: duration, trackSeconds: tracks) {
                    Log.info("writer: the take's length could not be written into its header; players count it from the cuts.written")
                }
            }
        }
        if let failure = sink.failure {
            Log.info("writer: the end of the take could not be written (\(String(cString: strerror(failure)))); it holds \(syncedDuration) s")
            sink.truncateToLastSync()
            // The header's length was moved on before the sync that failed: back to what is there.
            muxer.writeDuration(seconds: syncedDuration)
        }
        sink.syncFileAndFolder()
        _ = checkLost()
        return syncedDuration
    }
}
