// The booth: the UI thread's loop that joins the parts. Screen input, stdin commands, signals and
// what the capture, writer and file-worker threads report all arrive in order (the screen's own
// queue and one inbox) and become RecorderMachine events; the machine's actions are carried out
// here. No action handler calls the machine back: what an action leads to (the take started or
// failed, the file handed over) comes back through the inbox like everything else.
//
// The UI thread never waits on anything outside the process: events leave through a writer thread
// (EventSink); the camera opens and closes on a serial worker of its own; opening the take
// (microphone, encoders, file syncs), probing and deleting the old take, closing the microphone and
// handing a take over run on a serial file worker; both report back. Screenshots are written on a
// worker of their own.
//
// Under systemd (`Type=notify`) the booth says READY=1 with `ready`, RELOADING=1 / READY=1 around a
// reload and STOPPING=1 on its way out, and the loop itself sends WATCHDOG=1: a loop that stops
// turning gets the service restarted.
import Foundation
import KioskCapture
import KioskCore
import KioskMedia
import KioskSystem
import KioskUI
import Synchronization

public final class Booth {
    /// The settings in force. Changed only on the UI thread, by a reload the machine applies in
    /// ready (SIGHUP); everything that reads it per take reads it there too.
    public private(set) var config: Configuration
    /// The take's path: `--output`'s, or with an output folder the current (or last) take's; before
    /// the first take there, a name in the folder with the template's extension.
    public private(set) var outputPath: String
    /// `--output-dir`: the folder that names, keeps, recovers and prunes the takes.
    public let folder: TakeFolder?
    /// The current take's number in the output folder.
    private var takeNumber: Int?
    /// Encoders that stopped returning packets in a take: libx264 stands in for them from then on.
    private var stalledEncoders: Set<String> = []
    let parts: BoothParts
    var screen: any BoothScreen { parts.screen }
    var events: EventSink { parts.events }
    /// Every camera, in switch order; `cameraIndex` is the one in use.
    var cameras: [any VideoSource] { [parts.camera] + parts.moreCameras }
    var camera: any VideoSource { cameraIndex == 0 ? parts.camera : parts.moreCameras[cameraIndex - 1] }
    private var cameraIndex = 0
    /// Only the camera in use may speak: a camera being passed over, or stopped by a switch, is not heard.
    private let speakingCamera = Locked(0)
    /// The name of the camera switched to and when (monotonic ns): shown for 2 s.
    private var switchedTo: (String, Int64)?
    public private(set) var machine: RecorderMachine
    /// Where every worker thread, the stdin reader and the signal watcher post.
    public let inbox = Inbox()
    let frames = FrameSlot()
    /// The writer the camera and microphone threads feed while a take runs.
    let activeWriter = WriterSlot()
    /// The writer of a take being opened on the file worker (its start may wait for the disk).
    private let openingWriter = Locked<(any TakeWriter)?>(nil)
    /// The slow-disk warning of the take being opened or made (once a take, from its opening on).
    private var slowDisk = SlowDisk()

    /// Serial: each take's files in order (the old take goes before the new one opens).
    private let files = DispatchQueue(label: "kiosk-files", qos: .userInitiated)
    /// Serial: the camera's starts and stops in the order the machine asked for them.
    private let cameraControl = DispatchQueue(label: "kiosk-camera-control", qos: .userInitiated)
    /// Screenshots: a slow or stuck target (a FIFO nobody reads) holds up nothing else.
    private let screenshots = DispatchQueue(label: "kiosk-screenshots", qos: .utility)
    /// SIGHUP's reading of the config file (a file on a stuck mount holds up nothing else).
    private let configReader = DispatchQueue(label: "kiosk-config", qos: .utility)
    /// File-worker jobs posted and not yet reported back: the process leaves only once all have.
    private var fileJobs = 0
    /// `--on-take`: one command at a time, on a worker of its own (it may take minutes: an upload).
    private let hooks = DispatchQueue(label: "kiosk-hooks", qos: .utility)
    /// Hooks started and not yet reported back: the process leaves only once all have.
    private var hookJobs = 0
    /// The running hook's pid (its process group), to end it when a signal ends the booth.
    private let runningHook = RunningHook()
    private var hooksStopped = false
    /// Takes retention must not delete: their hook is waiting, running, or did not exit 0.
    private var protectedTakes: Set<String> = []
    /// The last take's length, for the hook's environment.
    private var lastTakeDuration: Double = 0
    /// This process's finished take is on disk (with its marker) and nobody has used it yet: a
    /// Retake or the next Start deletes it rather than recovering it.
    private var ownTakeOnDisk = false
    /// `ready` went out (after the camera's first attempt to open); until then the inbox's other
    /// messages and the screen's input wait, so nothing is answered before `ready`.
    private var readySent = false
    private var beforeReady: [BoothMessage] = []
    /// What `ready` waits for: the camera's first attempt (its failure, if any) and the launch's
    /// file work (recovered takes are reported before `ready`).
    private var cameraTried: String??
    private var launchFilesPending = false

    /// The take running now: its writer, its microphone, the camera's drops when it began.
    private struct Take {
        let writer: any TakeWriter
        let microphone: (any AudioSource)?
        let cameraDropsAtStart: Int
        /// The preview's dropped pictures when the take began (`FrameSlot.dropped`).
        let previewDropsAtStart: Int
        /// The preview held back for the encoder at least once (`previewYields`).
        var previewYielded = false
        /// When it began (CLOCK_MONOTONIC ns): the stalls of the whole process since are its.
        let startedAt = MonotonicClock.now()
    }
    /// While a take records and its encoder is behind (this many pictures waiting for it), the
    /// preview draws at most one picture per `yieldingPreviewInterval` (10 a second): on a machine
    /// that cannot do both at full rate, the CPU goes to the take first and the guest sees a
    /// choppier picture for a moment instead of a take with pictures missing. In steady state the
    /// encoder takes each picture as it comes (none or one waiting).
    static let previewYieldsAt = 2
    static let yieldingPreviewInterval: Int64 = 100_000_000
    private var lastPreviewShown: Int64 = .min
    /// A stopped take still being saved after this long shows "Saving your video…": a normal end
    /// takes a few milliseconds, so the guest never sees the words flash by.
    static let savingShownAfter = 0.5
    private var take: Take?
    /// The take's time left (`remaining`), from its bytes and its rate.
    private var timeLeft = TimeLeft(maxDuration: 0)

