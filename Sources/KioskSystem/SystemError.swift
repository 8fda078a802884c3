// The one error of this module: a system call that failed, with its errno.
import Glibc

/// A failed system call and the errno it gave, e.g. EAGAIN from pthread_create when the process or
/// the system is out of threads, EMFILE from pipe2 when the process has no file descriptor left.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call, e.g. `pthread_create(kiosk-camera)`, `pipe2`, `pthread_sigmask`.
    public let call: String
    public let errno: Int32

    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
