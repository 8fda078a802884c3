// The thread a capture loop runs on: a pthread, so stop() can join it (Foundation's Thread cannot be
// joined), with a stop flag the loop checks and a pipe that becomes readable on stop, so a loop
// waiting in poll() beside its device, or sleeping until its next frame, wakes at once.
import Foundation
import Synchronization

/// Runs `body` on a new pthread. `stop()` raises the flag, wakes the body and joins the thread.
final class CaptureThread: Sendable {
    private let stopFlag = Atomic<Bool>(false)
    /// The pthread to join; taken by the first `stop()`, so a second one returns at once.
    private let thread = Mutex<pthread_t?>(nil)
    /// Poll this beside a device: it becomes readable when `stop` is called.
    let wakeFD: Int32
    private let wakeWriteFD: Int32

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
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw CaptureThreadError(errno: errno, call: "pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        wakeFD = fds[0]
        wakeWriteFD = fds[1]
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
            throw CaptureThreadError(errno: result, call: "pthread_create")
        }
        thread.withLock { $0 = id }
    }

    deinit {
        close(wakeFD)
        close(wakeWriteFD)
    }

    /// True once `stop()` was called; the body returns soon after it sees this.
    var isStopping: Bool { stopFlag.load(ordering: .acquiring) }

    /// Asks the body to return, wakes it and waits for the thread to end (`pthread_join`). Never
    /// call it from the thread itself.
    func stop() {
        stopFlag.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)
        if let id = thread.withLock({ $0.take() }) { pthread_join(id, nil) }
    }

    /// Waits up to `milliseconds`, returning early on `stop`.
    func wait(milliseconds: Int32) {
        var p = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, milliseconds)
    }

    /// Sleeps until `deadline` on the monotonic clock, to the microsecond, waking at once when
    /// stopped. Returns false if the thread is stopping.
    func sleep(until deadline: Int64) -> Bool {
        while !isStopping {
            let remaining = deadline - MonotonicClock.now()
            if remaining <= 0 { return true }
            if remaining > 2_000_000 {
                // Most of the wait in poll() on the wake pipe, the last 1–2 ms on the clock itself.
                wait(milliseconds: Int32((remaining - 1_000_000) / 1_000_000))
            } else {
                MonotonicClock.sleep(until: deadline)
            }
        }
        return false
    }
}

/// Starting the thread failed (EAGAIN: the process or system is out of threads; EMFILE: no fds).
public struct CaptureThreadError: Error, Equatable, CustomStringConvertible, Sendable {
    public let errno: Int32
    public let call: String
    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
