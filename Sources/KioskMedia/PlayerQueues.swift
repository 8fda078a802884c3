// What the player's threads hand each other: bounded packet queues (demuxer → decoders), the
// decoded-frame queue the UI takes the frame due now from, the audio ring the output device pulls,
// and the clock they all read. Every wait ends when the player closes.

import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem

/// State behind a lock with a condition variable, for queues whose producer or consumer waits.
/// `@unchecked Sendable` is sound for the same reason as `Locked`'s: `state` is only read or written
/// with `mutex` held, inside `update`, `read` and `wait` (pthread_cond_wait gives it back only while
/// it sleeps, and holds it again before `body` looks).
final class Monitor<State: Sendable>: @unchecked Sendable {
    // On the heap, each at an address of its own: a pthread mutex or condition must never move.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var state: State

    init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Changes the state and wakes every waiter to look at it again.
    func update<R>(_ body: (inout State) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return body(&state)
    }

    /// Reads the state without waking anyone.
    func read<R>(_ body: (State) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(state)
    }

    /// Waits until `body` returns a value (it may change the state; waiters are then woken).
    func wait<R>(_ body: (inout State) -> R?) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = body(&state) {
                pthread_cond_broadcast(condition)
                return result
            }
            pthread_cond_wait(condition, mutex)
        }
    }
}

/// Where a decoder's stream starts anew (ffplay's flush packet, with its serial): after a seek, or
/// where a looping file begins again.
struct Boundary: Sendable, Equatable {
    /// The player's serial from here on: what the decoder tags its output with.
    var serial: Int
    /// Media time (ns, on the player's timeline) of the first picture or sample wanted: a seek's
    /// target, before which decoded output is dropped. nil: keep everything (a loop).
    var target: Int64?
    /// Added to the file's timestamps from here on (a loop's n-th play starts n lengths later).
    var shift: Int64
    /// The decoder is drained first, its last pictures kept (a loop); a seek throws them away.
    var drainFirst: Bool
}

/// One stream's packets between the demuxer and its decoder, bounded by count and bytes.
final class PacketQueue: Sendable {
    enum Taken {
        case packet(Packet)
        /// The demuxer reached the end (or gave up): drain the decoder. Given once per end.
        case end
        /// The stream starts anew here: flush the decoder (`Boundary`).
        case boundary(Boundary)
        /// The player is closing.
        case closed
    }

    private enum Item: Sendable {
        case packet(Packet)
        case boundary(Boundary)
    }

    private struct State: Sendable {
        var items: [Item] = []
        var bytes = 0
        var ended = false
        /// The end was handed to the decoder: not again until the stream starts anew.
        var endTaken = false
        var closed = false
        /// The serial of the last seek's boundary queued (`flush`): the packets queued since are
        /// that seek's, whether or not the decoder took its boundary already.
        var serial = 0
    }

    private let monitor = Monitor(State())
    let maxPackets: Int
    let maxBytes: Int

    init(maxPackets: Int, maxBytes: Int) {
        self.maxPackets = maxPackets
        self.maxBytes = maxBytes
    }

    /// Waits for room, then queues the packet. False when the player is closing.
    func put(_ packet: Packet) -> Bool {
        monitor.wait { s -> Bool? in
            if s.closed { return false }
            // An empty queue takes any packet, however big, so one huge packet cannot stall it.
            guard s.items.isEmpty || (s.items.count < maxPackets && s.bytes + packet.bytes <= maxBytes) else { return nil }
            s.items.append(.packet(packet))
            s.bytes += packet.bytes
            return true
        }
    }

    /// No more packets will come (until a boundary starts the stream anew).
    func finish() { monitor.update { $0.ended = true } }

    /// A seek: every packet waiting is thrown away and the decoder flushes before the next one.
    func flush(_ boundary: Boundary) {
        monitor.update { s in
            s.items = [.boundary(boundary)]
            s.bytes = 0
            s.ended = false
            s.endTaken = false
            s.serial = max(s.serial, boundary.serial)
        }
    }

    /// A loop: after the packets waiting, the decoder drains and starts anew.
    func append(_ boundary: Boundary) {
        monitor.update { s in
            s.items.append(.boundary(boundary))
            s.ended = false
        }
    }

