// Idle reset (`--idle-timeout`) as a value with time passed in: the finished screen, a paused
// review, the library or the consent screen, left untouched for the timeout is reset (the machine's `idleReset`), so the next guest
// never sees the last one's take. Touches and presses restart the clock, and so does every change of
// what shows (a new mode, a pause); a `state` query does not.
import KioskContract

public struct IdleRule: Equatable, Sendable {
    /// Seconds untouched before the reset; 0: never.
    public var timeout: Double
    /// Since when (monotonic ns) what shows has been untouched, and what showed then.
    private var since: Int64
    private var showing: Showing?

    /// What the rule watches: the mode, and whether the review is paused.
    struct Showing: Equatable, Sendable {
        var mode: Mode
        var paused: Bool
    }

    public init(timeout: Double, now: Int64) {
        self.timeout = timeout
        since = now
    }

    /// A touch, a press or a command that presses: the clock starts again.
    public mutating func touched(at now: Int64) { since = now }

    /// A look at `now` with the machine as it is: true when the take is to be reset now (the clock
    /// then starts again). The player alone never resets.
    public mutating func isDue(mode: Mode, paused: Bool, playerAlone: Bool, at now: Int64) -> Bool {
        guard timeout > 0 else { return false }
        let current = Showing(mode: mode, paused: paused)
        if current != showing {
            showing = current
            since = now
        }
        // The library (grid or review) and the consent screen left untouched go back to ready
        // (RecorderMachine.idleReset): a guest who walked away from the consent screen agreed to nothing.
        let idle = mode == .finished || mode == .library || mode == .consent || (mode == .playing && paused)
        guard idle, !playerAlone, Double(now - since) / 1e9 >= timeout else { return false }
        since = now
        return true
    }
}

extension RecorderMachine {
    /// `idleReset`: the paused review closed, then the take used or discarded as the presses do; the
    /// consent screen answered No thanks (nothing recorded, no event but the mode's).
    mutating func idleReset(_ asked: IdleAction) -> [RecorderAction] {
        guard playerFile == nil, !exiting, [.finished, .playing, .library, .consent].contains(mode) else { return [] }
        var actions: [RecorderAction] = []
        if mode == .consent {
            answerConsent(agreed: false, &actions)
            return actions
        }
        if mode == .playing { actions += handle(.press(.closePlayer)) }
        if mode == .library { return actions + leaveLibrary() }
        // A take that cannot be used (no Use Video after a failed take) can only be discarded.
        let action: IdleAction = asked == .use && visibleButtons.contains(.useVideo) ? .use : .discard
        actions.insert(.emit(.idleReset(action: action)), at: 0)
        if action == .use {
            actions += handle(.press(.useVideo))
        } else {
            actions += handle(.press(.retake))
            // In a once session a discarded take ends the session as Cancel would.
            if session == .once { actions += handle(.press(.cancel)) }
        }
        return actions
    }
}
