// The booth's state, in rooms: what its workers share with the UI thread, the take's, the drawing's,
// the service link's and the player's. Each
// is owned by the booth and changed on the UI thread only, except `BoothWorkers`, whose parts are
// built for the threads that share them (its queues are the parts' executors: SerialQueues, threads of
// their own, in the program).
import FoundationEssentials
import KioskCapture
import KioskContract
import KioskCore
import KioskOptions
import KioskMedia
import KioskSystem
import Synchronization

/// What the booth shares with its worker queues: the queues, and the slots they and the UI thread
/// both touch (each safe to share: a lock or an atomic inside).
struct BoothWorkers: Sendable {
    /// The serial workers, each a thread of its own running its jobs in order: `files`, each
    /// take's files (the old take goes before the new one opens); `cameraControl`, the camera's
    /// starts and stops in the order the machine asked for them; `screenshots` (a slow or stuck
    /// target, a FIFO nobody reads, holds up nothing else); `microphoneMonitor`, the listening
    /// microphone's opens and closes (ready and the countdown).
    let files, cameraControl, screenshots, microphoneMonitor: any Executor
    /// `photos`: each photo's JPEG made (PhotoMaker), off the UI thread and off the file worker.
    let photos: any Executor
    /// The next camera frame's taker when a photo is asked for.
    let photoSlot = PhotoSlot()
    /// The green screen's key (`--background`), run on each camera picture before it is shared out.
    let key: PictureKey
    /// `--key auto`'s measure of the backdrop, from the camera's pictures before the key.
    let backdrop = KeyCalibration()
    /// `--on-take`'s tries, one at a time on a worker of its own (HookRunner).
    let hooks: HookRunner
    /// The writer of a take being opened on the file worker (its start may wait for the disk).
    let openingWriter = Locked<(any TakeWriter)?>(nil)
    /// The microphone listening in ready, owned by the monitor worker.
    let listening = MonitorSlot()
    /// The microphone's level, from the one listening in ready or the take's.
    let meter: LevelMeter
    /// Only the camera in use may speak: a camera being passed over, or stopped by a switch, is not heard.
    let speakingCamera = Locked(0)
    /// The output's lock (file or folder), held as long as the booth lives: the booth is in use until
    /// `run` returns, so the lock is too. (A local kept by `withExtendedLifetime` around a call that
    /// never returns is not: the optimizer ends its life at its last use, and `-c release` let the
    /// lock go half a millisecond after taking it.) The file worker takes a new one when the
    /// output folder was removed and made again.
    let outputLock: Locked<OutputLock?>
    /// `--metrics-file`'s worker (MetricsWriter); nil without one.
    let metrics: MetricsWriter?
    /// SIGHUP's reading of the configuration (ConfigurationReader).
    let reader: ConfigurationReader
    /// `--loudness`'s copies leveled ahead (TakeFinishing).
    let leveling = TakeLeveling()
    /// The trimmer's pictures, decoded on the file worker (TakeFinishing).
    let trimPictures: TrimPictures

    /// Makes the workers' queues with `queues` (threads of their own, or a test's embedded ones);
    /// throws when the system has no thread (or descriptor) to give.
    /// `slowKey`: ns each keyed picture takes longer (`KioskEnvironment.slowKey`, a test's).
    init(outputLock: Locked<OutputLock?>, metricsFile: String? = nil, configurationSource: ConfigurationSource? = nil,
         clock: @escaping @Sendable () -> Int64, queues: ExecutorFactory, slowKey: Int64 = 0) throws(SystemError) {
        meter = LevelMeter(clock: clock)
        key = PictureKey(slower: slowKey)
        files = try queues("kiosk-files")
        cameraControl = try queues("kiosk-camera-ctl")
        screenshots = try queues("kiosk-screenshot")
        reader = ConfigurationReader(source: configurationSource, queue: try queues("kiosk-config"))
        hooks = HookRunner(queue: try queues("kiosk-hooks"), files: files)
        microphoneMonitor = try queues("kiosk-mic-meter")
        photos = try queues("kiosk-photo")
        trimPictures = TrimPictures(files: files)
        self.outputLock = outputLock
        metrics = try metricsFile.map { path throws(SystemError) in try MetricsWriter(path: path, queue: queues("kiosk-metrics")) }
    }
}

/// The take running now: its writer, its microphone, the camera's drops when it began.
struct Take {
    let writer: any TakeWriter
    let microphone: (any AudioSource)?
    let cameraDropsAtStart: Int
    /// The preview's dropped pictures when the take began (`FrameSlot.dropped`).
    let previewDropsAtStart: Int
    /// The preview held back for the encoder at least once (`previewYields`).
    var previewYielded = false
    /// When it began (CLOCK_MONOTONIC ns): the stalls of the whole process since are its.
    let startedAt: Int64
}

extension Take {
    /// What its writer measured, for the core's turn (its time left, the slow disk, saving).
    var measures: TakeMeasures {
        TakeMeasures(elapsed: writer.elapsed, written: writer.bytesWritten, room: writer.bytesLeft, finishingFor: writer.finishingFor,
                     syncWaited: writer.syncWaited, backlog: writer.videoWaiting, steppedDown: writer.steppedDown)
    }

    /// Where the missing pictures of its `result` went, with the camera's and the preview's drops counted now.
    func drops(in result: RecordingResult, camera: Int, preview: Int) -> DropReport {
        DropReport(result: result, cameraDropped: max(camera - cameraDropsAtStart, 0), stalls: ProcessStalls.shared.lengths(since: startedAt),
                   previewLeft: previewYielded ? preview - previewDropsAtStart : nil)
    }
}

/// The take's room: the one running, the one opening, and what outlives a take.
struct TakeState {
    var current: Take?
    /// The current take's number in the output folder.
    var number: Int?
}

/// What the screen shows and when it must be drawn again.
struct DrawState {
    var frameSerial = 0
    var needsDraw = true
    var lastViewModel: ViewModel?
}

/// The link to the machine's sleep.
struct ServiceLink {
    /// Holds the machine's sleep off while a take is made safe (`watchSystemSleep`); nil: none.
    var sleepInhibitor: (any SleepInhibitor)?
    /// When the booth started (the loop's clock): `state`'s uptime.
    var startedAt: Int64 = 0
}

/// The player while the playing mode shows (its picture kept apart from the frozen frame), and the
/// attract screen's slideshow (`--attract-slideshow`), which plays through the same screen surface.
struct PlayerState {
    var playback: Playback?
    /// `--play --loop`: the file begins again at its end.
    var loops = false
    /// The attract slideshow's silent playback of the take playing now (which one: the core's).
    var slideshowPlayback: Playback?
    /// A slideshow picture is on screen (in place of the camera's): the preview waits.
    var slideshowOnScreen = false
    /// A boomerang's review, looping on the finished screen (Booth+Review).
    var review: Playback?
}

/// The microphone listening in ready, owned by the monitor worker.
final class MonitorSlot: Sendable {
    private let source = Locked<(any AudioSource)?>(nil)
    func set(_ s: any AudioSource) { source.withLock { $0 = s } }
    func take() -> (any AudioSource)? { source.withLock { s in defer { s = nil }; return s } }
}
