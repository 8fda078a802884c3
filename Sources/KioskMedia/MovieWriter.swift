// Records a take: frames and audio chunks from the capture threads go through a bounded queue to an
// encoder thread of its own, which writes a crash-safe fragmented movie and stops by itself at a
// limit or on a full disk. A marker beside the file says "a take is being written" until it is
// finalized, so an interrupted take is recovered at the next start, not deleted.
import Dispatch
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskStorage
import KioskSystem
import Synchronization

private extension StopReason {
    /// The take ended by the guest, a limit of time, the booth or a lost camera: its microphone
    /// still delivers (a full disk, a file at its size limit or a failure take nothing more).
    var leavesMicrophoneRunning: Bool {
        switch self {
        case .user, .maxDuration, .background, .deviceDisconnected, .signal, .parentGone: true
        case .maxFileSize, .diskFull, .error: false
        }
    }
}

public final class MovieWriter: Sendable {
    public let settings: MovieSettings
    /// Video frames the queue may hold before new ones are dropped (counted). Audio is never dropped.
    public static let videoQueueLimit = 8
    /// The same while a live take is young (`Queue.limit`): its first pictures (a key frame at the
    /// configured effort, the encoder's first use) can take several intervals each on a weak CPU,
    /// and the queue of 8 filled before the writer's rule had a second of measurements: the
    /// queue's own every 3rd then left a gap of 3 intervals, or a drop one of 6, in the take's
    /// first half second (720p on 0.3 of a core, bench/weak-machine). Twice as deep there, a
    /// burst waits (16 pictures of 1080p at 4:2:2 are 66 MB, held only while the take starts behind).
    public static let startQueueLimit = 16

    enum Item {
        /// A picture, how many the plan left out just before it (`Queue.toSkip`), the camera's time on it (ns).
        case video(VideoFrame, skippedBefore: Int, camera: Int64 = 0)
        case audio(AudioChunk)
        case stop(StopReason)
    }

    struct Queue {
        var items: [Item] = []
        var videoCount = 0
        var dropped = 0
        /// Of `dropped`, those just after the whole process stood still (`ProcessStalls`).
        var droppedAfterStall = 0
        var accepting = false
        var stopRequested = false
        /// `appendWaiting` sleeps on `room` until the writer has encoded the frames it was given
        /// (or stops taking).
        var waitingForRoom = false
        /// The writer is encoding a video frame it took from the queue.
        var encoding = false
        /// With a live clock: the first moment that belongs to the take (CLOCK_MONOTONIC ns).
        var startedAt = Int64.min
        /// The take keeps one picture in `keepEvery` (`EffortRule`), by the camera's numbers: one
        /// `keepEvery` or more after the last kept (`lastKept`; `keptBefore`, the one before it), so the
        /// gaps are exactly `keepEvery` (one more only after a picture the camera lost); `skipping`:
        /// left out since the last queued (the next queued carries the count, not the take's end).
        /// `approved`: the picture `wants` said yes to, which `append` then takes.
        var keepEvery = 1
        var lastKept: UInt32?, keptBefore: UInt32?, approved: UInt32?
        var skipping = 0
        var undecoded = 0  // Left out when the camera asked (`wants`), before it decoded them.
        /// The pictures the queue holds before it drops: `startQueueLimit` from a live take's start
        /// until the writer's rule has measured a whole second and the queue is back under the
        /// usual limit's every-2nd (`settle`), `videoQueueLimit` from then on.
        var limit = MovieWriter.startQueueLimit

        /// The young take's deeper queue gives way to the usual one: once its backlog is under the
        /// usual limit's own every 2nd (so no burst of drops follows).
        mutating func settle() {
            if limit > MovieWriter.videoQueueLimit, videoCount < MovieWriter.videoQueueLimit - 2 { limit = MovieWriter.videoQueueLimit }
        }

