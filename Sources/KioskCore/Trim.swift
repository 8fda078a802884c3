// The review's trim (`--trim`): the part of the take Use Video delivers, and the rule that
// keeps it a part worth delivering. A pure value: the trimmer's handles and the `trim` command both
// go through it, and the booth cuts the take to it on the file worker (TakeTrim).
import KioskContract

extension TrimRange {
    /// The shortest part a trim may keep, in seconds.
    public static let minimum = 0.5

    /// Why this trim of a take `duration` seconds long is refused, or nil when it is fine: shorter
    /// than `minimum`, or not within the take.
    public func refusal(takeDuration duration: Double) -> String? {
        guard start.isFinite, end.isFinite else { return "trim: \"start\" and \"end\" must be numbers of seconds" }
        if start < 0 || end > duration + Self.slack {
            return "trim: [\(start), \(end)] is outside the take (0 to \(KioskEvent.milliseconds(duration)) s)"
        }
        if end - start < Self.minimum - Self.slack {
            return "trim: [\(start), \(end)] keeps less than \(Self.minimum) s of the take"
        }
        return nil
    }

    /// A millisecond: the take's length is reported rounded to it, so a trim to that end fits.
    static let slack = 0.001

    /// Whether it keeps the whole take (nothing to cut).
    public func isWhole(takeDuration duration: Double) -> Bool {
        start <= Self.slack && end >= duration - Self.slack
    }

    /// A handle of the trimmer moved to `seconds`: the trim it leaves, the handle stopped at the
    /// take's ends and `minimum` from the other handle.
    public func moving(_ handle: TrimHandle, to seconds: Double, takeDuration duration: Double) -> TrimRange {
        let gap = min(Self.minimum, duration)
        switch handle {
        case .start: return TrimRange(start: min(max(seconds, 0), max(end - gap, 0)), end: end)
        case .end: return TrimRange(start: start, end: max(min(seconds, duration), min(start + gap, duration)))
        }
    }
}

/// The trimmer's two handles.
public enum TrimHandle: String, CaseIterable, Sendable {
    case start, end
}
