// The running take as the booth core watches it, each turn, from what the writer measured: its time
// left before a limit (TimeLeft: the duration cap, and the bytes the file-size cap and the free disk
// still allow at the take's rate), the disk keeping its syncs waiting (SlowDisk: said once a take, in
// the words of where the take is), and "Saving your video…" once a stopped take has been finishing
// for half a second.

/// What the writer measured this turn (`BoothCore.Turn.take`).
public struct TakeMeasures: Equatable, Sendable {
    /// Seconds of video written, bytes written, and bytes the limits still allow.
    public var elapsed: Double
    public var written: Int64
    public var room: Int64
    /// How long the stopped take has been finishing (nil: not stopped).
    public var finishingFor: Double?
    /// How long its oldest sync still running has waited (nil: none waits).
    public var syncWaited: Double?
    /// Pictures waiting for the encoder, and whether the take stepped its effort down (short of CPU).
    public var backlog: Int
    public var steppedDown: Bool

    public init(elapsed: Double, written: Int64 = 0, room: Int64 = .max, finishingFor: Double? = nil, syncWaited: Double? = nil,
                backlog: Int = 0, steppedDown: Bool = false) {
        (self.elapsed, self.written, self.room, self.finishingFor, self.syncWaited) = (elapsed, written, room, finishingFor, syncWaited)
        (self.backlog, self.steppedDown) = (backlog, steppedDown)
    }
}

public struct TakeWatch: Equatable, Sendable {
    /// A stopped take finishing this long (s) shows "Saving your video…" (and says so to systemd): a
    /// normal end takes a few milliseconds, so the guest never sees the words flash by.
    public static let savingShownAfter = 0.5

    /// The take's time left, and its rate once known (the metrics' bytes a second).
    public private(set) var timeLeft = TimeLeft(maxDuration: 0)
    public private(set) var slowDisk = SlowDisk()
    /// The take is being saved (stopped, finishing for `savingShownAfter`, not safe yet).
    public private(set) var saving = false
    /// A take is being opened: Start asked for it and its writer has not reported its start (or failure).
    public private(set) var isOpening = false
    /// The preview yields to the take (`previewYields`): from this many pictures waiting for the
    /// encoder, or once the take stepped its effort down.
    public static let previewYieldsAt = 2
    /// While it yields, the preview draws a picture at most this often (ns): 10 a second.
    public static let yieldingPreviewInterval: Int64 = 100_000_000
    /// The encoder is behind (as the turn measured it): the preview yields.
    private var behind = false
    /// When the preview last drew a picture (monotonic ns).
    private var previewShownAt: Int64 = .min

    public init() {}

    /// A take is asked for: the disk's warning may be said again.
    mutating func opening() {
        slowDisk = SlowDisk()
        isOpening = true
    }

    /// The take's writer could not start: nothing is being opened any more.
    mutating func openFailed() { isOpening = false }

    /// The writer began: time left counts from the cap in force.
    mutating func started(maxDuration: Double) {
        timeLeft = TimeLeft(maxDuration: maxDuration)
        isOpening = false
    }

    /// The turn's look: the take's time left (nil: no take runs), and what the disk's wait says.
    /// `openingWait`: the writer being opened, its sync's wait (nil: none waits; read only while a
    /// take is being opened).
    mutating func look(_ take: TakeMeasures?, openingWait: Double?) -> (remaining: Double?, disk: SlowDisk.Outcome) {
        saving = (take?.finishingFor ?? 0) >= Self.savingShownAfter
        behind = take.map { $0.backlog >= Self.previewYieldsAt || $0.steppedDown } ?? false
        if let take {
            let phase: SlowDisk.Phase = take.finishingFor == nil ? .recording : .finishing
            let remaining = timeLeft.seconds(elapsed: take.elapsed, written: take.written, room: take.room)
            return (remaining, slowDisk.look(waited: take.syncWaited, phase: phase))
        }
        return (nil, isOpening ? slowDisk.look(waited: openingWait, phase: .opening) : .nothing)
    }

    /// Whether the live picture waits at `now` while recording: the encoder is behind (or the take
    /// stepped down, where drawing at the full rate again would take back the time the step freed),
    /// and a picture was drawn less than `yieldingPreviewInterval` ago. The take gets every picture
    /// first; the guest sees a choppier picture for a moment instead of a take with pictures missing.
    public func previewYields(recording: Bool, at now: Int64) -> Bool {
        recording && behind && now - previewShownAt < Self.yieldingPreviewInterval
    }

    /// The preview drew a picture at `now`.
    public mutating func previewShown(at now: Int64) { previewShownAt = now }
}