    private var frameSerial = 0
    private var needsDraw = true
    private var lastViewModel: ViewModel?
    private var exitCode: Int32?
    private var suspendWhenSafe = false
    /// Holds the machine's sleep off while a take is made safe (`watchSystemSleep`); nil: none.
    public var sleepInhibitor: (any SleepInhibitor)?
    /// logind announced a sleep and waits for our inhibitor: it goes once no take is being written.
    private var sleepWaiting = false
    lazy var stats = PreviewStats(frames: frames)
    /// The player while the playing mode shows (its picture kept apart from the frozen frame).
    private var playback: Playback?
    /// `--play --loop`: the file begins again at its end.
    private var loopsPlayback = false
    /// Takes the signals (`watchSignals`) for as long as the booth lives.
    var signalWatcher: SignalWatcher?
    /// The player's controls hide while a take plays untouched.
    private var controls = ControlsVisibility(now: MonotonicClock.now())
    /// Idle reset (`--idle-timeout`): the finished screen (or a paused review) untouched.
    private var idle = IdleRule(timeout: 0, now: MonotonicClock.now())
    /// The attract screen: ready untouched for `--attract-after`; a touch wakes it.
    private var attract = AttractRule(after: 0, now: MonotonicClock.now())
    private var attracting: Bool { attract.showing }
    /// A tap's focus box: where (canvas pixels) and when (monotonic ns); drawn for a second.
    private var focusBox: (Point, Int64)?
    /// What `systemctl status` shows (STATUS=), and the line last sent.
    private var status = ServiceStatus()
    private var statusSaid: String?
    /// The microphone's level, from the one listening in ready or the take's.
    public let meter = LevelMeter()
    /// Serial: the listening microphone's opens and closes (ready and the countdown).
    private let microphoneMonitor = DispatchQueue(label: "kiosk-microphone-monitor", qos: .userInitiated)
    private let listening = MonitorSlot()
    private var listeningWanted = false
    /// A take is opening (Start went to the file worker and has not come back).
    private var takeOpening = false
    /// Silence while recording, and whether `microphoneSilent` went out for it.
    private var silence = SilenceWatch()
    /// The countdown's next second (CLOCK_MONOTONIC ns): `countdownTick` is due then.
    private var countdownNext: Int64 = 0
    /// STOPPING=1 went to systemd.
    private var stoppingTold = false
    /// The output's lock (file or folder), held as long as the booth lives: the booth is in use until
    /// `run` returns, so the lock is too. (A local kept by `withExtendedLifetime` around a call that
    /// never returns is not: the optimizer ends its life at its last use, and `-c release` let the
    /// lock go half a millisecond after taking it.)
    private let outputLock: Locked<OutputLock?>

    /// `outputLock`: the lock of `outputPath` (or of `folder`), kept until the booth is gone.
    public init(config: Configuration, outputPath: String, parts: BoothParts, folder: TakeFolder? = nil, outputLock: OutputLock? = nil) {
        self.config = config
        self.outputPath = outputPath
        self.folder = folder
        self.parts = parts
        self.outputLock = Locked(outputLock)
        machine = RecorderMachine(session: config.session, outputPath: outputPath, orientation: parts.screen.orientation,
                                  countdown: config.countdown, warnRemaining: config.warnRemaining, cameraCount: 1 + parts.moreCameras.count)
        inbox.wakes(with: parts.screen.wake)
        frames.wakes(with: parts.screen.wake)
    }

    /// The player alone (`--play FILE`): the booth's playing mode on `file`, then exit. The camera
    /// in `parts` is never started. `player.loop`: the file plays again and again (`--loop`).
    public init(playing file: String, config: Configuration, parts: BoothParts, player: PlayerOptions = PlayerOptions()) {
        self.config = config
        loopsPlayback = player.loop
        outputPath = file
        folder = nil
        outputLock = Locked(nil)
        self.parts = parts
        machine = RecorderMachine(playing: file, orientation: parts.screen.orientation)
        inbox.wakes(with: parts.screen.wake)
    }

    /// Runs until an outcome, a quit or a signal; returns the exit status.
    public func run() -> Int32 {
        start()
        while !isFinished { step() }
        return finish()
    }

    /// The camera starts (`ready` goes out once it has tried to open; the player alone: the file
    /// starts playing).
    public func start() {
        let inbox = inbox
        events.onReaderGone { inbox.post(.parentGone) }
        if machine.playerFile == nil { parts.audio.prepare() } else { tellService(.ready) }
        if let folder {
            // Takes a dead run left in the folder are reported (and kept) before `ready`; the
            // retention rules run once over what is there.
            launchFilesPending = true
            fileJobs += 1
            let (inbox, rules) = (inbox, retention)
            files.async {
                let recovered = folder.recoverOrphans().map { KioskEvent.recordingRecovered(path: $0.path, duration: $0.duration) }
                let deleted = folder.enforce(rules).map { KioskEvent.takeDeleted(path: $0.path, reason: $0.reason) }
                inbox.post(.launchFilesDone(recovered + deleted))
            }
        }
        perform(machine.start())
        stats.write("start", mode: machine.mode, renderer: screen.rendererName)
    }

    /// True once the machine said exit and every file job has reported back.
    public var isFinished: Bool { exitCode != nil && fileJobs == 0 && hookJobs == 0 }

