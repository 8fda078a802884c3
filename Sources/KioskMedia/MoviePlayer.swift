// The take's player: libavformat demuxes on a thread of its own, libavcodec decodes the picture
// (frame-threaded) and the sound on one thread each, through bounded queues. The sound goes to a
// ring the output device's thread pulls, and sets the clock; the UI asks `update` each loop for
// the picture due now. Nothing here calls SDL.
//
//   demux thread ─packets─▶ video thread ─DecodedPictures─▶ FrameQueue ─update()─▶ UI thread
//               └─packets─▶ audio thread ─samples────▶ AudioRing ──fill()───▶ device thread
//                                                          └─ sets PlaybackClock ◀── update() reads
import CFFmpeg
import Foundation
import KioskCore
import KioskSystem
import Synchronization

/// Plays one movie file. Made, asked and closed on the UI thread; its own threads end on `close`
/// (or deinit). See docs/playback.md for the design and its figures.
public final class MoviePlayer {
    public struct Options: Sendable {
        /// A read (or the opening probe) that takes longer than this fails the playback.
        public var readTimeout: Double = 5
        /// Decoded pictures waiting for their time (1280x720: 1.4 MB each).
        public var frameQueue = 6
        /// The largest picture the decoder will make (4096x4096); a bigger one is an error.
        public var maxPixels = 4096 * 4096
        /// libavcodec's thread count for the picture; 0 lets it choose (cores + 1).
        public var decoderThreads = 0
        /// How long the first picture waits for the sound to start the clock before it runs alone.
        public var audioWait: Double = 0.5

        public init() {}
    }

    /// What the file holds, known once it is open.
    public struct Info: Sendable, Equatable {
        /// Seconds, when the file says.
        public var duration: Double?
        public var videoSize: Size?
        /// Degrees to turn the picture clockwise (SDL's angle): −av_display_rotation_get of the
        /// stream's display matrix, in 0..<360.
        public var rotation: Double
        public var audio: AudioTrack?
        public var videoCodec: String?
        public var audioCodec: String?
    }

    public struct AudioTrack: Sendable, Equatable {
        public var sampleRate: Int
        public var channels: Int
    }

    public enum End: Equatable, Sendable {
        case end
        case error(String)
    }

    /// What the UI does now.
    public struct Update: Sendable {
        /// A new picture to show now, in the decoder's buffers; nil: keep the one on screen.
        public var picture: DecodedPicture?
        /// Seconds from the start of the file to the picture shown (or to the sound heard).
        public var position: Double
        public var duration: Double
        /// Set once: the playback is over.
        public var ended: End?

        /// The new picture copied out as a VideoFrame, nil when there is none (tests; the screen
        /// takes `picture` as it is).
        public func copiedFrame() throws(AVError) -> VideoFrame? { try picture?.videoFrame() }
    }

    public let path: String
    let core: PlayerCore
    private var demuxThread: WorkerThread?
    private var closed = false
    // UI-thread state.
    private var shown: FrameQueue.Entry?
    private var firstShownAt: Int64?
    private var ended: End?
    private var lastPosition = 0.0
    private var audioAttached = false
    /// Pictures that came too late and were skipped.
    public private(set) var droppedFrames = 0

    /// Starts opening the file on the demux thread; `update` says when it is open.
    public init(path: String, options: Options = Options()) {
        self.path = path
        core = PlayerCore(path: path, options: options)
        let core = core
        demuxThread = Self.startDemuxing(core)
    }

    deinit { close() }

    /// The file's streams, once it is open (nil before, and after a failure to open).
    public var info: Info? { core.status.withLock { $0.opened?.info } }

    /// The sound for the output device to pull. Silence until `attachAudio` and after `close`.
    public var audio: any AudioFeed { core.ring }

