// The one thread type: a pthread that can be joined (Foundation's Thread cannot), with a stop flag
// the body checks and a wake pipe that becomes readable on stop, so a loop waiting in poll() beside
// its device, or sleeping until its next frame, wakes at once. Threads that end on their own (the
// player's decoders, when their queues close) just `join`.
import CLinux
import Glibc
import Synchronization

/// Runs a body on a new pthread. `stop()` raises the flag, wakes the body and joins the thread;
/// `join()` only waits for it.
public final class WorkerThread: Sendable {
    private let stopFlag = Atomic<Bool>(false)
    /// The pthread, until it is joined: the first `join()` takes it, so later ones return at once,
    /// and `signal` never reaches a thread that was joined (its id may be reused by then).
    private let thread = Locked<pthread_t?>(nil)
    private let wakePipe: WakePipe

    /// What the new thread runs, handed over retained through `pthread_create`'s argument and
    /// taken back there: only the new thread ever touches it.
    private final class Start {
        let name: String
        let body: (WorkerThread) -> Void
        let owner: WorkerThread
        init(name: String, body: @escaping (WorkerThread) -> Void, owner: WorkerThread) {
            self.name = name
            self.body = body
            self.owner = owner
        }
    }

    /// Starts `body` on a new thread (`pthread_create`) named `name` in top -H and gdb (the kernel
    /// keeps 15 bytes of it). `body` is `sending`: what it captures (a decoder, say) belongs to
    /// the new thread from now on. Throws when the process has no fd for the wake pipe or the
    /// system no thread to give.
    public init(name: String, body: sending @escaping (WorkerThread) -> Void) throws(SystemError) {
        wakePipe = try WakePipe()
        let start = Unmanaged.passRetained(Start(name: name, body: body, owner: self)).toOpaque()
        var id = pthread_t()
        let result = pthread_create(&id, nil, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            // ERANGE for a longer name, which would then not be set at all.
            _ = pthread_setname_np(pthread_self(), String(decoding: start.name.utf8.prefix(15), as: UTF8.self))
            start.body(start.owner)
            return nil
        }, start)
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            throw SystemError(call: "pthread_create(\(name))", errno: result)
        }
        thread.withLock { $0 = id }
    }

    /// The new thread holds its object until the body returns, so this runs only after that: a
    /// thread nobody joined is detached here, and the system frees its stack.
    deinit {
        if let id = thread.withLock({ $0.take() }) { pthread_detach(id) }
    }

    /// Poll this beside a device: it becomes readable once `stop` (or `requestStop`) is called.
    public var wakeFD: Int32 { wakePipe.readFD }

    /// True once a stop was asked for; the body returns soon after it sees this.
    public var isStopping: Bool { stopFlag.load(ordering: .acquiring) }

    /// Raises the flag and wakes the body, without waiting for it.
    public func requestStop() {
        stopFlag.store(true, ordering: .releasing)
        wakePipe.wake()
    }

    /// Asks the body to return, wakes it and waits for the thread to end. Never call it from the
    /// thread itself.
    public func stop() {
        requestStop()
        join()
    }

    /// Waits for the thread to end (`pthread_join`); later calls return at once. Never from itself.
    public func join() {
        if let id = thread.withLock({ $0.take() }) { pthread_join(id, nil) }
    }

    /// Sends the thread a signal (`pthread_kill`); nothing once it was joined. A signal the thread
    /// blocks stays pending for it alone: how the signal watcher's sigwait is woken.
    public func signal(_ number: Int32) {
        // Under the lock: `join` cannot take the id (and the thread be reaped) meanwhile.
        thread.withLock { id in
            if let id { _ = pthread_kill(id, number) }
        }
    }

    /// Waits up to `milliseconds`, returning early on a stop.
    public func wait(milliseconds: Int32) {
        var p = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, milliseconds)
    }

    /// Sleeps until `deadline` on the monotonic clock, to the microsecond, waking at once on a
    /// stop. Returns false if the thread is stopping.
    public func sleep(until deadline: Int64) -> Bool {
        while !isStopping {
            let remaining = deadline - MonotonicClock.now()
            if remaining <= 0 { return true }
            if remaining > 2_000_000 {
                // Most of the wait in poll() on the wake pipe, the last 1–2 ms on the clock itself.
                wait(milliseconds: Int32(clamping: (remaining - 1_000_000) / 1_000_000))
            } else {
                MonotonicClock.sleep(until: deadline)
            }
        }
        return false
    }
}
