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
        /// `--loop`: at the end the file plays again from its start, gaplessly (the demuxer reads on
        /// from the start and the decoders carry the timeline on), until closed.
        public var loop = false

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
        /// The play the position is in: 1, then 2, 3, … as a looping file begins again.
        public var play = 1

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
    /// The serial of the last seek (0: none yet).
    private var serial = 0
    /// A picture was shown at some time (a seek forgets `shown`, not that).
    private var showedAny = false
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

    /// Seeks to `seconds` from the file's start (ffplay's scheme): the serial moves on, so every
    /// picture and sample decoded before is never shown or heard; the clock waits for the new
    /// position's sound; the demuxer seeks to the key frame before and the decoders drop what comes
    /// before the target, so the first picture shown is the one at the target (at once, paused or
    /// not). The position reads `seconds` until it shows.
    public func seek(to seconds: Double) {
        guard !closed, ended == nil, seconds.isFinite else { return }
        var target = max(seconds, 0)
        if let duration = info?.duration { target = min(target, duration) }
        let ns = Int64(target * 1e9)
        serial = core.generation.add(1, ordering: .acquiringAndReleasing).newValue
        core.frames.flush(generation: serial)
        core.ring.flush(generation: serial)
        core.clock.reset(generation: serial)
        core.seeks.update { $0.request = SeekRequest(target: ns, serial: serial) }
        // A demuxer waiting for room wakes and sees the request.
        core.videoPackets.drop(before: serial)
        core.audioPackets.drop(before: serial)
        shown = nil
        firstShownAt = nil
        lastPosition = target
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
        if shown != nil { showedAny = true }
        if let shown {
            lastPosition = Double(core.inPlay(shown.picture.timestamp, serial: serial)) / 1e9
        } else if let clock {
            // Sound alone: the position in tenths, so the screen is not redrawn for every buffer.
            lastPosition = (Double(core.inPlay(clock, serial: serial)) / 1e8).rounded(.down) / 10
        }
        lastPosition = max(lastPosition, 0)
        // Over when every picture was shown for its time and every sample was heard.
        if core.frames.drained && core.ring.drained {
            let heardEnd = core.ring.playedEnd
            if shown == nil && heardEnd == nil && !showedAny {
                ended = .error(status.readError ?? "nothing in \(path) could be decoded")
            } else if let c = clock, c >= max(shown?.end ?? .min, heardEnd ?? .min) {
                ended = status.readError.map { .error($0) } ?? .end
            }
        }
        let now = shown?.picture.timestamp ?? clock ?? 0
        return Update(picture: fresh, position: lastPosition, duration: max(duration, lastPosition), ended: ended,
                      play: core.play(at: now, serial: serial))
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
        core.seeks.update { $0.closed = true }
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
                    Self.decodeVideo(movingVideo!, core, start: start, frameLength: frameLength, persistent: true, show: core.frames.put)
                })
            } catch {
                core.fail("cannot start the player: no thread for the picture (\(error))")
                core.abortQueues()
                return
            }
        } else {
            core.frames.finishForGood()
        }
        if movingAudio != nil {
            do {
                threads.append(try WorkerThread(name: "kiosk-audio") { _ in
                    Self.decodeAudio(movingAudio!, core, start: start, persistent: true, play: core.ring.write)
                })
            } catch {
                core.fail("cannot start the player: no thread for the sound (\(error))")
                core.abortQueues()
                return
            }
        } else {
            core.ring.finishForGood()
        }
        readPackets(opening, core, persistent: true)
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
    /// bound, so it can decode on the same thread). `persistent` (the player): at the end it waits
    /// for a seek (or, looping, reads on from the start), until the close; and each seek asked for
    /// is carried out between two reads.
    static func readPackets(_ opening: Opening, _ core: PlayerCore, limit: Int = .max, persistent: Bool = false) {
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
        // The loop: the file's length (the latest packet end of its first play), the current play's
        // shift, and the serial the decoders run on.
        var latestEnd: Int64?
        var length: Int64?
        var shift: Int64 = 0
        var serial = 0
        var readThisPlay = 0
        var seekedTo: Int64?
        func seek(_ request: SeekRequest) {
            let micro = opening.start.saturatingAdding(request.target) / 1000
            if let error = opening.demuxer.seek(toMicroseconds: micro) { Log.info("player: seek to \(request.target / 1_000_000) ms: \(error)") }
            let boundary = Boundary(serial: request.serial, target: request.target, shift: 0, drainFirst: false)
            core.videoPackets.flush(boundary)
            core.audioPackets.flush(boundary)
            (shift, serial, readThisPlay) = (0, request.serial, 0)
            seekedTo = request.target
        }
        reading: while !core.interruption.isAborted && read < limit {
            if persistent, let request = core.takeSeek() { seek(request); continue }
            var ended = false
            switch opening.demuxer.read(into: packet) {
            case .packet:
                read += 1
                readThisPlay += 1
                let index = packet.pointee.stream_index
                if core.options.loop, length == nil, let end = Self.end(of: packet, opening: opening) {
                    latestEnd = max(latestEnd ?? end, end)
                }
                let queue = index == opening.videoIndex ? core.videoPackets : index == opening.audioIndex ? core.audioPackets : nil
                guard let queue, let moved = Packet(moving: packet) else {
                    av_packet_unref(packet)
                    continue
                }
                if !queue.put(moved) { break reading }
            case .again:
                usleep(5_000)
            case .end:
                ended = true
                if persistent && seekedTo != nil && readThisPlay == 0 {
                    // Driver paranoia: a demuxer that seeks "successfully" past every packet (a
                    // fragmented file's index) is sent to the start; the decoders drop up to the target.
                    seekedTo = nil
                    if opening.demuxer.seek(toMicroseconds: opening.start / 1000) == nil {
                        Log.info("player: the seek found nothing to read; reading from the start to the target")
                        continue reading
                    }
                }
                if persistent && core.options.loop && readThisPlay > 0 {
                    // Gapless: the next play's packets follow this one's, its timestamps one file's
                    // length later; the decoders drain at the boundary and carry on.
                    let played = length ?? max(latestEnd ?? 0, opening.frameLength)
                    length = played
                    shift = shift.saturatingAdding(played)
                    core.loopShifts.withLock { $0.append((serial: serial, shift: shift)) }
                    let boundary = Boundary(serial: serial, target: nil, shift: shift, drainFirst: true)
                    core.videoPackets.append(boundary)
                    core.audioPackets.append(boundary)
                    readThisPlay = 0
                    if opening.demuxer.seek(toMicroseconds: opening.start / 1000) == nil { continue reading }
                    Log.info("player: cannot go back to the start of \(core.path) to loop; ending")
                }
            case let .failed(error):
                ended = true
                // A cut or damaged file: play what came before. A stalled read is a failure.
                if error.code == AVError.code(posix: ETIMEDOUT) {
                    core.status.withLock { $0.readError = "reading \(core.path) timed out (\(error.call))" }
                } else {
                    Log.info("player: \(core.path): \(error); playing what was read")
                }
            }
            guard ended else { continue }
            guard persistent else { break reading }
            // The end: the decoders drain; a seek starts the file anew, the close ends it all.
            core.videoPackets.finish()
            core.audioPackets.finish()
            guard let request = core.waitForSeek() else { break reading }
            seek(request)
        }
    }

    /// Where a packet ends on the player's timeline (ns from the file's start), nil when it does
    /// not say or the sum does not fit.
    private static func end(of packet: UnsafeMutablePointer<AVPacket>, opening: Opening) -> Int64? {
        guard let tb = opening.demuxer.timeBase(of: packet.pointee.stream_index) else { return nil }
        let pts = packet.pointee.pts != kiosk_AV_NOPTS_VALUE() ? packet.pointee.pts : packet.pointee.dts
        guard pts != kiosk_AV_NOPTS_VALUE(), let stamp = pts.checkedAdding(max(packet.pointee.duration, 0)),
              let ns = VideoDecoder.nanoseconds(stamp, tb) else { return nil }
        return ns.checkedSubtracting(opening.start)
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
    /// which waits for room; the fuzz target takes each picture at once instead). At a boundary
    /// (a seek, a loop) it flushes and takes the new serial; after a seek the pictures that end
    /// before the target are dropped, so the first shown is the one at the target.
    static func decodeVideo(_ decoder: VideoDecoder, _ core: PlayerCore, start: Int64, frameLength: Int64, persistent: Bool = false,
                            show: (FrameQueue.Entry) -> Bool) {
        defer { core.frames.finish() }
        var generation = core.generation.load(ordering: .acquiring)
        var timeline = StreamTimeline(start: start, defaultDuration: frameLength)
        var target: Int64?
        // The last picture dropped before a seek's target: shown after all when the target lies
        // past the last picture (a seek to the very end).
        var passed: FrameQueue.Entry?
        var retimed = 0
        defer { logRetimed(retimed + timeline.retimed, outOfRange: decoder.timestampsOutOfRange, kind: "picture") }
        run(decoder, packets: core.videoPackets, core: core, kind: "picture", persistent: persistent, boundary: { boundary in
            decoder.flush()
            retimed += timeline.retimed
            timeline = StreamTimeline(start: start, defaultDuration: frameLength, shift: boundary.shift,
                                      expected: boundary.target ?? boundary.shift)
            generation = boundary.serial
            target = boundary.target
            passed = nil
        }, ended: {
            if target != nil, let last = passed { _ = show(last) }
            (target, passed) = (nil, nil)
            core.frames.finish(generation: generation)
        }) { output in
            var (picture, duration) = output
            let span = timeline.place(picture.timestamp, duration: duration)
            if let t = target {
                if span.end <= t {
                    picture.timestamp = span.start
                    passed = FrameQueue.Entry(picture: picture, end: span.end, generation: generation)
                    return true
                }
                target = nil
                passed = nil
            }
            picture.timestamp = span.start
            return show(FrameQueue.Entry(picture: picture, end: span.end, generation: generation))
        }
    }

    /// The audio thread: waits for the device's format, then packets → samples → the ring through
    /// `play` (`AudioRing.write`, which waits for room; the fuzz target plays each chunk out at once).
    /// Boundaries as for the picture; after a seek the samples before the target are cut off.
    static func decodeAudio(_ decoder: AudioDecoder, _ core: PlayerCore, start: Int64, persistent: Bool = false,
                            play: (AudioSamples, _ generation: Int) -> Bool) {
        defer { core.ring.finish() }
        let attachment = core.audioOutput.wait { $0 == .waiting ? nil : $0 }
        guard case let .format(format) = attachment else {
            // No device: the packets are taken and dropped so the demuxer never waits for them.
            core.ring.finishForGood()
            while true {
                switch core.audioPackets.take() {
                case .closed: return
                case .end where !persistent: return
                default: continue
                }
            }
        }
        decoder.convert(to: format)
        var generation = core.generation.load(ordering: .acquiring)
        var timeline = StreamTimeline(start: start, defaultDuration: 0)
        var target: Int64?
        var retimed = 0
        defer { logRetimed(retimed + timeline.retimed, outOfRange: decoder.timestampsOutOfRange, kind: "sound chunk") }
        var late = 0
        let frameBytes = format.bytesPerFrame, rate = Int64(format.sampleRate)
        func deliver(_ samples: AudioSamples) -> Bool {
            guard samples.frames > 0 else { return true }
            let length = Int64(samples.frames) * 1_000_000_000 / rate
            var placed = samples
            var span = timeline.place(samples.timestamp, duration: length)
            if let t = target {
                // After a seek: what comes before the target is cut off, to the sample.
                if span.end <= t { return true }
                let cut = span.start < t ? Int((t - span.start) * rate / 1_000_000_000) : 0
                if cut > 0 {
                    placed.bytes.removeFirst(min(cut * frameBytes, placed.bytes.count))
                    placed.frames -= cut
                    span.start = span.start.saturatingAdding(Int64(cut) * 1_000_000_000 / rate)
                }
                target = nil
                guard placed.frames > 0 else { return true }
            }
            placed.timestamp = span.start
            // Sound whose time has passed (the clock ran on without it) would only pull the
            // picture back: skipped.
            if let clock = core.clock.time(at: MonotonicClock.now()), span.end < clock {
                late += 1
                return true
            }
            return play(placed, generation)
        }
        let finished = run(decoder, packets: core.audioPackets, core: core, kind: "sound", persistent: persistent, boundary: { boundary in
            // A loop's boundary drains the resampler first: its last samples belong to this play.
            if boundary.drainFirst, let rest = decoder.drainResampler() { _ = deliver(rest) }
            decoder.flush()
            retimed += timeline.retimed
            timeline = StreamTimeline(start: start, defaultDuration: 0, shift: boundary.shift, expected: boundary.target ?? boundary.shift)
            generation = boundary.serial
            target = boundary.target
        }, ended: {
            if let rest = decoder.drainResampler() { _ = deliver(rest) }
            core.ring.finish(generation: generation)
        }, deliver: deliver)
        if finished, !persistent, let rest = decoder.drainResampler() { _ = deliver(rest) }
        if late > 0 { Log.info("player: skipped \(late) late sound chunks") }
    }

    /// Says how many of a stream's timestamps were not believed: re-timed by its timeline (a jump
    /// over 10 s, an offset out of range), or out of range in nanoseconds (placed as missing ones).
    private static func logRetimed(_ retimed: Int, outOfRange: Int, kind: String) {
        guard retimed + outOfRange > 0 else { return }
        Log.info("player: \(retimed) \(kind) timestamps re-timed (a jump over 10 s), \(outOfRange) out of range")
    }

    /// Feeds one decoder until the end of its stream: packets in, outputs to `deliver`. A packet
    /// the decoder refuses, or an output it fails to make, is skipped and counted. Returns false
    /// when the player closed (or `deliver` said so).
    @discardableResult
    private static func run<D: StreamDecoder>(_ decoder: D, packets: PacketQueue, core: PlayerCore, kind: String,
                                              persistent: Bool = false, boundary: (Boundary) -> Void = { _ in },
                                              ended: () -> Void = {}, deliver: (D.Output) -> Bool) -> Bool {
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
                guard persistent else { return send(nil) }
                if !send(nil) { return false }
                ended()
            case let .boundary(next):
                // A loop keeps this play's last pictures (the decoder drained first); a seek does not.
                if next.drainFirst, !send(nil) { return false }
                boundary(next)
            case .closed:
                return false
            }
        }
    }
}

