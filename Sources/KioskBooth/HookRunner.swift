// The `--on-take` hooks' runner: one try at a time on a worker of its own (a hook may take minutes:
// an upload), each handed over by the file worker only once the queue saved before it (its attempt
// counted) is on disk, so a kill -9 during a try still counts it at the next launch. It keeps the
// running hook's pid to end it when a signal ends the booth. What is tried when is the core's
// (HookQueue, BoothCore+Jobs).
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem
import Synchronization

final class HookRunner: Sendable {
    private let queue: any Executor
    /// The file worker: a try starts after the jobs posted before it (the queue's save).
    private let files: any Executor
    /// The running hook's pid (its process group; 0: none), set and cleared on the hooks worker.
    private let pid = Atomic<Int32>(0)

    init(queue: any Executor, files: any Executor) {
        self.queue = queue
        self.files = files
    }

    /// One try of `run`, after the file worker's jobs posted before it; its end is posted to `inbox`
    /// as the core's `hookEnded`.
    func run(_ run: HookQueue.Run, inbox: Inbox) {
        files.async { [self] in
            queue.async { [self] in inbox.post(.input(.hookEnded(path: run.path, outcome: attempt(run)))) }
        }
    }

    /// On the hooks worker: `run`'s command as a child of its own (stdin /dev/null, stdout to stderr),
    /// waited for; none when its take is gone.
    private func attempt(_ run: HookQueue.Run) -> HookOutcome {
        guard FileManager.default.fileExists(atPath: run.path) else { return .takeGone }
        switch ShellCommand.spawn(run.command, environment: run.environment) {
        case let .failure(error):
            return .notStarted("--on-take: \(error)")
        case let .success(child):
            pid.store(child, ordering: .relaxed)
            defer { pid.store(0, ordering: .relaxed) }
            return .exited(ShellCommand.wait(child))
        }
    }

    /// A signal ends the booth: the running hook (and what it started) is asked to end too, rather
    /// than waited for.
    func stop() {
        let running = pid.load(ordering: .relaxed)
        if running > 0 { kill(-running, SIGTERM) }
    }
}
