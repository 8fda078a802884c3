// systemd's notify protocol (sd_notify(3)) without libsystemd: each state is one datagram of
// `KEY=VALUE` lines sent to the AF_UNIX socket that NOTIFY_SOCKET names (a path, or the abstract
// namespace when it starts with '@'). A send never waits (MSG_DONTWAIT): when systemd is too busy
// to take a message it is lost and counted, and the booth's loop goes on.
import Glibc
import Synchronization

/// What the service tells systemd.
public enum ServiceState: Equatable, Sendable {
    /// `READY=1`: started (`ready` went out), or a reload is done.
    case ready
    /// `RELOADING=1` with `MONOTONIC_USEC` (CLOCK_MONOTONIC in µs): a reload began (systemd ≥ 253
    /// holds the unit in "reloading" until the next `READY=1`; older ones ignore it).
    case reloading(monotonicUSec: Int64)
    /// `STOPPING=1`: on the way out (a take may still be finishing).
    case stopping
    /// `WATCHDOG=1`: the loop is alive.
    case watchdog
    /// `STATUS=…`: what `systemctl status` shows (one line: line breaks become spaces).
    case status(String)

    /// The datagram's text.
    public var message: String {
        switch self {
        case .ready: "READY=1"
        case let .reloading(usec): "RELOADING=1\nMONOTONIC_USEC=\(usec)"
        case .stopping: "STOPPING=1"
        case .watchdog: "WATCHDOG=1"
        case let .status(text): "STATUS=" + text.map { $0.isNewline ? " " : String($0) }.joined()
        }
    }
}

/// A datagram socket to systemd's notify socket, and the watchdog's interval (its timing is the
/// booth core's).
public final class ServiceNotifier: Sendable {
    /// NOTIFY_SOCKET as given.
    public let address: String
    /// How often the loop should say it is alive: half of WATCHDOG_USEC, in nanoseconds (nil: no
    /// watchdog for this process).
    public let watchdogInterval: Int64?
    private let socket: FileDescriptor
    /// The `sockaddr_un` and its length.
    private let socketAddress: sockaddr_un
    private let socketAddressLength: socklen_t
    private let failures = Atomic<Int>(0)

    /// The notifier systemd's environment asks for: nil when NOTIFY_SOCKET is unset (not a
    /// `Type=notify` service). NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID are then removed
    /// from the environment (as sd_notify's `unset_environment` does), so that programs the booth
    /// starts do not speak for it. Call first thing in main: `unsetenv` is not safe while other
    /// threads read the environment.
    public static func fromEnvironment() throws(SystemError) -> ServiceNotifier? {
        let variables = ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"]
        let values = variables.map { getenv($0).map { String(cString: $0) } }
        guard let socket = values[0] else { return nil }
        for name in variables { unsetenv(name) }
        return try ServiceNotifier(socket: socket, watchdogInterval: watchdogInterval(usec: values[1], pid: values[2], ourPID: getpid()))
    }

    /// Half of WATCHDOG_USEC in nanoseconds, when it is a positive number and WATCHDOG_PID is unset
    /// or names this process (sd_watchdog_enabled's rule); otherwise nil.
    public static func watchdogInterval(usec: String?, pid: String?, ourPID: Int32) -> Int64? {
        guard let usec, let micro = Int64(usec), micro > 0, micro < Int64.max / 1000 else { return nil }
        if let pid, Int32(pid) != ourPID { return nil }
        return micro * 1000 / 2
    }

    /// A socket (`socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC)`) for sending to `socket`: an absolute
    /// path, or `@name` for the abstract namespace. Throws for another kind of address (EAFNOSUPPORT,
    /// e.g. systemd's `vsock:`), one too long for `sun_path` (ENAMETOOLONG), or no socket to be had.
    public init(socket: String, watchdogInterval: Int64?) throws(SystemError) {
        address = socket
        self.watchdogInterval = watchdogInterval
        var bytes = Array(socket.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        guard abstract || bytes.first == UInt8(ascii: "/"), bytes.count > 1 else {
            throw SystemError(call: "NOTIFY_SOCKET=\(socket)", errno: EAFNOSUPPORT)
        }
        // The abstract namespace: a leading NUL, and the length says where the name ends.
        if abstract { bytes[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path needs room for its NUL.
        guard bytes.count + (abstract ? 0 : 1) <= capacity else {
            throw SystemError(call: "NOTIFY_SOCKET=\(socket)", errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        socketAddress = address
        socketAddressLength = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        self.socket = try FileDescriptor.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), call: "socket(AF_UNIX, SOCK_DGRAM)")
    }

    /// Sends `state` without waiting (`sendto` with MSG_DONTWAIT | MSG_NOSIGNAL): the error when it
    /// could not go (EAGAIN when systemd's queue is full; ECONNREFUSED, ENOENT when nobody listens).
    @discardableResult
    public func notify(_ state: ServiceState) -> SystemError? {
        let text = Array(state.message.utf8)
        var target = socketAddress
        let sent = withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(self.socket.rawValue, text, text.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), $0, socketAddressLength)
            }
        }
        guard sent < 0 else { return nil }
        let error = errno
        failures.add(1, ordering: .relaxed)
        return SystemError(call: "sendto(\(address), \(state.message.prefix { $0 != "=" }))", errno: error)
    }

    /// Messages that could not be sent.
    public var failedSends: Int { failures.load(ordering: .relaxed) }

    /// `notify`, the first message that cannot go logged (a socket that is gone is said once).
    public func tell(_ state: ServiceState) {
        guard let failure = notify(state), failedSends == 1 else { return }
        Log.info("systemd notify: \(failure) (later failures are not logged)")
    }
}