    /// One turn of the loop: input, the inbox, the timer, the newest frame, the player, the screen.
    public func step() {
        if let notifier = parts.notifier, notifier.watchdogDue(now: MonotonicClock.now()) { tellService(.watchdog) }
        guard readySent || machine.playerFile != nil else {
            for message in inbox.take() {
                switch message {
                case _ where readySent, .cameraStarted, .launchFilesDone: handle(message)
                case .systemSleep(true):
                    // Nothing records before `ready`: the sleep need not wait for it. The
                    // background itself is handled after `ready`, in order.
                    sleepInhibitor?.release()
                    beforeReady.append(message)
                default: beforeReady.append(message)
                }
            }
            if !readySent { inbox.wait(milliseconds: 100) }
            return
        }
        let visible = controlsShown ? machine.visibleButtons : []
        for input in screen.waitEvents(timeoutMs: needsDraw ? 0 : idleWaitMilliseconds, visible: visible) {
            controls.touched(at: MonotonicClock.now())
            idle.touched(at: MonotonicClock.now())
            // A touch (or a key) on the attract screen only wakes it: no take starts by accident.
            if wakeFromAttract(input.isGuestTouch) { continue }
            handle(input)
        }
        for message in inbox.take() { handle(message) }
        if machine.mode == .countdown, MonotonicClock.now() >= countdownNext {
            countdownNext += 1_000_000_000
            perform(machine.handle(.countdownTick))
        }
        checkIdle()
        checkAttract()
        updateMicrophone()
        if hookJobs > 0 { stopHooksForSignal() }
        if let take, machine.mode == .recording {
            perform(machine.handle(.tick(elapsed: take.writer.elapsed, remaining: remaining(of: take.writer))))
        }
        checkStorage()
        // The live picture in ready and recording; the last one stays frozen after.
        if [.ready, .countdown, .recording].contains(machine.mode), !previewYields(),
           let (frame, serial) = frames.take(newerThan: frameSerial) {
            frameSerial = serial
            lastPreviewShown = MonotonicClock.now()
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
        tellStatus()
        if suspendWhenSafe && machine.mode != .recording {
            suspendWhenSafe = false
            // The take is safe on disk: now really stop, as the terminal asked (SIGTSTP). Its
            // `recordingFinished` goes out first (at most 1 s for a reader that does not read: the
            // process is about to stop anyway).
            events.flush(timeout: 1)
            raise(SIGSTOP)
        }
    }

    /// Whether the preview leaves the newest picture undrawn for now: the take's encoder is behind
    /// and a picture was drawn less than `yieldingPreviewInterval` ago (see `previewYieldsAt`).
    /// The picture stays in its slot; a newer one replaces it (a dropped preview frame, counted).
    private func previewYields() -> Bool {
        guard machine.mode == .recording, var take, take.writer.videoWaiting >= Self.previewYieldsAt,
              MonotonicClock.now() - lastPreviewShown < Self.yieldingPreviewInterval else { return false }
        if !take.previewYielded {
            take.previewYielded = true
            self.take = take
        }
        return true
    }

    /// How long the loop may sleep when nothing wakes it (a new frame and every inbox message
    /// do): 8 ms while something moves on its own clock (the player, the countdown, the focus
    /// box, the attract screen's pulse), else 33 ms, a frame at 30 fps, for what changes slowly
    /// (the meter without a camera, the timer, idle and watchdog clocks).
    private var idleWaitMilliseconds: Int {
        if [.playing, .countdown].contains(machine.mode) || focusBox != nil || attracting { return 8 }
        return 33
    }

    /// Stops the camera and returns the exit status.
    public func finish() -> Int32 {
        let camera = camera
        cameraControl.sync { camera.stop() }
        // logind's bus thread ends and is joined (it ends by itself without a system bus: a
        // finished thread nobody joined was ThreadSanitizer's "thread leak" at every exit).
        sleepInhibitor?.stop()
        stats.write("exit", mode: machine.mode)
        return exitCode ?? 0
    }

    /// Whether the overlay shows: always, except while a take plays untouched.
    var controlsShown: Bool {
        machine.mode != .playing || controls.visible(at: MonotonicClock.now(), paused: machine.playbackPaused)
    }

    var viewModel: ViewModel {
        var model = machine.viewModel
        if model.message == nil, model.mode == .ready, parts.cameraNote != nil { model.message = .noCameraFound }
        if model.mode == .ready { model.prompt = config.prompt }
        if config.microphone != .none, [.ready, .countdown, .recording].contains(model.mode) {
            let now = MonotonicClock.now()
            model.microphoneLevel = ((meter.level(at: now) * 2).rounded() / 2, (meter.level(at: now, window: 1_500_000_000) * 2).rounded() / 2)
            model.microphoneSilent = silence.reported && model.mode == .recording
            if model.microphoneSilent, model.message == nil { model.message = .microphoneSilent }
        }
        if model.mode == .recording, takeSaving { model.message = .saving }
        if let (name, since) = switchedTo, model.mode == .ready, MonotonicClock.now() - since < 2_000_000_000 {
            model.cameraName = name
        }
        if let (point, since) = focusBox, [.ready, .countdown, .recording].contains(model.mode) {
            let progress = Double(MonotonicClock.now() - since) / 1e9
            if progress < 1 { model.focusBox = (point, (progress * 30).rounded() / 30) }
        }
        if attracting {
            // The pulse: a 2 s cycle, in 30 steps a second.
            let t = Double(MonotonicClock.now() / 33_333_333) / 60
            model.attract = t - t.rounded(.down)
        }
        return model
    }

    // MARK: - Cameras

    /// Starts camera `index` (on the camera-control queue): its frames to the preview and the
    /// take, its events to the inbox while it is the camera in use.
    private var startCamera: @Sendable (any VideoSource, Int) throws -> Void {
        let (slot, inbox, activeWriter, speaking) = (frames, inbox, activeWriter, speakingCamera)
        return { camera, index in
            try camera.start(frames: { frame in
                guard speaking.withLock({ $0 == index }) else { return }
                slot.put(frame)
                activeWriter.append(frame)
            }, events: { event in
                if speaking.withLock({ $0 == index }) { inbox.post(.capture(event)) }
            })
        }
    }

    /// The switch button: the camera in use stops and the next one that opens takes over (one
    /// that cannot open now is passed over; with none, the old one comes back). Nothing starts
    /// meanwhile: the machine shows no Start until it is done.
    private func switchCamera() {
        guard cameras.count > 1 else {
            perform(machine.handle(.cameraSwitched))
            return
        }
        let (all, current, controls, inbox, start, speaking) = (cameras, cameraIndex, config.cameraControls, inbox, startCamera, speakingCamera)
        cameraControl.async {
            speaking.withLock { $0 = -1 }
            all[current].stop()
            let order = (1..<all.count).map { (current + $0) % all.count } + [current]
            for index in order {
                let camera = all[index]
                camera.setControls(controls)
                do { try start(camera, index) } catch {
                    Log.info("camera switch: \(camera.info.name) did not start: \(error)")
                    continue
                }
                if camera.isOpen || index == current {
                    speaking.withLock { $0 = index }
                    inbox.post(.cameraSwitched(index: index, open: camera.isOpen))
                    return
                }
                Log.info("camera switch: \(camera.info.name) cannot open now; passed over")
                camera.stop()
            }
        }
    }

    /// The switch is done: the camera in use, `cameraChanged`, its name on screen for a moment.
    func cameraSwitched(to index: Int, open: Bool) {
        perform(machine.handle(.cameraSwitched))
        let changed = index != cameraIndex
        cameraIndex = index
        let info = camera.info
        if changed {
            events.emit(.cameraChanged(camera: info.name, width: info.size.width, height: info.size.height, fps: info.fps))
            switchedTo = (info.label, MonotonicClock.now())
            Log.info("camera switch: now \(info.name) (\(info.label))")
        } else {
            Log.info("camera switch: no other camera could open; \(info.name) stays")
        }
        // The picture of the camera before stays until the new one's first frame.
        if open && !machine.cameraAvailable { perform(machine.handle(.cameraBack)) }
        if !open && machine.cameraAvailable { perform(machine.handle(.cameraLost)) }
        needsDraw = true
    }

    // MARK: - Inputs

    /// A tap on the picture (not on a button) in ready, the countdown or a take: the focus box
    /// there and the camera asked to focus (where it has an auto-focus trigger). The first touch
    /// of an attract screen only wakes it.
    func focus(at point: Point) {
        guard [.ready, .countdown, .recording].contains(machine.mode), !attracting, machine.cameraAvailable else { return }
        focusBox = (point, MonotonicClock.now())
        camera.triggerFocus()
        needsDraw = true
    }

    func handle(_ input: UIInput) {
        switch input {
        case let .press(button): perform(machine.handle(.press(button)))
        case let .tapElsewhere(point):
            focus(at: point)
            perform(machine.handle(.togglePause))
        case .togglePause: perform(machine.handle(.togglePause))
        case let .seek(fraction): perform(machine.handle(.seek(position: fraction * machine.playbackDuration)))
        case .quit: perform(machine.handle(.quit))
        case .background: perform(machine.handle(.background))
        case .foreground: perform(machine.handle(.foreground))
        case let .displayOrientation(o): perform(machine.handle(.rotate(o)))
        }
        needsDraw = true
    }

    func handle(_ message: BoothMessage) {
        switch message {
        case let .cameraStarted(failure):
            if readySent {
                if let failure { events.emit(.error(code: .cameraUnavailable, message: failure)) }
                // A camera lost before it was stopped (in a take that then finished) and open again
                // now: its thread is new and has no loss to report back from.
                if failure == nil && camera.isOpen && !machine.cameraAvailable { perform(machine.handle(.cameraBack)) }
            } else {
                cameraTried = .some(failure)
                sendReadyWhenDue()
            }
        case let .launchFilesDone(done):
            fileJobs -= 1
            launchFilesPending = false
            done.forEach(events.emit)
            sendReadyWhenDue()
        case let .cameraSwitched(index, open):
            cameraSwitched(to: index, open: open)
        case let .capture(event):
            switch event {
            case let .cameraLost(reason):
                events.emit(.error(code: .cameraUnavailable, message: reason))
                // No stale picture under the "camera unavailable" note (a finished take's frozen
                // frame stays).
                if [.ready, .countdown, .recording].contains(machine.mode) { screen.clearPreview() }
                perform(machine.handle(.cameraLost))
            case .cameraBack:
                perform(machine.handle(.cameraBack))
            case let .microphoneLost(reason):
                events.emit(.error(code: .microphoneUnavailable, message: reason + "; recording silence"))
            case .microphoneBack:
                break
            case let .microphoneUnreliable(reason):
                events.emit(.error(code: .microphoneUnreliable, message: reason))
            case let .controlProblem(message):
                events.emit(.error(code: .cameraControl, message: message))
            }
        case let .takeStarted(started):
            fileJobs -= 1
            takeOpening = false
            take = Take(writer: started.writer, microphone: started.microphone, cameraDropsAtStart: camera.droppedFrames,
                        previewDropsAtStart: frames.dropped)
            timeLeft = TimeLeft(maxDuration: config.maxDuration)
            outputPath = started.path
            takeNumber = started.number
            activeWriter.set(started.writer)
            perform(machine.handle(.recordingStarted(outputPath: started.path)))
        case let .takeFailed(code, message):
            fileJobs -= 1
            takeOpening = false
            perform(machine.handle(.recordingFailed(code: code, message: message)))
        case var .recordingFinished(result):
            if let take {
                // Where the take's missing pictures went, for whoever reads the log.
                let byStall = result.droppedAfterStall, byEncoder = result.droppedFrames - byStall
                let byCamera = max(camera.droppedFrames - take.cameraDropsAtStart, 0)
                let stalls = ProcessStalls.shared.lengths(since: take.startedAt)
                if !stalls.isEmpty {
                    Log.info("take: the whole process stood still \(stalls.count) time(s), for "
                             + stalls.map { ProcessStalls.seconds($0) + " s" }.joined(separator: ", ")
                             + " (SIGSTOP, or the machine or VM suspended or starved): nothing was captured meanwhile")
                }
                if take.previewYielded {
                    let why = stalls.isEmpty ? "the encoder fell behind" : "the encoder had the backlog after the stall to catch up on"
                    Log.info("take: \(why); the preview left \(frames.dropped - take.previewDropsAtStart) of the camera's "
                             + "pictures undrawn to give it the time")
                }
                if byStall + byEncoder + byCamera > 0 {
                    Log.info("take: \(byStall + byEncoder + byCamera) pictures dropped: \(byEncoder) while the encoder was behind "
                             + "(\(MovieWriter.videoQueueLimit) waiting), \(byStall) in the backlog just after the process stood still, "
                             + "\(byCamera) the camera delivered too late or not at all")
                }
                result.droppedFrames += byCamera
                if let microphone = take.microphone { onFiles { microphone.stop(); return [] } }
            }
            activeWriter.set(nil)
            take = nil
            ownTakeOnDisk = true
            if result.encoderStalled, let encoder = result.encoder, encoder != "libx264" {
                stalledEncoders.insert(encoder)
                Log.info("video encoder \(encoder) stopped returning packets; libx264 from the next take on")
            }
            lastTakeDuration = result.duration
            if result.success { status.takes += 1 }
            // A file removed mid-take (its folder deleted): said, and never handed over.
            if let lost = result.lost { events.emit(.error(code: .recordingFailed, message: lost)) }
            perform(machine.handle(.recordingFinished(result)))
        case let .fileJobDone(done):
            fileJobs -= 1
            done.forEach(events.emit)
            // An accepted take goes to the hook, after its hand-over was reported.
            for case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path) in done { runHook(for: path) }
        case let .hookDone(path, status, failure):
            hookJobs -= 1
            if let failure { events.emit(.error(code: .hookFailed, message: failure)) }
            if let status { events.emit(.hookFinished(path: path, status: status)) }
            // Only a hook that exited 0 lets retention have the take.
            if status == 0 { protectedTakes.remove(URL(fileURLWithPath: path).lastPathComponent) }
        case let .emit(event):
            events.emit(event)
        case let .screenshotDone(failure):
            if let failure { events.emit(.error(code: .screenshotFailed, message: failure)) }
        case let .command(command):
            handle(command)
        case let .badCommand(error):
            events.emit(error.event)
        case .parentGone:
            Log.info("stdout closed: the parent is gone; finishing")
            perform(machine.handle(.parentGone))
        case let .configurationRead(result):
            reload(result)
        case let .signal(number):
            switch number {
            case SIGUSR1, SIGTSTP:
                perform(machine.handle(.background))
                if number == SIGTSTP { suspendWhenSafe = true }
            case SIGUSR2, SIGCONT:
                perform(machine.handle(.foreground))
            case SIGHUP:
                readConfiguration()
            default:
                perform(machine.handle(.terminate(signal: Booth.signalName(number))))
            }
        case let .systemSleep(sleeping):
            if sleeping {
                // As on background: a take is finished and kept; the inhibitor goes once it is
                // safe on disk (below).
                Log.info("system sleep: the machine is about to sleep")
                sleepWaiting = true
                perform(machine.handle(.background))
            } else {
                Log.info("system sleep: the machine has resumed")
                sleepWaiting = false
                sleepInhibitor?.reacquire()
                perform(machine.handle(.foreground))
            }
        }
        releaseSleepWhenSafe()
        needsDraw = true
    }

