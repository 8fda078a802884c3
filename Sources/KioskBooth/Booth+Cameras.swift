// The cameras: starting the one in use, and the switch button (which camera comes next is the
// ring's rule, `CameraRing.pick`; the starts and stops run on the camera-control queue).
import Foundation
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

    /// The switch button: the camera in use stops and the next one that opens takes over (one
    /// that cannot open now is passed over; with none, the old one comes back). Nothing starts
    /// meanwhile: the machine shows no Start until it is done.
    func switchCamera() {
        guard ring.count > 1 else {
            carryOut(core.handle(.cameraSwitched))
            return
        }
        let controls = config.capture.cameraControls
        let (all, current, inbox, start, speaking) = (cameras, ring.index, inbox, startCamera, shared.speakingCamera)
        shared.cameraControl.async {
            speaking.withLock { $0 = -1 }
            all[current].stop()
            let picked = CameraRing.pick(from: current, count: all.count) { index in
                let camera = all[index]
                camera.setControls(controls)
                do { try start(camera, index) } catch {
                    Log.info("camera switch: \(camera.info.name) did not start: \(error)")
                    return .failed
                }
                if camera.isOpen { return .opened }
                if index != current {
                    Log.info("camera switch: \(camera.info.name) cannot open now; passed over")
                    camera.stop()
                }
                return .waiting
            }
            // Even the camera in use did not start again: it stays the one in use, lost.
            let (index, open) = picked ?? (current, false)
            speaking.withLock { $0 = index }
            inbox.post(.cameraSwitched(index: index, open: open))
        }
    }

    /// The switch is done: the camera in use, `cameraChanged`, its name on screen for a moment.
    func cameraSwitched(to index: Int, open: Bool) {
        carryOut(core.handle(.cameraSwitched))
        let info = cameras[index].info
        if ring.switched(to: index, name: info.label, at: MonotonicClock.now()) {
            events.emit(.cameraChanged(camera: info.name, width: info.size.width, height: info.size.height, fps: info.fps))
            Log.info("camera switch: now \(info.name) (\(info.label))")
        } else {
            Log.info("camera switch: no other camera could open; \(info.name) stays")
        }
        // The picture of the camera before stays until the new one's first frame.
        if open && !machine.cameraAvailable { carryOut(core.handle(.cameraBack)) }
        if !open && machine.cameraAvailable { carryOut(core.handle(.cameraLost)) }
        needsDraw = true
    }
}
