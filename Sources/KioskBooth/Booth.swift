// The booth: the UI thread's loop that joins the parts. Screen input, stdin commands, signals and
// what the workers report all arrive in order (the screen's own queue and one inbox) and become the
// core's inputs, each with the turn's time; the effects it returns are carried out here and in the
// booth's other files (Booth+…). The rules are the core's (BoothCore and its rooms: the machine, the
// guest's clocks, the gate before `ready`, the camera switch, the work the exit waits for, the take's
// watch, the microphone, the hand-over, the screen, the service); docs/behaviour.md maps them. What an
// effect leads to (the take started or failed, the file handed over) comes back through the inbox.
//
// The UI thread never waits on anything outside the process: events leave through a writer thread
// (EventSink), and the devices and workers are parts of their own, each reporting back: the cameras
// on their control queue (Cameras), the microphone's worker (Microphones), the take opened and
// handed over on the file worker (TakeOpening, HandOver), screenshots on a worker of their own.
//
// Under systemd (`Type=notify`) the booth says READY=1 with `ready`, RELOADING=1 / READY=1 around a
// reload and STOPPING=1 on its way out, and WATCHDOG=1 when the core says, asked on every pass of the
// loop: a loop that stops turning gets the service restarted.
import FoundationEssentials
import KioskCapture
import KioskContract
import KioskCore
import KioskOptions
import KioskMedia
import KioskPairing
import KioskStorage
import KioskSystem
import KioskUI

public final class Booth {
    /// The settings in force. Changed only on the UI thread, by a reload the machine applies in
    /// ready (SIGHUP); everything that reads it per take reads it there too.
    public internal(set) var config: Configuration
    /// The take's path: `--output`'s, or with an output folder the current (or last) take's; before
    /// the first take there, a name in the folder with the template's extension.
    public internal(set) var outputPath: String
    /// Where the takes go: one file (`--output`) or a folder of takes (`--output-dir`).
    let storage: any TakeStorage
    let parts: BoothParts
    /// The machine and the clocks of the rules the guest meets (BoothCore: fed the time, it says
    /// what to do).
    var core: BoothCore
    /// The machine, read only: the booth changes it through the core alone (`feed`).
    public var machine: RecorderMachine { core.machine }
    /// Where every worker thread, the stdin reader and the signal watcher post.
    public let inbox = Inbox()
    let frames = FrameSlot()
    /// The writer the camera and microphone threads feed while a take runs.
    let activeWriter = WriterSlot()
    /// The queues and the slots the workers share with the UI thread.
    let shared: BoothWorkers
    /// Every camera, the one in use, and their control queue.
    let cameras: Cameras
    var takes = TakeState()
    /// Until `ready` (the core's gate), the inbox's other messages wait here, and the screen's input
    /// in its own queue.
    var heldUntilReady: [BoothMessage] = []
    /// The file job being posted (`fileJob`), until the core counts it out (`.file(.post)`).
    var posting: [@Sendable () -> BoothMessage] = []
    /// The loop's time (CLOCK_MONOTONIC ns, from `parts.clock`), read once a turn, as the turn's
    /// input arrives: every rule of the turn takes it as a value.
    var now: Int64
    var draw = DrawState()
    var service = ServiceLink()
    var player = PlayerState()
    /// Pairing a phone with the console from the screen (`--console-pairing`; nil: off).
    let pairing: PairingPart?
    /// Takes the signals (`watchSignals`) for as long as the booth lives.
    var signalWatcher: SignalWatcher?
    lazy var stats = PreviewStats(frames: frames, enabled: parts.environment.stats)

    var screen: any BoothScreen { parts.screen }
    var events: EventSink { parts.events }
    var camera: any VideoSource { cameras.current }
    /// The microphone's level, from the one listening in ready or the take's.
    var meter: LevelMeter { shared.meter }
    /// Holds the machine's sleep off while a take is made safe (`watchSystemSleep`); nil: none.
    public var sleepInhibitor: (any SleepInhibitor)? {
        get { service.sleepInhibitor }
        set { service.sleepInhibitor = newValue }
    }
    var needsDraw: Bool {
        get { draw.needsDraw }
        set { draw.needsDraw = newValue }
    }

