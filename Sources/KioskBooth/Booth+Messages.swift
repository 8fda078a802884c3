// The booth's inputs, in the order they come: the screen's (touches, keys, the display turned) and
// the inbox's (workers' reports, commands from stdin and the socket, which the core takes whole,
// signals, the machine's sleep). Each becomes the core's input; `ready` opens the gate that held them.
import FoundationEssentials
import KioskCapture
import KioskContract
import KioskCore
import KioskMedia
import KioskSystem
import KioskUI

extension Booth {
    func handle(_ input: UIInput) {
        // Pairing's corner, keyboard and code take their touches before any rule of the booth's.
        if pairing?.hears(input, canvas: screen.canvasSize, mode: machine.mode, now: now) == true {
            needsDraw = true
            return
        }
        switch input {
        case let .press(button): tell(.press(button))
        case let .tapElsewhere(point):
            if tapLibrary(at: point) { break }
            if let choice = screen.consentChoice(atLogical: point) {
                tell(.consentChoice(choice, on: machine.consentSwitches?[choice] != true))
                break
            }
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

    /// The buttons a touch may press: `visible`, or none while pairing's keyboard or code covers the screen.
    func pressable(_ visible: [Button]) -> [Button] { pairing?.rule.isOpen == true ? [] : visible }

    func handle(_ message: BoothMessage) {
        switch message {
        case let .fileJobReported(job, report):
            feed(.fileDone(job))
            handle(report)
        case let .cameraStarted(failure):
            feed(.cameraStarted(failure: failure, open: camera.isOpen))
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
        case .command(.reload):
            readConfiguration(command: true)
        case let .command(command):
            feed(.command(command))
        case let .pairing(report):
            pairing?.checked(report, now: now)
            needsDraw = true
        case let .configurationRead(result):
            reload(result)
        case let .keyMeasured(measure):
            keyMeasured(measure)
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

    /// The core said `ready` (the devices' failures went out just before): it goes out with the camera,
    /// the encoder and the microphone, systemd hears READY=1, and what came in meanwhile is handled
    /// after it, in order.
    func sayReady(encoder: VideoEncoderName, microphone: String?) {
        let info = camera.info
        events.emit(.ready(camera: info.name, width: info.size.width, height: info.size.height, fps: info.fps,
                           orientation: screen.orientation, encoder: encoder.rawValue, microphone: microphone))
        tellService(.ready)
        let held = heldUntilReady
        heldUntilReady = []
        for message in held { handle(message) }
    }
}
