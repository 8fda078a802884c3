// What a take is written as: container, codecs, tuning, limits and orientation.
import KioskCore

public struct MovieSettings: Sendable {
    public var outputPath: String
    public var videoSize: Size
    public var fps: Double
    /// nil: no audio track (`--microphone none`).
    public var audio: (sampleRate: Int, channels: Int)?
    /// An FFmpeg encoder name; libx264 when it cannot open.
    public var videoEncoder = "libx264"
    /// libx264's preset (also passed to encoders that know the option).
    public var preset = "veryfast"
    /// Constant quality (libx264's crf) unless `bitrate` is set.
    public var crf = 23
    /// Average bits per second, for encoders (or operators) that want a rate rather than a quality.
    public var bitrate: Int?
    public var maxDuration: Double = 1200
    public var maxFileSize: Int64 = 160 * 1024 * 1024
    public var minFreeDisk: Int64 = 1024 * 1024
    /// Clockwise quarter turns a player must apply (DisplayTransform.cameraQuarterTurns).
    public var rotationQuarterTurns = 0
    /// Permissions of the take and its marker, created new (O_EXCL, never through a symlink).
    public var fileMode = 0o600
    /// How much video a fragment holds before it is written and synced: the most a crash loses.
    public var fragmentSeconds = 0.5
    /// Live capture (the booth): frames are stamped by CLOCK_MONOTONIC, and one captured before the
    /// take started (a leftover still on its way through the camera's queue or the MJPEG decoder)
    /// is not part of the take. Off for benchmarks and tests that feed made-up timestamps.
    public var framesFromLiveClock = false

    public init(outputPath: String, videoSize: Size, fps: Double, audio: (sampleRate: Int, channels: Int)?) {
        self.outputPath = outputPath
        self.videoSize = videoSize
        self.fps = fps
        self.audio = audio
    }

    /// "mp4" for a .mp4 output, "mov" otherwise (the seed's output.mov).
    public var container: String { outputPath.lowercased().hasSuffix(".mp4") ? "mp4" : "mov" }
}

/// Why a take could not start.
public struct RecordingStartError: Error, CustomStringConvertible, Sendable {
    public let code: ErrorCode
    public let message: String
    public var description: String { message }

    public init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }
}
