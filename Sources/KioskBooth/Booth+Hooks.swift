// The `--on-take` hooks (issue 32): each accepted take owes its hook until the hook exits 0. The
// queue (HookQueue, in the core's BoothJobs) decides which try runs when; this file carries it out.
// Before each try the queue is saved on the file worker (its attempt counted), and the file worker
// hands the try to the hooks worker only then, so a kill -9 during a try still counts it at the next
// launch. After a success the queue is saved without the take and retention runs again: the take may
// go now.
import FoundationEssentials
import Glibc
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

extension Booth {
    /// The accepted take at `path` owes its hook (`share`: its share folder, when it was shared;
    /// `duration`: its length when not the last take's, a photo's 0); its first try starts now
    /// unless another hook runs.
    func hookOwed(_ path: String, share: ShareLink?, duration: Double? = nil) {
        guard config.service.onTake != nil else { return }
        core.hookOwed(HookQueue.Entry(path: path, duration: duration ?? takes.lastDuration, shareToken: share?.token, shareFolder: share?.folder),
                      at: now)
        // Saved at once, whether its try starts now or waits behind another hook's: a kill -9 while
        // another hook runs must not lose what this take owes.
        let (file, text) = (storage.hookQueueFile, core.jobs.owed.text)
        if let file {
            fileJob {
                HookQueueFile.save(text, to: file)
                return .hookFilesDone([])
            }
        }
        startDueHook()
    }

    /// Each turn: a try that is due starts, unless the booth is on its way out (what is owed then
    /// waits for the next launch; the running hook is waited for).
    func checkHooks() {
        guard !machine.exiting else { return }
        startDueHook()
    }

    /// The next due try, if none runs: the queue saved, then the command run on the hooks worker;
    /// its end comes back as `hookDone`.
    private func startDueHook() {
        guard let command = config.service.onTake,
              let run = core.nextHook(command: command, limit: config.service.hookAttempts, at: now) else { return }
        let (inbox, running, hooks, file, text) = (inbox, shared.runningHook, shared.hooks, storage.hookQueueFile, core.jobs.owed.text)
        fileJob {
            if let file { HookQueueFile.save(text, to: file) }
            return .hookFilesDone([])
        }
        // After the save (the file worker is serial), the command on the hooks worker.
        shared.files.async {
            hooks.async { Booth.runHook(run, inbox: inbox, running: running) }
        }
    }

    /// On the hooks worker: one try of `run`, its command a child of its own (stdin /dev/null,
    /// stdout to stderr).
    private static func runHook(_ run: HookQueue.Run, inbox: Inbox, running: RunningHook) {
        guard FileManager.default.fileExists(atPath: run.path) else {
            return inbox.post(.hookDone(path: run.path, outcome: .takeGone))
        }
        switch ShellCommand.spawn(run.command, environment: run.environment) {
        case let .failure(error):
            inbox.post(.hookDone(path: run.path, outcome: .notStarted("--on-take: \(error)")))
        case let .success(pid):
            running.pid.store(pid, ordering: .relaxed)
            let status = ShellCommand.wait(pid)
            running.pid.store(0, ordering: .relaxed)
            inbox.post(.hookDone(path: run.path, outcome: .exited(status)))
        }
    }

    /// A try ended: its event; after a success (or a take that is gone) the queue is saved without
    /// it and retention runs again; after a failure the next try waits for the back-off, or the
    /// hook is given up after `--hook-attempts` tries (its take still kept).
    func hookDone(_ path: String, _ outcome: HookOutcome) {
        let attempts = core.jobs.owed.entries.first { $0.path == path }?.attempts ?? 0
        carryOut(core.hookEnded(path: path, outcome: outcome, at: now))
        switch outcome {
        case .exited(0), .takeGone:
            if outcome == .takeGone { Log.info("--on-take: \(path) is gone; its hook is dropped") }
            let (storage, file, text) = (storage, storage.hookQueueFile, core.jobs.owed.text)
            let (rules, protected) = (retention, core.jobs.protectedTakes)
            fileJob {
                if let file { HookQueueFile.save(text, to: file) }
                return .hookFilesDone(storage.enforce(rules, protected: protected))
            }
        case .exited, .notStarted:
            let said = if case let .exited(status) = outcome { "exited with \(status)" } else { "could not start" }
            if let limit = config.service.hookAttempts, attempts >= limit {
                Log.info("--on-take for \(path) \(said) (try \(attempts)): given up after \(limit) tries; the take is kept")
            } else if let wait = core.jobs.owed.wait(for: path, now: now) {
                Log.info("--on-take for \(path) \(said) (try \(attempts)): tried again in \(Int(wait.rounded())) s")
            }
        }
    }

    /// A signal ends the booth: the running hook (and what it started) is asked to end too, rather
    /// than waited for.
    func stopRunningHook() {
        let pid = shared.runningHook.pid.load(ordering: .relaxed)
        if pid > 0 { kill(-pid, SIGTERM) }
    }
}