    /// Throws away the packets waiting from before seek `serial` (a seek was asked for: a demuxer
    /// waiting for room wakes). Nothing goes once the demuxer has carried that seek out: the packets
    /// queued since its boundary are the new position's, even when the decoder took the boundary
    /// already (dropping them lost the pictures from the key frame on, and a paused review showed
    /// the next key frame's picture instead of the target's).
    func drop(before serial: Int) {
        monitor.update { s in
            guard s.serial < serial else { return }
            s.items.removeAll { if case .packet = $0 { true } else { false } }
            s.bytes = 0
        }
    }

    /// Wakes every waiter for good.
    func close() { monitor.update { $0.closed = true; $0.items.removeAll(); $0.bytes = 0 } }

    /// Waits for the next packet, a boundary, the end (once), or the close.
    func take() -> Taken {
        monitor.wait { s -> Taken? in
            if s.closed { return .closed }
            if !s.items.isEmpty {
                switch s.items.removeFirst() {
                case let .packet(packet):
                    s.bytes -= packet.bytes
                    return .packet(packet)
                case let .boundary(boundary):
                    s.endTaken = false
                    return .boundary(boundary)
                }
            }
            guard s.ended, !s.endTaken else { return nil }
            s.endTaken = true
            return .end
        }
    }

    var count: Int { monitor.read { $0.items.count } }
}

/// Decoded pictures waiting for their time, oldest first, each tagged with the player's
/// generation when it was decoded. The UI takes the one due now; the video thread waits for room.
final class FrameQueue: SerialQueue, Sendable {
    struct Entry: Sendable {
        var picture: DecodedPicture
        /// Nanoseconds on the media timeline when it stops being the current picture.
        var end: Int64
        var generation: Int
    }

    private struct State: SerialQueueState {
        var entries: [Entry] = []
        var closed = false
        /// Streamless when the file has no picture to decode.
        var serial = StreamSerial()

        mutating func removeWaiting() { entries.removeAll() }
    }

    private let monitor = Monitor(State())
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Waits for room. False when the player is closing. A stale picture (decoded before the
    /// last seek) is dropped at once, without waiting.
    func put(_ entry: Entry) -> Bool {
        monitor.queue(generation: entry.generation) { s in
            guard s.entries.count < capacity else { return nil }
            s.entries.append(entry)
            return true
        }
    }

    func updateSerial(_ body: (inout StreamSerial) -> Void) { monitor.update { body(&$0.serial) } }

    /// A seek: every picture waiting is stale; from now on only `generation`'s are taken.
    func flush(generation: Int) { monitor.flush(generation: generation) }

    func close() { monitor.update { $0.closed = true; $0.entries.removeAll() } }

    /// What the UI takes at time `clock` (nil: the clock has not started, so the first picture
    /// is due at once): the newest entry due and how many older due ones it skips. Entries of
    /// another generation are thrown away unseen.
    func takeDue(clock: Int64?, generation: Int) -> (entry: Entry?, skipped: Int) {
        monitor.update { s in
            s.entries.removeAll { $0.generation != generation }
            let due = clock.map { c in s.entries.prefix { $0.picture.timestamp <= c }.count } ?? min(s.entries.count, 1)
            guard due > 0 else { return (nil, 0) }
            let entry = s.entries[due - 1]
            s.entries.removeFirst(due)
            return (entry, due - 1)
        }
    }

    /// The oldest waiting picture's time.
    var nextTimestamp: Int64? { monitor.read { $0.entries.first?.picture.timestamp } }

    /// The video thread is done and nothing is left to show.
    var drained: Bool { monitor.read { $0.serial.finished && $0.entries.isEmpty } }
    var isEmpty: Bool { monitor.read { $0.entries.isEmpty } }
    var count: Int { monitor.read { $0.entries.count } }
}

/// The presentation clock in nanoseconds of media time. The audio output moves it: each time the
/// device takes samples, it is set to the time of the sample the listener hears then. A file
/// without sound (or whose sound never comes) runs it on the monotonic clock instead. Between
/// those settings it runs on the monotonic clock, and it stands still while paused. It saturates:
/// however far along a file's timeline it is set, running on cannot trap.
final class PlaybackClock: Sendable {
    enum Source: Equatable, Sendable {
        case audio, monotonic
    }

    private struct State: Sendable {
        var media: Int64?
        var at: Int64 = 0
        var paused = false
        var source: Source?
        /// The player's serial: samples of an older one (heard before a seek) do not set it.
        var generation = 0
    }

    private let state = Locked(State())

    /// Media time at monotonic time `now`; nil before the clock started.
    func time(at now: Int64) -> Int64? {
        state.withLock { s in s.media.map { s.paused ? $0 : $0.saturatingAdding(max(now - s.at, 0)) } }
    }

