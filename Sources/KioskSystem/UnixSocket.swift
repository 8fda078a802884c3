// The raw calls of a Unix stream socket, together: the address, connect, accept, the peer's pid, and
// send and receive as flow states (EINTR retried here, EAGAIN and the peer's end are cases, not
// errors). The control socket's server and client are built on these alone; a socket is made and
// accepted as a `FileDescriptor` its owner keeps, and lent here by its number for each call.
import CLinux
import Glibc

enum UnixSocket {
    /// The longest path a socket address holds (`sun_path` is 108 bytes with its NUL).
    static let maxPathBytes = MemoryLayout<sockaddr_un>.size - MemoryLayout<sa_family_t>.size - 1

    /// A new stream socket (`socket(AF_UNIX, SOCK_STREAM)`), close-on-exec from the start.
    static func make(nonBlocking: Bool) throws(SystemError) -> FileDescriptor {
        let type = Int32(SOCK_STREAM.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return try FileDescriptor.socket(AF_UNIX, type, call: "socket(AF_UNIX)")
    }

    /// Calls `body` with `path` as a socket address; ENAMETOOLONG for a path it cannot hold.
    static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        let bytes = Array(path.utf8)
        guard bytes.count <= maxPathBytes else {
            errno = ENAMETOOLONG
            return -1
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// `bind` to `path`: the socket's node appears there.
    static func bind(_ fd: Int32, to path: String) throws(SystemError) {
        guard withAddress(path, { Glibc.bind(fd, $0, $1) }) == 0 else { throw SystemError(call: "bind(\(path))", errno: errno) }
    }

    /// `connect` to `path`: 0, or the errno (ECONNREFUSED: nobody listens; EAGAIN: a non-blocking
    /// socket found the listener's backlog full).
    static func connect(_ fd: Int32, to path: String) -> Int32 {
        while true {
            if withAddress(path, { Glibc.connect(fd, $0, $1) }) == 0 { return 0 }
            if errno != EINTR { return errno }
        }
    }

    /// The next waiting connection (`accept4`), close-on-exec and non-blocking; nil when none waits
    /// (EAGAIN); the errno when it failed.
    static func accept(_ listening: Int32) throws(SystemError) -> FileDescriptor? {
        while true {
            let fd = clinux_accept4(listening, nil, nil, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
            if fd >= 0 { return FileDescriptor(owning: fd) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            // The client gave up before we took it: nothing to report.
            case ECONNABORTED: continue
            default: throw SystemError(call: "accept4", errno: errno)
            }
        }
    }

    /// The pid of the process at the other end as it was when it connected or listened
    /// (`SO_PEERCRED`), nil if the kernel does not say.
    static func peerPID(_ fd: Int32) -> Int32? {
        // struct ucred (GNU only in the headers): pid, uid, gid.
        var credentials: [Int32] = [0, 0, 0]
        var size = socklen_t(MemoryLayout<Int32>.size * 3)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, credentials[0] > 0 else { return nil }
        return credentials[0]
    }

    enum Sent: Equatable {
        case bytes(Int)
        /// The socket's buffer is full (a non-blocking socket).
        case wouldBlock
        /// The peer is gone (EPIPE, ECONNRESET) or another error: the errno.
        case failed(Int32)
    }

    /// `send` without SIGPIPE (`MSG_NOSIGNAL`): a peer that left is a `.failed`, not a signal.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, wait: Bool) -> Sent {
        let flags = Int32(MSG_NOSIGNAL) | (wait ? 0 : Int32(MSG_DONTWAIT))
        while true {
            let n = Glibc.send(fd, bytes.baseAddress, bytes.count, flags)
            if n >= 0 { return .bytes(n) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// Sends all of `bytes`, waiting while the socket's buffer is full.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(fd, UnsafeRawBufferPointer(rebasing: $0[offset...]), wait: true) }
            switch sent {
            case let .bytes(n): offset += n
            case .wouldBlock: continue // not for a blocking socket; try again
            case let .failed(error): return error
            }
        }
        return nil
    }

    enum Received: Equatable {
        case bytes(Int)
        case wouldBlock
        /// The peer closed its end (or, `.failed`, the connection broke).
        case end
        case failed(Int32)
    }

    /// `recv` into `buffer`.
    static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Received {
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { return .bytes(n) }
            if n == 0 { return .end }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno)
            }
        }
    }

    /// A file system node: its type (the `S_IFMT` bits), device and inode.
    struct Node: Equatable {
        let type: mode_t
        let device: UInt64
        let inode: UInt64
        var isSocket: Bool { type == S_IFSOCK }
    }

    /// What is at `path` itself (`lstat`, a symbolic link is not followed): nil when nothing is.
    static func node(at path: String) throws(SystemError) -> Node? {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return nil }
            throw SystemError(call: "lstat(\(path))", errno: errno)
        }
        return Node(type: st.st_mode & S_IFMT, device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }
}
