// The values settings choose between that the devices, the screen and the rules read too: which
// camera and microphone, the window, how a picture fits the screen, what an idle screen does. The
// options (KioskOptions) parse them; the parts that use them need no option to know them.

/// Where frames come from.
public enum CameraChoice: Equatable, Sendable {
    /// A V4L2 device path such as /dev/video0.
    case device(String)
    /// The built-in moving pattern with a frame counter.
    case test
    /// The first camera found, else the test pattern with an on-screen note.
    case auto
    /// A command run through `/bin/sh -c` whose stdout carries the pictures (`exec:COMMAND`), in
    /// the `CameraPipeFormat` `--camera-format` names: a Pi camera module through rpicam-vid,
    /// GStreamer, ffmpeg.
    case exec(String)
}

/// What an `exec:` camera's command writes on its stdout (`--camera-format`).
public enum CameraPipeFormat: String, CaseIterable, Sendable {
    /// Concatenated JPEGs, each a whole picture (SOI … EOI).
    case mjpeg
    /// Raw planar 4:2:0 frames of `--size`: Y, then U, then V (FFmpeg yuv420p, V4L2 YU12).
    case i420
    /// Raw 4:2:0 frames of `--size`: Y, then interleaved UV.
    case nv12
    /// Raw packed 4:2:2 frames of `--size`: Y0 U Y1 V.
    case yuyv

    /// The layout of a raw frame (nil for MJPEG, which is decoded).
    public var rawFormat: PixelFormat? {
        switch self {
        case .mjpeg: nil
        case .i420: .yuv420p
        case .nv12: .nv12
        case .yuyv: .yuyv
        }
    }
}

/// Where sound comes from.
public enum MicrophoneChoice: Equatable, Sendable {
    /// An ALSA PCM name such as "default" or "hw:1,0".
    case pcm(String)
    /// The built-in 1 kHz beep at the start of every second.
    case test
    /// No audio track.
    case none
}

/// Full screen, or a window of a size (nil: `defaultSize`, for development).
public enum WindowMode: Equatable, Sendable {
    case fullscreen
    case windowed(Size?)

    /// The window `--windowed` gets without a size (shrunk to fit a smaller desktop); `--help` and
    /// docs/interface.md say it from here.
    public static let defaultSize = Size(width: 1280, height: 720)
}

/// How the player (and the live preview, `--preview-fit`) puts a picture whose shape differs from
/// the screen's on it.
public enum PictureFit: String, CaseIterable, Codable, Sendable {
    /// Aspect-fill: the whole screen covered, the picture's edges cropped.
    case fill
    /// Aspect-fit: the whole picture shown, bars on the sides left over (the review's, and `--play`'s default).
    case fit
}
