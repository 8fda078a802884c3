// The machine's sleep and a terminal's SIGTSTP, let go only once the take is safe: logind's
// PrepareForSleep and SIGTSTP both end a take as on background (kept); the sleep inhibitor is
// released, and the process stops itself, only once no take is being written (the writer says
// `recordingFinished` after the file is finalized and synced). Before `ready` nothing records, so
// a sleep need not wait at all; the background itself is handled after `ready`, in order.

public struct SafeStop: Equatable, Sendable {
    /// logind announced a sleep and waits for the inhibitor.
    public private(set) var sleepWaiting = false
    /// SIGTSTP came: the process stops itself once the take is safe.
    public private(set) var stopWaiting = false

    public init() {}

    /// logind's PrepareForSleep (`sleeping`), or its resume: the resume takes the inhibitor again.
    mutating func systemSleep(_ sleeping: Bool) -> [BoothCore.Effect] {
        sleepWaiting = sleeping
        return sleeping ? [.log("system sleep: the machine is about to sleep")]
            : [.log("system sleep: the machine has resumed"), .service(.reacquireSleep)]
    }

    /// The same before `ready`: nothing said, nothing reacquired (the message comes again after `ready`).
    mutating func beforeReady(sleeping: Bool) {
        sleepWaiting = sleeping
    }

    /// SIGTSTP: the process is to stop once the take is safe.
    mutating func terminalStop() {
        stopWaiting = true
    }

    /// What is let go now: nothing while a take is being written.
    mutating func look(writing: Bool) -> [BoothCore.Effect] {
        guard !writing else { return [] }
        var effects: [BoothCore.Effect] = []
        if sleepWaiting { effects.append(.service(.releaseSleep)) }
        if stopWaiting { effects.append(.service(.stopProcess)) }
        (sleepWaiting, stopWaiting) = (false, false)
        return effects
    }
}
