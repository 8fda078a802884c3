// The real microphone: an ALSA PCM read on a capture thread of its own, each chunk stamped with
// the capture time of its first sample on CLOCK_MONOTONIC. Overruns and suspends are recovered
// and covered by silence; a microphone that vanishes is replaced by silence until it comes back.
import Dispatch
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem
import Synchronization

/// An `AudioSource` reading an ALSA PCM (`--microphone NAME`, default "default").
///
/// Delivers S16 interleaved at 48 kHz (or the device's nearest rate), mono or stereo as the device
/// is, in chunks of one period (10–20 ms). Audio keeps its length on the clock: whatever the device
/// loses (an overrun, a suspend, an unplugged microphone) arrives as silence of the same length, so
/// the chunks tile the timeline without holes.
///
/// Timestamps come from the PCM itself, not from when a read returned: after each read,
/// `snd_pcm_status` gives a CLOCK_MONOTONIC stamp and the delay (frames captured but not yet read,
/// plus those in flight) at that moment, so the chunk's first sample was captured
/// `delay + frames` frames before the stamp. They are measurements: consecutive chunks tile to
/// within the device's jitter (about 2 ms through PulseAudio), not to the nanosecond, and they
/// follow what the device claims (a PulseAudio source whose latency estimate changes moves them
/// with it). A PCM without usable stamps (a file PCM, whose samples come from a file as fast as
/// they are read) runs on the sample clock instead: start time plus samples/rate, exact.
public final class ALSAMicrophone: AudioSource {
    /// The PCM name, e.g. "default", "hw:1,0", "plughw:CARD=Mic".
    public let name: String
    /// A configuration text to open `name` from instead of the global ALSA configuration (tests).
    private let configText: String?
    private let preferredRate: Int
    /// What the last open negotiated (kept after `stop`), and the running thread.
    private let negotiated = Locked<AudioSourceInfo?>(nil)
    private let thread = Locked<WorkerThread?>(nil)
    private let overrunCount = Atomic<Int>(0)

    /// - Parameters:
    ///   - name: the ALSA PCM to open.
    ///   - configText: if given, `name` is looked up in this configuration (alsa.conf syntax, with
    ///     `pcm.<name> { ... }`) rather than in the system's; see `ALSAPCM.init`.
    ///   - preferredRate: the rate asked for; the device's nearest is used.
    public init(name: String = "default", configText: String? = nil, preferredRate: Int = 48_000) {
        self.name = name
        self.configText = configText
        self.preferredRate = preferredRate
    }

    /// The negotiated format after `start`; before it, what is asked for (channels 0: not known yet).
    public var info: AudioSourceInfo {
        negotiated.withLock { $0 } ?? AudioSourceInfo(name: name, sampleRate: preferredRate, channels: 0)
    }

    /// Overruns and suspends recovered since `start` (each gap covered by silence of its length).
    public var overruns: Int { overrunCount.load(ordering: .relaxed) }

    /// Opens and sets up the PCM on the capture thread (which owns it from open to close), waits for
    /// that, and throws the `ALSAError` if it fails; then capture runs until `stop`.
    public func start(chunks: @escaping @Sendable (AudioChunk) -> Void,
                      events: @escaping @Sendable (CaptureEvent) -> Void) throws {
        precondition(thread.withLock { $0 == nil }, "ALSAMicrophone.start called while running")
        overrunCount.store(0, ordering: .relaxed)
        let opened = Handoff<Result<AudioSourceInfo, ALSAError>>()
        let started = try WorkerThread(name: "kiosk-mic") { [name, configText, preferredRate, self] worker in
            let loop: MicrophoneLoop
            do throws(ALSAError) {
                loop = try MicrophoneLoop(name: name, configText: configText, preferredRate: preferredRate,
                                          chunks: chunks, events: events,
                                          countOverrun: { self.overrunCount.add(1, ordering: .relaxed) })
            } catch {
                opened.put(.failure(error))
                return
            }
            opened.put(.success(loop.info))
            loop.run(on: worker)
        }
        switch opened.take() {
        case .success(let info):
            negotiated.withLock { $0 = info }
            thread.withLock { $0 = started }
        case .failure(let error):
            started.stop()
            throw error
        }
    }

