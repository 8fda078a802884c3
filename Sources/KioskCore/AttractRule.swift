// The attract screen (`--attract-after`) as a value with time passed in: ready untouched for that
// long shows the calm attract screen; a touch ends it (and is spent on waking it), and so does any
// other mode or a reload that turns it off.

public struct AttractRule: Equatable, Sendable {
    /// Seconds untouched in ready before it shows; 0: never.
    public var after: Double
    /// Since when (monotonic ns) ready has been untouched.
    private var since: Int64
    /// The attract screen shows.
    public private(set) var showing = false

    public init(after: Double, now: Int64) {
        self.after = after
        since = now
    }

    /// A look at `now`: `eligible` when the booth is in ready (not on its way out, not the player
    /// alone). True when what shows changed (it began or ended).
    public mutating func look(eligible: Bool, at now: Int64) -> Bool {
        guard after > 0, eligible else {
            since = now
            defer { showing = false }
            return showing
        }
        guard !showing, Double(now - since) / 1e9 >= after else { return false }
        showing = true
        return true
    }

    /// A touch, a key or a press: the clock starts again; true when it woke the attract screen
    /// (a touch then only wakes it: it must not also press what lies under it).
    public mutating func touched(at now: Int64) -> Bool {
        since = now
        defer { showing = false }
        return showing
    }
}