    /// Lets a sleep logind announced go on once no take is being written: the writer reports
    /// `recordingFinished` only after the file is finalized and synced (a take that failed to start
    /// wrote nothing).
    private func releaseSleepWhenSafe() {
        guard sleepWaiting, machine.mode != .recording else { return }
        sleepWaiting = false
        sleepInhibitor?.release()
    }

    /// `ready` goes out once the camera has tried to open and the launch's file work is done; what
    /// came in meanwhile is handled after it, in order.
    private func sendReadyWhenDue() {
        guard !readySent, let failure = cameraTried, !launchFilesPending else { return }
        if let failure { events.emit(.error(code: .cameraUnavailable, message: failure)) }
        readySent = true
        let info = camera.info
        events.emit(.ready(camera: info.name, width: info.size.width, height: info.size.height, fps: info.fps,
                           orientation: screen.orientation, encoder: nextEncoder))
        tellService(.ready)
        let held = beforeReady
        beforeReady = []
        for message in held { handle(message) }
    }

    /// The listening microphone (for the meter) runs in ready and the countdown while the camera
    /// runs, never while a take opens or records (the take's own microphone feeds the meter then).
    /// While recording, 3 s under −60 dBFS is `microphoneSilent`, once until sound comes back.
    private func updateMicrophone() {
        let mode = machine.mode
        let wanted = parts.monitorsMicrophone && config.microphone != .none && machine.cameraRunning
            && (mode == .ready || mode == .countdown) && take == nil && !takeOpening && !machine.exiting
        if wanted != listeningWanted {
            listeningWanted = wanted
            let (slot, meter, make, choice) = (listening, meter, parts.makeMicrophone, config.microphone)
            if wanted {
                microphoneMonitor.async {
                    guard let source = make(choice) else { return }
                    do {
                        try source.start(chunks: { meter.feed($0) }, events: { _ in })
                        slot.set(source)
                    } catch {
                        Log.info("microphone (listening for the meter): \(error)")
                    }
                }
            } else {
                microphoneMonitor.async {
                    slot.take()?.stop()
                    meter.reset()
                }
            }
        }
        guard mode == .recording, config.microphone != .none, take != nil else {
            silence.reset()
            return
        }
        let now = MonotonicClock.now()
        // Just after the whole process stood still nothing could be heard, or said: not silence.
        if ProcessStalls.shared.inAftermath(at: now) { return }
        if silence.heard(lastSound: meter.lastSound, at: now) {
            events.emit(.microphoneSilent)
            Log.info("microphone: no sound for 3 s")
        }
    }