    /// Stops the capture thread and closes the PCM; returns when the thread has ended (within about
    /// 200 ms: the loop waits for data with that timeout between its blocking reads).
    public func stop() {
        thread.withLock { $0.take() }?.stop()
    }
}

/// One value handed from one thread to another that waits for it.
final class Handoff<Value: Sendable>: Sendable {
    private let value = Locked<Value?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func put(_ newValue: Value) {
        value.withLock { $0 = newValue }
        ready.signal()
    }

    func take() -> Value {
        ready.wait()
        return value.withLock { $0.take()! }
    }
}

/// The capture loop and everything it owns (the PCM, the timeline). It lives on the capture thread
/// only, from open to close, so it needs no locks; what other threads see goes through callbacks.
private final class MicrophoneLoop {
    let name: String
    let configText: String?
    /// Fixed by the first open: a reopened device must deliver the same, or the track would change
    /// format in the middle of a recording.
    let info: AudioSourceInfo
    private(set) var periodFrames: Int
    let chunks: @Sendable (AudioChunk) -> Void
    let events: @Sendable (CaptureEvent) -> Void
    let countOverrun: @Sendable () -> Void

    /// The open device; nil while the microphone is lost.
    private var pcm: ALSAPCM?
    private var timeline: CaptureTimeline
    /// Whether the next good chunk is the first after a reopen (then `.microphoneBack` goes first).
    private var announceBack = false
    private var lost = false
    /// Recoveries since the last good read: more than `maxRecoveries` in a row means the device is
    /// broken rather than slow, and it is treated as lost.
    private var recoveriesInARow = 0
    private static let maxRecoveries = 5
    /// When the device last delivered (or was started); one silent for `stallLimit` is treated as
    /// lost, like the camera.
    private var lastDataAt: Int64 = 0
    private static let stallLimit: Int64 = 2_000_000_000
    /// The longest a wait for data blocks, so `stop` is seen within it even if the device stalls.
    private static let waitMilliseconds: Int32 = 200
    /// Whether the first status of the open PCM was looked at (see `checkStamp`).
    private var stampChecked = false
    private static let reopenInterval: Int64 = 1_000_000_000
    private var nextReopen: Int64 = 0
    private var lastReopenFailure: String?
    /// `microphoneUnreliable` went out (once an open of the microphone).
    private var toldUnreliable = false

    init(name: String, configText: String?, preferredRate: Int,
         chunks: @escaping @Sendable (AudioChunk) -> Void,
         events: @escaping @Sendable (CaptureEvent) -> Void,
         countOverrun: @escaping @Sendable () -> Void) throws(ALSAError) {
        let pcm = try ALSAPCM(name: name, direction: .capture, configText: configText)
        let parameters = try pcm.configureCapture(rate: preferredRate, channels: nil)
        self.name = name
        self.configText = configText
        self.info = AudioSourceInfo(name: name, sampleRate: parameters.rate, channels: parameters.channels)
        self.periodFrames = parameters.periodFrames
        self.chunks = chunks
        self.events = events
        self.countOverrun = countOverrun
        try pcm.start()
        let now = MonotonicClock.now()
        self.timeline = CaptureTimeline(rate: parameters.rate, start: now, usesDeviceStamps: Self.stampsCanBeTrusted(pcm))
        self.lastDataAt = now
        self.pcm = pcm
        Log.info("microphone \(name): \(pcm.typeName) PCM, \(parameters.rate) Hz, \(parameters.channels) channel(s), "
                 + "period \(parameters.periodFrames) frames, buffer \(parameters.bufferFrames) frames")
    }

    /// Whether this PCM's status timestamps tell when its samples were captured. A file PCM reads its
    /// samples from a file as fast as they are asked for, and a null PCM makes them up, so their
    /// stamps are merely the time of the status call; the sample count from the start is the only
    /// timeline such a PCM has. Other PCMs are checked on their first chunk (`checkStamp`).
    private static func stampsCanBeTrusted(_ pcm: ALSAPCM) -> Bool {
        !["FILE", "NULL"].contains(pcm.typeName)
    }

