// The one error type for libv4l2 calls: errno and the call (an ioctl is named by its request).
import CV4L2
import FoundationEssentials
import Glibc
import KioskSystem

/// strerror's words, with what a person can do about the common ones.
public enum V4L2Calls: CallErrorText {
    public static func describe(code: Int32, call: String) -> String {
        let text = "\(call): \(String(cString: strerror(code)))"
        switch code {
        case ENOENT: return text + "; is the camera plugged in? (--list-cameras shows what is there)"
        case EACCES: return text + "; add the user to the 'video' group"
        case EBUSY: return text + "; another program is using the camera"
        default: return text
        }
    }
}

/// An error from a libv4l2 call, e.g. `v4l2_open(/dev/video0)` or `VIDIOC_S_FMT`, with its errno.
public typealias V4L2Error = CallError<V4L2Calls>

extension CallError where Library == V4L2Calls {
    public init(errno: Int32, call: String) { self.init(code: errno, call: call) }
    /// The errno the call left.
    public var errno: Int32 { code }
}
