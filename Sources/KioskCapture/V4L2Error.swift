// The one error type for libv4l2 calls: errno and the call (an ioctl is named by its request).
import CV4L2
import Foundation

/// An error from a libv4l2 call.
public struct V4L2Error: Error, Equatable, CustomStringConvertible, Sendable {
    /// The errno the call left.
    public let errno: Int32
    /// The call that failed, e.g. `v4l2_open(/dev/video0)` or `VIDIOC_S_FMT`.
    public let call: String

    public init(errno: Int32, call: String) {
        self.errno = errno
        self.call = call
    }

    public var description: String {
        let text = String(cString: strerror(errno))
        switch errno {
        case ENOENT: return "\(call): \(text); is the camera plugged in? (--list-cameras shows what is there)"
        case EACCES: return "\(call): \(text); add the user to the 'video' group"
        case EBUSY: return "\(call): \(text); another program is using the camera"
        default: return "\(call): \(text)"
        }
    }
}