    /// A stopped take has been finishing for `savingShownAfter` and is not safe yet: the guest sees
    /// "Saving your video…", and `systemctl status` says so.
    private var takeSaving: Bool { (take?.writer.finishingFor ?? 0) >= Self.savingShownAfter }

    /// A disk keeping the take's sync waiting `SyncClock.slowAfter` is told once a take: while it
    /// opens (it begins once the disk has its file), while it records (the take goes on: a power
    /// cut now may lose what is not synced yet) or while it is being saved (its end waits for the
    /// disk).
    private func checkStorage() {
        let opening = take == nil && takeOpening
        guard let writer = take?.writer ?? (opening ? openingWriter.withLock({ $0 }) : nil) else { return }
        let phase: SlowDisk.Phase = take == nil ? .opening : writer.finishingFor == nil ? .recording : .finishing
        switch slowDisk.look(waited: writer.syncWaited, phase: phase) {
        case .nothing: break
        case let .stillWaiting(waited): status.slowSyncGoesOn(waited)
        case let .say(message, waited):
            Log.info("storage: \(message)")
            status.diskWasSlow(waited)
            events.emit(.error(code: .storageSlow, message: message))
        }
    }

    /// The attract screen comes after `--attract-after` in ready without a touch; any other mode
    /// (and a reload turning it off) ends it.
    private func checkAttract() {
        attract.after = config.attractAfter
        guard attract.look(eligible: machine.mode == .ready && !machine.exiting && machine.playerFile == nil,
                           at: MonotonicClock.now()) else { return }
        needsDraw = true
        if attracting { Log.info("attract screen: \(config.attractAfter) s without a touch") }
    }

    /// Restarts the attract clock; if the attract screen shows, ends it and says whether the input
    /// that woke it is spent (`swallow`: a touch, which must not also press what is under it).
    private func wakeFromAttract(_ swallow: Bool) -> Bool {
        guard attract.touched(at: MonotonicClock.now()) else { return false }
        needsDraw = true
        return swallow
    }

    /// Seconds left before a limit ends the take (`TimeLeft`: the duration cap, and the bytes the
    /// file-size cap and the free disk still allow at the take's rate).
    func remaining(of writer: any TakeWriter) -> Double {
        timeLeft.seconds(elapsed: writer.elapsed, written: writer.bytesWritten, room: writer.bytesLeft)
    }

    /// Idle reset: the finished screen (or a paused review) untouched for `--idle-timeout` is used
    /// or discarded as if the guest had tapped, so the next guest never sees the previous take.
    private func checkIdle() {
        guard exitCode == nil else { return }
        idle.timeout = config.idleTimeout
        guard idle.isDue(mode: machine.mode, paused: machine.playbackPaused, playerAlone: machine.playerFile != nil,
                         at: MonotonicClock.now()) else { return }
        Log.info("idle for \(config.idleTimeout) s: the take is reset (idle-action \(config.idleAction.rawValue))")
        perform(machine.handle(.idleReset(config.idleAction)))
        needsDraw = true
    }

