// What a `state` reply carries beyond the screen (its `figures`): the metrics file's counts, from
// the same BoothFigures the core gathers for `--metrics-file`, the last take's rate (what the disk's
// seconds are counted at: `MetricsText.diskSeconds`), how long the booth has run, and the camera as
// it runs now with the frame rate measured (FrameRateMeter). The operator's console shows them.

/// The `figures` object of a `state` reply.
public struct StateFigures: Codable, Equatable, Sendable {
    /// The camera in use: its name (a path, or `test`), the size and rate it was opened at, and the
    /// pictures a second it delivered over the last measured window (nil before a window is whole).
    public struct Camera: Codable, Equatable, Sendable {
        public var name: String
        public var width: Int, height: Int
        public var fps: Double
        public var measuredFps: Double?

        public init(name: String, width: Int, height: Int, fps: Double, measuredFps: Double?) {
            (self.name, self.width, self.height, self.fps, self.measuredFps) = (name, width, height, fps, measuredFps)
        }
    }

    /// What the shell measures for them each turn: the booth's seconds since it started, the camera.
    public struct Running: Equatable, Sendable {
        public var uptime: Double
        public var camera: Camera?
        /// The microphone's peak held over the last 1.5 s (the screen's meter's hold), in dBFS; nil
        /// without a microphone.
        public var microphonePeak: Double?

        public init(uptime: Double, camera: Camera?, microphonePeak: Double? = nil) {
            (self.uptime, self.camera, self.microphonePeak) = (uptime, camera, microphonePeak)
        }
    }

    /// BoothFigures' counts, under the metrics file's names without `kiosk_` and `_total`.
    public var takes, used, discarded, shared, framesDropped, hooksPending: Int
    public var cameraUp: Bool
    /// Bytes a second of the last take that gave a rate; nil before one did.
    public var bytesPerSecond: Double?
    /// Seconds since the booth started.
    public var uptime: Double?
    public var camera: Camera?
    /// The microphone's peak held over the last 1.5 s, in dBFS to a tenth: a page that asks twice
    /// a second still sees a short sound (`state`'s `microphoneLevel` is the last 100 ms).
    public var microphonePeak: Double?

    public init(_ f: BoothFigures, bytesPerSecond: Double?, running: Running?) {
        (takes, used, discarded, shared, framesDropped, hooksPending) = (f.recorded, f.used, f.discarded, f.shared, f.framesDropped, f.hooksPending)
        cameraUp = f.cameraUp
        self.bytesPerSecond = bytesPerSecond.map { $0.rounded() }
        uptime = running.map { ($0.uptime * 10).rounded() / 10 }
        microphonePeak = running?.microphonePeak.map { ($0 * 10).rounded() / 10 }
        camera = running?.camera.map {
            Camera(name: $0.name, width: $0.width, height: $0.height, fps: $0.fps, measuredFps: $0.measuredFps.map { ($0 * 10).rounded() / 10 })
        }
    }
}

/// The camera's measured rate: the pictures it delivered (a running count) over windows of at least
/// `window`; the rate of the last whole window, nil before the first. Time is CLOCK_MONOTONIC ns.
public struct FrameRateMeter: Sendable {
    public static let window: Int64 = 2_000_000_000
    private var start: (count: Int, at: Int64)?
    public private(set) var rate: Double?

    public init() {}

    /// The count seen at `now`: a window that is whole gives the rate and the next starts. A count
    /// that went back (another camera's) starts again.
    public mutating func look(count: Int, at now: Int64) -> Double? {
        guard let start, count >= start.count, now >= start.at else {
            self.start = (count, now)
            return rate
        }
        if now - start.at >= Self.window {
            rate = Double(count - start.count) / (Double(now - start.at) / 1e9)
            self.start = (count, now)
        }
        return rate
    }
}
