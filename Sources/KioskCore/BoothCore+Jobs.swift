// The booth core's outstanding work (BoothJobs' rule): the file-worker jobs posted and not yet back,
// the `--on-take` hooks owed (HookQueue) and the one running. The booth runs the jobs and the hooks
// (its queues) and reports each post and each end here; the machine's exit is kept in the core
// (`handle`) and the core says `.exit` at the first turn after the last job and the running hook
// reported back, never while one is out: a take being handed over or uploaded is not cut off. A
// hook waiting for its next try does not hold the exit (the saved queue continues it at the next
// launch). A signal that ends the booth while a hook runs makes the turn say `.hook(.stop)`, once.
import KioskContract

extension BoothCore {
    /// A job is posted to the file worker: the exit waits for it until its report brings the job
    /// back (`fileDone`). The booth hears it as `.file(.post(job))` (`Input.filePosted`).
    mutating func filePosted() -> FileJob {
        jobs.filePosted()
    }

    /// `job` reported back.
    mutating func fileDone(_ job: FileJob) {
        jobs.fileDone(job)
    }

    /// An accepted take owes its hook, due at `now`.
    /// The accepted take of `entry` owes its hook: the queue is saved at once (a kill -9 while another
    /// hook runs must not lose it), and its first try starts now unless another hook runs, even on
    /// the way out (a once session's Use Video: the exit waits for that try).
    mutating func hookOwed(_ entry: HookQueue.Entry, at now: Int64) -> [Effect] {
        guard hookCommands[entry.kind] != nil else { return [] }
        jobs.owed.add(entry, now: now)
        return [.hook(.save(jobs.owed.text, thenRetention: false))] + dueHook(at: now, leaving: true)
    }

    /// The try that is due, if none runs: the queue saved with its attempt counted, then the command
    /// run (`.hook(.run)`). A turn starts none once the booth is on its way out (`leaving` false): what
    /// is owed then waits for the next launch, and the running hook is waited for.
    mutating func dueHook(at now: Int64, leaving: Bool = false) -> [Effect] {
        guard leaving || !machine.exiting, let run = jobs.owed.next(commands: hookCommands, limit: settings.hookAttempts, now: now) else { return [] }
        return [.hook(.run(run, queue: jobs.owed.text))]
    }

    /// The hooks' commands set: `--on-take`'s and `--on-delete`'s.
    var hookCommands: [HookKind: String] { [.take: settings.onTake, .delete: settings.onDelete].compactMapValues { $0 } }

    /// A try ended: its event; after a success (or a take that is gone) the queue is saved without
    /// it and retention runs again (the take may go now); after a failure the next try waits for the
    /// back-off, or the hook is given up after `--hook-attempts` tries (its take still kept).
    mutating func hookEnded(path: String, hook: HookKind = .take, outcome: HookOutcome, at now: Int64) -> [Effect] {
        let attempts = jobs.owed.entries.first { $0.path == path && $0.kind == hook }?.attempts ?? 0
        var effects = jobs.owed.ended(path: path, hook: hook, outcome: outcome, now: now).map(Effect.emit)
        let option = hook == .delete ? "--on-delete" : "--on-take"
        switch outcome {
        case .exited(0), .takeGone:
            if outcome == .takeGone { effects.append(.log("--on-take: \(path) is gone; its hook is dropped")) }
            effects.append(.hook(.save(jobs.owed.text, thenRetention: true)))
        case .exited, .notStarted:
            let said = if case let .exited(status) = outcome { "exited with \(status)" } else { "could not start" }
            if let limit = settings.hookAttempts, attempts >= limit, hook == .take {
                effects.append(.log("--on-take for \(path) \(said) (try \(attempts)): given up after \(limit) tries; the take is kept"))
            } else if let wait = jobs.owed.wait(for: path, hook: hook, now: now) {
                effects.append(.log("\(option) for \(path) \(said) (try \(attempts)): tried again in \(Int(wait.rounded())) s"))
            }
        }
        return effects
    }
}