        /// The plan for picture `sequence`: kept when it is `keepEvery` or more after the last picture
        /// kept. Nearly full (the writer has not had its say yet: a slow first second, a sudden load),
        /// the queue keeps every 2nd picture (`EffortRule.queueThinsAt`), rather than losing a burst;
        /// every 3rd (one short of its limit) only once the take keeps every 2nd (at the full rate a
        /// burst at the start left a gap of 3). A number that goes back (a camera opened again) starts afresh.
        mutating func keeps(_ sequence: UInt32) -> Bool {
            if approved == sequence {
                approved = nil
                return true
            }
            // The picture said yes to never came (lost after asking): judged from the last the take has.
            if approved != nil { (approved, lastKept) = (nil, keptBefore) }
            let guardKeep = videoCount >= limit - 1 && keepEvery >= 2 ? 3 : videoCount >= EffortRule.queueThinsAt(limit: limit) ? 2 : 1
            let every = UInt32(max(keepEvery, guardKeep))
            if every > 1, let last = lastKept, sequence &- last < every, sequence &- last < UInt32.max / 2 {
                skipping += 1
                return false
            }
            (keptBefore, lastKept, approved) = (lastKept, sequence, sequence)
            return true
        }

        /// `append`'s decision on a picture: queued (true), or not the take's, left out by plan
        /// (`keeps`) or dropped with the queue full (counted; `afterStall`: just after the whole
        /// process stood still).
        mutating func offer(_ frame: VideoFrame, camera: Int64 = 0, afterStall: @autoclosure () -> Bool) -> Bool {
            // After a stop is asked for, nothing is the take's: not taken, and not counted dropped
            // when the queue is full (the file ends with the last picture queued before the stop).
            guard accepting, !stopRequested else { return false }
            // Captured before the take started: not the take's first picture, nor any of it.
            guard frame.timestamp >= startedAt else { return false }
            guard keeps(frame.sequence) else { return false }
            // Here, so no longer to come (one offered without `wants`, left named, was thinned out with `lastKept` on it: a gap of 5).
            approved = nil
            guard videoCount < limit else {
                dropped += 1
                if afterStall() { droppedAfterStall += 1 }
                return false
            }
            items.append(.video(frame, skippedBefore: skipping, camera: camera))
            videoCount += 1
            skipping = 0
            return true
        }

        /// The rate stepped down to one in `every` while pictures wait at the full rate: those the
        /// new rate leaves out are taken out of the queue too (counted skipped: their count goes to
        /// the next picture kept), so the backlog halves at once instead of filling the queue
        /// (its every-3rd at 7 waiting, a drop at 8). `last`: the picture just encoded. A picture
        /// stays when leaving it out would open a gap over `every` to the next one the take has
        /// (the next queued, or the one said yes to while it is decoded): the queue's own every
        /// 2nd at 6 waiting may already have left out its neighbour (a gap of 3 at the 4th picture
        /// of a take at 720p on 0.3 of a core, bench/weak-machine).
        mutating func thin(every: Int, after last: UInt32) {
            var previous = last, carried = 0
            let pictures = items.compactMap { item -> UInt32? in
                if case let .video(frame, _, _) = item { return frame.sequence }
                return nil
            }
            var index = 0
            items = items.compactMap { item in
                guard case let .video(frame, before, camera) = item else { return item }
                index += 1
                let next = index < pictures.count ? pictures[index] : approved
                let distance = frame.sequence &- previous
                let gapAfter = next.map { $0 &- previous } ?? 0
                if distance < UInt32(every), distance < UInt32.max / 2, gapAfter <= UInt32(every) || gapAfter >= UInt32.max / 2 {
                    carried += before + 1
                    videoCount -= 1
                    return nil
                }
                previous = frame.sequence
                defer { carried = 0 }
                return .video(frame, skippedBefore: before + carried, camera: camera)
            }
            skipping += carried
            // A picture said yes to while it is decoded is newer than any queued: it stays the last.
            if approved == nil { lastKept = previous }
        }
    }

    private let queue = Locked(Queue())
    private let available = DispatchSemaphore(value: 0)
    private let room = DispatchSemaphore(value: 0)
    /// Nanoseconds of video written so far (for the timer).
    private let elapsedNanoseconds = Atomic<Int64>(0)
    private let written = Atomic<Int64>(0)
    private let left = Atomic<Int64>(Int64.max)
    private let encoderNote = Locked<(name: VideoEncoderName, note: String?)>(("", nil))
    /// Times the take's syncs.
    private let syncs = SyncClock()
    /// When the take stopped taking data to be finished and made safe (CLOCK_MONOTONIC ns; 0 before).
    private let finishingSince = Atomic<Int64>(0)
    private let onFinish: @Sendable (RecordingResult) -> Void
    private let stepped = Atomic<Bool>(false)
    /// A boomerang's last step, its loop (made once the booth's camera rests: `cameraRested`).
    private let boomerang = BoomerangStep()

