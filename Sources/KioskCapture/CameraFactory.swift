// Turns `--camera` into a video source: a V4L2 device, the test pattern, or the first camera found.
import KioskCore
import KioskSystem
import KioskContract

public enum CameraFactory {
    /// The sources for `--camera` (repeated): each device, the test pattern, and for `auto` every
    /// camera found (a path named twice is opened once). `auto` with none found (and nothing else
    /// asked for) is a camera still to be found: the booth shows "No camera found" (the note) and
    /// offers no Record until one is plugged in; never the test pattern, which only `--camera test`
    /// shows. `auto` looks in `videoDevices` (`CameraDirectory`).
    public static func makeAll(_ choices: [CameraChoice], size: CaptureSize, fps: Double, exec: ExecCameraSettings = ExecCameraSettings(),
                               mjpeg: @escaping FrameDecoderFactory, videoDevices: String) -> (sources: [any VideoSource], note: String?) {
        var sources: [any VideoSource] = [], paths: Set<String> = [], note: String?
        func add(_ path: String) {
            guard paths.insert(path).inserted else { return }
            sources.append(V4L2Camera(path: path, size: size, fps: fps, mjpeg: mjpeg))
        }
        for choice in choices {
            switch choice {
            case let .device(path): add(path)
            case .test: sources.append(TestPattern(size: size.planned, fps: fps))
            case let .exec(command):
                sources.append(ExecCamera(command: command, size: size.planned, fps: fps, settings: exec, mjpeg: mjpeg))
            case .auto:
                let found = usable(CameraDirectory.cameras(in: videoDevices))
                found.forEach { add($0.path) }
                if found.isEmpty, choices.count == 1 {
                    let (source, why) = make(.auto, size: size, fps: fps, mjpeg: mjpeg, videoDevices: videoDevices)
                    sources.append(source)
                    note = why
                }
            }
        }
        if sources.isEmpty {
            let (source, why) = make(.auto, size: size, fps: fps, mjpeg: mjpeg, videoDevices: videoDevices)
            sources.append(source)
            note = why
        }
        return (sources, note)
    }

    /// The source for a choice, and a note for the screen when `auto` found no camera. `mjpeg`
    /// makes the decoder a camera that sends MJPEG needs (KioskMedia's `VideoDecoder.mjpeg`). `auto`
    /// looks in `videoDevices` (`CameraDirectory`).
    public static func make(_ choice: CameraChoice, size: CaptureSize, fps: Double, exec: ExecCameraSettings = ExecCameraSettings(),
                            mjpeg: @escaping FrameDecoderFactory, videoDevices: String) -> (source: any VideoSource, note: String?) {
        switch choice {
        case let .device(path):
            return (V4L2Camera(path: path, size: size, fps: fps, mjpeg: mjpeg), nil)
        case .test:
            return (TestPattern(size: size.planned, fps: fps), nil)
        case let .exec(command):
            return (ExecCamera(command: command, size: size.planned, fps: fps, settings: exec, mjpeg: mjpeg), nil)
        case .auto:
            if let first = usable(CameraDirectory.cameras(in: videoDevices)).first {
                return (V4L2Camera(path: first.path, size: size, fps: fps, mjpeg: mjpeg), nil)
            }
            Log.info("camera auto: no camera found in \(videoDevices); looking again every second")
            let search: @Sendable () -> String? = { usable(CameraDirectory.cameras(in: videoDevices), quiet: true).first?.path }
            return (V4L2Camera(searching: search, size: size, fps: fps, mjpeg: mjpeg), "No camera found")
        }
    }

    /// The capture devices `auto` can use: those with a format the booth reads (YUYV, NV12, YU12,
    /// MJPEG) that are not a picture processor's nodes. A Raspberry Pi's CSI receivers (raw Bayer:
    /// pRAA, RG10, …) and other nodes that capture only what the booth cannot read are passed over;
    /// so are the capture nodes of the Pi's ISPs (`bcm2835-isp` on a Pi 4, `pispbe` on a Pi 5),
    /// which offer YU12 and NV12 but give a picture only when a program feeds them Bayer frames,
    /// and its codec (`bcm2835-codec`). The log says why for each (a Pi camera module is read
    /// through `exec:rpicam-vid …` instead). `quiet`: the search every second of a camera still to
    /// be found says nothing (the first look said why each was passed over).
    public static func usable(_ found: [CameraDescription], quiet: Bool = false) -> [CameraDescription] {
        found.filter { camera in
            if processingDrivers.contains(camera.driver) {
                if !quiet { Log.info("camera auto: \(camera.path) (\(camera.name), \(camera.driver)) passed over: a picture processor's node, not a camera (it gives pictures only when fed)") }
                return false
            }
            let readable = camera.formats.contains { FourCC.pixelFormats[$0.fourcc] != nil }
            if !readable && !quiet {
                let formats = camera.formats.map(\.fourcc).joined(separator: ", ")
                Log.info("camera auto: \(camera.path) (\(camera.name), \(camera.driver)) passed over: no format the booth reads (it offers \(formats.isEmpty ? "none" : formats))")
            }
            return readable
        }
    }

    /// The drivers (VIDIOC_QUERYCAP's `driver`) of nodes that look like cameras but are stages of
    /// a picture pipeline: the Raspberry Pi's ISPs and codec.
    public static let processingDrivers: Set<String> = ["bcm2835-isp", "pispbe", "bcm2835-codec"]
}