    /// Says what the output device takes (its real format), or nil when there is no device: the
    /// file then plays without sound, on the monotonic clock. Call once, after `info` appeared.
    public func attachAudio(_ format: AudioOutputFormat?) {
        guard !audioAttached else { return }
        audioAttached = true
        if let format { core.ring.configure(format) }
        core.audioOutput.update { $0 = format.map { .format($0) } ?? .none }
    }

    public func setPaused(_ paused: Bool, now: Int64 = MonotonicClock.now()) {
        core.clock.setPaused(paused, now: now)
        core.ring.setPaused(paused)
    }

    /// The UI's step: the picture due at `now`, the position, and whether it is over.
    public func update(now: Int64 = MonotonicClock.now()) -> Update {
        let status = core.status.withLock { $0 }
        let duration = status.opened?.info.duration ?? 0
        if let ended { return Update(picture: nil, position: lastPosition, duration: duration, ended: ended) }
        if let failure = status.failure {
            ended = .error(failure)
            return Update(picture: nil, position: lastPosition, duration: duration, ended: ended)
        }
        guard let opened = status.opened else { return Update(picture: nil, position: 0, duration: 0, ended: nil) }
        let generation = core.generation.load(ordering: .acquiring)
        var fresh: DecodedPicture?
        var clock = core.clock.time(at: now)
        if clock == nil {
            // The first picture goes up at once; the clock starts with the sound, or without it when
            // there is none, it is not wanted, it ended unheard, or it keeps the picture waiting.
            if shown == nil, let entry = core.frames.takeDue(clock: nil, generation: generation).entry {
                shown = entry
                firstShownAt = now
                fresh = entry.picture
            }
            let attachment = core.audioOutput.read { $0 }
            let soundComing = opened.hasAudio && attachment != .none && !core.ring.drained
            let waitedEnough = firstShownAt.map { now - $0 > Int64(core.options.audioWait * 1e9) } ?? false
            if !soundComing || waitedEnough, shown != nil || core.frames.drained {
                core.clock.startMonotonic(at: shown?.picture.timestamp ?? 0, now: now)
                clock = core.clock.time(at: now)
            }
        } else if let c = clock {
            let (entry, skipped) = core.frames.takeDue(clock: c, generation: generation)
            droppedFrames += skipped
            if let entry {
                shown = entry
                firstShownAt = firstShownAt ?? now
                fresh = entry.picture
            }
        }
        if let shown {
            lastPosition = Double(shown.picture.timestamp) / 1e9
        } else if let clock {
            // Sound alone: the position in tenths, so the screen is not redrawn for every buffer.
            lastPosition = (Double(clock) / 1e8).rounded(.down) / 10
        }
        lastPosition = max(lastPosition, 0)
        // Over when every picture was shown for its time and every sample was heard.
        if core.frames.drained && core.ring.drained {
            let heardEnd = core.ring.playedEnd
            if shown == nil && heardEnd == nil {
                ended = .error(status.readError ?? "nothing in \(path) could be decoded")
            } else if let c = clock, c >= max(shown?.end ?? .min, heardEnd ?? .min) {
                ended = status.readError.map { .error($0) } ?? .end
            }
        }
        return Update(picture: fresh, position: lastPosition, duration: max(duration, lastPosition), ended: ended)
    }

    /// Nanoseconds from `now` until the next picture is due (nil: none is waiting, or the clock
    /// has not started): how long a UI loop may sleep.
    public func nextFrameDue(now: Int64 = MonotonicClock.now()) -> Int64? {
        guard let clock = core.clock.time(at: now), let next = core.frames.nextTimestamp else { return nil }
        return max(next.saturatingSubtracting(clock), 0)
    }

    /// Stops everything (any thread waiting wakes), joins the threads and frees the file. Pictures
    /// and sound decoded before the close carry the old generation and are never shown or heard.
    public func close() {
        guard !closed else { return }
        closed = true
        let generation = core.generation.add(1, ordering: .acquiringAndReleasing).newValue
        core.interruption.abort()
        core.audioOutput.update { $0 = .closed }
        core.videoPackets.close()
        core.audioPackets.close()
        core.frames.close()
        core.ring.close(generation: generation)
        demuxThread?.join()
        demuxThread = nil
    }

