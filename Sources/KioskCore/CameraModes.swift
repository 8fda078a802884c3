// Picking a camera mode: the format, size and rate that give what was asked at the least cost.

/// One capture mode a camera offers: a format at a size, with the frame rates it can do there.
public struct CameraMode: Equatable, Sendable {
    public var format: PixelFormat
    public var size: Size
    /// Frames per second, as the device lists them (1 / interval).
    public var rates: [Double]

    public init(format: PixelFormat, size: Size, rates: [Double]) {
        self.format = format
        self.size = size
        self.rates = rates
    }
}

/// The chosen mode: what to ask the driver for.
public struct CameraChoiceResult: Equatable, Sendable {
    public var format: PixelFormat
    public var size: Size
    public var fps: Double
}

/// `--size`: what the booth asks of the camera.
public enum CaptureSize: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The camera's largest mode up to `autoLimit` that reaches the rate (the default).
    case auto
    /// This size, or the nearest the camera has.
    case exactly(Size)

    /// HD: the largest size `auto` takes, and the size of what has no modes to choose from (the
    /// test pattern, an `exec:` camera's raw frames, the check's encoding trial).
    public static let autoLimit = Size(width: 1280, height: 720)

    /// The size to make or to plan for where there are no modes to choose from.
    public var planned: Size {
        switch self {
        case .auto: Self.autoLimit
        case let .exactly(size): size
        }
    }

    /// "auto" or "WxH", as the command line and the config file write it.
    public var description: String {
        switch self {
        case .auto: "auto"
        case let .exactly(size): size.description
        }
    }
}

public enum CameraModeChooser {
    /// CPU cost of taking frames in a format: 4:2:0 planar goes to the encoder as it is, NV12 needs a
    /// cheap chroma split, YUYV a chroma subsampling, MJPEG a whole JPEG decode per frame.
    public static func cost(_ format: PixelFormat) -> Double {
        switch format {
        case .yuv420p: 0
        case .nv12: 0.1
        case .yuyv: 0.2
        case .yuv422p: 0.3
        case .mjpeg: 1
        case .xrgb: 0.5
        }
    }

    /// `exactly`: the mode nearest the size (below). `auto`: of the modes no larger than 1280x720
    /// (both sides), one that reaches the rate, the largest of those, the cheapest format at that
    /// size; so a USB 2 camera whose raw 720p tops out at 10 fps gives MJPEG 720p at 30. A camera
    /// with no mode that small is treated as asked for 1280x720.
    public static func choose(from modes: [CameraMode], size: CaptureSize, fps: Double) -> CameraChoiceResult? {
        guard case .auto = size else { return choose(from: modes, size: size.planned, fps: fps) }
        let limit = CaptureSize.autoLimit
        let fitting = modes.filter { $0.size.width <= limit.width && $0.size.height <= limit.height }
        guard !fitting.isEmpty else { return choose(from: modes, size: limit, fps: fps) }
        var best: (key: [Double], choice: CameraChoiceResult)?
        for mode in fitting {
            guard let r = rate(mode, fps: fps) else { continue }
            let key = [max(0, fps - r) / max(fps, 1), -Double(mode.size.width * mode.size.height), cost(mode.format)]
            if best == nil || key.lexicographicallyPrecedes(best!.key) {
                best = (key, CameraChoiceResult(format: mode.format, size: mode.size, fps: r))
            }
        }
        return best?.choice
    }

    /// The slowest listed rate of `mode` that reaches `fps`, else the fastest there is.
    static func rate(_ mode: CameraMode, fps: Double) -> Double? {
        mode.rates.filter { $0 >= fps - 0.01 }.min() ?? mode.rates.max()
    }

    /// The mode nearest the asked size; at that size, the one that reaches the asked rate; among
    /// those, the cheapest format. So 1280x720@30 from a USB 2 camera whose raw 720p tops out at
    /// 10 fps picks MJPEG, and 640x480@30 picks raw YUYV over MJPEG.
    public static func choose(from modes: [CameraMode], size: Size, fps: Double) -> CameraChoiceResult? {
        func sizeDistance(_ s: Size) -> Double {
            abs(Double(s.width - size.width)) / Double(max(size.width, 1))
                + abs(Double(s.height - size.height)) / Double(max(size.height, 1))
        }
        var best: (key: [Double], choice: CameraChoiceResult)?
        for mode in modes {
            guard let r = rate(mode, fps: fps) else { continue }
            let shortfall = max(0, fps - r) / max(fps, 1)
            let key = [sizeDistance(mode.size), shortfall, cost(mode.format)]
            if best == nil || key.lexicographicallyPrecedes(best!.key) {
                best = (key, CameraChoiceResult(format: mode.format, size: mode.size, fps: r))
            }
        }
        return best?.choice
    }
}

// MARK: - Camera controls

/// A camera setting the booth can make (`camera.exposure = auto`, …), set through V4L2's controls
/// each time the camera opens.
public enum CameraControl: String, CaseIterable, Codable, Sendable {
    case exposure, whiteBalance = "white-balance", brightness, focus, torch

    /// The option's and config key's name.
    public var key: String { "camera." + rawValue }

    /// What a value means, for `--help`.
    public var help: String {
        switch self {
        case .exposure: "auto, or the exposure time in the camera's units (100 µs on UVC cameras)"
        case .whiteBalance: "auto, or a colour temperature in kelvin"
        case .brightness: "auto (the camera's default), or a value in its range"
        case .focus: "auto (continuous), or a fixed focus position in the camera's range"
        case .torch: "on or off: the camera's light, where it has one"
        }
    }
}

/// A control's setting: the camera decides, or a value.
public enum CameraControlValue: Equatable, Hashable, Sendable, CustomStringConvertible {
    case auto
    case value(Int)

    public var description: String {
        switch self {
        case .auto: "auto"
        case let .value(n): String(n)
        }
    }
}
