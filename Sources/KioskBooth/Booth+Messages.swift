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
    func handle(_ input: UIInput) {
        switch input {
        case let .press(button): tell(.press(button))
        case let .tapElsewhere(point):
            if tapLibrary(at: point) { break }
            feed(.focus(point))
            tell(.togglePause)
        case .togglePause: tell(.togglePause)
        case let .seek(fraction): tell(.seek(position: fraction * machine.playbackDuration))
        case let .trim(handle, seconds):
            // The handle stops at the take's ends and 0.5 s from the other: the trim stays one.
            if let view = machine.trimmerView {
                tell(.trim(view.range.moving(handle, to: seconds, takeDuration: view.duration)))
            }
        case .quit: tell(.quit)
        case .background: tell(.background)
        case .foreground: tell(.foreground)
        case let .displayOrientation(o): tell(.rotate(o))
        case .libraryScrolled: break // drawn again below
        }
        needsDraw = true
    }

    func handle(_ message: BoothMessage) {
        switch message {
        case let .fileJobReported(job, report):
            feed(.fileDone(job))
            handle(report)
        case let .cameraStarted(failure):
            feed(.cameraStarted(failure: failure, open: camera.isOpen))
        case let .microphoneTried(name, failure):
            microphone.name = name
            microphone.missing = failure != nil
            feed(.microphoneTried(failure: failure))
        case let .input(input):
            feed(input)
        case let .capture(event):
            handle(event)
        case let .take(.started(started)):
            takeStarted(started)
        case let .take(.failed(code, message)):
            tell(.recordingFailed(code: code, message: message))
        case let .take(.finished(result)):
            recordingFinished(result)
        case let .listed(.trimPictures(serial, pictures)):
            trimPicturesDone(serial: serial, pictures)
        case let .listed(.library(entries, leftOut)):
            libraryListed(entries, leftOut: leftOut)
        case let .command(command):
            handle(command)
        case let .configurationRead(result):
            reload(result)
        case let .signal(number):
            handle(signal: number)
        }
        needsDraw = true
    }

    /// What a capture thread said about its device.
    private func handle(_ event: CaptureEvent) {
        switch event {
        case let .cameraLost(reason):
            events.emit(.error(code: .cameraUnavailable, message: reason))
            // No stale picture under the "camera unavailable" note (a finished take's frozen
            // frame stays).
            if machine.mode.live { screen.clearPreview() }
            tell(.cameraLost)
        case .cameraBack:
            tell(.cameraBack)
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
        case .press, .start, .seek, .pause, .pick: feed(.touch(swallow: false, screen: false))
        default: break
        }
        switch command {
        case let .press(button): tell(.press(button))
        case let .start(seconds): tell(.start(countdown: seconds))
        case let .rotate(o): tell(.rotate(o))
        case .background: tell(.background)
        case .foreground: tell(.foreground)
        case let .tap(point):
            // A tap on hidden controls presses nothing: it pauses and brings them back.
            let visible = core.pressable(at: now)
            // A tap on the attract screen wakes it, like a finger.
            if touchSpent(swallow: true) { return }
            stats.write("tap", mode: machine.mode, at: now)
            // Routed as a finger's touch is, by the screen; handled as one.
            for input in screen.tap(at: point, visible: visible) { handle(input) }
        case let .focus(point):
            feed(.focus(screen.logical(point)))
        case let .screenshot(path):
            screenshot(to: path)
        case let .seek(position): tell(.seek(position: position))
        case let .trim(range): tell(.trim(range))
        case let .pause(paused): tell(.pause(paused))
        case .state: tell(.stateQuery)
        case .quit: tell(.quit)
        case let .pick(path): tell(.pick(path: path))
        }
    }
}
