// The booth's outstanding work, as a value: file-worker jobs posted and not yet reported back, the
// `--on-take` hooks owed (HookQueue) and the takes they protect from retention, and the exit the
// machine asked for. The process leaves only once the machine said exit and every file job and the
// running hook have reported back: a take being handed over or uploaded is never cut off by the
// exit. A hook waiting for its next try does not hold the exit: the saved queue continues it at the
// next launch.

public struct BoothJobs: Equatable, Sendable {
    /// The exit status the machine asked for; nil: not leaving.
    public var exitCode: Int32?
    /// File-worker jobs posted and not yet reported back.
    public private(set) var fileJobs = 0
    /// The `--on-take` hooks still owed, and the one running (HookQueue).
    public var owed = HookQueue()
    /// A signal ended the booth and the running hook was asked to end (once).
    private var hooksStopped = false

    public init() {}

    /// True once the machine said exit and every file job and the running hook have reported back.
    public var isFinished: Bool { exitCode != nil && fileJobs == 0 && owed.running == nil }

    public mutating func filePosted() { fileJobs += 1 }

    public mutating func fileDone() {
        precondition(fileJobs > 0, "a file job reported back twice")
        fileJobs -= 1
    }

    /// Takes (file names) retention must not delete: their hook is owed (waiting, running, or out
    /// of tries), in this run or a previous one.
    public var protectedTakes: Set<String> { owed.protectedTakes }

    /// Whether the running hook is to be asked to end now: a signal is ending the booth
    /// (`signalled`) while a hook runs. True once.
    public mutating func stopHooks(signalled: Bool) -> Bool {
        guard signalled, owed.running != nil, !hooksStopped else { return false }
        hooksStopped = true
        return true
    }
}
