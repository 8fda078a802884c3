// The booth: the UI thread's loop that joins the parts. Screen input, stdin commands, signals and
// what the capture and writer threads report all become RecorderMachine events; the machine's
// actions are carried out here, in order. Worker threads never call SDL: they post to the inbox,
// and frames go to a one-frame slot the loop picks up (the preview is at most one frame behind).
import Foundation
import KioskCapture
import KioskCore
import KioskMedia
import KioskSystem
import KioskUI
import Synchronization

/// What worker threads tell the UI thread.
enum BoothMessage: Sendable {
    case capture(CaptureEvent)
    case recordingFinished(RecordingResult)
    case command(Command)
    case badCommand(CommandError)
    case signal(Int32)
}

/// Messages from worker threads, taken by the UI loop in order.
final class Inbox: Sendable {
    private let messages = Mutex<[BoothMessage]>([])
    func post(_ message: BoothMessage) { messages.withLock { $0.append(message) } }
    func take() -> [BoothMessage] { messages.withLock { m in defer { m.removeAll() }; return m } }
}

/// The newest camera frame, replaced by each new one: the preview never queues behind the camera.
/// A frame replaced before the UI took it is a dropped preview frame, and counted.
final class FrameSlot: Sendable {
    private let slot = Mutex<(frame: VideoFrame?, serial: Int, taken: Int, dropped: Int)>((nil, 0, 0, 0))
    func put(_ frame: VideoFrame) {
        slot.withLock { s in
            if s.serial > s.taken { s.dropped += 1 }
            s.frame = frame
            s.serial += 1
        }
    }
    /// The frame if it is newer than `serial`.
    func take(newerThan serial: Int) -> (VideoFrame, Int)? {
        slot.withLock { s in
            guard s.serial > serial, let frame = s.frame else { return nil }
            s.taken = s.serial
            return (frame, s.serial)
        }
    }
    var dropped: Int { slot.withLock { $0.dropped } }
}

/// The writer the camera and microphone threads feed while a take runs (nil between takes).
final class WriterSlot: Sendable {
    private let writer = Mutex<MovieWriter?>(nil)
    func set(_ w: MovieWriter?) { writer.withLock { $0 = w } }
    func append(_ frame: VideoFrame) { writer.withLock { $0 }?.append(frame) }
    func append(_ chunk: AudioChunk) { writer.withLock { $0 }?.append(chunk) }
}

final class Booth {
    let config: Configuration
    let outputPath: String
    let screen: Screen
    let sounds: SoundPlayer
    let events = EventSink()
    var machine: RecorderMachine
    let camera: any VideoSource
    let cameraNote: String?
    let inbox = Inbox()
    let frames = FrameSlot()
    /// The writer the camera and microphone threads feed while a take runs.
    let activeWriter = WriterSlot()
    var writer: MovieWriter?
    var microphone: (any AudioSource)?
    var frameSerial = 0
    var frozen = false
    var needsDraw = true
    var lastViewModel: ViewModel?
    var exitCode: Int32?
    var suspendWhenSafe = false
    var cameraDropsAtStart = 0
    lazy var stats = PreviewStats(frames: frames)
    /// The player while the playing mode shows (its picture kept apart from the frozen frame).
    var playback: Playback?
    /// The player's controls hide while a take plays untouched.
    var controls = ControlsVisibility(now: MonotonicClock.now())

    init(config: Configuration, outputPath: String, screen: Screen, sounds: SoundPlayer) {
        self.config = config
        self.outputPath = outputPath
        self.screen = screen
        self.sounds = sounds
        let made = CameraFactory.make(config.camera, size: config.size, fps: Double(config.fps), mjpeg: VideoDecoder.mjpeg)
        camera = made.source
        cameraNote = made.note
        machine = RecorderMachine(session: config.session, outputPath: outputPath, orientation: screen.orientation)
    }

    /// Runs until an outcome, a quit or a signal; returns the exit status.
    func run() -> Int32 {
        installSignals()
        startStdinReader()
        sounds.prepare()
        perform(machine.start())
        let info = camera.info
        events.emit(.ready(camera: info.name, width: info.size.width, height: info.size.height, fps: info.fps,
                           orientation: screen.orientation))
        stats.write("start", mode: machine.mode, renderer: screen.rendererName)
        while exitCode == nil {
            let visible = controlsShown ? machine.visibleButtons : []
            for input in screen.waitEvents(timeoutMs: needsDraw ? 0 : 8, visible: visible) {
                controls.touched(at: MonotonicClock.now())
                handle(input)
            }
            for message in inbox.take() { handle(message) }
            if let writer, machine.mode == .recording { perform(machine.handle(.tick(elapsed: writer.elapsed))) }
            if !frozen, let (frame, serial) = frames.take(newerThan: frameSerial) {
                frameSerial = serial
                do { try screen.show(frame: frame) } catch { Log.info("preview: \(error)") }
                stats.previewFrames += 1
                needsDraw = true
            }
            stepPlayback()
            let model: ViewModel? = controlsShown ? viewModel : nil
            if needsDraw || model != lastViewModel {
                do { try screen.render(model) } catch { Log.info("screen: \(error)") }
                stats.presented(mode: machine.mode)
                lastViewModel = model
                needsDraw = false
            }
            if suspendWhenSafe && machine.mode != .recording {
                suspendWhenSafe = false
                // The take is safe on disk: now really stop, as the terminal asked (SIGTSTP).
                raise(SIGSTOP)
            }
        }
        camera.stop()
        microphone?.stop()
        stats.write("exit", mode: machine.mode)
        return exitCode ?? 0
    }