    /// `outputLock`: the lock of `outputPath` (or of `folder`), kept until the booth is gone. Throws
    /// when the system has no thread to give the booth's workers.
    public init(config: Configuration, outputPath: String, parts: BoothParts, folder: TakeFolder? = nil,
                outputLock: OutputLock? = nil) throws(SystemError) {
        self.config = config
        self.outputPath = outputPath
        let remake = TakeOpening.boomerangRemake(config)
        storage = folder.map { FolderStorage(folder: $0, boomerang: remake) } ?? SingleFileStorage(output: outputPath, boomerang: remake)
        self.parts = parts
        now = parts.clock()
        service.startedAt = now
        shared = try BoothWorkers(outputLock: Locked(outputLock), metricsFile: config.service.metricsFile,
                                  configurationSource: parts.configurationSource, clock: parts.clock, queues: parts.makeQueue,
                                  slowKey: parts.environment.slowKey)
        cameras = Cameras([parts.camera] + parts.moreCameras, workers: shared, frames: frames, writer: activeWriter, inbox: inbox, events: parts.events)
        let cameraCount = 1 + parts.moreCameras.count
        core = BoothCore(machine: config.machine(outputPath: outputPath, orientation: parts.screen.orientation, cameras: cameraCount),
                         settings: Self.coreSettings(config, parts: parts), now: now,
                         launchFiles: storage.hasLaunchWork || (config.service.hooks && storage.hookQueueFile != nil),
                         microphone: parts.monitorsMicrophone && config.capture.microphone != .none,
                         hookBackoff: HookBackoff(first: parts.environment.hookBackoff ?? 10), cameras: cameraCount,
                         seed: UInt64.random(in: .min ... .max), watchdogInterval: parts.notifier?.watchdogInterval)
        pairing = try PairingPart(config, makeQueue: parts.makeQueue, inbox: inbox, screen: parts.screen)
        inbox.wakes(with: parts.screen.wake)
        frames.wakes(with: parts.screen.wake)
    }

    /// The player alone (`--play FILE`): the booth's playing mode on `file`, then exit. The camera
    /// in `parts` is never started. `player.loop`: the file plays again and again (`--loop`).
    public init(playing file: String, config: Configuration, parts: BoothParts, player: PlayerOptions = PlayerOptions()) throws(SystemError) {
        self.config = config
        self.player.loops = player.loop
        outputPath = file
        storage = SingleFileStorage()
        shared = try BoothWorkers(outputLock: Locked(nil), clock: parts.clock, queues: parts.makeQueue)
        cameras = Cameras([parts.camera], workers: shared, frames: frames, writer: activeWriter, inbox: inbox, events: parts.events)
        self.parts = parts
        now = parts.clock()
        service.startedAt = now
        core = BoothCore(machine: RecorderMachine(playing: file, orientation: parts.screen.orientation), now: now,
                         watchdogInterval: parts.notifier?.watchdogInterval)
        pairing = nil
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
        events.onReaderGone {
            Log.info("stdout closed: the parent is gone; finishing")
            inbox.post(.input(.event(.parentGone)))
        }
        if machine.playerFile == nil { parts.audio.prepare() } else { tellService(.ready) }
        if storage.hasLaunchWork || (config.service.hooks && storage.hookQueueFile != nil) {
            // Takes a dead run left in the folder are reported (and kept) before `ready`; the hooks
            // it still owed are read back; the retention rules run once over what is there, never
            // deleting a take whose hook is owed.
            let (rules, storage, shareFolder) = (retention, storage, config.share.folder)
            fileJob {
                let owed = storage.hookQueueFile.map { HookQueueFile.load($0, shareFolder: shareFolder) } ?? []
                return .input(.launchFilesDone(storage.launchWork(rules, protected: Set(owed.filter { $0.kind == .take }.map(\.name))), owed: owed))
            }
        }
        if machine.playerFile == nil, parts.monitorsMicrophone, config.capture.microphone != .none {
            shared.lookAtMicrophone(config.capture.microphone, make: parts.makeMicrophone, inbox: inbox)
        }
        if machine.playerFile == nil {
            tidyShares()
            showOverlay(config.video)
        }
        feed(.start)
        stats.write("start", mode: machine.mode, renderer: screen.rendererName, at: now)
    }

    /// True once the core said `.exit`: the machine said exit and every file job and hook has
    /// reported back.
    public var isFinished: Bool { core.jobs.exitSaid }

