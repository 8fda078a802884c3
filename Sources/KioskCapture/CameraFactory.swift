// Turns `--camera` into a video source: a V4L2 device, the test pattern, or the first camera found.
import KioskCore

public enum CameraFactory {
    /// The source for a choice, and a note for the screen when `auto` found no camera. `mjpeg`
    /// makes the decoder a camera that sends MJPEG needs (KioskMedia's `VideoDecoder.mjpeg`).
    public static func make(_ choice: CameraChoice, size: Size, fps: Double,
                            mjpeg: @escaping FrameDecoderFactory) -> (source: any VideoSource, note: String?) {
        switch choice {
        case let .device(path):
            return (V4L2Camera(path: path, size: size, fps: fps, mjpeg: mjpeg), nil)
        case .test:
            return (TestPattern(size: size, fps: fps), nil)
        case .auto:
            if let first = CameraDirectory.cameras().first {
                return (V4L2Camera(path: first.path, size: size, fps: fps, mjpeg: mjpeg), nil)
            }
            return (TestPattern(size: size, fps: fps), "No camera found: showing the test pattern")
        }
    }
}
