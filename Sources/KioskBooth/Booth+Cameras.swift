// The cameras: starting the one in use, and carrying out the switch the core runs (which camera is
// tried next is the core's, BoothCore+Cameras; the starts and stops run on the camera-control queue).
import FoundationEssentials
import KioskCapture
import KioskCore
import KioskSystem

extension Booth {
    /// Starts camera `index` (on the camera-control queue): its frames to the preview and the
    /// take, its events to the inbox while it is the camera in use.
    var startCamera: @Sendable (any VideoSource, Int) throws -> Void {
        let (slot, inbox, activeWriter, speaking, photo) = (frames, inbox, activeWriter, shared.speakingCamera, shared.photoSlot)
        return { camera, index in
            try camera.start(frames: { frame in
                guard speaking.withLock({ $0 == index }) else { return }
                slot.put(frame)
                activeWriter.append(frame)
                photo.offer(frame)
            }, wanted: { sequence in
                // A picture the take leaves out while short of CPU is not decoded: the preview
                // then shows only the take's pictures (it draws at most 10 a second then anyway).
                speaking.withLock({ $0 == index }) && activeWriter.wants(sequence: sequence)
            }, events: { event in
                if speaking.withLock({ $0 == index }) { inbox.post(.capture(event)) }
            })
        }
    }

    /// The core's switch tries camera `index` (`.camera(.tryCamera)`), on the camera-control queue: nothing
    /// is heard from any camera meanwhile; `stop` (the one in use, or one passed over) stops first.
    /// How it went comes back as `cameraTried`.
    func tryCamera(_ index: Int, stopping stop: Int?) {
        let controls = config.capture.cameraControls
        let (all, inbox, start, speaking) = (cameras, inbox, startCamera, shared.speakingCamera)
        shared.cameraControl.async {
            speaking.withLock { $0 = -1 }
            if let stop { all[stop].stop() }
            let camera = all[index]
            camera.setControls(controls)
            var attempt = CameraRing.Attempt.failed
            do {
                try start(camera, index)
                attempt = camera.isOpen ? .opened : .waiting
            } catch {
                Log.info("camera switch: \(camera.info.name) did not start: \(error)")
            }
            inbox.post(.input(.cameraTried(index: index, attempt, name: camera.info.name, label: camera.info.label)))
        }
    }

    /// The switch ended on camera `index` (`.camera(.inUse)`): it is the one heard (after the
    /// attempts, on the same queue); `changed`: `cameraChanged` says what it is. The picture of the
    /// camera before stays until the new one's first frame.
    func cameraInUse(_ index: Int, changed: Bool) {
        let speaking = shared.speakingCamera
        shared.cameraControl.async { speaking.withLock { $0 = index } }
        if changed {
            let info = cameras[index].info
            events.emit(.cameraChanged(camera: info.name, width: info.size.width, height: info.size.height, fps: info.fps))
        }
    }
}