    /// `onFinish` is called once, on the writer's thread, after the file is finalized and synced.
    public init(settings: MovieSettings, onFinish: @escaping @Sendable (RecordingResult) -> Void) {
        (self.settings, self.onFinish) = (settings, onFinish)
    }

    /// The booth's camera rests (a boomerang's pictures are all taken): its loop may take the memory.
    public func cameraRested() { boomerang.cameraRested() }

    /// Seconds of video written so far.
    public var elapsed: Double { Double(elapsedNanoseconds.load(ordering: .relaxed)) / 1e9 }
    /// Bytes of the take so far, and how many more its limits (file size, free disk) allow.
    public var bytesWritten: Int64 { written.load(ordering: .relaxed) }
    public var bytesLeft: Int64 { left.load(ordering: .relaxed) }
    public var droppedFrames: Int { queue.withLock { $0.dropped } }
    /// The take has stepped its effort or rate down for want of CPU (`EffortRule`): the preview
    /// leaves pictures undrawn to give it the time, as when pictures wait.
    public var steppedDown: Bool { stepped.load(ordering: .relaxed) }
    /// Pictures queued for the encoder (at most `videoQueueLimit`, `startQueueLimit` while a take is
    /// young; past it they are dropped).
    public var videoWaiting: Int { queue.withLock { $0.videoCount } }
    /// The video encoder in use and, when it is not the one asked for, why.
    public var videoEncoder: (name: VideoEncoderName, note: String?) { encoderNote.withLock { $0 } }
    /// Seconds since the take stopped taking data while it is being finished (drained, written out
    /// and synced); nil while it records, and once `onFinish` has been called.
    public var finishingFor: Double? {
        let since = finishingSince.load(ordering: .acquiring)
        return since > 0 ? Double(max(MonotonicClock.now() - since, 0)) / 1e9 : nil
    }
    /// Seconds the take's oldest running sync has kept it waiting for the disk; nil when none runs.
    public var syncWaited: Double? { syncs.waited() }

    /// Opens the file, the encoders and the muxer (on the writer's thread) and starts taking data.
    /// Refuses with `diskFull` when the disk has less than the minimum free.
    public func start() throws(RecordingStartError) {
        if let free = DiskSpace.available(at: settings.outputPath), free < settings.minFreeDisk {
            throw RecordingStartError(code: .diskFull, message: "only \(free / 1024) KiB free at \(settings.outputPath); need \(settings.minFreeDisk / 1024) KiB")
        }
        let opened = DispatchSemaphore(value: 0)
        let startError = Locked<RecordingStartError?>(nil)
        do {
            _ = try WorkerThread(name: "kiosk-writer") { [self] _ in
                record(opened: opened, startError: startError)
                // The take's encoders and muxer are freed: their memory goes back (MallocArenas).
                MallocArenas.giveBack()
            }
        } catch {
            throw RecordingStartError(code: .recordingFailed, message: "the writer's thread: \(error)")
        }
        opened.wait()
        if let error = startError.withLock({ $0 }) { throw error }
        if let note = videoEncoder.note { Log.info(note) }
    }

    /// The writer's thread: opens the session, says so, and records until the take ends; the
    /// session is freed when this returns.
    private func record(opened: DispatchSemaphore, startError: Locked<RecordingStartError?>) {
        var session: EncodingSession?
        // Under a CPU quota the headroom is the process's CPU time against it (`CPUQuota`), and a
        // step of effort encodes on one thread when it is under a core.
        let quota = settings.framesFromLiveClock ? CPUQuota.current() : nil
        var settings = settings
        if let quota, quota.cores < 1 { settings.steppedThreads = 1 }
        do {
            try writeMarker()
            session = try EncodingSession(settings: settings, clock: syncs)
        } catch {
            try? FileManager.default.removeItem(atPath: TakeFiles.markerPath(for: settings.outputPath))
            try? FileManager.default.removeItem(atPath: TakeFiles.boomerangPendingPath(for: settings.outputPath))
            startError.withLock { $0 = RecordingStartError(code: .recordingFailed, message: "\(error)") }
            opened.signal()
            return
        }
        encoderNote.withLock { $0 = (session!.videoEncoderName, session!.fallbackNote) }
        let now = settings.framesFromLiveClock ? MonotonicClock.now() : Int64.min
        queue.withLock { q in
            q.accepting = true
            q.startedAt = now
            // A file fed faster than real time waits for room instead (`appendWaiting`).
            if !settings.framesFromLiveClock { q.limit = Self.videoQueueLimit }
        }
        opened.signal()
        var (result, lastPicture) = run(session!, quota: quota)
        // A boomerang's pictures are safe: its file becomes their loop, once the capture's encoders and muxer are gone.
        session = nil
        if let plan = settings.boomerang, result.success { boomerang.loop(&result, plan: plan, settings: settings, lastPicture: lastPicture) }
        finishingSince.store(0, ordering: .releasing)
        onFinish(result)
    }