    // MARK: - The threads

    private static func startDemuxing(_ core: PlayerCore) -> WorkerThread? {
        do {
            return try WorkerThread(name: "kiosk-demux") { _ in demux(core) }
        } catch {
            core.fail("cannot start the player: no thread for it (\(error))")
            return nil
        }
    }

    /// The file as `open` left it: its demuxer, the decoders of its best streams that opened, and
    /// what it says about itself.
    struct Opening {
        let demuxer: Demuxer
        var video: VideoDecoder?
        var audio: AudioDecoder?
        let info: Info
        /// The streams whose packets go to `video` and `audio` (the others are discarded unread).
        let videoIndex: Int32?
        let audioIndex: Int32?
        /// The file's start on its streams' clocks, in nanoseconds: placed at 0.
        let start: Int64
        /// How long a picture lasts when the file does not say (its frame rate's, else 1/30 s).
        let frameLength: Int64
    }

    /// The demux thread: opens the file and the decoders, starts the decode threads, reads.
    private static func demux(_ core: PlayerCore) {
        guard var opening = open(core) else { return }
        core.status.withLock {
            $0.opened = Opened(info: opening.info, hasVideo: opening.video != nil, hasAudio: opening.audio != nil)
        }

        // Each decoder moves to its own thread. The region checker sees them tied to the demuxer,
        // whose streams they were opened from; they copied the stream's parameters
        // (avcodec_parameters_to_context) and keep no pointer into it, so no one else holds them.
        nonisolated(unsafe) let movingVideo = opening.video
        nonisolated(unsafe) let movingAudio = opening.audio
        opening.video = nil
        opening.audio = nil
        let (start, frameLength) = (opening.start, opening.frameLength)
        var threads: [WorkerThread] = []
        defer { for thread in threads { thread.join() } }
        if movingVideo != nil {
            do {
                threads.append(try WorkerThread(name: "kiosk-video") { _ in
                    Self.decodeVideo(movingVideo!, core, start: start, frameLength: frameLength, show: core.frames.put)
                })
            } catch {
                core.fail("cannot start the player: no thread for the picture (\(error))")
                core.abortQueues()
                return
            }
        } else {
            core.frames.finish()
        }
        if movingAudio != nil {
            do {
                threads.append(try WorkerThread(name: "kiosk-audio") { _ in
                    Self.decodeAudio(movingAudio!, core, start: start, play: core.ring.write)
                })
            } catch {
                core.fail("cannot start the player: no thread for the sound (\(error))")
                core.abortQueues()
                return
            }
        } else {
            core.ring.finish()
        }
        readPackets(opening, core)
    }