    var source: Source? { state.withLock { $0.source } }

    /// The device took samples: the one heard at `now` is at `media`. Ignored while paused (the
    /// device is fed silence then). Sound that comes after the clock started without it takes
    /// over: the picture then follows the sound, as everywhere else.
    func heard(_ media: Int64, at now: Int64, generation: Int = 0) {
        state.withLock { s in
            guard !s.paused, generation >= s.generation else { return }
            s = State(media: media, at: now, paused: false, source: .audio, generation: generation)
        }
    }

    /// A seek: the clock stops being set until the new position's first sound is heard (or, without
    /// sound, its first picture starts it); a pause stays.
    func reset(generation: Int) {
        state.withLock { s in
            s = State(media: nil, at: 0, paused: s.paused, source: nil, generation: max(s.generation, generation))
        }
    }

    /// Starts the clock on the monotonic clock at `media` (a file without usable sound, or sound
    /// that does not come), unless it runs already.
    func startMonotonic(at media: Int64, now: Int64) {
        state.withLock { s in
            guard s.media == nil else { return }
            s.media = media
            s.at = now
            s.source = .monotonic
        }
    }

    func setPaused(_ paused: Bool, now: Int64) {
        state.withLock { s in
            guard s.paused != paused else { return }
            if let media = s.media, !s.paused { s.media = media.saturatingAdding(max(now - s.at, 0)) }
            s.at = now
            s.paused = paused
        }
    }
}

/// Decoded sound in the device's format, written by the audio thread and pulled by the device's
/// own thread (an SDL audio callback) through `fill`. Bounded: the audio thread waits when about
/// half a second is queued. While paused, closed or empty it gives silence; each fill of real
/// samples sets the clock.
final class AudioRing: AudioFeed, SerialQueue {
    private struct Chunk: Sendable {
        var bytes: [UInt8]
        /// Media time of the first frame in `bytes`.
        var timestamp: Int64
        var generation: Int
    }

    private struct State: SerialQueueState {
        var format: AudioOutputFormat?
        var chunks: [Chunk] = []
        /// Bytes of the first chunk already played.
        var offset = 0
        var queuedBytes = 0
        var paused = false
        var closed = false
        /// Media time just after the last sample handed to the device.
        var playedEnd: Int64?
        var framesPlayed: Int64 = 0
        /// Streamless when no sound will ever come (none in the file, or no device).
        var serial = StreamSerial()

        /// The sound queued, and where the device's copy stood in it.
        mutating func removeWaiting() {
            chunks.removeAll()
            offset = 0
            queuedBytes = 0
            playedEnd = nil
        }
    }

    private let monitor = Monitor(State())
    private let clock: PlaybackClock
    /// Seconds of sound the ring holds before the audio thread waits.
    static let capacitySeconds = 0.5

    init(clock: PlaybackClock) { self.clock = clock }

    /// The device's format; set before the device starts pulling.
    func configure(_ format: AudioOutputFormat) { monitor.update { $0.format = format } }

    /// Waits for room, then queues the samples. False when the player is closing. Stale samples
    /// (decoded before the last seek) are dropped at once, without waiting.
    func write(_ samples: AudioSamples, generation: Int) -> Bool {
        guard !samples.bytes.isEmpty else { return true }
        return monitor.queue(generation: generation) { s in
            guard let format = s.format else { return false }
            let capacity = Int(Self.capacitySeconds * Double(format.sampleRate)) * format.bytesPerFrame
            guard s.queuedBytes == 0 || s.queuedBytes + samples.bytes.count <= capacity else { return nil }
            s.chunks.append(Chunk(bytes: samples.bytes, timestamp: samples.timestamp, generation: generation))
            s.queuedBytes += samples.bytes.count
            return true
        }
    }

    func updateSerial(_ body: (inout StreamSerial) -> Void) { monitor.update { body(&$0.serial) } }

    /// A seek: the sound queued is stale and never heard; the next sample handed over is the new
    /// position's, and sets the clock anew.
    func flush(generation: Int) { monitor.flush(generation: generation) }

    /// Stops for good: from now on the device gets silence, and a waiting writer wakes.
    func close(generation: Int) {
        monitor.update { s in
            s.closed = true
            s.serial.generation = generation
            s.chunks.removeAll()
            s.queuedBytes = 0
        }
    }

    func setPaused(_ paused: Bool) { monitor.update { $0.paused = paused } }

