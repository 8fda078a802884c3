// The one error of this module: a system call that failed, with its errno.
import Glibc

/// A failed system call (`pipe2`, `pthread_create`, `pthread_sigmask`) and the errno it gave, e.g.
/// EAGAIN from pthread_create when the process or the system is out of threads, EMFILE from pipe2
/// when the process has no file descriptor left.
public struct SystemError: Error, Equatable, CustomStringConvertible, Sendable {
    public let errno: Int32
    /// The call that failed, e.g. `pthread_create(kiosk-camera)`.
    public let call: String

    public init(errno: Int32, call: String) {
        self.errno = errno
        self.call = call
    }

    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