    /// Opens the file (`Demuxer`) and the decoders of its best picture and sound streams
    /// (`av_find_best_stream`), and reads what it says of itself. Nil, with the failure set on
    /// `core`, when it will not open or holds nothing this player can decode.
    static func open(_ core: PlayerCore) -> Opening? {
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(path: core.path, interruption: core.interruption, timeout: Int64(core.options.readTimeout * 1e9))
        } catch {
            core.fail(core.interruption.isAborted ? "closed" : "cannot open \(core.path): \(error.text) (\(error.call))")
            return nil
        }
        let videoStream = demuxer.bestStream(AVMEDIA_TYPE_VIDEO)
        let audioStream = demuxer.bestStream(AVMEDIA_TYPE_AUDIO, related: videoStream?.pointee.index ?? -1)
        var video: VideoDecoder?
        var audio: AudioDecoder?
        if let videoStream {
            do {
                video = try VideoDecoder(stream: videoStream, threads: core.options.decoderThreads, maxPixels: core.options.maxPixels)
            } catch {
                Log.info("player: no picture: \(error)")
            }
        }
        if let audioStream {
            do { audio = try AudioDecoder(stream: audioStream) } catch { Log.info("player: no sound: \(error)") }
        }
        guard video != nil || audio != nil else {
            core.fail("\(core.path) has no picture or sound this player can decode")
            return nil
        }
        var info = Info(duration: demuxer.duration.map { Double($0) / 1e9 }, videoSize: nil, rotation: 0, audio: nil,
                        videoCodec: video?.codecName, audioCodec: audio?.codecName)
        var frameLength: Int64 = 1_000_000_000 / 30
        if let videoStream, video != nil {
            let p = videoStream.pointee.codecpar.pointee
            if p.width > 0 && p.height > 0 { info.videoSize = Size(width: Int(p.width), height: Int(p.height)) }
            info.rotation = Self.rotation(of: videoStream)
            let rate = videoStream.pointee.avg_frame_rate
            if rate.num > 0 && rate.den > 0, Double(rate.num) / Double(rate.den) >= 1, Double(rate.num) / Double(rate.den) <= 1000 {
                frameLength = Int64(1e9 * Double(rate.den) / Double(rate.num))
            }
        }
        if let audioStream, audio != nil {
            let p = audioStream.pointee.codecpar.pointee
            info.audio = AudioTrack(sampleRate: Int(p.sample_rate), channels: Int(p.ch_layout.nb_channels))
        }
        demuxer.keep(only: [videoStream, audioStream].compactMap { s in s.map { $0.pointee.index } })
        return Opening(demuxer: demuxer, video: video, audio: audio, info: info,
                       videoIndex: video != nil ? videoStream?.pointee.index : nil,
                       audioIndex: audio != nil ? audioStream?.pointee.index : nil,
                       start: demuxer.startTime ?? 0, frameLength: frameLength)
    }

    /// Reads the file's packets into the decoders' queues until its end, a read error or the
    /// close, then says the end to both queues. `limit` bounds the packets read (the fuzz target's
    /// bound, so it can decode on the same thread; the player reads to the end).
    static func readPackets(_ opening: Opening, _ core: PlayerCore, limit: Int = .max) {
        defer {
            core.videoPackets.finish()
            core.audioPackets.finish()
        }
        guard let packet = av_packet_alloc() else {
            core.fail("out of memory")
            core.abortQueues()
            return
        }
        var p: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&p) }
        var read = 0
        reading: while !core.interruption.isAborted && read < limit {
            switch opening.demuxer.read(into: packet) {
            case .packet:
                read += 1
                let index = packet.pointee.stream_index
                let queue = index == opening.videoIndex ? core.videoPackets : index == opening.audioIndex ? core.audioPackets : nil
                guard let queue, let moved = Packet(moving: packet) else {
                    av_packet_unref(packet)
                    continue
                }
                if !queue.put(moved) { break reading }
            case .again:
                usleep(5_000)
            case .end:
                break reading
            case let .failed(error):
                // A cut or damaged file: play what came before. A stalled read is a failure.
                if error.code == AVError.code(posix: ETIMEDOUT) {
                    core.status.withLock { $0.readError = "reading \(core.path) timed out (\(error.call))" }
                } else {
                    Log.info("player: \(core.path): \(error); playing what was read")
                }
                break reading
            }
        }
    }

    /// The stream's display matrix as SDL's clockwise angle (0 when there is none or it is not a rotation).
    private static func rotation(of stream: UnsafeMutablePointer<AVStream>) -> Double {
        var size: Int = 0
        guard let side = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * 4 else { return 0 }
        let angle = side.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard angle.isFinite else { return 0 }
        let clockwise = (-angle).truncatingRemainder(dividingBy: 360)
        let normal = clockwise < 0 ? clockwise + 360 : clockwise
        return normal >= 359.999 ? 0 : normal
    }

    /// The video thread: packets → pictures → the frame queue through `show` (`FrameQueue.put`,
    /// which waits for room; the fuzz target takes each picture at once instead).
    static func decodeVideo(_ decoder: VideoDecoder, _ core: PlayerCore, start: Int64, frameLength: Int64,
                            show: (FrameQueue.Entry) -> Bool) {
        defer { core.frames.finish() }
        let generation = core.generation.load(ordering: .acquiring)
        var timeline = StreamTimeline(start: start, defaultDuration: frameLength)
        defer { logRetimed(timeline, outOfRange: decoder.timestampsOutOfRange, kind: "picture") }
        run(decoder, packets: core.videoPackets, core: core, kind: "picture") { output in
            var (picture, duration) = output
            let span = timeline.place(picture.timestamp, duration: duration)
            picture.timestamp = span.start
            return show(FrameQueue.Entry(picture: picture, end: span.end, generation: generation))
        }
    }

    /// The audio thread: waits for the device's format, then packets → samples → the ring through
    /// `play` (`AudioRing.write`, which waits for room; the fuzz target plays each chunk out at once).
    static func decodeAudio(_ decoder: AudioDecoder, _ core: PlayerCore, start: Int64,
                            play: (AudioSamples, _ generation: Int) -> Bool) {
        defer { core.ring.finish() }
        let attachment = core.audioOutput.wait { $0 == .waiting ? nil : $0 }
        guard case let .format(format) = attachment else {
            // No device: the packets are taken and dropped so the demuxer never waits for them.
            while case .packet = core.audioPackets.take() {}
            return
        }
        decoder.convert(to: format)
        let generation = core.generation.load(ordering: .acquiring)
        var timeline = StreamTimeline(start: start, defaultDuration: 0)
        defer { logRetimed(timeline, outOfRange: decoder.timestampsOutOfRange, kind: "sound chunk") }
        var late = 0
        func deliver(_ samples: AudioSamples) -> Bool {
            guard samples.frames > 0 else { return true }
            let length = Int64(samples.frames) * 1_000_000_000 / Int64(format.sampleRate)
            var placed = samples
            let span = timeline.place(samples.timestamp, duration: length)
            placed.timestamp = span.start
            // Sound whose time has passed (the clock ran on without it) would only pull the
            // picture back: skipped.
            if let clock = core.clock.time(at: MonotonicClock.now()), span.end < clock {
                late += 1
                return true
            }
            return play(placed, generation)
        }
        let finished = run(decoder, packets: core.audioPackets, core: core, kind: "sound", deliver: deliver)
        if finished, let rest = decoder.drainResampler() { _ = deliver(rest) }
        if late > 0 { Log.info("player: skipped \(late) late sound chunks") }
    }

    /// Says how many of a stream's timestamps were not believed: re-timed by its timeline (a jump
    /// over 10 s, an offset out of range), or out of range in nanoseconds (placed as missing ones).
    private static func logRetimed(_ timeline: StreamTimeline, outOfRange: Int, kind: String) {
        guard timeline.retimed + outOfRange > 0 else { return }
        Log.info("player: \(timeline.retimed) \(kind) timestamps re-timed (a jump over 10 s), \(outOfRange) out of range")
    }

    /// Feeds one decoder until the end of its stream: packets in, outputs to `deliver`. A packet
    /// the decoder refuses, or an output it fails to make, is skipped and counted. Returns false
    /// when the player closed (or `deliver` said so).
    @discardableResult
    private static func run<D: StreamDecoder>(_ decoder: D, packets: PacketQueue, core: PlayerCore, kind: String,
                                              deliver: (D.Output) -> Bool) -> Bool {
        var errors = 0
        func skip(_ error: AVError) {
            errors += 1
            if errors <= 3 { Log.info("player: a \(kind) could not be decoded, skipped: \(error)") }
        }
        /// Takes every output ready now; false to stop.
        func receiveAll() -> Bool {
            while true {
                do {
                    switch try decoder.receive() {
                    case let .output(output): if !deliver(output) { return false }
                    case .needsInput, .drained: return true
                    }
                } catch {
                    skip(error)
                    // A decoder that failed may fail again at once: this packet's outputs are given up.
                    return true
                }
            }
        }
        /// Sends a packet (nil: the end), taking outputs as they come.
        func send(_ packet: UnsafeMutablePointer<AVPacket>?) -> Bool {
            for _ in 0..<3 {
                let status: DecoderSend
                do { status = try decoder.send(packet) } catch {
                    skip(error)
                    return receiveAll()
                }
                guard receiveAll() else { return false }
                if status != .full { return true }
            }
            // Still full after its outputs were all taken: a decoder in a bad state; skip the packet.
            skip(AVError(code: kiosk_AVERROR_EAGAIN(), call: "avcodec_send_packet"))
            return true
        }
        defer {
            if errors > 3 { Log.info("player: \(errors) \(kind)s could not be decoded in all") }
            core.status.withLock { $0.decodeErrors += errors }
        }
        while true {
            switch packets.take() {
            case let .packet(packet):
                if !send(packet.pointer) { return false }
            case .end:
                return send(nil)
            case .closed:
                return false
            }
        }
    }
}

