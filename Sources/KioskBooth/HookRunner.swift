// The `--on-take` hooks' runner (and `--on-delete`'s tombstones'): one try at a time on a worker of its own (a hook may take minutes:
// an upload), each handed over by the file worker only once the queue saved before it (its attempt
// counted) is on disk, so a kill -9 during a try still counts it at the next launch. It keeps the
// running hook's pid to end it when a signal ends the booth. What is tried when is the core's
// (HookQueue, BoothCore+Jobs).
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem

final class HookRunner: Sendable {
    private let queue: any Executor
    /// The file worker: a try starts after the jobs posted before it (the queue's save).
    private let files: any Executor
    /// The try handed over: on its way (queued, or being started), its pid once it runs (its process
    /// group; 0: none), and whether a stop was asked before it had one (it is then ended as it starts).
    private let running = Locked<(starting: Bool, pid: Int32, stopAsked: Bool)>((false, 0, false))

    init(queue: any Executor, files: any Executor) {
        self.queue = queue
        self.files = files
    }

    /// One try of `run`, after the file worker's jobs posted before it; its end is posted to `inbox`
    /// as the core's `hookEnded`.
    func run(_ run: HookQueue.Run, inbox: Inbox) {
        running.withLock { $0 = (true, 0, false) }
        files.async { [self] in
            queue.async { [self] in inbox.post(.input(.hookEnded(path: run.path, hook: run.hook, outcome: attempt(run)))) }
        }
    }

    /// On the hooks worker: `run`'s command as a child of its own (stdin /dev/null, stdout to stderr),
    /// waited for; none when its take is gone (a tombstone's take is gone: it runs).
    private func attempt(_ run: HookQueue.Run) -> HookOutcome {
        defer { running.withLock { $0 = (false, 0, false) } }
        guard run.hook == .delete || FileManager.default.fileExists(atPath: run.path) else { return .takeGone }
        switch ShellCommand.spawn(run.command, environment: run.environment) {
        case let .failure(error):
            return .notStarted("--\(run.hook == .delete ? "on-delete" : "on-take"): \(error)")
        case let .success(child):
            let stopAsked = running.withLock { r in
                r = (false, child, r.stopAsked)
                return r.stopAsked
            }
            if stopAsked { kill(-child, SIGTERM) }
            return .exited(ShellCommand.wait(child))
        }
    }

    /// A signal ends the booth: the running hook (and what it started) is asked to end too, rather
    /// than waited for; one on its way, as soon as it has its pid.
    func stop() {
        let pid = running.withLock { r -> Int32 in
            r.stopAsked = r.starting
            return r.pid
        }
        if pid > 0 { kill(-pid, SIGTERM) }
    }
}
