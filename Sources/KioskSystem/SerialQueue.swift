// A serial queue of jobs on a WorkerThread of its own: the booth's workers (the file worker, the
// camera's starts and stops, hooks, screenshots, the config reader, the listening microphone) run
// their jobs in the order they were posted, one at a time, and the poster never waits (`async`),
// except where it must (`sync`, at exit). The project's one thread type stays WorkerThread: these
// are long-lived threads like the others, with a name in top -H.
import Dispatch

public final class SerialQueue: Sendable {
    /// One posted job (a struct: a closure held directly in Locked is rewrapped on every access).
    private struct Job: Sendable {
        let run: @Sendable () -> Void
    }

    private struct Pending: Sendable {
        var jobs: [Job] = []
        /// The queue is gone: the thread runs what is left, then ends.
        var closing = false
    }

    private let pending = Locked(Pending())
    /// Counts the jobs posted (and the close): the thread waits on it when there is nothing to do.
    private let posted = DispatchSemaphore(value: 0)
    private let thread: WorkerThread

    /// Starts the queue's thread, named `name` (15 bytes show in top -H).
    public init(name: String) throws(SystemError) {
        let (pending, posted) = (pending, posted)
        thread = try WorkerThread(name: name) { _ in
            while true {
                posted.wait()
                let next = pending.withLock { p -> Job? in p.jobs.isEmpty ? nil : p.jobs.removeFirst() }
                if let next {
                    next.run()
                } else if pending.withLock({ $0.closing }) {
                    return
                }
            }
        }
    }

    /// The jobs posted before the queue goes still run; then its thread ends and is joined.
    deinit {
        pending.withLock { $0.closing = true }
        posted.signal()
        thread.join()
    }

    /// Runs `job` after every job posted before it; returns at once.
    public func async(_ job: @escaping @Sendable () -> Void) {
        pending.withLock { $0.jobs.append(Job(run: job)) }
        posted.signal()
    }

    /// Runs `job` after every job posted before it and waits for it: only where waiting is the
    /// point (the camera stopped before the process leaves; a job waiting for another queue's).
    public func sync(_ job: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        async {
            job()
            done.signal()
        }
        done.wait()
    }
}