/// The two decoders as `run` drives them.
protocol StreamDecoder {
    associatedtype Output
    func flush()
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
    /// The serial (ffplay's): advanced by each seek and by `close`; everything decoded before
    /// carries an older value and is dropped.
    let generation = Atomic<Int>(0)
    /// The seek asked for by the UI and not yet carried out by the demuxer.
    let seeks = Monitor(SeekState())
    /// Where each later play of a looping file starts on the timeline, with the serial it belongs to.
    let loopShifts = Locked<[(serial: Int, shift: Int64)]>([])

    init(path: String, options: MoviePlayer.Options) {
        self.path = path
        self.options = options
        frames = FrameQueue(capacity: max(options.frameQueue, 1))
        ring = AudioRing(clock: clock)
    }

    /// The seek waiting, taken (the demuxer's, between two reads).
    func takeSeek() -> SeekRequest? { seeks.update { s in defer { s.request = nil }; return s.request } }

    /// Waits at the end of the file for a seek; nil once the player closes.
    func waitForSeek() -> SeekRequest? {
        seeks.wait { s -> SeekRequest?? in
            if s.closed { return .some(nil) }
            guard let request = s.request else { return nil }
            s.request = nil
            return .some(request)
        }
    }

    /// A time on the timeline as a position in its play: a looping file's later plays count from
    /// their own start.
    func inPlay(_ time: Int64, serial: Int) -> Int64 {
        let shift = loopShifts.withLock { $0.filter { $0.serial == serial && $0.shift <= time }.map(\.shift).max() } ?? 0
        return time - shift
    }

    /// Which play (1, 2, …) a time on the timeline is in.
    func play(at time: Int64, serial: Int) -> Int {
        1 + loopShifts.withLock { $0.filter { $0.serial == serial && $0.shift <= time }.count }
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
        seeks.update { $0.closed = true }
    }
}

/// A seek the UI asked for: the target on the player's timeline (ns) and its serial.
struct SeekRequest: Sendable, Equatable {
    var target: Int64
    var serial: Int
}

struct SeekState: Sendable {
    var request: SeekRequest?
    var closed = false
}