    /// `--on-take`: runs the command for an accepted take on the hooks worker, one at a time; its
    /// end comes back as `hookDone`. The take is kept from retention until it exits 0.
    private func runHook(for path: String) {
        guard let command = config.onTake else { return }
        protectedTakes.insert(URL(fileURLWithPath: path).lastPathComponent)
        hookJobs += 1
        let (inbox, running) = (inbox, runningHook)
        let environment = ["KIOSK_TAKE_PATH": path, "KIOSK_TAKE_DURATION": String(KioskEvent.milliseconds(lastTakeDuration))]
        hooks.async {
            switch ShellCommand.spawn(command, environment: environment) {
            case let .failure(error):
                inbox.post(.hookDone(path: path, status: nil, failure: "--on-take: \(error)"))
            case let .success(pid):
                running.pid.store(pid, ordering: .relaxed)
                let status = ShellCommand.wait(pid)
                running.pid.store(0, ordering: .relaxed)
                if status != 0 { Log.info("--on-take for \(path) exited with \(status)") }
                inbox.post(.hookDone(path: path, status: status, failure: nil))
            }
        }
    }

    /// A signal ends the booth: a running hook (and what it started) is asked to end too, rather
    /// than waited for.
    private func stopHooksForSignal() {
        guard !hooksStopped, case .leaving(signal: .some, _)? = machine.exit else { return }
        hooksStopped = true
        let pid = runningHook.pid.load(ordering: .relaxed)
        if pid > 0 { kill(-pid, SIGTERM) }
    }

    /// The output folder's retention rules.
    var retention: TakeFolder.Retention {
        TakeFolder.Retention(maxTakes: config.maxTakes, maxAge: config.maxAge, keepFree: config.keepFree)
    }