    /// Takes a frame (any thread), with the camera's thread's time on it (ns, for `EffortRule`). When
    /// the encoder is behind and the queue is full, the frame is dropped and counted; never waits.
    public func append(_ frame: VideoFrame) { append(frame, camera: 0) }
    public func append(_ frame: VideoFrame, camera: Int64) {
        let taken = queue.withLock { $0.offer(frame, camera: camera, afterStall: ProcessStalls.shared.inAftermath()) }
        if taken { available.signal() }
    }

    /// Whether the take will keep the camera's picture `sequence` (any thread; the camera asks
    /// before decoding it): a picture the take leaves out by plan is not decoded at all (counted
    /// skipped here), and `append` then takes the one said yes to. Outside a take, yes.
    public func wants(sequence: UInt32) -> Bool {
        queue.withLock { q in
            guard q.accepting, !q.stopRequested else { return true }
            let keeps = q.keeps(sequence)
            if !keeps { q.undecoded += 1 }
            return keeps
        }
    }

    /// Like `append(_:)` but waits for room instead of dropping (for benchmarks and tests feeding a
    /// file faster than real time). It hands frames over one at a time: the caller makes the next
    /// frame once the writer has encoded the last, as the ffmpeg CLI's loop reads, converts and
    /// encodes in turn. Making it while the encoder works buys no time where the encoder's threads
    /// fill every core (the encode benchmark's CPU was the same either way on 2 cores), and every
    /// raw 720p frame held is 1.8 MiB. It sleeps until the writer is done (a wait every few
    /// milliseconds would cost the caller a thousand wake-ups a second, counted in the encode
    /// benchmark against the ffmpeg CLI, which blocks).
    public func appendWaiting(_ frame: VideoFrame) {
        waitForRoom()
        append(frame)
    }

    /// Returns once `appendWaiting` would not wait (or the writer stopped taking frames): a caller
    /// that makes its frames (reads them from a file) makes the next one only then, so it never
    /// holds one the writer cannot take yet.
    public func waitForRoom() {
        while queue.withLock({ q -> Bool in
            q.waitingForRoom = q.accepting && (q.videoCount >= 1 || q.encoding)
            return q.waitingForRoom
        }) {
            _ = room.wait(timeout: .now() + .milliseconds(100))
        }
    }

    /// The writer encoded a frame or stopped taking: whether a `waitForRoom` waits to hear it.
    private func roomMade(_ q: inout Queue) -> Bool {
        defer { q.waitingForRoom = false }
        return q.waitingForRoom
    }

    /// Takes an audio chunk (any thread). Audio is never dropped. After a stop is asked for, the
    /// sound still comes: a live take's picture ends later than its microphone has delivered (a
    /// period or a late thread behind), and the writer waits a moment for the rest (`awaitSound`).
    public func append(_ chunk: AudioChunk) {
        let taken = queue.withLock { q -> Bool in
            guard q.accepting else { return false }
            q.items.append(.audio(chunk))
            return true
        }
        if taken { available.signal() }
    }

    /// Asks the take to end; `onFinish` follows once the file is safe. A second call does nothing.
    public func stop(reason: StopReason) {
        let first = queue.withLock { q -> Bool in
            guard q.accepting, !q.stopRequested else { return false }
            q.stopRequested = true
            q.items.append(.stop(reason))
            return true
        }
        if first { available.signal() }
    }

    /// The marker: a new file (O_EXCL, never through a symlink) with the take's mode, holding the pid.
    private func writeMarker() throws {
        let marker = TakeFiles.markerPath(for: settings.outputPath)
        let file: FileDescriptor
        do { file = try NewFile.create(marker, mode: settings.fileMode) } catch { throw AVError(code: AVError.code(posix: error.errno), call: error.call) }
        let text = Array("\(getpid())\n".utf8)
        guard write(file.rawValue, text, text.count) == text.count else { throw AVError(code: AVError.code(posix: errno), call: "write(\(marker))") }
        // A boomerang's mark beside it: until its loop is in place, a launch makes the loop.
        if settings.boomerang != nil {
            let pending = TakeFiles.boomerangPendingPath(for: settings.outputPath)
            do { _ = try NewFile.create(pending, mode: settings.fileMode) } catch { throw AVError(code: AVError.code(posix: error.errno), call: error.call) }
        }
        syncs.timing(.writer) { FolderSync.sync(of: marker) }
    }

