// Owns one V4L2 device file descriptor opened through libv4l2 (so format emulation and plugins
// apply), and the queries every user of a camera needs: capabilities, formats, sizes, rates.
import CV4L2
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskSystem

/// An open V4L2 device. The fd is closed with `v4l2_close` when the object goes away.
public final class V4L2Device {
    public let path: String
    let fd: Int32

    /// Opens the device (`open`, then `v4l2_fd_open` with V4L2_DISABLE_CONVERSION). libv4l2's plugins
    /// still apply, but not its CPU format emulation: that would hide some native formats (Debian 12's
    /// libv4l2 lists an NV12 camera only as emulated RGB/YU12) and cost more than taking the native
    /// format and decoding MJPEG ourselves.
    public init(path: String) throws(V4L2Error) {
        let opened: FileDescriptor
        do { opened = try FileDescriptor.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) } catch { throw V4L2Error(errno: error.errno, call: error.call) }
        let fd = v4l2_fd_open(opened.rawValue, Int32(V4L2_DISABLE_CONVERSION))
        // On failure, `opened` still owns the descriptor and closes it.
        guard fd >= 0 else { throw V4L2Error(errno: Glibc.errno, call: "v4l2_fd_open(\(path))") }
        // libv4l2 owns it now: v4l2_close in deinit closes it.
        _ = opened.take()
        self.path = path
        self.fd = fd
    }

    deinit { v4l2_close(fd) }

    /// Runs one ioctl through `v4l2_ioctl`, retrying EINTR, the only place that does.
    func ioctl<T>(_ request: UInt, _ name: String, _ argument: inout T) throws(V4L2Error) {
        while true {
            let result = withUnsafeMutablePointer(to: &argument) { kiosk_v4l2_ioctl(fd, request, $0) }
            if result >= 0 { return }
            let error = Glibc.errno
            if error == EINTR { continue }
            throw V4L2Error(errno: error, call: name)
        }
    }

    /// What `VIDIOC_QUERYCAP` says about the device.
    public struct Capabilities: Sendable {
        public var driver: String
        public var card: String
        public var bus: String
        /// The capabilities of this node (device_caps when the driver gives them).
        public var caps: UInt32

        public var canCapture: Bool {
            caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 && caps & UInt32(V4L2_CAP_STREAMING) != 0
        }
    }

    public func capabilities() throws(V4L2Error) -> Capabilities {
        var cap = v4l2_capability()
        try ioctl(kiosk_VIDIOC_QUERYCAP(), "VIDIOC_QUERYCAP", &cap)
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        return Capabilities(driver: cString(cap.driver), card: cString(cap.card), bus: cString(cap.bus_info), caps: caps)
    }

    /// The device's own formats (`VIDIOC_ENUM_FMT`), without the ones libv4l2 emulates by converting
    /// on the CPU: those cost more than taking a native format and converting where it is needed.
    public func formats() throws(V4L2Error) -> [(code: UInt32, description: String)] {
        var result: [(UInt32, String)] = []
        for index in 0..<64 {
            var desc = v4l2_fmtdesc()
            desc.index = UInt32(index)
            desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            do { try ioctl(kiosk_VIDIOC_ENUM_FMT(), "VIDIOC_ENUM_FMT", &desc) } catch where error.errno == EINVAL { break }
            if desc.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0 { continue }
            result.append((desc.pixelformat, cString(desc.description)))
        }
        return result
    }

    /// The discrete sizes of a format (`VIDIOC_ENUM_FRAMESIZES`); for stepwise ranges, the common
    /// sizes that fall inside them.
    public func sizes(format code: UInt32) throws(V4L2Error) -> [Size] {
        var sizes: [Size] = []
        for index in 0..<128 {
            var e = v4l2_frmsizeenum()
            e.index = UInt32(index)
            e.pixel_format = code
            do { try ioctl(kiosk_VIDIOC_ENUM_FRAMESIZES(), "VIDIOC_ENUM_FRAMESIZES", &e) } catch where error.errno == EINVAL { break }
            if e.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                sizes.append(Size(width: Int(e.discrete.width), height: Int(e.discrete.height)))
            } else {
                let s = e.stepwise
                let common = [(320, 240), (352, 288), (640, 480), (800, 600), (1280, 720), (1920, 1080), (3840, 2160)]
                sizes += common.filter { $0.0 >= s.min_width && $0.0 <= s.max_width && $0.1 >= s.min_height && $0.1 <= s.max_height }
                    .map { Size(width: $0.0, height: $0.1) }
                break
            }
        }
        return sizes
    }

    /// The frame rates of a format at a size (`VIDIOC_ENUM_FRAMEINTERVALS`), fastest first.
    public func rates(format code: UInt32, size: Size) throws(V4L2Error) -> [Double] {
        var rates: [Double] = []
        for index in 0..<64 {
            var e = v4l2_frmivalenum()
            e.index = UInt32(index)
            e.pixel_format = code
            e.width = UInt32(size.width)
            e.height = UInt32(size.height)
            do { try ioctl(kiosk_VIDIOC_ENUM_FRAMEINTERVALS(), "VIDIOC_ENUM_FRAMEINTERVALS", &e) } catch where error.errno == EINVAL { break }
            if e.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                if e.discrete.numerator > 0 { rates.append(Double(e.discrete.denominator) / Double(e.discrete.numerator)) }
            } else {
                // Continuous or stepwise: the fastest and the slowest ends are what matter here.
                let fast = e.stepwise.min, slow = e.stepwise.max
                if fast.numerator > 0 { rates.append(Double(fast.denominator) / Double(fast.numerator)) }
                if slow.numerator > 0 { rates.append(Double(slow.denominator) / Double(slow.numerator)) }
                break
            }
        }
        return rates.sorted(by: >)
    }

    /// Every mode the recorder can use, and the description `--list-cameras` prints.
    public func describe() throws(V4L2Error) -> (modes: [CameraMode], description: CameraDescription) {
        let caps = try capabilities()
        var modes: [CameraMode] = []
        var described: [CameraDescription.Format] = []
        for (code, text) in try self.formats() {
            var sizes: [CameraDescription.SizeRates] = []
            for size in try self.sizes(format: code) {
                let rates = try self.rates(format: code, size: size)
                sizes.append(.init(width: size.width, height: size.height, fps: rates.map { ($0 * 1000).rounded() / 1000 }))
                if let format = FourCC.pixelFormats[FourCC.string(code)] {
                    modes.append(CameraMode(format: format, size: size, rates: rates))
                }
            }
            described.append(.init(fourcc: FourCC.string(code), description: text, sizes: sizes))
        }
        return (modes, CameraDescription(path: path, name: caps.card, driver: caps.driver, bus: caps.bus, formats: described))
    }
}

/// A fixed-size C char array (a tuple in Swift) as a String, up to its first NUL.
func cString<Tuple>(_ tuple: Tuple) -> String {
    withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
}

/// The capture devices on this machine: `video*` nodes that can capture and stream, in a folder
/// that is /dev, or `KIOSK_VIDEO_DEVICE_DIR` for tests and unusual systems
/// (`KioskEnvironment.videoDeviceFolder`).
public enum CameraDirectory {
    /// `video*` paths in `folder` in numeric order (video2 before video10).
    public static func candidatePaths(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("video") }
            .sorted { (Int($0.dropFirst(5)) ?? Int.max, $0) < (Int($1.dropFirst(5)) ?? Int.max, $1) }
            .map { folder + "/" + $0 }
    }

    /// Every capture device with its formats. Nodes that are not capture devices (UVC metadata
    /// nodes, codecs) and nodes that cannot be opened are left out.
    public static func cameras(in folder: String) -> [CameraDescription] {
        candidatePaths(in: folder).compactMap { path in
            guard let device = try? V4L2Device(path: path), (try? device.capabilities())?.canCapture == true,
                  var description = try? device.describe().description else { return nil }
            description.controls = device.describeControls()
            return description
        }
    }
}
