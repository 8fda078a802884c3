// The booth's outstanding work, as a value: file-worker jobs posted and not yet reported back, the
// `--on-take` hooks owed (HookQueue) and the takes they protect from retention, and the exit the
// machine asked for. The process leaves only once the machine said exit and every file job and the
// running hook have reported back: a take being handed over or uploaded is never cut off by the
// exit. A hook waiting for its next try does not hold the exit: the saved queue continues it at the
// next launch.

/// A file-worker job the core counted out (`BoothJobs.filePosted`): its report comes back with it,
/// so a report is matched to its own job, never to another's.
public struct FileJob: Hashable, Sendable {
    public let id: Int
}

public struct BoothJobs: Equatable, Sendable {
    /// The exit status the machine asked for; nil: not leaving.
    public var exitCode: Int32?
    /// File-worker jobs posted and not yet reported back, by id.
    public private(set) var outstanding: Set<Int> = []
    /// The last id given out.
    private var lastJob = 0
    /// The `--on-take` hooks still owed, and the one running (HookQueue).
    public var owed = HookQueue()
    /// A signal ended the booth and the running hook was asked to end (once).
    private var hooksStopped = false
    /// A signal is why the booth ends (the machine took `terminate` as its reason to leave): a
    /// running hook is asked to end.
    public internal(set) var endedBySignal = false
    /// `.exit` was said: the booth's loop ends with `exitCode`.
    public internal(set) var exitSaid = false

    public init() {}

    /// True once the machine said exit and every file job and the running hook have reported back.
    public var isFinished: Bool { exitCode != nil && outstanding.isEmpty && owed.running == nil }

    /// A job is posted: the exit waits for it until its report brings this back.
    public mutating func filePosted() -> FileJob {
        lastJob += 1
        outstanding.insert(lastJob)
        return FileJob(id: lastJob)
    }

    /// `job`'s report is back (in any order with the others).
    public mutating func fileDone(_ job: FileJob) {
        precondition(outstanding.remove(job.id) != nil, "file job \(job.id) reported back twice, or was never posted")
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
