// Turns `--camera` into a video source: a V4L2 device, the test pattern, or the first camera found.
import KioskCore

public enum CameraFactory {
    /// The source for a choice, and a note for the screen when `auto` found no camera.
    public static func make(_ choice: CameraChoice, size: Size, fps: Double) -> (source: any VideoSource, note: String?) {
        switch choice {
        case let .device(path):
            return (V4L2Camera(path: path, size: size, fps: fps), nil)
        case .test:
            return (TestPattern(size: size, fps: fps), nil)
        case .auto:
            if let first = CameraDirectory.cameras().first {
                return (V4L2Camera(path: first.path, size: size, fps: fps), nil)
            }
            return (TestPattern(size: size, fps: fps), "No camera found: showing the test pattern")
        }
    }
}
