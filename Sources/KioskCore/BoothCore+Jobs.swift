// The booth core's outstanding work (BoothJobs' rule): the file-worker jobs posted and not yet back,
// the `--on-take` hooks owed (HookQueue) and the one running. The booth runs the jobs and the hooks
// (its queues) and reports each post and each end here; the machine's exit is kept in the core
// (`handle`) and the core says `.exit` at the first turn after the last job and the running hook
// reported back, never while one is out: a take being handed over or uploaded is not cut off. A
// hook waiting for its next try does not hold the exit (the saved queue continues it at the next
// launch). A signal that ends the booth while a hook runs makes the turn say `.stopHook`, once.

extension BoothCore {
    /// A job is posted to the file worker: the exit waits for it until its report brings the job
    /// back (`fileDone`).
    public mutating func filePosted() -> FileJob {
        jobs.filePosted()
    }

    /// `job` reported back.
    public mutating func fileDone(_ job: FileJob) {
        jobs.fileDone(job)
    }

    /// An accepted take owes its hook, due at `now`.
    public mutating func hookOwed(_ entry: HookQueue.Entry, at now: Int64) {
        jobs.owed.add(entry, now: now)
    }

    /// The hook try to start at `now`, if one is due and none runs (HookQueue.next); it runs until
    /// `hookEnded`, and the exit waits for it.
    public mutating func nextHook(command: String, limit: Int?, at now: Int64) -> HookQueue.Run? {
        jobs.owed.next(command: command, limit: limit, now: now)
    }

    /// The running try of `path` ended at `now`: its event (`hookFinished`, or `hookFailed` when it
    /// did not start).
    public mutating func hookEnded(path: String, outcome: HookOutcome, at now: Int64) -> [Effect] {
        jobs.owed.ended(path: path, outcome: outcome, now: now).map(Effect.emit)
    }
}
