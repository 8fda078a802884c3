// What the booth is made of, each behind a protocol with a real implementation and a test twin:
// the screen (KioskUI's SDL `Screen`), the sound out, the camera and microphone (KioskCapture's
// sources), the take's writer (KioskMedia's `MovieWriter`), the event channel and the machine's
// sleep (KioskSleep's `SystemSleep`).
import FoundationEssentials
import Glibc
import KioskCapture
import KioskContract
import KioskCore
import KioskOptions
import KioskPairing
import KioskMedia
import KioskScreenText
import KioskSystem
import KioskSleep
import KioskStorage
import KioskUI

/// The screen as the booth uses it (UI thread only). `Screen` is the real one; tests use a twin
/// that records what it was asked to draw.
public protocol BoothScreen: AnyObject {
    var orientation: Orientation { get }
    var outputSize: Size { get }
    var rendererName: String { get }
    /// Waits up to `timeoutMs` for input or a `wake`, then takes everything waiting.
    func waitEvents(timeoutMs: Int, visible: [Button]) -> [UIInput]
    /// Ends the current or next `waitEvents` at once; any thread.
    var wake: @Sendable () -> Void { get }
    /// The `tap` command at a point on the display: the inputs a finger put down and lifted there
    /// gives (a touch's routing, decided once: KioskUI's pointer).
    func tap(at physical: Point, visible: [Button]) -> [UIInput]
    /// A point on the display as a point of the canvas the overlay is drawn on.
    func logical(_ physical: Point) -> Point
    func setOrientation(_ orientation: Orientation)
    /// A camera frame for the preview.
    func show(frame: VideoFrame) throws
    /// No picture (the camera is missing).
    func clearPreview()
    /// The review trimmer's pictures of the take (`--trim`); none clears them.
    func setTrimPictures(_ pictures: [RGBPicture]) throws
    /// How the preview is drawn: mirrored or not, the camera's mount (clockwise quarter turns), and
    /// whether it crops the picture or shows all of it (`--preview-fit`).
    func setPreview(mirror: Bool, cameraMount: Int, fit: PictureFit)
    /// The operator's overlay over the live preview (`--overlay`; nil: none), where the take has it;
    /// the portrait one while the interface is portrait. Throws when it cannot be shown (then none is).
    func setOverlay(_ picture: OverlayPicture?, portrait: OverlayPicture?) throws
    /// Draws the picture and `model`'s overlay (nil: none) and presents it.
    func render(_ model: ViewModel?) throws
    /// The screen as it is now (the last model drawn again), for a screenshot.
    func snapshot() throws -> Pixels
    func beginPlayback()
    func showPlayback(_ picture: ScreenPicture, rotation: Double) throws
    /// How the player's pictures cover the screen: the whole picture (the review's), or cropped to
    /// fill it (the attract slideshow's, as the preview does).
    func setPlaybackFit(_ fit: PictureFit)
    func endPlayback()
    /// Whether the player's pictures go up as YUV planes (for the log).
    var playbackYUVUploads: Bool { get }
    /// The words on screen from the next draw on, each of `texts` in a face with its characters
    /// (or the most of them, the others left out); returns the texts with characters no face has.
    /// Throws when `font` cannot be read, and changes nothing then.
    func setWords(_ words: ScreenWords, texts: [ShownText], font: String?) throws -> [UndrawableText]
    /// What `setWords` would throw, changing nothing.
    func checkWords(_ words: ScreenWords, texts: [ShownText], font: String?) throws
    /// `--library`: the listed takes' thumbnails, by path (uploaded when first drawn).
    func setLibraryPictures(_ pictures: [String: RGBPicture])
    /// `--library`: the listed takes' thumbnails as JPEGs, by path, decoded with `decode` when a
    /// cell is drawn; only so many are kept as textures at once.
    func setLibraryThumbnails(_ jpegs: [String: [UInt8]], decode: @escaping ([UInt8]) -> RGBPicture?)
    /// The library's take under a canvas point, by its index in the grid of `count` takes.
    func libraryIndex(atLogical point: Point, count: Int) -> Int?
    /// The consent screen's switch under a canvas point (`--consent`), while it shows.
    func consentChoice(atLogical point: Point) -> ConsentChoice?
    /// Pairing's keyboard or code over everything else from the next draw on (nil: none).
    func showPairing(_ view: PairingView?)
    /// The canvas the overlay is drawn on, as taps elsewhere give their points.
    var canvasSize: Size { get }
}