    /// Runs until the thread is asked to stop; closes the PCM on the way out.
    func run(on thread: WorkerThread) {
        while !thread.isStopping {
            if let pcm {
                capture(from: pcm, wakeFD: thread.wakeFD)
                holdToClock(on: thread)
            } else {
                deliverSilenceAndRetry(on: thread)
            }
        }
        pcm = nil
    }

    // MARK: Capturing

    private func capture(from pcm: ALSAPCM, wakeFD: Int32) {
        switch pcm.wait(milliseconds: Self.waitMilliseconds, wakeFD: wakeFD) {
        case .ready:
            break
        case .woken:
            return // asked to stop
        case .timedOut:
            checkStall()
            return
        case .interrupted(let interruption):
            recover(pcm, from: interruption)
            return
        }

        // A fresh zeroed array per chunk: the chunk owns it, and a plugin that reports frames it
        // did not write (the null PCM) yields silence rather than stale samples.
        var samples = [Int16](repeating: 0, count: periodFrames * info.channels)
        let result = samples.withUnsafeMutableBufferPointer { pcm.read(into: $0, frames: periodFrames) }
        switch result {
        case .interrupted(let interruption):
            recover(pcm, from: interruption)
        case .frames(0):
            // Driver paranoia: a blocking read that returns nothing after a ready wait. Older
            // alsa-lib file plugins do this at the end of their infile; don't spin on it.
            checkStall()
            MonotonicClock.sleep(until: MonotonicClock.now() + timeline.nanoseconds(Int64(periodFrames)))
        case .frames(let frames):
            recoveriesInARow = 0
            lastDataAt = MonotonicClock.now()
            if frames < periodFrames { samples.removeLast((periodFrames - frames) * info.channels) }
            let status = pcm.status()
            let stamp = checkStamp(status)
            let (timestamp, silence) = timeline.place(frames: frames, stamp: stamp, delay: status?.delay ?? 0)
            if announceBack {
                announceBack = false
                lost = false
                Log.info("microphone \(name) is back")
                events(.microphoneBack(info))
            }
            if let silence { deliverSilence(silence) }
            chunks(AudioChunk(samples: samples, channels: info.channels, sampleRate: info.sampleRate, timestamp: timestamp))
        }
    }

    /// A source that delivers more than time allows (ALSA's null device, a file PCM over nothing
    /// that paces it, a stuck driver returning at once, a clock far off) waits here until the clock
    /// has caught up, so the sound stays on the picture's time line and nothing piles up behind
    /// it. Said once an open, on stderr and as `microphoneUnreliable`.
    private func holdToClock(on thread: WorkerThread) {
        let now = MonotonicClock.now()
        guard let until = timeline.pacedUntil(now: now) else { return }
        if !toldUnreliable {
            toldUnreliable = true
            let reason = "the microphone \(name) delivers sound faster than time passes "
                + "(\(timeline.ahead(now: now) / 1_000_000) ms ahead of the clock); it is held to the clock"
            Log.info(reason)
            events(.microphoneUnreliable(reason: reason))
        }
        _ = thread.sleep(until: until)
    }

    /// The status timestamp to use for this chunk, or 0 for the sample clock. The first stamp of an
    /// open PCM decides for the rest: a PCM that gives none (0), or stamps on another clock (a plugin
    /// that ignores `tstamp_type` and stamps CLOCK_REALTIME), runs on the sample clock. A later
    /// stamp that is not near now either (driver paranoia) places only its own chunk by the sample clock.
    private func checkStamp(_ status: ALSAPCM.Status?) -> Int64 {
        guard timeline.usesDeviceStamps, let status, status.isRunning else { return 0 }
        let usable = status.timestamp != 0
            && status.timestamp.checkedSubtracting(MonotonicClock.now()).map { (-2_000_000_000...2_000_000_000).contains($0) } == true
        if !stampChecked {
            stampChecked = true
            if !usable {
                timeline.usesDeviceStamps = false
                Log.info("microphone \(name): the PCM gives no usable timestamps; counting samples from the start")
                return 0
            }
        }
        return usable ? status.timestamp : 0
    }

