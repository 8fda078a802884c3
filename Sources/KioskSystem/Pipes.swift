// The wake pipe a worker thread polls beside its device, and writing bytes whole to a descriptor.
import FoundationEssentials
import Glibc

/// A pipe that becomes readable, and stays so until `drain`, once `wake` was called. Both ends are
/// close-on-exec from the start (pipe2) and non-blocking, so `wake` never waits on a full pipe.
final class WakePipe: Sendable {
    /// Both ends, closed with the pipe.
    private let ends: FileDescriptor.Pipe

    init() throws(SystemError) {
        ends = try FileDescriptor.pipe(nonBlocking: true)
    }

    /// The end to poll.
    var readFD: Int32 { ends.read.rawValue }

    func wake() {
        var byte: UInt8 = 1
        // EAGAIN: the pipe is full of wake-ups already, which is as awake as it gets.
        _ = write(ends.write.rawValue, &byte, 1)
    }

    /// Empties the pipe, for a loop that takes each wake-up and waits again (`wake` after this
    /// makes it readable anew).
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(ends.read.rawValue, &bytes, bytes.count) > 0 {}
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