extension BoothScreen {
    /// Twins that draw nothing show no pairing screen.
    public func showPairing(_ view: PairingView?) {}
    public var canvasSize: Size { outputSize }
    /// Twins that show no trimmer take its pictures and drop them.
    public func setTrimPictures(_ pictures: [RGBPicture]) throws {}
    public func setLibraryPictures(_ pictures: [String: RGBPicture]) {}
    public func setLibraryThumbnails(_ jpegs: [String: [UInt8]], decode: @escaping ([UInt8]) -> RGBPicture?) {}
    public func libraryIndex(atLogical point: Point, count: Int) -> Int? { nil }
    public func consentChoice(atLogical point: Point) -> ConsentChoice? { nil }
    public func setPlaybackFit(_ fit: PictureFit) {}
}

extension Screen: BoothScreen {
    public func logical(_ physical: Point) -> Point { transform.toLogical(physical) }

    public var wake: @Sendable () -> Void {
        let waker = waker
        return { waker.wake() }
    }

    public func showPlayback(_ picture: ScreenPicture, rotation: Double) throws {
        try show(playbackPicture: picture, rotation: rotation)
    }

    public func setPlaybackFit(_ fit: PictureFit) { playbackFit = fit }

    public func setPreview(mirror: Bool, cameraMount: Int, fit: PictureFit) {
        mirrorPreview = mirror
        self.cameraMount = cameraMount
        previewFit = fit
    }
}

/// The booth's sound out: the begin/end sounds and the player's sound share one device (a single-
/// device driver, ALSA `hw:` without dmix, has only one to give). UI thread only.
public protocol BoothAudio: AnyObject {
    /// Opens the device and loads the sounds now, so the first plays without delay.
    func prepare()
    func play(_ sound: Sound)
    /// The format a player's sound must be delivered in (the device opens now), nil when there is
    /// no sound to be had.
    func playerFormat() -> AudioOutputFormat?
    /// The player's sound joins the output, mixed with the sounds.
    func attach(_ feed: any AudioFeed)
    /// The player's sound leaves; the output no longer touches `feed` when this returns.
    func detach()
}

extension SoundPlayer: BoothAudio {}

/// One take's writer. `MovieWriter` is the real one.
public protocol TakeWriter: AnyObject, Sendable {
    /// Opens the file and the encoders (blocking: the booth calls it on its file worker).
    func start() throws(RecordingStartError)
    func append(_ frame: VideoFrame)
    /// The same, with the camera's thread's time on the picture (ns: its decoding and key), which
    /// the take's step-down judges beside the writer's (`EffortRule`).
    func append(_ frame: VideoFrame, camera: Int64)
    func append(_ chunk: AudioChunk)
    /// Asks the take to end; the finish callback follows once the file is safe.
    func stop(reason: StopReason)
    /// The camera rests (a boomerang's pictures are all taken): its loop may be made.
    func cameraRested()
    /// Seconds recorded so far.
    var elapsed: Double { get }
    /// Bytes of the take so far, and how many more the file-size and free-disk limits allow.
    var bytesWritten: Int64 { get }
    var bytesLeft: Int64 { get }
    /// Seconds since the take stopped taking data while it is being finished and made safe; nil
    /// while it records and once it has finished.
    var finishingFor: Double? { get }
    /// Seconds the take's oldest running sync has waited for the disk; nil when none runs.
    var syncWaited: Double? { get }
    /// Pictures taken and waiting for the encoder: more than one means it is falling behind.
    var videoWaiting: Int { get }
    /// The take stepped its effort or rate down for want of CPU (`EffortRule`).
    var steppedDown: Bool { get }
    /// Whether the take keeps the camera's picture `sequence`, asked before it is decoded (a
    /// picture it leaves out by plan is counted skipped, and is not decoded).
    func wants(sequence: UInt32) -> Bool
}

extension TakeWriter {
    public func append(_ frame: VideoFrame, camera: Int64) { append(frame) }
    public var steppedDown: Bool { false }
    public func wants(sequence: UInt32) -> Bool { true }
    public func cameraRested() {}
}

extension MovieWriter: TakeWriter {}

