// The `--on-take` hooks: each accepted take owes its hook until the hook exits 0. The
// core's queue (HookQueue, in BoothJobs) decides which try runs when, what is saved and what is said
// (BoothCore+Jobs); this file carries it out. Before each try the queue is saved on the file worker
// (its attempt counted), and the file worker hands the try to the hooks worker only then, so a kill -9
// during a try still counts it at the next launch. After a success the queue is saved without the
// take and retention runs again: the take may go now.
import FoundationEssentials
import Glibc
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

extension Booth {
    /// The photo at `path` owes its hook (`share`: its share folder, when it was shared; a take's
    /// is the core's, BoothCore+Share).
    func hookOwed(photo path: String, share: ShareLink?) {
        feed(.hookOwed(HookQueue.Entry(path: path, duration: 0, shareToken: share?.token, shareFolder: share?.folder)))
    }

    /// The core's `.hook(.save)`: the queue saved on the file worker, then (`thenRetention`) the
    /// output folder's retention, which a take whose hook is done no longer holds back.
    func saveHooks(_ text: String, thenRetention: Bool) {
        let (storage, file) = (storage, storage.hookQueueFile)
        let (rules, protected) = (retention, core.jobs.protectedTakes)
        guard file != nil || thenRetention else { return }
        fileJob {
            if let file { HookQueueFile.save(text, to: file) }
            return .input(.say(thenRetention ? storage.enforce(rules, protected: protected) : []))
        }
    }

    /// The core's `.hook(.run)`: the queue saved (its attempt counted), then, after the save (the file
    /// worker is serial), the command on the hooks worker; its end comes back as the core's `hookEnded`.
    func runHook(_ run: HookQueue.Run, queue: String) {
        let (inbox, running, hooks, file) = (inbox, shared.runningHook, shared.hooks, storage.hookQueueFile)
        fileJob {
            if let file { HookQueueFile.save(queue, to: file) }
            return .input(.say([]))
        }
        shared.files.async {
            hooks.async { Booth.runHook(run, inbox: inbox, running: running) }
        }
    }

    /// On the hooks worker: one try of `run`, its command a child of its own (stdin /dev/null,
    /// stdout to stderr).
    private static func runHook(_ run: HookQueue.Run, inbox: Inbox, running: RunningHook) {
        guard FileManager.default.fileExists(atPath: run.path) else {
            return inbox.post(.input(.hookEnded(path: run.path, outcome: .takeGone)))
        }
        switch ShellCommand.spawn(run.command, environment: run.environment) {
        case let .failure(error):
            inbox.post(.input(.hookEnded(path: run.path, outcome: .notStarted("--on-take: \(error)"))))
        case let .success(pid):
            running.pid.store(pid, ordering: .relaxed)
            let status = ShellCommand.wait(pid)
            running.pid.store(0, ordering: .relaxed)
            inbox.post(.input(.hookEnded(path: run.path, outcome: .exited(status))))
        }
    }

    /// A signal ends the booth: the running hook (and what it started) is asked to end too, rather
    /// than waited for.
    func stopRunningHook() {
        let pid = shared.runningHook.pid.load(ordering: .relaxed)
        if pid > 0 { kill(-pid, SIGTERM) }
    }
}