    /// The writer's thread: encode until a stop, a limit or a failure, then finalize and report.
    private func run(_ session: EncodingSession, quota: CPUQuota?) -> (RecordingResult, lastPicture: Int64) {
        var reason: StopReason?
        // A live take adapts to the CPU it has; a file fed faster than real time (a benchmark) waits.
        if let quota { Log.info("take: a CPU quota of \(String(printf: "%.2f", quota.cores)) of a core holds this process; the take's headroom is judged by its CPU time against it") }
        var rule = settings.framesFromLiveClock ? EffortRule(efforts: session.effortLevels, fps: settings.fps, quota: quota?.cores) : nil
        var skipped = 0
        var lastPicture = Int64.min // the last picture's capture time: a boomerang's loop says how long after it it was made
        while reason == nil {
            available.wait()
            guard let (item, waiting) = queue.withLock({ q -> (Item, Int)? in
                guard !q.items.isEmpty else { return nil }
                let item = q.items.removeFirst()
                if case .video = item {
                    q.videoCount -= 1
                    q.encoding = true
                }
                return (item, q.videoCount)
            }) else { continue }
            switch item {
            case let .video(frame, skippedBefore, camera):
                let began = MonotonicClock.now()
                if case let .stop(r) = session.encode(frame) { reason = r } else { skipped += skippedBefore }
                lastPicture = max(lastPicture, frame.timestamp)
                if rule != nil { adapt(&rule!, session: session, began: began, waiting: waiting, after: frame.sequence, camera: camera) }
                if queue.withLock({ q -> Bool in
                    q.encoding = false
                    return roomMade(&q)
                }) { room.signal() }
                elapsedNanoseconds.store(Int64(session.videoEnd * 1e9), ordering: .relaxed)
                written.store(session.bytesWritten, ordering: .relaxed)
                left.store(session.bytesLeft, ordering: .relaxed)
            case let .audio(chunk):
                if case let .stop(r) = session.encode(chunk) { reason = r }
            case let .stop(r):
                reason = r
            }
        }
        if settings.framesFromLiveClock, let r = reason, r.leavesMicrophoneRunning { awaitSound(session, reason: &reason) }
        // Nothing more is taken; what is still queued after the stop is not part of the take.
        let (dropped, afterStall, undecoded, wake) = queue.withLock { q -> (Int, Int, Int, Bool) in
            q.accepting = false
            q.items.removeAll()
            q.videoCount = 0
            q.encoding = false
            return (q.dropped, q.droppedAfterStall, q.undecoded - q.skipping, roomMade(&q))
        }
        if wake { room.signal() }
        if skipped > 0 { Log.info("take: left \(min(max(undecoded, 0), skipped)) of its \(skipped) pictures skipped out before the camera decoded them") }
        finishingSince.store(MonotonicClock.now(), ordering: .releasing)
        let (duration, bytes, lost) = (session.finish(), session.sink.size, session.lost)
        // The marker stays: the take is nobody's yet. It goes when the take is used, discarded or
        // handed over (TakeFiles), so a crash while the guest reviews it, or a parent that went
        // away, leaves a take the next Start reports as recovered instead of deleting it.
        syncs.timing(.writer) { FolderSync.sync(of: settings.outputPath) }
        return (RecordingResult(outputPath: settings.outputPath, duration: duration, bytes: bytes,
                                reason: reason ?? .error, success: session.hasVideo && lost == nil, droppedFrames: dropped,
                                encoder: session.videoEncoderName.rawValue, encoderStalled: session.videoEncoderStalled, lost: lost,
                                droppedAfterStall: afterStall, skippedFrames: skipped, frameRate: session.frameRate,
                                effortSteps: rule?.steps ?? 0, kind: settings.boomerang != nil ? .boomerang : .video), lastPicture)
    }

    /// How long a stopped live take waits for the sound that reaches its picture's end.
    static let soundTailNanoseconds: Int64 = 300_000_000