/// The two decoders as `run` drives them.
protocol StreamDecoder {
    associatedtype Output
    func send(_ packet: UnsafeMutablePointer<AVPacket>?) throws(AVError) -> DecoderSend
    func receive() throws(AVError) -> DecoderOutput<Output>
}

extension VideoDecoder: StreamDecoder {}
extension AudioDecoder: StreamDecoder {}

/// What the file is, once open. Its media timeline starts at 0 where the file starts (each
/// stream's `StreamTimeline` places it so).
struct Opened: Sendable {
    var info: MoviePlayer.Info
    var hasVideo: Bool
    var hasAudio: Bool
}

/// Whether and how the sound is played: the UI says once the file is open.
enum AudioAttachment: Equatable, Sendable {
    case waiting
    case format(AudioOutputFormat)
    /// No output device: no sound.
    case none
    case closed
}

/// What the player's threads share. Each part is thread-safe on its own.
final class PlayerCore: Sendable {
    struct Status: Sendable {
        var opened: Opened?
        /// Playback cannot go on (the file would not open, a read timed out).
        var failure: String?
        /// The file stopped being readable midway (a timeout): what was read plays, then an error.
        var readError: String?
        var decodeErrors = 0
    }

    let path: String
    let options: MoviePlayer.Options
    let interruption = Interruption()
    /// Bounded by count and bytes: a hostile file cannot make them eat memory.
    let videoPackets = PacketQueue(maxPackets: 256, maxBytes: 32 << 20)
    let audioPackets = PacketQueue(maxPackets: 512, maxBytes: 8 << 20)
    let frames: FrameQueue
    let clock = PlaybackClock()
    let ring: AudioRing
    let audioOutput = Monitor(AudioAttachment.waiting)
    let status = Locked(Status())
    /// Advanced by `close`: everything decoded before carries the old value and is dropped.
    let generation = Atomic<Int>(0)

    init(path: String, options: MoviePlayer.Options) {
        self.path = path
        self.options = options
        frames = FrameQueue(capacity: max(options.frameQueue, 1))
        ring = AudioRing(clock: clock)
    }

    func fail(_ message: String) {
        status.withLock { if $0.failure == nil { $0.failure = message } }
    }

    /// Ends every queue's waits (a start that failed halfway).
    func abortQueues() {
        interruption.abort()
        audioOutput.update { $0 = .closed }
        videoPackets.close()
        audioPackets.close()
        frames.close()
        ring.close(generation: generation.load(ordering: .acquiring))
    }
}
