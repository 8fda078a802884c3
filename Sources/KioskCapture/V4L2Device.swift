// Owns one V4L2 device file descriptor opened through libv4l2 (so format emulation and plugins apply).
import CV4L2
import Foundation

/// An open V4L2 device. The fd is closed with `v4l2_close` when the object goes away.
public final class V4L2Device {
    public let path: String
    let fd: Int32

    /// Opens the device with `v4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)`.
    public init(path: String) throws(V4L2Error) {
        let fd = kiosk_v4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw V4L2Error(errno: Foundation.errno, call: "v4l2_open(\(path))") }
        self.path = path
        self.fd = fd
    }

    deinit { v4l2_close(fd) }

    /// Runs one ioctl through `v4l2_ioctl`, retrying EINTR, the only place that does.
    func ioctl<T>(_ request: UInt, _ name: String, _ argument: inout T) throws(V4L2Error) {
        while true {
            let result = withUnsafeMutablePointer(to: &argument) { kiosk_v4l2_ioctl(fd, request, $0) }
            if result >= 0 { return }
            let error = Foundation.errno
            if error == EINTR { continue }
            throw V4L2Error(errno: error, call: name)
        }
    }

    /// The driver's name, card and bus (`VIDIOC_QUERYCAP`).
    public func capabilities() throws(V4L2Error) -> (driver: String, card: String, bus: String, caps: UInt32) {
        var cap = v4l2_capability()
        try ioctl(kiosk_VIDIOC_QUERYCAP(), "VIDIOC_QUERYCAP", &cap)
        func text<Tuple>(_ tuple: Tuple) -> String {
            withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        return (text(cap.driver), text(cap.card), text(cap.bus_info), caps)
    }
}
