// A descriptor that closes itself (in the spirit of swift-system's FileDescriptor and Rust's OwnedFd):
// one owner, a ~Copyable value, so it cannot be closed twice, closed by a copy while another still
// uses it, or forgotten on a throw halfway: its deinit closes it. Every descriptor it makes is
// close-on-exec from the start, so a program another thread starts meanwhile inherits none of them.
// The raw number is for C calls inside the type that owns the value; it leaves only through `take`.
import CLinux
import FoundationEssentials
import Glibc

/// An open file descriptor this value owns: closed when the value goes (`deinit`), or by `close()`
/// for a caller that must see close's error. Errors are `SystemError`, the module's typed errno.
public struct FileDescriptor: ~Copyable, Sendable {
    private let raw: Int32

    /// Takes ownership of `raw`, a descriptor a C call just made: this value closes it from now on.
    public init(owning raw: Int32) {
        self.raw = raw
    }

    /// close(2); its error is not seen (Linux frees the descriptor even when close fails, so it is
    /// never retried: another thread may have been given the same number by then).
    deinit { _ = Glibc.close(raw) }

    /// The number, for a C call made by the type that owns this value (poll, ioctl, read, write).
    public var rawValue: Int32 { raw }

    /// close(2), for a caller that must know whether it failed (NFS and some FUSE file systems
    /// report a failed write back only here). The descriptor is gone either way.
    public consuming func close() throws(SystemError) {
        let raw = self.raw
        discard self
        guard Glibc.close(raw) == 0 else { throw SystemError(call: "close", errno: errno) }
    }

    /// Gives up ownership: the number, which nobody closes now but the one it is handed to (a C
    /// library that owns it from then on, as libv4l2's `v4l2_fd_open` or a FileHandle does).
    public consuming func take() -> Int32 {
        let raw = self.raw
        discard self
        return raw
    }

    /// open(2) with O_CLOEXEC added to `flags`; a new file is made through `NewFile.create`.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemError) -> FileDescriptor {
        let raw = Glibc.open(path, flags | O_CLOEXEC, mode)
        guard raw >= 0 else { throw SystemError(call: "open(\(path))", errno: errno) }
        return FileDescriptor(owning: raw)
    }

    /// socket(2) with SOCK_CLOEXEC added to `type`.
    public static func socket(_ domain: Int32, _ type: Int32, call: String) throws(SystemError) -> FileDescriptor {
        let raw = Glibc.socket(domain, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw SystemError(call: call, errno: errno) }
        return FileDescriptor(owning: raw)
    }

    /// A new descriptor of the same open file (`fcntl(F_DUPFD_CLOEXEC)`), numbered `minimum` or more.
    public borrowing func duplicate(minimum: Int32 = 0) throws(SystemError) -> FileDescriptor {
        try Self.duplicate(of: raw, minimum: minimum)
    }

    /// A descriptor of our own for one another library owns and will close (sd-bus's reply's).
    public static func duplicate(of borrowed: Int32, minimum: Int32 = 0) throws(SystemError) -> FileDescriptor {
        let raw = fcntl(borrowed, F_DUPFD_CLOEXEC, minimum)
        guard raw >= 0 else { throw SystemError(call: "fcntl(F_DUPFD_CLOEXEC)", errno: errno) }
        return FileDescriptor(owning: raw)
    }

    /// read(2) into `buffer`, EINTR retried: the bytes read (0 at the end), or the errno (EAGAIN
    /// for a non-blocking descriptor with nothing to read).
    public borrowing func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SystemError> {
        while true {
            let n = Glibc.read(raw, buffer.baseAddress, buffer.count)
            if n >= 0 { return .success(n) }
            if errno != EINTR { return .failure(SystemError(call: "read", errno: errno)) }
        }
    }

    /// `bytes` written whole (EINTR retried, short writes continued); nil, or the errno.
    public borrowing func writeAll<Bytes: ContiguousBytes>(_ bytes: Bytes) -> Int32? {
        KioskSystem.writeAll(bytes, to: raw)
    }

    /// The two ends of a pipe, each owned. `@frozen` so that another module may take either end out
    /// alone (partial consumption needs the layout known).
    @frozen public struct Pipe: ~Copyable, Sendable {
        public var read: FileDescriptor
        public var write: FileDescriptor
    }

    /// A pipe whose ends are close-on-exec from the start (`pipe2` with O_CLOEXEC): a program that
    /// another thread starts meanwhile does not inherit them, so it cannot hold a write end open
    /// and keep a reader from ever seeing the end of the pipe.
    public static func pipe(nonBlocking: Bool = false) throws(SystemError) -> Pipe {
        var fds: [Int32] = [-1, -1]
        guard pipe2(&fds, O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)) == 0 else { throw SystemError(call: "pipe2", errno: errno) }
        return Pipe(read: FileDescriptor(owning: fds[0]), write: FileDescriptor(owning: fds[1]))
    }
}
