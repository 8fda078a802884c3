// The booth's inputs, in the order they come: the screen's (touches, keys, the display turned),
// the inbox's (workers' reports, commands from stdin and the socket, signals, the machine's sleep)
// and the commands themselves. Each becomes a machine event or a room's; `ready` opens the gate
// that held them.
import FoundationEssentials
import KioskCapture
import KioskCore
import KioskMedia
import KioskSystem
import KioskUI

extension Booth {
    /// A tap on the picture (not on a button) in ready, the countdown or a take: the focus box
    /// there and the camera asked to focus (where it has an auto-focus trigger). The first touch
    /// of an attract screen only wakes it.
    func focus(at point: Point) {
        guard [.ready, .countdown, .recording].contains(machine.mode), !attracting, machine.cameraAvailable else { return }
        draw.focusBox = (point, now)
        camera.triggerFocus()
        needsDraw = true
    }

    func handle(_ input: UIInput) {
        switch input {
        case let .press(button): carryOut(core.handle(.press(button)))
        case let .tapElsewhere(point):
            if tapLibrary(at: point) { break }
            focus(at: point)
            carryOut(core.handle(.togglePause))
        case .togglePause: carryOut(core.handle(.togglePause))
        case let .seek(fraction): carryOut(core.handle(.seek(position: fraction * machine.playbackDuration)))
        case let .trim(handle, seconds):
            // The handle stops at the take's ends and 0.5 s from the other: the trim stays one.
            if let view = machine.trimmerView {
                carryOut(core.handle(.trim(view.range.moving(handle, to: seconds, takeDuration: view.duration))))
            }
        case .quit: carryOut(core.handle(.quit))
        case .background: carryOut(core.handle(.background))
        case .foreground: carryOut(core.handle(.foreground))
        case let .displayOrientation(o): carryOut(core.handle(.rotate(o)))
        case .libraryScrolled: break // drawn again below
        }
        needsDraw = true
    }

    func handle(_ message: BoothMessage) {
        switch message {
        case let .fileJobReported(job, report):
            core.fileDone(job)
            handle(report)
        case let .cameraStarted(failure):
            carryOut(core.cameraStarted(failure: failure, open: camera.isOpen))
        case let .microphoneTried(name, failure):
            microphone.name = name
            microphone.missing = failure != nil
            carryOut(core.microphoneTried(failure: failure))
        case let .launchFilesDone(done, owed):
            carryOut(core.launchFilesDone(done, owed: owed, at: now))
        case let .cameraTried(index, attempt, name, label):
            carryOut(core.cameraTried(index, attempt, name: name, label: label, at: now))
        case let .capture(event):
            handle(event)
        case let .takeStarted(started):
            takeStarted(started)
        case let .takeFailed(code, message):
            takes.opening = false
            carryOut(core.handle(.recordingFailed(code: code, message: message)))
        case let .recordingFinished(result):
            recordingFinished(result)
        case let .fileJobDone(done, handOver):
            done.forEach(events.emit)
            // An accepted take owes its hook once its hand-over was reported (a shared one once its
            // share folder is written, or failed).
            if handOver { handedOver(done) }
        case let .trimPictures(serial, pictures):
            trimPicturesDone(serial: serial, pictures)
        case let .shareDone(result):
            shareDone(result)
        case let .hookDone(path, outcome):
            hookDone(path, outcome)
        case let .hookFilesDone(done):
            done.forEach(events.emit)
        case let .emit(event):
            events.emit(event)
        case let .photoDone(outcome):
            photoDone(outcome)
        case let .photoShareDone(photo, result):
            photoShareDone(photo, result)
        case let .libraryListed(entries, leftOut):
            libraryListed(entries, leftOut: leftOut)
        case let .slideshowListed(serial, paths):
            slideshowListed(paths, serial: serial)
        case let .screenshotDone(failure):
            if let failure { events.emit(.error(code: .screenshotFailed, message: failure)) }
        case let .command(command):
            handle(command)
        case let .badCommand(error):
            events.emit(error.event)
        case .parentGone:
            Log.info("stdout closed: the parent is gone; finishing")
            carryOut(core.handle(.parentGone))
        case let .configurationRead(result):
            reload(result)
        case let .signal(number):
            handle(signal: number)
        case let .systemSleep(sleeping):
            systemSleep(sleeping)
        }
        releaseSleepWhenSafe()
        needsDraw = true
    }

    /// What a capture thread said about its device.
    private func handle(_ event: CaptureEvent) {
        switch event {
        case let .cameraLost(reason):
            events.emit(.error(code: .cameraUnavailable, message: reason))
            // No stale picture under the "camera unavailable" note (a finished take's frozen
            // frame stays).
            if [.ready, .countdown, .recording].contains(machine.mode) { screen.clearPreview() }
            carryOut(core.handle(.cameraLost))
        case .cameraBack:
            carryOut(core.handle(.cameraBack))
        case let .microphoneLost(reason):
            events.emit(.error(code: .microphoneUnavailable, message: reason + "; recording silence"))
        case .microphoneBack:
            break
        case let .microphoneUnreliable(reason):
            events.emit(.error(code: .microphoneUnreliable, message: reason))
        case let .controlProblem(message):
            events.emit(.error(code: .cameraControl, message: message))
        }
    }

    /// The core said `ready` (the devices' failures went out just before): it goes out with what the
    /// devices are, systemd hears READY=1, and what came in meanwhile is handled after it, in order.
    func sayReady() {
        let info = camera.info
        let microphoneName = config.capture.microphone == .none || microphone.missing ? "none" : microphone.name
        events.emit(.ready(camera: info.name, width: info.size.width, height: info.size.height, fps: info.fps,
                           orientation: screen.orientation, encoder: core.nextEncoder.rawValue, microphone: microphoneName))
        tellService(.ready)
        let held = heldUntilReady
        heldUntilReady = []
        for message in held { handle(message) }
    }

    func handle(_ command: Command) {
        // A guest's press or touch sent as a command keeps the finished screen awake; `state` does not.
        switch command {
        case .press, .start, .seek, .pause, .pick: _ = core.touched(at: now, swallow: false)
        case .tap:
            // A tap on the attract screen wakes it, like a finger.
            if core.touched(at: now, swallow: true) { return }
        default: break
        }
        switch command {
        case let .press(button): carryOut(core.handle(.press(button)))
        case let .start(seconds): carryOut(core.handle(.start(countdown: seconds)))
        case let .rotate(o): carryOut(core.handle(.rotate(o)))
        case .background: carryOut(core.handle(.background))
        case .foreground: carryOut(core.handle(.foreground))
        case let .tap(point):
            stats.write("tap", mode: machine.mode, at: now)
            // A tap on hidden controls presses nothing: it pauses and brings them back.
            let visible = controlsShown ? machine.visibleButtons : []
            draw.controls.touched(at: now)
            // Routed as a finger's touch is, by the screen; handled as one.
            for input in screen.tap(at: point, visible: visible) { handle(input) }
        case let .focus(point):
            focus(at: screen.logical(point))
        case let .screenshot(path):
            screenshot(to: path)
        case let .seek(position): carryOut(core.handle(.seek(position: position)))
        case let .trim(range): carryOut(core.handle(.trim(range)))
        case let .pause(paused): carryOut(core.handle(.pause(paused)))
        case .state: carryOut(core.handle(.stateQuery))
        case .quit: carryOut(core.handle(.quit))
        case let .pick(path): carryOut(core.handle(.pick(path: path)))
        }
    }
}
