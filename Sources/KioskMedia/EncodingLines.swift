// The state EncodingSession keeps as it writes a take, in three parts: the picture's time line, the
// sound's on the same line, and the fragments (the open one, those cut and those synced). Owned by
// the session, on the writer's thread only.
import KioskCore

/// The picture's side of the time line: where it starts, the last picture placed, and whether the
/// encoder still answers.
struct PictureLine {
    /// The first picture's capture time (CLOCK_MONOTONIC ns): pts 0.
    var origin: Int64?
    var lastPTS: Int64 = -1
    /// The last few steps between the pictures placed (the time base's units).
    var steps: [Int64] = []
    var written = 0
    /// When the video encoder last gave a packet (or took its first picture), on CLOCK_MONOTONIC.
    var lastPacketAt: Int64?
    /// Where the video packets written so far end, in seconds (the time base is 1/90000 here).
    var packetsEnd: Double = 0
    var stalled = false

    /// A picture placed at `pts`.
    mutating func place(_ pts: Int64) {
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
    func spacing(interval: Int64) -> Int64 {
        guard let shortest = steps.min(), interval > 0 else { return interval }
        return interval * min(max((shortest + interval / 2) / interval, 1), 3)
    }
}

/// The sound's side: its samples on the picture's time line, and how its clock drifts from it.
struct SoundLine {
    /// AAC's priming: the time line's first sample kept.
    let start: Int64
    /// The time line's sample after the last one queued.
    var queued: Int64
    /// The pts of the next AAC frame.
    var encoded: Int64
    /// Sound that came before the first picture, placed (or trimmed) against it when it comes.
    var early: [AudioChunk] = []
    /// How far the sound's clock runs from the picture's, smoothed (samples; > 0: the sound is
    /// behind), and what the resampler is compensating now.
    var drift: Double = 0
    var compensation = 0

    init(start: Int64) {
        self.start = start
        queued = start
        encoded = start
    }
}

/// The fragments: the open one, those cut and those the disk holds.
struct Fragmenting {
    /// Video time at which the current fragment started.
    var startPTS: Int64 = 0
    /// After a fragment is cut: the end of its last picture (its pts plus the nominal frame length
    /// given to the muxer). The next fragment may not start before it: the MOV muxer would refuse
    /// the negative duration and write that picture without a pts.
    var endPTS: Int64?
    /// Bytes and packets waiting in the open fragment.
    var pendingBytes: Int64 = 0
    var pendingPackets = 0
    /// Fragments cut (written out), and of them those the disk holds (synced).
    var written = 0
    var synced = 0
    /// Free disk space when the last fragment was cut (statvfs), to keep `minFreeDisk` free.
    var freeAtSync: Int64?
}

/// The encoder's effort: the step it works at, and the one the writer asked for (taken at the next
/// key frame).
struct EffortLine {
    var current = 0
    var wanted = 0
    /// Pictures encoded since the last key frame came out: the next one is a key frame at the GOP.
    var sinceKey = 0
    /// Pictures encoded since `wanted` differs from `current`.
    var waited = 0
    /// The change is taken at the next picture, not at the GOP's end (pictures pile up).
    var soon = false
    /// What the last change at a key frame came to, for the writer (`EncodingSession.effortNews`).
    var news: EffortNews?
}

/// A change of effort at a key frame: taken, or refused (the effort stays) and why.
enum EffortNews: Equatable {
    case applied(Int)
    case refused(Int, String)
}
