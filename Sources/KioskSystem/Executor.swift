// Where a component's jobs run. Every queue a component uses is handed to it as an `Executor`
// (made by an `ExecutorFactory`), so the same component runs on threads of its own in the program
// (`SerialQueue`) and on the test's own thread in a test (`EmbeddedExecutors`: a step runs every
// job posted until none is left, and nothing runs behind the test's back).

/// A serial queue of jobs: each runs after every job posted before it.
public protocol Executor: AnyObject, Sendable {
    /// Runs `job` after every job posted before it; returns at once.
    func async(_ job: @escaping @Sendable () -> Void)
    /// Runs `job` after every job posted before it and returns once it has run.
    func sync(_ job: @escaping @Sendable () -> Void)
}

extension SerialQueue: Executor {}

/// Makes a component's executor, named for what it does (a thread's name in top -H). Throws when
/// the system has no thread to give.
public typealias ExecutorFactory = @Sendable (String) throws(SystemError) -> any Executor

/// The program's executors: a `SerialQueue`, a thread of its own, for each.
public let threadExecutors: ExecutorFactory = { name throws(SystemError) in try SerialQueue(name: name) }

/// Executors that run nothing by themselves: their jobs wait until the test's thread runs them
/// (`run`), in the order each queue was given them. A test's booth is then a value the test steps:
/// no thread of its own, no deadline, no race. A queue may be held (a slow disk, a stuck device):
/// its jobs wait until it is released.
public final class EmbeddedExecutors: Sendable {
    /// One embedded queue: its name, its jobs waiting, and whether the test holds it.
    public final class Queue: Executor {
        /// A job (a struct: a closure held directly in Locked is rewrapped on every access).
        private struct Job: Sendable { let run: @Sendable () -> Void }
        private struct State: Sendable {
            var jobs: [Job] = []
            var held = false
            /// A job of this queue is running (a job it posts runs after it, not inside it).
            var running = false
        }
        public let name: String
        private let state = Locked(State())
        /// The jobs running now, of every queue of the set (a job's `sync` on another queue runs
        /// inside it).
        private let jobsRunning: Locked<Int>

        init(name: String, jobsRunning: Locked<Int>) {
            self.name = name
            self.jobsRunning = jobsRunning
        }

        public func async(_ job: @escaping @Sendable () -> Void) {
            state.withLock { $0.jobs.append(Job(run: job)) }
        }

        /// Runs what waits before it, then `job`, on the caller's thread (a held queue too: a
        /// `sync` is the program waiting for the queue, and nothing else would run it).
        public func sync(_ job: @escaping @Sendable () -> Void) {
            async(job)
            while runOne(evenIfHeld: true) {}
        }

        /// Runs the next job unless the queue is held or one of its jobs runs now; false when none ran.
        func runOne(evenIfHeld: Bool = false) -> Bool {
            let next = state.withLock { s -> Job? in
                guard !s.running, evenIfHeld || !s.held, !s.jobs.isEmpty else { return nil }
                s.running = true
                return s.jobs.removeFirst()
            }
            guard let next else { return false }
            jobsRunning.withLock { $0 += 1 }
            next.run()
            jobsRunning.withLock { $0 -= 1 }
            state.withLock { $0.running = false }
            return true
        }

        var waiting: Int { state.withLock { $0.jobs.count } }
        func hold(_ held: Bool) { state.withLock { $0.held = held } }
    }

    private let queues = Locked<[Queue]>([])
    private let jobsRunning = Locked(0)

    public init() {}

    /// Whether the caller runs inside a job of these queues (on the worker, as the program has it),
    /// rather than in the loop's own turn.
    public var inJob: Bool { jobsRunning.withLock { $0 > 0 } }

    /// The factory a component is handed: each queue it makes is one of these.
    public var factory: ExecutorFactory {
        { [queues, jobsRunning] name in
            let queue = Queue(name: name, jobsRunning: jobsRunning)
            queues.withLock { $0.append(queue) }
            return queue
        }
    }

    /// Runs every job of every queue not held, and the jobs those post, until none is left;
    /// returns how many ran.
    @discardableResult
    public func run() -> Int {
        var ran = 0
        var progress = true
        while progress {
            progress = false
            for queue in queues.withLock({ $0 }) where queue.runOne() {
                ran += 1
                progress = true
            }
        }
        return ran
    }

    /// Jobs waiting (those of held queues too).
    public var waiting: Int { queues.withLock { $0 }.reduce(0) { $0 + $1.waiting } }

    /// Holds the queues named `name` (their jobs wait, as behind a slow disk), or releases them.
    public func hold(_ name: String, _ held: Bool = true) {
        for queue in queues.withLock({ $0 }) where queue.name == name { queue.hold(held) }
    }
}