    /// One turn of the loop: input, the inbox, the timer, the newest frame, the player, the screen.
    public func step() {
        guard core.readyOut || machine.playerFile != nil else {
            now = parts.clock()
            feed(.service(.alive))
            stepBeforeReady()
            return
        }
        let inputs = screen.waitEvents(timeoutMs: needsDraw ? 0 : core.idleWait(at: now), visible: pressable(core.pressable(at: now)))
        // The turn's one reading of the clock, as its input arrives.
        now = parts.clock()
        feed(.service(.alive))
        for input in inputs {
            needsDraw = true
            // A touch (or a key) on the attract screen only wakes it: no take starts by accident.
            if touchSpent(swallow: input.isGuestTouch) { continue }
            handle(input)
        }
        for message in inbox.take() { handle(message) }
        // The countdown's second, idle reset, the attract screen, the share screen's time, the take's tick.
        let measured = takeMeasures()
        // (And a hook's try that is due, a running hook asked to end when a signal ends the booth;
        // the exit once all is back.)
        feed(.turn(BoothCore.Turn(take: measured.take, openingWait: measured.openingWait,
                                  lastSound: meter.lastSound, stallAftermath: ProcessStalls.shared.inAftermath(at: now),
                                  level: meter.level(at: now), reviewPlays: player.playback != nil,
                                  running: StateFigures.Running(uptime: Double(now - service.startedAt) / 1e9, camera: cameras.figure(frames, at: now),
                                                               microphonePeak: heldLevel))))
        // The attract slideshow's picture due (the turn above stopped it when a touch ended the
        // attract screen, before the screen is drawn).
        stepSlideshow()
        // The live picture in ready and recording; the last one stays frozen after. (Not under the
        // attract screen's slideshow, whose take's picture covers it.)
        if machine.mode.live, !previewYields(), !player.slideshowOnScreen,
           let (frame, serial) = frames.take(newerThan: draw.frameSerial) {
            draw.frameSerial = serial
            feed(.previewShown)
            do { try screen.show(frame: frame) } catch { Log.info("preview: \(error)") }
            stats.previewFrames += 1
            needsDraw = true
        }
        stepPlayback()
        // Pairing's keyboard and code: their time, and what the screen shows over the rest.
        needsDraw = pairing?.look(at: now, mode: machine.mode) == true || needsDraw
        needsDraw = player.stepReview(wanted: machine.reviewLoop, screen: screen, drawing: needsDraw)
        let model = core.shownModel(viewFacts, at: now)
        if needsDraw || model != draw.lastViewModel {
            do { try screen.render(model) } catch { Log.info("screen: \(error)") }
            stats.presented(mode: machine.mode, at: now)
            draw.lastViewModel = model
            needsDraw = false
        }
    }

    /// Before `ready`: each message as the core's gate admits it (`BoothCore.admits`): handled now,
    /// held until the core says `.ready`, or (a sleep) both.
    private func stepBeforeReady() {
        for message in inbox.take() {
            switch core.admits(message.arrival) {
            case .handle: handle(message)
            case .hold: heldUntilReady.append(message)
            case .feedAndHold:
                handle(message)
                heldUntilReady.append(message)
            }
        }
        if !core.readyOut { inbox.wait(milliseconds: 100) }
    }

    /// The settings the core's rules read, from the configuration in force (a reload changes it).
    static func coreSettings(_ config: Configuration, parts: BoothParts) -> BoothCore.Settings {
        config.coreSettings(autoEncoder: parts.autoEncoder?.name, listensBetweenTakes: parts.monitorsMicrophone)
    }

    /// Stops the camera and returns the exit status.
    public func finish() -> Int32 {
        cameras.stopForExit()
        // logind's bus thread ends and is joined (it ends by itself without a system bus: a
        // finished thread nobody joined was ThreadSanitizer's "thread leak" at every exit).
        sleepInhibitor?.stop()
        stats.write("exit", mode: machine.mode, at: now)
        return isFinished ? core.jobs.exitCode ?? 0 : 0
    }

    /// The microphone's peak held over the last 1.5 s, as the screen's meter holds it (nil: none).
    var heldLevel: Double? {
        config.capture.microphone == .none ? nil : meter.level(at: now, window: 1_500_000_000)
    }

    /// What the booth measured and read for the core's model of the screen, this turn.
    var viewFacts: BoothCore.ViewFacts {
        var facts = BoothCore.ViewFacts(
            noCameraFound: parts.cameraNote != nil && !camera.isOpen, prompt: config.screen.prompt,
            levels: heldLevel.map { (meter.level(at: now), $0) },
            wifi: config.share.wifiSSID.map { WiFiPayload.make(ssid: $0, password: config.share.wifiPassword) })
        facts.consentText = config.guest.consent?.blocks ?? []
        return facts
    }
}
