// The state EncodingSession keeps as it writes a take, in three parts: the picture's time line, the
// sound's on the same line, and the fragments (the open one, those cut and those synced). Owned by
// the session, on the writer's thread only.

/// The picture's side of the time line: where it starts, the last picture placed, and whether the
/// encoder still answers.
public struct PictureLine {
    public init() {}

    /// The first picture's capture time (CLOCK_MONOTONIC ns): pts 0.
    public var origin: Int64?
    public var lastPTS: Int64 = -1
    /// The last few steps between the pictures placed (the time base's units).
    public var steps: [Int64] = []
    public var written = 0
    /// When the video encoder last gave a packet (or took its first picture), on CLOCK_MONOTONIC.
    public var lastPacketAt: Int64?
    /// Where the video packets written so far end, in seconds (the time base is 1/90000 here).
    public var packetsEnd: Double = 0
    public var stalled = false

    /// A picture placed at `pts`.
    public mutating func place(_ pts: Int64) {
        if lastPTS >= 0 {
            steps.append(pts - lastPTS)
            if steps.count > 3 { steps.removeFirst() }
        }
        lastPTS = pts
    }

    /// How long the last picture placed lasts, before the next one is in: the shortest of the last
    /// three steps in whole frame intervals (1 to 3; `interval` before there are any). The muxer
    /// must be told at a fragment's cut: its last sample ends the fragment, and the next fragment's
    /// first picture is placed there, whatever its own time. At one interval a take that keeps every
    /// 2nd picture had the first picture of each fragment a frame interval early (33 ms off its
    /// sound); a camera's jitter rounds away, so at the full rate it is one interval, as before.
    public func spacing(interval: Int64) -> Int64 {
        guard let shortest = steps.min(), interval > 0 else { return interval }
        return interval * min(max((shortest + interval / 2) / interval, 1), 3)
    }
}

/// The sound's side: its samples on the picture's time line, and how its clock drifts from it.
public struct SoundLine {
    /// AAC's priming: the time line's first sample kept.
    public let start: Int64
    /// The time line's sample after the last one queued.
    public var queued: Int64
    /// The pts of the next AAC frame.
    public var encoded: Int64
    /// Sound that came before the first picture, placed (or trimmed) against it when it comes.
    public var early: [AudioChunk] = []
    /// How far the sound's clock runs from the picture's, smoothed (samples; > 0: the sound is
    /// behind), and what the resampler is compensating now.
    public var drift: Double = 0
    public var compensation = 0

    public init(start: Int64) {
        self.start = start
        queued = start
        encoded = start
    }
}

/// The fragments: the open one, those cut and those the disk holds.
public struct Fragmenting {
    public init() {}

    /// Video time at which the current fragment started.
    public var startPTS: Int64 = 0
    /// Bytes and packets waiting in the open fragment.
    public var pendingBytes: Int64 = 0
    public var pendingPackets = 0
    /// Fragments cut (written out), and of them those the disk holds (synced).
    public var written = 0
    public var synced = 0
    /// Free disk space when the last fragment was cut (statvfs), to keep `minFreeDisk` free.
    public var freeAtSync: Int64?
}

/// The encoder's effort: the step it works at, and the one the writer asked for (taken at the next
/// key frame).
public struct EffortLine {
    public init() {}

    public var current = 0
    public var wanted = 0
    /// Pictures encoded since the last key frame came out: the next one is a key frame at the GOP.
    public var sinceKey = 0
    /// Pictures encoded since `wanted` differs from `current`.
    public var waited = 0
    /// The change is taken at the next picture, not at the GOP's end (pictures pile up).
    public var soon = false
    /// What the last change at a key frame came to, for the writer (`EncodingSession.effortNews`).
    public var news: EffortNews?
}

/// A change of effort at a key frame: taken, or refused (the effort stays) and why.
public enum EffortNews: Equatable {
    case applied(Int)
    case refused(Int, String)
}
