// A thread of its own for a capture loop: a pthread, so stop() can join it (Foundation's Thread
// cannot be joined), with a stop flag the loop polls.
import Foundation
import Synchronization

/// Runs `body` on a new pthread. `stop()` raises the flag the body polls and joins the thread.
final class CaptureThread: Sendable {
    private let stopFlag = Atomic<Bool>(false)
    /// The pthread to join; taken by the first `stop()`, so a second one returns at once.
    private let thread = Mutex<pthread_t?>(nil)

    /// What the new thread runs: the body and the thread it belongs to, handed over retained.
    private final class Start: Sendable {
        let name: String
        let body: @Sendable (CaptureThread) -> Void
        let owner: CaptureThread
        init(name: String, body: @escaping @Sendable (CaptureThread) -> Void, owner: CaptureThread) {
            self.name = name
            self.body = body
            self.owner = owner
        }
    }

    /// Starts the thread (`pthread_create`). `name` shows in top and gdb.
    init(name: String, body: @escaping @Sendable (CaptureThread) -> Void) throws(CaptureThreadError) {
        let start = Unmanaged.passRetained(Start(name: name, body: body, owner: self)).toOpaque()
        var id = pthread_t()
        let result = pthread_create(&id, nil, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            Thread.current.name = start.name
            start.body(start.owner)
            return nil
        }, start)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            throw CaptureThreadError(errno: result)
        }
        thread.withLock { $0 = id }
    }

    /// True once `stop()` was called; the body returns soon after it sees this.
    var isStopping: Bool { stopFlag.load(ordering: .acquiring) }

    /// Asks the body to return and waits for the thread to end (`pthread_join`). Never call it
    /// from the thread itself.
    func stop() {
        stopFlag.store(true, ordering: .releasing)
        if let id = thread.withLock({ $0.take() }) { pthread_join(id, nil) }
    }

    /// Sleeps until `deadline` on the monotonic clock, waking early (within 20 ms) when stopped.
    /// Returns false if the thread is stopping.
    func sleep(until deadline: Int64) -> Bool {
        while !isStopping {
            let now = MonotonicClock.now()
            if now >= deadline { return true }
            MonotonicClock.sleep(until: min(deadline, now + 20_000_000))
        }
        return false
    }
}

/// `pthread_create` failed (EAGAIN: the process or system is out of threads).
public struct CaptureThreadError: Error, Equatable, CustomStringConvertible, Sendable {
    public let errno: Int32
    public var description: String { "pthread_create: \(String(cString: strerror(errno)))" }
}