    /// Loses the microphone if it has delivered nothing for `stallLimit`.
    private func checkStall() {
        let silentFor = MonotonicClock.now() - lastDataAt
        if silentFor >= Self.stallLimit { lose("no audio from \(name) for \(silentFor / 1_000_000_000) s") }
    }

    /// The one bounded recovery: an overrun or a suspend is recovered and counted, the frames it
    /// lost become silence (measured on the next chunk); a failure, or too many recoveries in a
    /// row, loses the microphone.
    private func recover(_ pcm: ALSAPCM, from interruption: ALSAPCM.Interruption) {
        if case .failed(let error) = interruption {
            lose(error.description)
            return
        }
        recoveriesInARow += 1
        countOverrun()
        Log.info("microphone \(name): \(interruption == .overrun ? "overrun" : "suspended"), recovering; "
                 + "the lost time is recorded as silence")
        if recoveriesInARow > Self.maxRecoveries {
            lose("\(name) keeps overrunning (\(recoveriesInARow) recoveries without a sample)")
            return
        }
        if let error = pcm.recover(from: interruption) {
            lose(error.description)
            return
        }
        timeline.restarted(at: MonotonicClock.now())
    }

    // MARK: Lost and back

    private func lose(_ reason: String) {
        pcm = nil
        nextReopen = MonotonicClock.now() + Self.reopenInterval
        // A device that reopened but failed before its first chunk was never announced back, so it
        // is not announced lost again either.
        if !lost {
            lost = true
            Log.info("microphone \(name) lost: \(reason); recording silence and retrying every second")
            events(.microphoneLost(reason: reason))
        }
    }

    /// While the microphone is gone: one period of silence when its time has come (so silence is
    /// paced like capture and the video goes on), and a reopen attempt every second.
    private func deliverSilenceAndRetry(on thread: WorkerThread) {
        let due = timeline.end + timeline.nanoseconds(Int64(periodFrames))
        let wake = min(due, nextReopen)
        guard thread.sleep(until: wake) else { return }
        if wake == due {
            deliverSilence(CaptureTimeline.Silence(start: timeline.placeSilence(frames: periodFrames), frames: periodFrames))
        } else {
            reopen()
        }
    }

    /// Delivers silence in chunks of at most one period.
    private func deliverSilence(_ silence: CaptureTimeline.Silence) {
        var done = 0
        while done < silence.frames {
            let frames = min(periodFrames, silence.frames - done)
            chunks(AudioChunk(samples: [Int16](repeating: 0, count: frames * info.channels), channels: info.channels,
                              sampleRate: info.sampleRate, timestamp: silence.start + timeline.nanoseconds(Int64(done))))
            done += frames
        }
    }

    private func reopen() {
        nextReopen = MonotonicClock.now() + Self.reopenInterval
        do throws(ALSAError) {
            let pcm = try ALSAPCM(name: name, direction: .capture, configText: configText)
            let parameters = try pcm.configureCapture(rate: info.sampleRate, channels: info.channels)
            guard parameters.rate == info.sampleRate, parameters.channels == info.channels else {
                throw ALSAError(code: -EINVAL, call: "reopening \(name): it now offers \(parameters.rate) Hz, "
                                + "\(parameters.channels) channel(s) instead of \(info.sampleRate) Hz, \(info.channels)")
            }
            try pcm.start()
            periodFrames = parameters.periodFrames
            timeline.usesDeviceStamps = Self.stampsCanBeTrusted(pcm)
            timeline.restarted(at: MonotonicClock.now())
            stampChecked = false
            lastDataAt = MonotonicClock.now()
            recoveriesInARow = 0
            announceBack = true
            lastReopenFailure = nil
            self.pcm = pcm
        } catch {
            // Said once per different reason, not every second.
            if error.description != lastReopenFailure {
                lastReopenFailure = error.description
                Log.info("microphone \(name): reopening failed: \(error)")
            }
        }
    }
}
