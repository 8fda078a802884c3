// The thread a capture source runs on: started once, stopped from any thread, and woken at once
// by `stop` even while it waits (through a pipe it can poll beside its device).
import Dispatch
import Foundation
import Synchronization

final class CaptureThread: Sendable {
    let name: String
    private let running = Mutex(false)
    private let stopping = Atomic<Bool>(false)
    /// Poll this beside a device: it becomes readable when `stop` is called.
    let wakeFD: Int32
    private let wakeWriteFD: Int32
    private let finished = DispatchSemaphore(value: 0)

    init(name: String) {
        self.name = name
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            }
        }
        wakeFD = fds[0]
        wakeWriteFD = fds[1]
    }

    deinit {
        close(wakeFD)
        close(wakeWriteFD)
    }

    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Starts `body` on a new thread; false if one is already running.
    @discardableResult
    func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let started = running.withLock { r in
            defer { r = true }
            return !r
        }
        guard started else { return false }
        stopping.store(false, ordering: .releasing)
        let thread = Thread { [self] in
            body()
            finished.signal()
        }
        thread.name = name
        thread.qualityOfService = .userInteractive
        thread.start()
        return true
    }

    /// Asks the thread to stop, wakes it, and waits until `body` has returned.
    func stop() {
        let wasRunning = running.withLock { r in
            defer { r = false }
            return r
        }
        guard wasRunning else { return }
        stopping.store(true, ordering: .releasing)
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)
        finished.wait()
        while read(wakeFD, &byte, 1) > 0 {}
    }

    /// Waits up to `milliseconds`, returning early on `stop`.
    func wait(milliseconds: Int32) {
        var p = pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)
        _ = poll(&p, 1, milliseconds)
    }
}
