// Whether the whole process stood still: SIGSTOP (a debugger, a job-control stop), a VM or container
// frozen, a machine too starved to run us. Nothing in the booth can tell that from inside a frame's
// path: after it, the camera's backlog overflows the encoder's queue and the log blamed the encoder,
// and the silence rule saw three silent seconds. A thread of its own notes the monotonic time ten
// times a second; a gap of a second or more between two notes was a stall of the whole process.
import Glibc
import Synchronization

public final class ProcessStalls: Sendable {
    /// The process's one watch, started by `start()` (the recorder at launch); until then it sees
    /// no stall.
    public static let shared = ProcessStalls()
    /// A gap between two notes this long (ns) was a stall; and for this long after one, what goes
    /// wrong (drops from the backlog) is its doing.
    public static let threshold: Int64 = 1_000_000_000
    static let interval: Int64 = 100_000_000

    private let lastNote = Atomic<Int64>(0)
    /// Each stall: when it ended (the first note after it) and how long it was (ns). The last 64.
    private let stalls = Locked<[(end: Int64, length: Int64)]>([])
    private let thread = Locked<WorkerThread?>(nil)

    public init() {}

    /// Starts the thread that notes the time (once; later calls do nothing).
    public func start() {
        thread.withLock { running in
            guard running == nil else { return }
            lastNote.store(MonotonicClock.now(), ordering: .relaxed)
            running = try? WorkerThread(name: "kiosk-stalls") { [self] worker in
                while worker.sleep(until: MonotonicClock.now() + Self.interval) { note(at: MonotonicClock.now()) }
            }
        }
    }

    /// A note at `now`: a gap since the last one of `threshold` or more was a stall.
    func note(at now: Int64) {
        let last = lastNote.exchange(now, ordering: .relaxed)
        guard last > 0, now - last >= Self.threshold else { return }
        let length = now - last - Self.interval
        stalls.withLock { list in
            list.append((now, length))
            if list.count > 64 { list.removeFirst() }
        }
        Log.info("the whole process stood still for \(Self.seconds(length)) s "
                 + "(stopped by SIGSTOP, or the machine or VM suspended or starved)")
    }

    /// Nanoseconds as seconds with one decimal ("5.0").
    public static func seconds(_ nanoseconds: Int64) -> String {
        "\(nanoseconds / 1_000_000_000).\(nanoseconds / 100_000_000 % 10)"
    }

    /// Whether `now` lies in a stall not noted yet (the watch has not run for `threshold`) or within
    /// `threshold` after one.
    public func inAftermath(at now: Int64 = MonotonicClock.now()) -> Bool {
        let last = lastNote.load(ordering: .relaxed)
        guard last > 0 else { return false }
        if now - last >= Self.threshold { return true }
        return stalls.withLock { $0.last.map { now - $0.end < Self.threshold } ?? false }
    }

    /// The stalls that ended after `time`: how long each was (ns).
    public func lengths(since time: Int64) -> [Int64] {
        stalls.withLock { $0.filter { $0.end > time }.map(\.length) }
    }
}