    /// Whether the overlay shows: always, except while a take plays untouched.
    var controlsShown: Bool {
        machine.mode != .playing || controls.visible(at: MonotonicClock.now(), paused: machine.playbackPaused)
    }

    var viewModel: ViewModel {
        var model = machine.viewModel
        if model.message == nil, model.mode == .ready, let cameraNote { model.message = cameraNote }
        return model
    }

    // MARK: - Inputs

    func handle(_ input: UIInput) {
        switch input {
        case let .press(button): perform(machine.handle(.press(button)))
        case .tapElsewhere, .togglePause: if machine.mode == .playing { perform(machine.handle(.togglePause)) }
        case .quit: perform(machine.handle(.quit))
        case .background: perform(machine.handle(.background))
        case .foreground: perform(machine.handle(.foreground))
        case let .displayOrientation(o): perform(machine.handle(.rotate(o)))
        }
        needsDraw = true
    }

    func handle(_ message: BoothMessage) {
        switch message {
        case let .capture(event):
            switch event {
            case let .cameraLost(reason):
                events.emit(.error(code: .cameraUnavailable, message: reason))
                // No stale picture under the "camera unavailable" note (a finished take's frozen
                // frame stays).
                if !frozen { screen.clearPreview() }
                perform(machine.handle(.cameraLost))
            case .cameraBack:
                perform(machine.handle(.cameraBack))
            case let .microphoneLost(reason):
                events.emit(.error(code: .microphoneUnavailable, message: reason + "; recording silence"))
            case .microphoneBack:
                break
            }
        case var .recordingFinished(result):
            result.droppedFrames += max(camera.droppedFrames - cameraDropsAtStart, 0)
            activeWriter.set(nil)
            writer = nil
            microphone?.stop()
            microphone = nil
            perform(machine.handle(.recordingFinished(result)))
        case let .command(command):
            handle(command)
        case let .badCommand(error):
            events.emit(error.event)
        case let .signal(number):
            switch number {
            case SIGUSR1, SIGTSTP:
                perform(machine.handle(.background))
                if number == SIGTSTP { suspendWhenSafe = true }
            case SIGUSR2, SIGCONT:
                perform(machine.handle(.foreground))
            default:
                perform(machine.handle(.terminate(signal: Booth.signalName(number))))
            }
        }
        needsDraw = true
    }

    func handle(_ command: Command) {
        switch command {
        case let .press(button): perform(machine.handle(.press(button)))
        case let .rotate(o): perform(machine.handle(.rotate(o)))
        case .background: perform(machine.handle(.background))
        case .foreground: perform(machine.handle(.foreground))
        case let .tap(point):
            stats.write("tap", mode: machine.mode)
            // A tap on hidden controls presses nothing: it pauses and brings them back.
            let visible = controlsShown ? machine.visibleButtons : []
            controls.touched(at: MonotonicClock.now())
            if let button = screen.press(at: point, visible: visible) {
                perform(machine.handle(.press(button)))
            } else if machine.mode == .playing {
                perform(machine.handle(.togglePause))
            }
        case let .screenshot(path):
            do { try screen.screenshot(to: path) } catch {
                events.emit(.error(code: .screenshotFailed, message: "\(error)"))
            }
        case .state: perform(machine.handle(.stateQuery))
        case .quit: perform(machine.handle(.quit))
        }
    }

    // MARK: - Actions

    func perform(_ actions: [RecorderAction]) {
        for action in actions { perform(action) }
    }