    /// The take stopped with its sound short of its picture's end: the microphone's last periods
    /// are still on their way (a device delivers a period once captured; under load its thread
    /// wakes late: a 5 s take beside a CPU hog ended 68 ms early). The chunks that come after the
    /// stop are encoded until the sound reaches the picture's end, for at most
    /// `soundTailNanoseconds` (a microphone that stopped delivering is not waited for longer);
    /// pictures after the stop are not the take's.
    private func awaitSound(_ session: EncodingSession, reason: inout StopReason?) {
        let deadline = MonotonicClock.now() + Self.soundTailNanoseconds
        let waitedFrom = MonotonicClock.now()
        while session.soundShort {
            let chunks = queue.withLock { q -> [AudioChunk] in
                let taken = q.items.compactMap { item -> AudioChunk? in
                    if case let .audio(chunk) = item { return chunk }
                    return nil
                }
                q.items.removeAll()
                q.videoCount = 0
                return taken
            }
            for chunk in chunks {
                if case let .stop(r) = session.encode(chunk) {
                    reason = r
                    return
                }
            }
            guard session.soundShort else { break }
            let left = deadline - MonotonicClock.now()
            guard left > 0, available.wait(timeout: .now() + .nanoseconds(Int(left))) == .success else {
                Log.info("take: the microphone's sound stopped \(String(printf: "%.0f", session.soundShortBy * 1000)) ms before the picture's end")
                return
            }
        }
        let waited = MonotonicClock.now() - waitedFrom
        if waited > 100_000_000 { Log.info("take: waited \(waited / 1_000_000) ms after the stop for the microphone's sound to reach the picture's end") }
    }

    /// After a picture: the rule hears what it cost (the writer's time from taking it to its packet
    /// written, the pictures waiting then, the camera's thread's time on it), and its steps are carried
    /// out and said: the rate at once (the queue's `keepEvery`), the effort at the next key frame.
    private func adapt(_ rule: inout EffortRule, session: EncodingSession, began: Int64, waiting: Int, after picture: UInt32, camera: Int64) {
        let now = MonotonicClock.now()
        let ladder = settings.effortLadder
        switch session.effortNews() {
        case let .applied(effort)?:
            rule.effortApplied(at: now)
            Log.info("take: effort now \(ladder[effort].description), from this key frame on")
        case let .refused(effort, why)?:
            rule.effortRefused(at: now, kept: session.wantedEffort)
            Log.info("take: effort \(ladder[effort].description) refused (\(why)); staying at \(ladder[session.wantedEffort].description)")
        case nil:
            break
        }
        let (load, cameraLoad) = (rule.load(at: now), rule.cameraLoad(at: now))
        let cpu = rule.quota == nil ? 0 : CPUQuota.processNanoseconds()
        let (limit, queued) = queue.withLock { ($0.limit, $0.videoCount) }
        for step in rule.picture(at: now, busy: now - began, waiting: waiting, cpu: cpu, limit: limit, queued: queued, camera: camera) {
            let share = rule.quota == nil ? "each picture took %ld %% of the time between pictures kept" : "the booth used %ld %% of its CPU quota"
            let cost = load.map { String(printf: share, Int(($0 * 100).rounded())) + " over the last second, " } ?? ""
            let why = cost + (cameraLoad.map { String(printf: "the camera's thread %ld %%, ", Int(($0 * 100).rounded())) } ?? "") + "\(queued) waiting"
            switch step {
            case let .effort(from, to):
                // Pictures piling up cannot wait for the GOP's end: the new effort starts with the
                // next picture (a key frame of its own).
                session.want(effort: to, soon: queued >= EffortRule.urgentWaiting(limit: limit))
                Log.info("take: effort \(to > from ? "down" : "up") from \(ladder[from].description) to \(ladder[to].description) at the next key frame (\(why))")
            case let .keepEvery(from, to):
                queue.withLock { q in
                    q.keepEvery = to
                    if to > from { q.thin(every: to, after: picture) }
                }
                let rate = String(printf: "%g", KioskEvent.milliseconds(settings.fps / Double(to)))
                let every = to == 1 ? "every picture" : "every \(to == 2 ? "2nd" : to == 3 ? "3rd" : "\(to)th") picture"
                Log.info("take: rate \(to > from ? "down" : "up") to \(every), \(rate) a second (\(why))")
            }
        }
        stepped.store(rule.stepped, ordering: .relaxed)
        // The rule has measured a whole second at its present level: the young take's deeper
        // queue gives way to the usual one.
        if rule.load(at: now) != nil { queue.withLock { $0.settle() } }
    }
}