    /// Everything written was played out (or there is nothing to play).
    var drained: Bool { monitor.read { $0.serial.finished && $0.queuedBytes == 0 } }
    /// Bytes written and not yet played, and whether the audio thread is done.
    var queued: (bytes: Int, finished: Bool) { monitor.read { ($0.queuedBytes, $0.serial.finished) } }
    /// Media time just after the last sample handed to the device, nil before the first one.
    var playedEnd: Int64? { monitor.read { $0.playedEnd } }
    var framesPlayed: Int64 { monitor.read { $0.framesPlayed } }

    /// The device's thread: copies what is queued, silence for the rest. Never waits for the
    /// audio thread; the lock is held only for the copy.
    func fill(_ buffer: UnsafeMutableRawBufferPointer, now: Int64) {
        guard let base = buffer.baseAddress else { return }
        var filled = 0
        let heard: (media: Int64, generation: Int)? = monitor.update { s in
            guard let format = s.format, !s.paused, !s.closed else { return nil }
            let rate = Int64(format.sampleRate), frameBytes = format.bytesPerFrame
            var first: Int64?
            while filled < buffer.count, !s.chunks.isEmpty {
                let chunk = s.chunks[0]
                guard chunk.generation == s.serial.generation else {
                    // Decoded before the player closed: never played.
                    s.queuedBytes -= chunk.bytes.count - s.offset
                    s.chunks.removeFirst()
                    s.offset = 0
                    continue
                }
                let n = min(chunk.bytes.count - s.offset, buffer.count - filled)
                chunk.bytes.withUnsafeBytes { (base + filled).copyMemory(from: $0.baseAddress! + s.offset, byteCount: n) }
                if first == nil { first = chunk.timestamp.saturatingAdding(Int64(s.offset / frameBytes) * 1_000_000_000 / rate) }
                filled += n
                s.offset += n
                s.queuedBytes -= n
                s.playedEnd = chunk.timestamp.saturatingAdding(Int64(s.offset / frameBytes) * 1_000_000_000 / rate)
                if s.offset == chunk.bytes.count {
                    s.chunks.removeFirst()
                    s.offset = 0
                }
            }
            s.framesPlayed += Int64(filled / frameBytes)
            // The buffer filled now is heard after the one the device is playing: the sample
            // heard now is about one buffer older than the first one handed over.
            return first.map { ($0.saturatingSubtracting(Int64(format.bufferFrames) * 1_000_000_000 / rate), s.serial.generation) }
        }
        if filled < buffer.count { (base + filled).initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count - filled) }
        // Set outside the ring's lock: a seek between the copy and here resets the clock to a newer
        // generation, and this older sample then does not set it.
        if let heard { clock.heard(heard.media, at: now, generation: heard.generation) }
    }
}

// MARK: - What the queues of decoded output share: dropping what a seek made stale, and waiting for
// room unless the player is closing.

/// A queue of one decoded stream (pictures, sound) that ends and seeks by its `StreamSerial`.
protocol SerialQueue: AnyObject {
    /// Changes the serial under the queue's lock, waking its waiters.
    func updateSerial(_ body: (inout StreamSerial) -> Void)
}

extension SerialQueue {
    /// The decoding thread is done with the stream of `generation` (nil: whichever runs now).
    func finish(generation: Int? = nil) { updateSerial { $0.finish(generation: generation) } }

    /// Nothing will ever come (the file has no such stream, or no device plays it), after a seek too.
    func finishForGood() { updateSerial { $0.finishForGood() } }
}

/// The state behind a `SerialQueue`: whether the player is closing, the stream's serial, and what
/// waits to be taken.
protocol SerialQueueState: Sendable {
    var closed: Bool { get }
    var serial: StreamSerial { get set }
    /// Throws away everything waiting (a seek made it stale).
    mutating func removeWaiting()
}

extension Monitor where State: SerialQueueState {
    /// Waits to queue what was decoded for `generation`: false when the player is closing; true at
    /// once, without queueing it, when it is stale (decoded before the last seek); else what `append`
    /// returns, waiting while it returns nil (no room yet).
    func queue(generation: Int, _ append: (inout State) -> Bool?) -> Bool {
        wait { s -> Bool? in
            if s.closed { return false }
            if generation < s.serial.generation { return true }
            return append(&s)
        }
    }

    /// A seek: everything waiting is stale; from now on only `generation`'s is taken.
    func flush(generation: Int) {
        update { s in
            s.serial.flush(to: generation)
            s.removeWaiting()
        }
    }
}