    func handle(_ command: Command) {
        // A guest's press or touch sent as a command keeps the finished screen awake; `state` does not.
        switch command {
        case .press, .start, .seek, .pause: idle.touched(at: MonotonicClock.now()); _ = wakeFromAttract(false)
        case .tap:
            idle.touched(at: MonotonicClock.now())
            // A tap on the attract screen wakes it, like a finger.
            if wakeFromAttract(true) { return }
        default: break
        }
        switch command {
        case let .press(button): perform(machine.handle(.press(button)))
        case let .start(seconds): perform(machine.handle(.start(countdown: seconds)))
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
            } else if let fraction = screen.progressFraction(at: point, visible: visible) {
                perform(machine.handle(.seek(position: fraction * machine.playbackDuration)))
            } else {
                focus(at: screen.logical(point))
                perform(machine.handle(.togglePause))
            }
        case let .focus(point):
            focus(at: screen.logical(point))
        case let .screenshot(path):
            screenshot(to: path)
        case let .seek(position): perform(machine.handle(.seek(position: position)))
        case let .pause(paused): perform(machine.handle(.pause(paused)))
        case .state: perform(machine.handle(.stateQuery))
        case .quit: perform(machine.handle(.quit))
        }
    }

    // MARK: - Actions

    func perform(_ actions: [RecorderAction]) {
        for action in actions { perform(action) }
        if machine.exiting && !stoppingTold {
            stoppingTold = true
            tellService(.stopping)
        }
    }

    func perform(_ action: RecorderAction) {
        switch action {
        case .startCamera:
            let (camera, inbox, index) = (camera, inbox, cameraIndex)
            camera.setControls(config.cameraControls)
            let start = startCamera
            cameraControl.async {
                var failure: String?
                do { try start(camera, index) } catch { failure = "\(error)" }
                inbox.post(.cameraStarted(failure: failure))
            }
        case .switchCamera:
            switchCamera()
        case .stopCamera:
            let camera = camera
            cameraControl.async { camera.stop() }
        case .discardTake:
            let (output, own, folder) = (outputPath, ownTakeOnDisk, folder)
            ownTakeOnDisk = false
            onFiles {
                // Our own take nobody wanted goes; one left by an earlier run is kept, moved aside.
                // (In an output folder every take has a name of its own, and a dead run's takes
                // were recovered at launch.)
                if own { TakeFiles.discard(output); return [] }
                if folder != nil { return [] }
                return TakeFiles.discardPrevious(at: output).map { [.recordingRecovered(path: $0.path, duration: $0.duration)] } ?? []
            }
        case .handOverTake:
            status.used += 1
            // The session of the take's own settings: a reload the machine applies on this return
            // to ready comes as the next action, after this one.
            let (output, rename, folder, number, rules) = (outputPath, config.session == .loop, folder, takeNumber, retention)
            let protected = protectedTakes
            ownTakeOnDisk = false
            onFiles {
                guard let folder else {
                    let (path, failure) = TakeFiles.handOver(output, rename: rename)
                    return (failure.map { [KioskEvent.error(code: .recordingFailed, message: $0)] } ?? [])
                        + [.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: path)]
                }
                // In the folder the take keeps its own name: its marker goes, it joins the list of
                // accepted takes, and the retention rules run.
                let (path, _) = TakeFiles.handOver(output, rename: false)
                folder.accept(TakeFolder.Entry(number: number ?? 0, name: URL(fileURLWithPath: path).lastPathComponent,
                                               acceptedAt: WallClock.synchronisedNow()))
                return [.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: path)]
                    + folder.enforce(rules, protected: protected).map { .takeDeleted(path: $0.path, reason: $0.reason) }
            }
        case let .startRecording(orientation):
            startRecording(orientation: orientation)
        case .startCountdownClock:
            countdownNext = MonotonicClock.now() + 1_000_000_000
        case let .stopRecording(reason):
            // Before the writer reported its start there is nothing to stop yet: the machine asks
            // again when the start arrives.
            take?.writer.stop(reason: reason)
        case let .playSound(sound):
            parts.audio.play(sound)
        case let .startPlayback(path):
            stopPlayback()
            controls.touched(at: MonotonicClock.now())
            playback = Playback(path: path, screen: screen, audio: parts.audio, loop: loopsPlayback)
        case let .setPlaybackPaused(paused):
            playback?.setPaused(paused)
        case let .seekPlayback(seconds):
            playback?.seek(to: seconds)
        case .stopPlayback:
            stopPlayback()
        case let .applyOrientation(orientation):
            screen.setOrientation(orientation)
        case let .applyConfiguration(configuration):
            if configuration.words != config.words || configuration.prompt != config.prompt || configuration.font != config.font {
                // Checked when the reload was accepted; a font file changed on disk since is logged.
                do { try screen.setWords(configuration.words, prompt: configuration.prompt, font: configuration.font) } catch {
                    Log.info("reload: the words on screen are kept: \(error)")
                }
            }
            config = configuration
            camera.setControls(configuration.cameraControls)
            screen.setPreview(mirror: configuration.mirrorPreview, cameraMount: configuration.cameraRotation)
            Log.info("reload: the settings of \(configuration.configFile ?? "the command line") are in force")
        case let .emit(event):
            if case let .state(mode, timer, buttons, orientation, remaining, _) = event, config.microphone != .none {
                events.emit(.state(mode: mode, timer: timer, buttons: buttons, orientation: orientation, remaining: remaining,
                                   microphoneLevel: meter.level()))
            } else {
                events.emit(event)
            }
        case let .exit(code):
            exitCode = code
        }
        needsDraw = true
    }

    /// Runs `job` on the file worker, in order with the jobs before it; the events it returns are
    /// emitted on the UI thread when it reports back.
    private func onFiles(_ job: @escaping @Sendable () -> [KioskEvent]) {
        fileJobs += 1
        let inbox = inbox
        files.async { inbox.post(.fileJobDone(job())) }
    }

    // MARK: - Reload

    /// SIGHUP: the command line parsed again, its config file read anew, off the UI thread; the
    /// answer comes back as `configurationRead`. Without `--config` there is nothing to read.
    func readConfiguration() {
        guard let file = config.configFile, let source = parts.configurationSource else {
            Log.info("SIGHUP: no --config file to reload; ignored")
            return
        }
        guard machine.playerFile == nil, !machine.exiting else {
            Log.info("SIGHUP: \(machine.playerFile == nil ? "on the way out" : "the player alone"); nothing to reload")
            return
        }
        Log.info("SIGHUP: reading \(file) again")
        tellService(.reloading(monotonicUSec: MonotonicClock.now() / 1000))
        let inbox = inbox
        configReader.async {
            let read = Result { () throws(UsageError) in try source.read() }
            // A new language's font files are read here, not on the UI thread that checks them.
            if case let .success(configuration) = read { FontLookup.preload(language: configuration.language, font: configuration.font) }
            inbox.post(.configurationRead(read))
        }
    }

    /// The configuration read again: refused (`badConfig`, the running one kept), or handed to the
    /// machine, which applies it in ready. Either way the reload is done for systemd (READY=1): a
    /// reload held for the end of a take must not keep the unit "reloading" for as long.
    func reload(_ result: Result<Configuration, UsageError>) {
        // systemd hears READY=1 only while the booth is not on its way out (STOPPING=1 said so).
        defer { if !stoppingTold { tellService(.ready) } }
        let file = config.configFile ?? "the command line"
        guard !machine.exiting else {
            Log.info("reload: \(file) read, but the booth is on its way out; ignored")
            return
        }
        let decision: ReloadDecision
        switch result {
        case let .failure(error): decision = .refused(message: error.message)
        case let .success(reloaded): decision = checkedWords(config.reload(to: reloaded))
        }
        switch decision {
        case let .refused(message):
            events.emit(.error(code: .badConfig, message: "reload of \(file) refused, the running settings are kept: \(message)"))
        case let .accepted(configuration, changed, kept):
            if !kept.isEmpty {
                Log.info("reload: \(kept.joined(separator: ", ")) changed in \(file) but set up at launch: kept as running until a restart")
            }
            let when = machine.mode == .ready ? "now" : "when the booth is back in ready"
            Log.info("reload: \(changed.isEmpty ? "no setting changed" : "changed " + changed.joined(separator: ", ")); applied \(when)")
            perform(machine.handle(.reload(configuration)))
        }
    }

    /// A reload that changes the words on screen (language, labels, prompt, font) is accepted only
    /// when a font has every glyph of them; otherwise it is refused like a bad file.
    private func checkedWords(_ decision: ReloadDecision) -> ReloadDecision {
        guard case let .accepted(next, _, _) = decision,
              next.words != config.words || next.prompt != config.prompt || next.font != config.font else { return decision }
        do { try screen.checkWords(next.words, prompt: next.prompt, font: next.font) } catch {
            return .refused(message: "\(error)")
        }
        return decision
    }

    /// Tells systemd what the booth is doing (STATUS=, for `systemctl status`) when that changed:
    /// from `ready` on, until it is on its way out.
    private func tellStatus() {
        guard parts.notifier != nil, readySent, !stoppingTold else { return }
        let text = status.text(mode: machine.mode, saving: takeSaving, cameraAvailable: machine.cameraAvailable, player: machine.playerFile != nil)
        guard text != statusSaid else { return }
        statusSaid = text
        tellService(.status(text))
    }

    /// Tells systemd (when it listens) without waiting; the first message that cannot go is logged.
    func tellService(_ state: ServiceState) {
        guard let notifier = parts.notifier, let failure = notifier.notify(state), notifier.failedSends == 1 else { return }
        Log.info("systemd notify: \(failure) (later failures are not logged)")
    }

    // MARK: - Playback

    /// The player's part of each loop: the picture due now, the position for the overlay, the end.
    func stepPlayback() {
        guard let playback else { return }
        let step = playback.step()
        if step.newPicture {
            needsDraw = true
            stats.picture(position: step.position, play: step.play)
        }
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

    // MARK: - The take

    /// The video encoder the next take asks for: `auto` as resolved at launch, unless it stalled in
    /// a take (then libx264).
    var nextEncoder: String {
        let wanted = config.videoEncoder == "auto" ? parts.autoEncoder?.name ?? "libx264" : config.videoEncoder
        return stalledEncoders.contains(wanted) ? "libx264" : wanted
    }

    /// Opens the microphone and the writer on the file worker (after the old take is gone); the
    /// result comes back as `takeStarted` or `takeFailed`.
    func startRecording(orientation: Orientation) {
        let info = camera.info
        var settings = MovieSettings(outputPath: outputPath, videoSize: info.size, fps: info.fps, audio: nil)
        settings.framesFromLiveClock = true
        settings.videoEncoder = nextEncoder
        settings.preset = config.videoPreset
        settings.crf = config.videoCRF
        settings.bitrate = config.videoBitrate
        settings.maxDuration = config.maxDuration
        settings.maxFileSize = config.maxFileSize
        settings.minFreeDisk = config.minFreeDisk
        settings.fileMode = config.fileMode
        settings.rotationQuarterTurns = DisplayTransform(physical: screen.outputSize, orientation: orientation)
            .cameraQuarterTurns(mount: config.cameraRotation)
        let (inbox, activeWriter, makeMicrophone, makeWriter, folder) = (inbox, activeWriter, parts.makeMicrophone, parts.makeWriter, folder)
        let (opening, lock) = (openingWriter, outputLock)
        slowDisk = SlowDisk()
        let (planned, microphone, meter, monitor) = (settings, config.microphone, meter, microphoneMonitor)
        fileJobs += 1
        // The listening microphone closes first (the same device opens for the take).
        takeOpening = true
        updateMicrophone()
        files.async {
            monitor.sync {}
            // An output folder removed while the booth ran is made again, and locked again.
            if let folder, folder.isGone, let failure = Booth.remake(folder, lock: lock) {
                inbox.post(.takeFailed(code: .recordingFailed, message: failure))
                return
            }
            // In an output folder the take gets its name now: the counter moves on, durably.
            var take = planned, number: Int?
            if let folder { (number, take.outputPath) = folder.nextTake() }
            inbox.post(Booth.openTake(settings: take, number: number, inbox: inbox, activeWriter: activeWriter, opening: opening,
                                      meter: meter, microphone: microphone, makeMicrophone: makeMicrophone, makeWriter: makeWriter))
        }
    }

    /// Makes the output folder again (it was removed while the booth ran) and takes its lock anew
    /// (the old one went with the folder); why it cannot, or nil. On the file worker.
    private static func remake(_ folder: TakeFolder, lock: Locked<OutputLock?>) -> String? {
        if let problem = TakeFolder.prepare(folder.path) { return "--output-dir was removed, and \(problem)" }
        do throws(OutputLock.Failure) {
            let new = try OutputLock(folder: folder.path)
            lock.withLock { $0 = new }
        } catch {
            switch error {
            case let .held(pid): return "--output-dir was removed and made again, and another kiosk-recorder\(pid.map { " (pid \($0))" } ?? "") took it"
            case let .failed(why): return "--output-dir was removed and made again, but cannot be locked: \(why)"
            }
        }
        Log.info("the output folder \(folder.path) was removed; made it again")
        return nil
    }

    /// The file worker's part of a start: the microphone, then the writer. What to post back.
    private static func openTake(settings: MovieSettings, number: Int?, inbox: Inbox, activeWriter: WriterSlot,
                                 opening: Locked<(any TakeWriter)?>, meter: LevelMeter,
                                 microphone choice: MicrophoneChoice,
                                 makeMicrophone: @escaping @Sendable (MicrophoneChoice) -> (any AudioSource)?,
                                 makeWriter: @escaping TakeWriterFactory) -> BoothMessage {
        var settings = settings
        // The microphone opens first: the file's sound track takes the rate and channels the
        // device negotiated, which an ALSA microphone only knows once open. Its chunks go to
        // the take as soon as the take exists.
        var microphone = makeMicrophone(choice)
        if let source = microphone {
            do {
                try source.start(chunks: { activeWriter.append($0); meter.feed($0) }, events: { inbox.post(.capture($0)) })
            } catch {
                inbox.post(.emit(.error(code: .microphoneUnavailable, message: "\(error); recording without sound")))
                microphone = nil
            }
        }
        settings.audio = microphone.map { (sampleRate: $0.info.sampleRate, channels: $0.info.channels) }
        let writer = makeWriter(settings) { inbox.post(.recordingFinished($0)) }
        // While it opens, the loop reads how long the disk keeps it waiting (`storageSlow`).
        opening.withLock { $0 = writer }
        defer { opening.withLock { $0 = nil } }
        do {
            try writer.start()
            return .takeStarted(StartedTake(writer: writer, microphone: microphone, path: settings.outputPath, number: number))
        } catch {
            microphone?.stop()
            return .takeFailed(code: error.code, message: error.message)
        }
    }

    // MARK: - Screenshots

    /// The screen is read back here (SDL, UI thread); the file is written on a worker. Only a new
    /// file is written (never over anything, never through a symlink), and never the take or a
    /// name a take of this folder could have.
    func screenshot(to path: String) {
        if let refusal = Booth.screenshotRefusal(path, output: outputPath) {
            events.emit(.error(code: .screenshotFailed, message: refusal))
            return
        }
        let pixels: Pixels
        do { pixels = try screen.snapshot() } catch {
            events.emit(.error(code: .screenshotFailed, message: "\(error)"))
            return
        }
        let inbox = inbox
        screenshots.async {
            inbox.post(.screenshotDone(failure: Booth.writeFile(pixels.bmp, to: path)))
        }
    }

    /// Why a screenshot may not go to `path`: it is the take, its marker, or in the take's folder
    /// with the take's extension (the next take's name, or a handed-over one).
    static func screenshotRefusal(_ path: String, output: String) -> String? {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let take = URL(fileURLWithPath: output).standardizedFileURL
        let sameFolder = target.deletingLastPathComponent().path == take.deletingLastPathComponent().path
        if target.path == take.path || target.path == MovieWriter.markerPath(for: take.path)
            || (sameFolder && target.pathExtension.lowercased() == take.pathExtension.lowercased()) {
            return "screenshot: '\(path)' is the take or a take's name; pick another file"
        }
        return nil
    }

    /// Writes `data` to `path`, a new file (O_EXCL: never over an existing one, a FIFO or a
    /// symlink; O_NOFOLLOW), 0600, close-on-exec; the error's text, or nil.
    static func writeFile(_ data: Data, to path: String) -> String? {
        let fd: Int32
        do { fd = try NewFile.create(path) } catch { return error.description }
        defer { close(fd) }
        var written = 0
        while written < data.count {
            let n = data.withUnsafeBytes { write(fd, $0.baseAddress! + written, data.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                return "write(\(path)): \(String(cString: strerror(errno)))"
            }
            written += n
        }
        return nil
    }

    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "SIG\(number)"
        }
    }
}

/// The pid of the hook running now (0: none), shared by the hooks worker and the UI thread.
final class RunningHook: Sendable {
    let pid = Atomic<Int32>(0)
}

/// The microphone listening in ready, owned by the monitor worker.
final class MonitorSlot: Sendable {
    private let source = Locked<(any AudioSource)?>(nil)
    func set(_ s: any AudioSource) { source.withLock { $0 = s } }
    func take() -> (any AudioSource)? { source.withLock { s in defer { s = nil }; return s } }
}
