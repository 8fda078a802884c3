// Pipes made close-on-exec in one step, and the wake pipe a worker thread polls beside its device.
import CLinux
import FoundationEssentials
import Glibc

/// Makes a pipe whose ends are close-on-exec from the start (`pipe2` with O_CLOEXEC): a program
/// that another thread starts meanwhile does not inherit them, so it cannot hold a write end open
/// and keep a reader from ever seeing the end of the pipe. The caller closes both ends.
public func makePipe(nonBlocking: Bool = false) throws(SystemError) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard pipe2(&fds, O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)) == 0 else { throw SystemError(call: "pipe2", errno: errno) }
    return (fds[0], fds[1])
}

/// A pipe that becomes readable, and stays so until `drain`, once `wake` was called. Both ends are
/// close-on-exec from the start (pipe2) and non-blocking, so `wake` never waits on a full pipe.
final class WakePipe: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    init() throws(SystemError) {
        (readFD, writeFD) = try makePipe(nonBlocking: true)
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    func wake() {
        var byte: UInt8 = 1
        // EAGAIN: the pipe is full of wake-ups already, which is as awake as it gets.
        _ = write(writeFD, &byte, 1)
    }

    /// Empties the pipe, for a loop that takes each wake-up and waits again (`wake` after this
    /// makes it readable anew).
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readFD, &bytes, bytes.count) > 0 {}
    }
}

/// `bytes` written whole to `fd`, EINTR retried and short writes continued (write(2) for a pipe,
/// a socket or a file); nil, or the errno of the write that failed.
public func writeAll<Bytes: ContiguousBytes>(_ bytes: Bytes, to fd: Int32) -> Int32? {
    bytes.withUnsafeBytes { raw -> Int32? in
        var done = 0
        while done < raw.count {
            let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return n < 0 ? errno : EIO }
            done += n
        }
        return nil
    }
}
