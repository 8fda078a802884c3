// The client side of the control socket (`send COMMAND`): one connection, lines out, lines in.
import Glibc

/// One connection to a booth's control socket, for `--send`: lines out, lines in with a deadline.
public final class ControlClient {
    private let socket: FileDescriptor
    private var pending: [UInt8] = []
    private var ended = false

    /// Connects to the socket at `path` (ENOENT: nothing there; ECONNREFUSED: nobody listens;
    /// EACCES: not allowed, e.g. not in the socket's group).
    public init(path: String) throws(SystemError) {
        let socket = try UnixSocket.make(nonBlocking: false)
        let error = UnixSocket.connect(socket.rawValue, to: path)
        guard error == 0 else { throw SystemError(call: "connect(\(path))", errno: error) }
        self.socket = socket
    }

    /// Sends `line` and a newline, all of it.
    public func send(line: String) throws(SystemError) {
        if let error = UnixSocket.sendAll(socket.rawValue, Array((line + "\n").utf8)) {
            throw SystemError(call: "send", errno: error)
        }
    }

    public enum Received: Equatable, Sendable {
        /// A line, without its newline.
        case line(String)
        case timedOut
        /// The booth closed the connection (it exited, or dropped this client).
        case closed
    }

    /// The next line, waiting until `deadline` on the monotonic clock at most.
    public func receive(until deadline: Int64) -> Received {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return .line(line)
            }
            if ended { return .closed }
            let remaining = deadline - MonotonicClock.now()
            guard remaining > 0 else { return .timedOut }
            var p = pollfd(fd: socket.rawValue, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(clamping: (remaining + 999_999) / 1_000_000))
            if ready < 0 && errno != EINTR { ended = true }
            guard ready > 0 else { continue }
            switch UnixSocket.receive(socket.rawValue, into: &buffer) {
            case let .bytes(n): pending += buffer[0..<n]
            case .wouldBlock: break
            case .end, .failed: ended = true
            }
        }
    }
}
