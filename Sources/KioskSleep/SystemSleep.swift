// The machine's sleep, held off while a take is made safe: logind's delay inhibitor
// (org.freedesktop.login1.Manager.Inhibit with mode "delay") and its PrepareForSleep signal, on a
// thread of its own. logind announces a suspend with PrepareForSleep(true) and waits (up to its
// InhibitDelayMaxSec, 5 s by default) until every delay inhibitor's fd is closed; after the resume
// it sends PrepareForSleep(false). The booth hears both through a callback and closes the fd once
// the take is on disk.
import Glibc
import KioskCore
import KioskSystem
import Synchronization

/// Holds logind's delay inhibitor for sleep and reports each `PrepareForSleep`. Without a system
/// bus or logind it does nothing, and says so once on stderr.
public final class SystemSleep: Sendable {
    /// nil when the process had no fd for its pipe: then nothing is held.
    private let shared: Shared?
    private let thread: WorkerThread?

    /// logind's names on the bus.
    static let login1 = "org.freedesktop.login1"
    static let login1Path = "/org/freedesktop/login1"
    static let manager = "org.freedesktop.login1.Manager"

    /// What the bus thread and the callers share: the inhibitor's fd while one is held, whether
    /// one is wanted, and a pipe that wakes the bus thread to take one again.
    private final class Shared: Sendable {
        /// The inhibitor's fd while one is held, and whether the booth wants the sleep held off.
        struct Inhibitor: ~Copyable {
            var fd: FileDescriptor?
            var wanted: Bool

            var held: Bool {
                switch fd {
                case .some: true
                case .none: false
                }
            }
        }

        /// Under one lock, so an inhibitor that arrives after a `release` is closed at once
        /// instead of kept. Closed with this object if still held.
        let inhibitor = Locked(Inhibitor(fd: nil, wanted: true))
        /// The wake-up pipe, both ends closed with this object.
        let requests: FileDescriptor.Pipe

        init() throws(SystemError) { requests = try FileDescriptor.pipe(nonBlocking: true) }

        /// Takes an inhibitor from logind if one is wanted and none is held.
        func inhibit(on bus: SystemBus, who: String, why: String) throws(BusError) {
            guard inhibitor.withLock({ $0.wanted && !$0.held }) else { return }
            var fd: FileDescriptor? = try bus.callReturningFD(
                destination: SystemSleep.login1, path: SystemSleep.login1Path, interface: SystemSleep.manager,
                member: "Inhibit", strings: ["sleep", who, why, "delay"], timeoutMicroseconds: 5_000_000)
            inhibitor.withLock {
                // A release came while logind answered: that one is not wanted any more, and is
                // closed here, under the lock.
                if $0.wanted && !$0.held { $0.fd = fd.take() } else { fd = nil }
            }
        }

        /// Empties the wake-up pipe (non-blocking: it stops at EAGAIN).
        func drainRequests() {
            var bytes = [UInt8](repeating: 0, count: 64)
            while read(requests.read.rawValue, &bytes, bytes.count) > 0 {}
        }
    }

    /// Starts the bus thread: it connects to the system bus, listens for `PrepareForSleep` and
    /// takes the inhibitor (`what` sleep, mode delay, `who` and `why` as `systemd-inhibit --list`
    /// shows them). `onPrepare` is called on that thread with the signal's argument (true: about to
    /// sleep; false: resumed); it must hand over and return quickly.
    public init(who: String = "kiosk-recorder", why: String = "finishing the guest's take",
                onPrepare: @escaping @Sendable (Bool) -> Void) {
        var shared: Shared?
        var thread: WorkerThread?
        do {
            let made = try Shared()
            shared = made
            thread = try WorkerThread(name: "kiosk-sleep") { thread in
                Self.run(thread, made, who: who, why: why, onPrepare: onPrepare)
            }
        } catch {
            Log.info("system sleep: cannot start its thread (\(error)); a suspend will not wait for a take")
        }
        (self.shared, self.thread) = (shared, thread)
    }

    deinit { stop() }

    /// Lets the sleep go on: closes the inhibitor's fd (logind then suspends once every other delay
    /// inhibitor is gone too). Call it once the take is safe on disk. Any thread.
    public func release() {
        let released = shared?.inhibitor.withLock { state -> Bool in
            state.wanted = false
            guard state.held else { return false }
            state.fd = nil
            return true
        }
        if released == true { Log.info("system sleep: the inhibitor is released; the machine may sleep") }
    }

    /// After the resume: takes the inhibitor again (the bus thread asks logind). Any thread.
    public func reacquire() {
        guard let shared else { return }
        shared.inhibitor.withLock { $0.wanted = true }
        var byte: UInt8 = 1
        // EAGAIN: the pipe is full of wake-ups already.
        _ = write(shared.requests.write.rawValue, &byte, 1)
    }

    /// Ends the bus thread and closes the connection; the inhibitor, if held, stays until release.
    public func stop() { thread?.stop() }

    /// The bus thread: connect, listen, hold the inhibitor, then process the bus until stopped.
    /// Every failure before the loop is said once and ends the thread: nothing changes then.
    private static func run(_ thread: WorkerThread, _ shared: Shared, who: String, why: String,
                            onPrepare: @escaping @Sendable (Bool) -> Void) {
        let bus: SystemBus
        do { bus = try SystemBus() } catch {
            Log.info("system sleep: no system bus (\(error)); a suspend will not wait for a take")
            return
        }
        do {
            try bus.onSignal(sender: login1, path: login1Path, interface: manager, member: "PrepareForSleep", onPrepare)
            try shared.inhibit(on: bus, who: who, why: why)
        } catch {
            Log.info("system sleep: no inhibitor from logind (\(error)); a suspend will not wait for a take")
            return
        }
        Log.info("system sleep: holding logind's delay inhibitor; a suspend waits for the take to be safe")
        while !thread.isStopping {
            let request: (fd: pollfd, timeoutMs: Int32)
            do {
                try bus.process()
                request = try bus.pollRequest()
            } catch {
                Log.info("system sleep: the system bus is gone (\(error)); a suspend will not wait for a take")
                return
            }
            var fds = [request.fd,
                       pollfd(fd: thread.wakeFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: shared.requests.read.rawValue, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, nfds_t(fds.count), request.timeoutMs) >= 0 || errno == EINTR else {
                Log.info("system sleep: poll: \(String(cString: strerror(errno)))")
                return
            }
            if fds[2].revents != 0 {
                shared.drainRequests()
                do { try shared.inhibit(on: bus, who: who, why: why) } catch {
                    Log.info("system sleep: cannot take the inhibitor again (\(error)); the next suspend will not wait for a take")
                }
            }
        }
    }
}
