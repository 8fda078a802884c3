// Where each audio chunk sits on CLOCK_MONOTONIC: from the PCM's status timestamps when it has
// real ones, else from a start time plus the samples counted since. Pure: times come in as values.

/// The capture-time bookkeeping of one audio stream: the timestamp of each chunk's first sample,
/// the end of what was delivered, and how much silence covers a gap after a restart.
struct CaptureTimeline: Equatable, Sendable {
    let rate: Int
    /// Whether status timestamps are used (decided by the caller once per open PCM).
    var usesDeviceStamps: Bool
    /// The sample clock: the time of a known sample and the frames delivered since it. Used when the
    /// PCM gives no timestamps, and for a chunk whose status could not be read.
    private var anchor: Int64
    private var framesSinceAnchor: Int64 = 0
    /// The end of the audio delivered so far: where the next chunk starts if nothing is lost.
    private(set) var end: Int64
    /// Set by `restarted`: the next chunk may start later than `end` (frames were lost).
    private var gapPossible = false
    /// The pace: frames delivered since `paceStart` (the start, or the last restart), whatever
    /// their stamps say, against the time passed since. A microphone cannot deliver faster than
    /// time passes; one that does (ALSA's null device makes samples up as fast as they are read, a
    /// stuck driver returns at once) is held to the clock (`pacedUntil`).
    private var paceStart: Int64
    private var paceFrames: Int64 = 0
    /// How far the sound delivered may run ahead of the time passed: a device's first reads may
    /// bring what its buffer held, and a clock a little fast (a USB microphone's 0.5 %) gains
    /// slowly, so `allowedAhead` plus a hundredth of the time passed.
    static let allowedAhead: Int64 = 250_000_000

    init(rate: Int, start: Int64, usesDeviceStamps: Bool) {
        self.rate = rate
        self.usesDeviceStamps = usesDeviceStamps
        anchor = start
        end = start
        paceStart = start
    }

    /// How far the sound delivered since the start (or the last restart) runs ahead of the time
    /// passed by `now`, in nanoseconds (negative: behind, as a real device always is a little).
    func ahead(now: Int64) -> Int64 { nanoseconds(paceFrames) - (now - paceStart) }

    /// When the source runs further ahead than it may (`allowedAhead` plus 1 % of the time passed),
    /// the moment it is back within `allowedAhead`: the reader waits until then before it reads
    /// again, so the sound is paced by the clock and nothing piles up. Nil: in pace.
    func pacedUntil(now: Int64) -> Int64? {
        let passed = now - paceStart
        guard ahead(now: now) > Self.allowedAhead + passed / 100 else { return nil }
        return paceStart + nanoseconds(paceFrames) - Self.allowedAhead
    }

    /// Nanoseconds of `frames` frames, rounded down (as `AudioChunk.duration` is).
    func nanoseconds(_ frames: Int64) -> Int64 { frames * 1_000_000_000 / Int64(rate) }

    /// The stream started again at `time` (after an overrun, a suspend or a reopen): samples after
    /// it are counted from there, and the next chunk's silence gap is measured.
    mutating func restarted(at time: Int64) {
        anchor = time
        framesSinceAnchor = 0
        gapPossible = true
        paceStart = time
        paceFrames = 0
    }

    /// Places a chunk of `frames` frames whose read was followed by a status with `stamp` (0: none)
    /// and `delay`. Returns the capture time of the chunk's first sample, and the silence that must
    /// come before it: a gap after a restart, from the old `end` up to the chunk.
    ///
    /// For capture, `delay` counts the frames between the application pointer (just after this
    /// chunk) and the sample being captured at `stamp`, so the chunk's first sample was captured
    /// `delay + frames` frames before `stamp`.
    mutating func place(frames: Int, stamp: Int64, delay: Int) -> (timestamp: Int64, silence: Silence?) {
        var timestamp = anchor + nanoseconds(framesSinceAnchor)
        if usesDeviceStamps && stamp > 0 {
            timestamp = stamp - nanoseconds(Int64(delay + frames))
            anchor = timestamp
            framesSinceAnchor = 0
        }
        var silence: Silence?
        if gapPossible {
            gapPossible = false
            // Rounded to the nearest frame; an overlap (a device clock a little early) is not cut.
            let gap = timestamp - end
            let count = gap > 0 ? Int((gap * Int64(rate) + 500_000_000) / 1_000_000_000) : 0
            if count > 0 { silence = Silence(start: end, frames: count) }
        }
        framesSinceAnchor += Int64(frames)
        paceFrames += Int64(frames)
        end = timestamp + nanoseconds(Int64(frames))
        return (timestamp, silence)
    }

    /// Silence to deliver: `frames` frames whose first is at `start`.
    struct Silence: Equatable, Sendable {
        var start: Int64
        var frames: Int
    }

    /// Places `frames` frames of silence at `end` (while the device is gone, or a gap's share);
    /// returns their timestamp.
    mutating func placeSilence(frames: Int) -> Int64 {
        let timestamp = end
        end += nanoseconds(Int64(frames))
        return timestamp
    }
}
