// The take's player: libavformat demuxes on a thread of its own, libavcodec decodes the picture
// (frame-threaded) and the sound on one thread each, through bounded queues. The sound goes to a
// ring the output device's thread pulls, and sets the clock; the UI asks `update` each loop for
// the picture due now. Nothing here calls SDL.
//
//   demux thread ─packets─▶ video thread ─DecodedPictures─▶ FrameQueue ─update()─▶ UI thread
//               └─packets─▶ audio thread ─samples────▶ AudioRing ──fill()───▶ device thread
//                                                          └─ sets PlaybackClock ◀── update() reads
//
// This file holds the player as the UI sees it and its shared state; the demux thread's opening
// (PlayerOpening.swift) and reading (PlayerDemux.swift), the decode threads (PlayerDecoding.swift)
// and the queues between them (PlayerQueues.swift) are beside it.
import CFFmpeg
import FoundationEssentials
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

        /// Why it stopped before its end (nil: it reached its end).
        public var failure: String? {
            guard case let .error(message) = self else { return nil }
            return message
        }
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
}

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
