// The cameras, driven on their control queue: the one in use started and stopped as the machine
// says, and the tries of the switch the core runs (which camera is tried next is the core's,
// BoothCore+Cameras). Only the camera in use is heard: its frames go to the preview, the take and a
// waiting photo, its events to the inbox; a camera being passed over, or stopped by a switch, is not.
import KioskCapture
import KioskContract
import KioskCore
import KioskMedia
import KioskOptions
import KioskSystem

final class Cameras {
    /// Every camera, in switch order.
    let all: [any VideoSource]
    /// The one in use (the core's choice, as `.camera(.inUse)` said it last).
    private(set) var index = 0
    private let control: any Executor
    private let speaking: Locked<Int>
    private let inbox: Inbox
    private let events: EventSink
    /// Starts a camera (on the control queue) with its frames and events going where they go while
    /// it is the one in use.
    private let start: @Sendable (any VideoSource, Int) throws -> Void

    var current: any VideoSource { all[index] }

    /// The camera in use as `state`'s figures give it: the size and rate it was opened at, and the
    /// pictures a second its frames measured (`frames.measuredRate`).
    func figure(_ frames: FrameSlot, at now: Int64) -> StateFigures.Camera {
        let info = current.info
        return StateFigures.Camera(name: info.name, width: info.size.width, height: info.size.height, fps: info.fps,
                                   measuredFps: frames.measuredRate(at: now))
    }

    init(_ all: [any VideoSource], workers: BoothWorkers, frames: FrameSlot, writer: WriterSlot, inbox: Inbox, events: EventSink) {
        let (speaking, photo, key, backdrop) = (workers.speakingCamera, workers.photoSlot, workers.key, workers.backdrop)
        (self.all, control, self.speaking, self.inbox, self.events) = (all, workers.cameraControl, speaking, inbox, events)
        start = { camera, index in
            // The picture the take said yes to before the camera decoded it, and when: the camera's
            // thread's time on it, to the picture keyed, goes to the take's step-down (EffortRule).
            let asked = Locked<(sequence: UInt32, at: Int64)?>(nil)
            try camera.start(frames: { camera in
                guard speaking.withLock({ $0 == index }) else { return }
                let yes = asked.withLock { a in defer { a = nil }; return a.flatMap { $0.sequence == camera.sequence ? $0.at : nil } }
                let began = yes ?? MonotonicClock.now()
                // `--key auto`'s backdrop measured from the picture as the camera gave it.
                if let measure = backdrop.offer(camera) { inbox.post(.keyMeasured(measure)) }
                // A source that makes its pictures without asking (the test pattern, a pipe): a
                // picture the take leaves out is not keyed either.
                if yes == nil, key.isOn, !writer.wants(sequence: camera.sequence) { return }
                // Keyed once (the green screen), here on the camera's thread: the preview, the take
                // and a photo get the same picture.
                // The camera's thread is judged only under a key (the cost the step-down must see):
                // without one its wall time on a picture is the decoding's, which on a machine
                // loaded by other work measures the load, not the booth (ci43: a 720p take at 15 fps
                // stepped to every 2nd picture beside other tests, with the CPU for every picture).
                let keyed = key.isOn, frame = key.key(camera), spent = keyed ? MonotonicClock.now() - began : 0
                frames.put(frame)
                writer.append(frame, camera: spent)
                photo.offer(frame)
            }, wanted: { sequence in
                // A picture the take leaves out while short of CPU is not decoded: the preview
                // then shows only the take's pictures (it draws at most 10 a second then anyway).
                guard speaking.withLock({ $0 == index }) && writer.wants(sequence: sequence) else { return false }
                asked.withLock { $0 = (sequence, MonotonicClock.now()) }
                return true
            }, events: { event in
                if speaking.withLock({ $0 == index }) { inbox.post(.capture(event)) }
            })
        }
    }

    /// The machine's `startCamera`: the camera in use starts with `controls`; `cameraStarted` follows.
    func startInUse(controls: [CameraControl: CameraControlValue]) {
        let (camera, inbox, index, start) = (current, inbox, index, start)
        camera.setControls(controls)
        control.async {
            var failure: String?
            do { try start(camera, index) } catch { failure = "\(error)" }
            inbox.post(.cameraStarted(failure: failure))
        }
    }

    /// The machine's `stopCamera`; `writer` hears once it is stopped (a boomerang's writer makes its
    /// loop once the camera's memory is back).
    func stopInUse(resting writer: (any TakeWriter)?) {
        let camera = current
        control.async {
            camera.stop()
            writer?.cameraRested()
        }
    }

    /// The camera in use stopped before the process leaves, waited for.
    func stopForExit() {
        let camera = current
        control.sync { camera.stop() }
    }

    /// The core's switch tries camera `index` (`.camera(.tryCamera)`): nothing is heard from any
    /// camera meanwhile; `stop` (the one in use, or one passed over) stops first. How it went comes
    /// back as `cameraTried`.
    func tryCamera(_ index: Int, stopping stop: Int?, controls: [CameraControl: CameraControlValue]) {
        let (all, inbox, start, speaking) = (all, inbox, start, speaking)
        control.async {
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
    func inUse(_ index: Int, changed: Bool) {
        self.index = index
        let speaking = speaking
        control.async { speaking.withLock { $0 = index } }
        guard changed else { return }
        let info = all[index].info
        events.emit(.cameraChanged(camera: info.name, width: info.size.width, height: info.size.height, fps: info.fps))
    }
}

extension Configuration.Video {
    /// The green screen's key as the camera's pictures get it: `--key auto`'s from `measured` (its
    /// colour and similarity); nil without a background, or with `auto` before its first measure.
    func keySettings(measured: BackdropMeasure?) -> KeySettings? {
        guard let background, let key = keyInForce else { return nil }
        let measured = key == .auto ? measured : nil
        guard let colour = (measured?.colour ?? key).components else { return nil }
        return KeySettings(background: background, red: colour.red, green: colour.green, blue: colour.blue,
                           similarity: measured?.similarity ?? keySimilarity, blend: keyBlend, despill: despill)
    }
}