    func perform(_ action: RecorderAction) {
        switch action {
        case .startCamera:
            frozen = false
            let (slot, inbox, activeWriter) = (frames, inbox, activeWriter)
            do {
                try camera.start(frames: { frame in
                    slot.put(frame)
                    activeWriter.append(frame)
                }, events: { inbox.post(.capture($0)) })
            } catch {
                events.emit(.error(code: .cameraUnavailable, message: "\(error)"))
            }
        case .stopCamera:
            camera.stop()
        case .discardTake:
            if let recovered = TakeFiles.discardPrevious(at: outputPath) {
                events.emit(.recordingRecovered(path: recovered.path, duration: recovered.duration))
            }
        case .handOverTake:
            events.emit(.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: TakeFiles.handOver(outputPath)))
        case let .startRecording(orientation):
            startRecording(orientation: orientation)
        case let .stopRecording(reason):
            writer?.stop(reason: reason)
        case let .playSound(sound):
            sounds.play(sound)
        case .freezeLastFrame:
            frozen = true
        case let .startPlayback(path):
            stopPlayback()
            controls.touched(at: MonotonicClock.now())
            playback = Playback(path: path, screen: screen)
        case let .setPlaybackPaused(paused):
            playback?.setPaused(paused)
        case .stopPlayback:
            stopPlayback()
        case let .applyOrientation(orientation):
            screen.setOrientation(orientation)
        case let .emit(event):
            events.emit(event)
        case let .exit(code):
            exitCode = code
        }
        needsDraw = true
    }

    // MARK: - Playback

    /// The player's part of each loop: the picture due now, the position for the overlay, the end.
    func stepPlayback() {
        guard let playback else { return }
        let step = playback.step()
        if step.newPicture { needsDraw = true }
        perform(machine.handle(.playbackProgress(position: step.position, duration: step.duration)))
        if needsDraw { playback.presented() } // drawn at the end of this loop
        guard let end = step.ended else { return }
        stopPlayback()
        switch end {
        case .end:
            perform(machine.handle(.playbackEnded(.end)))
        case let .error(message):
            events.emit(.error(code: .playbackFailed, message: message))
            perform(machine.handle(.playbackEnded(.error)))
        }
    }

    /// Stops the player; the frozen frame shows again.
    func stopPlayback() {
        playback?.stop()
        playback = nil
    }

    func startRecording(orientation: Orientation) {
        let info = camera.info
        var mic: (any AudioSource)? = switch config.microphone {
        case .none: nil
        case .test: TestTone()
        case let .pcm(name): ALSAMicrophone(name: name)
        }
        // The microphone opens first: the file's sound track takes the rate and channels the device
        // negotiated, which an ALSA microphone only knows once open. Its chunks go to the take as
        // soon as the take exists.
        let (inbox, activeWriter) = (inbox, activeWriter)
        if let source = mic {
            do {
                try source.start(chunks: { activeWriter.append($0) }, events: { inbox.post(.capture($0)) })
            } catch {
                events.emit(.error(code: .microphoneUnavailable, message: "\(error); recording without sound"))
                mic = nil
            }
        }
        var settings = MovieSettings(outputPath: outputPath, videoSize: info.size, fps: info.fps,
                                     audio: mic.map { ($0.info.sampleRate, $0.info.channels) })
        settings.videoEncoder = config.videoEncoder
        settings.preset = config.videoPreset
        settings.crf = config.videoCRF
        settings.bitrate = config.videoBitrate
        settings.maxDuration = config.maxDuration
        settings.maxFileSize = config.maxFileSize
        settings.minFreeDisk = config.minFreeDisk
        settings.rotationQuarterTurns = DisplayTransform(physical: screen.outputSize, orientation: orientation)
            .cameraQuarterTurns(mount: config.cameraRotation)
        let take = MovieWriter(settings: settings) { inbox.post(.recordingFinished($0)) }
        do {
            try take.start()
        } catch {
            mic?.stop()
            perform(machine.handle(.recordingFailed(code: error.code, message: error.message)))
            return
        }
        writer = take
        microphone = mic
        cameraDropsAtStart = camera.droppedFrames
        activeWriter.set(take)
        perform(machine.handle(.recordingStarted(outputPath: outputPath)))
    }

    // MARK: - stdin and signals

    func startStdinReader() {
        let inbox = inbox
        let thread = Thread {
            let parser = CommandParser()
            while let line = readLine(strippingNewline: true) {
                if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
                switch parser.parse(line: line) {
                case let .success(command): inbox.post(.command(command))
                case let .failure(error): inbox.post(.badCommand(error))
                }
            }
            // stdin closed: the parent may still send signals; nothing to do.
        }
        thread.name = "kiosk-stdin"
        thread.start()
    }

    /// The signals the booth handles.
    static let handledSignals = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGTSTP, SIGCONT]

    /// Blocks the handled signals in this thread and every thread started after it (call first
    /// thing in main), so that only `installSignals`' thread takes them, with sigwait: nothing runs
    /// in an asynchronous handler at all.
    static func blockSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in handledSignals { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// A thread that waits for the blocked signals and posts each to the inbox.
    func installSignals() {
        let inbox = inbox
        let thread = Thread {
            var set = sigset_t()
            sigemptyset(&set)
            for number in Booth.handledSignals { sigaddset(&set, number) }
            while true {
                var number: Int32 = 0
                if sigwait(&set, &number) == 0 { inbox.post(.signal(number)) }
            }
        }
        thread.name = "kiosk-signals"
        thread.start()
    }

    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "SIG\(number)"
        }
    }
}