/// What holds the machine's sleep off while a take is made safe. `SystemSleep` is the real one
/// (logind's delay inhibitor); its `PrepareForSleep` signals reach the booth as `systemSleep`
/// messages.
public protocol SleepInhibitor: AnyObject, Sendable {
    /// The take is safe on disk: the sleep may go on.
    func release()
    /// After the resume: hold the next sleep off again.
    func reacquire()
    /// The booth is leaving: the watcher's thread ends and is joined.
    func stop()
}

extension SystemSleep: SleepInhibitor {}

/// Makes the writer for a take; `onFinish` is called once, on any thread, when the file is safe.
public typealias TakeWriterFactory = @Sendable (MovieSettings, @escaping @Sendable (RecordingResult) -> Void) -> any TakeWriter

/// Everything the booth is wired to.
public struct BoothParts {
    public var screen: any BoothScreen
    public var audio: any BoothAudio
    public var camera: any VideoSource
    /// More cameras the switch button goes through after `camera`, in order.
    public var moreCameras: [any VideoSource] = []
    /// A note for the ready screen (e.g. `auto` found no camera).
    public var cameraNote: String?
    /// A fresh microphone for each take, as the settings in force choose it, nil for none (called
    /// on the file worker).
    public var makeMicrophone: @Sendable (MicrophoneChoice) -> (any AudioSource)?
    public var makeWriter: TakeWriterFactory
    public var events: EventSink
    /// Where the settings came from, read again on SIGHUP (nil: nothing to reload).
    public var configurationSource: ConfigurationSource?
    /// systemd's notify socket, when the booth runs as a `Type=notify` service.
    public var notifier: ServiceNotifier?
    /// Whether the microphone also listens in ready (and the countdown), for the guest's meter; it
    /// is closed before each take's own opens. Off in tests that count the takes' microphones.
    public var monitorsMicrophone = false
    /// What `--video-encoder auto` resolved to at launch (`EncoderChoice.resolve`, which opens
    /// devices and so runs before the loop); nil: libx264 stands for `auto`.
    public var autoEncoder: EncoderChoice?
    /// The overlay PNGs as decoded (`--overlay`): the executable's option check decoded them into
    /// it at launch (and a reload's into it again); each take takes its pictures from it.
    public var overlays = OverlayFiles(load: OverlayImage.loadKept)
    /// The clock the booth's loop reads once a turn (and once as it starts): CLOCK_MONOTONIC in
    /// nanoseconds. A test's booth may run on a clock of its own.
    public var clock: @Sendable () -> Int64 = { MonotonicClock.now() }
    /// Makes the booth's worker queues (the file worker, the camera's starts and stops, hooks, …):
    /// threads of their own. A test's booth runs them on its own thread (`EmbeddedExecutors`).
    public var makeQueue: ExecutorFactory = threadExecutors
    /// SIGTSTP's stop once the take is safe: the process stops itself until SIGCONT. A test's
    /// booth notes it instead.
    public var stopProcess: @Sendable () -> Void = { _ = raise(SIGSTOP) }
    /// The process's `KIOSK_*` variables, as the executable read them at launch. The default
    /// writers take their encoder devices from it, the booth its `stats` (`KIOSK_STATS`).
    public var environment: KioskEnvironment

    /// `makeWriter` nil: `MovieWriter`s, their encoders set up as `environment` says.
    public init(screen: any BoothScreen, audio: any BoothAudio, camera: any VideoSource, cameraNote: String? = nil,
                makeMicrophone: @escaping @Sendable (MicrophoneChoice) -> (any AudioSource)?,
                makeWriter: TakeWriterFactory? = nil,
                events: EventSink = EventSink(), configurationSource: ConfigurationSource? = nil, notifier: ServiceNotifier? = nil,
                environment: KioskEnvironment = KioskEnvironment()) {
        (self.screen, self.audio, self.camera, self.cameraNote) = (screen, audio, camera, cameraNote)
        (self.makeMicrophone, self.events, self.environment) = (makeMicrophone, events, environment)
        (self.configurationSource, self.notifier) = (configurationSource, notifier)
        self.makeWriter = makeWriter ?? { settings, onFinish in
            var settings = settings
            settings.encoderHost = EncoderHost(renderFolder: environment.renderFolder, testEncoders: environment.testEncoders)
            return MovieWriter(settings: settings, onFinish: onFinish)
        }
    }
}
