// Test twins of the booth's parts, each at the booth's own boundary: a screen that records what it
// was asked to draw, a sound output that records what it played, a camera and a microphone the
// test drives, a writer the test finishes, and a stdout that keeps every line as it is emitted (or
// holds them, as a parent that does not read). The booth's worker queues are embedded ones
// (`EmbeddedExecutors`) and its clock a `VirtualClock`: the test's thread runs everything, a step
// runs until nothing is left to do, and time passes only when the test moves it.
import Foundation
import KioskBooth
import KioskCapture
import KioskContract
import KioskCore
import KioskOptions
import KioskSystem
import KioskMedia
import KioskScreenText
import KioskStorage
import KioskUI
import Testing

/// Whether the caller runs in the booth's own turn (its UI thread), not in a job of its workers.
func on(_ ui: EmbeddedExecutors) -> Bool { !ui.inJob }

/// Records every model drawn and every picture shown; inputs the test queues come out of
/// `waitEvents` as a display's would.
final class ScreenTwin: BoothScreen {
    var orientation: Orientation = .landscapeRight
    let outputSize = Size(width: 800, height: 480)
    let rendererName = "twin"
    let playbackYUVUploads = false
    var rendered: [ViewModel?] = []
    var framesShown = 0
    var playbackPictures = 0
    var cleared = 0
    var queuedInputs: [UIInput] = []

    /// What the test queued, at once: the twin never waits (time is the test's clock).
    func waitEvents(timeoutMs: Int, visible: [Button]) -> [UIInput] {
        defer { queuedInputs.removeAll() }
        return queuedInputs
    }
    let wake: @Sendable () -> Void = {}
    /// Nothing is drawn, so no button is under any point: a tap is on the picture.
    func tap(at physical: Point, visible: [Button]) -> [UIInput] { [.tapElsewhere(physical)] }
    func logical(_ physical: Point) -> Point { physical }
    func setOrientation(_ orientation: Orientation) { self.orientation = orientation }
    func show(frame: VideoFrame) throws { framesShown += 1 }
    func clearPreview() { cleared += 1 }
    var preview = (mirror: false, cameraMount: 0, fit: PictureFit.fill)
    func setPreview(mirror: Bool, cameraMount: Int, fit: PictureFit) { preview = (mirror, cameraMount, fit) }
    var overlays: [(landscape: OverlayPicture?, portrait: OverlayPicture?)] = []
    func setOverlay(_ picture: OverlayPicture?, portrait: OverlayPicture?) throws { overlays.append((picture, portrait)) }
    func render(_ model: ViewModel?) throws { rendered.append(model) }
    func snapshot() throws -> Pixels { Pixels(size: Size(width: 2, height: 2), words: [0, 0xff0000, 0xff00, 0xff]) }
    func beginPlayback() {}
    func showPlayback(_ picture: ScreenPicture, rotation: Double) throws { playbackPictures += 1 }
    func endPlayback() {}
    var words = ScreenWords()
    func setWords(_ words: ScreenWords, texts: [ShownText], font: String?) throws -> [UndrawableText] { self.words = words; return [] }
    func checkWords(_ words: ScreenWords, texts: [ShownText], font: String?) throws {}
}

/// Records the sounds played and the player's feed coming and going; pulls an attached feed in
/// real time on a thread of its own, as a sound device's callback would (the player's clock).
final class AudioTwin: BoothAudio {
    var played: [Sound] = []
    var attached = 0
    var detached = 0
    static let format = AudioOutputFormat(sampleRate: 48000, channels: 2, sample: .s16, bufferFrames: 480)
    /// The feed being pulled; under the lock for each pull, so `detach` returns only after the last.
    private let feed = Locked<(any AudioFeed)?>(nil)

    func prepare() {}
    func play(_ sound: Sound) { played.append(sound) }
    func playerFormat() -> AudioOutputFormat? { Self.format }
    func attach(_ feed: any AudioFeed) {
        attached += 1
        self.feed.withLock { $0 = feed }
        let pulled = self.feed
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: Self.format.bufferFrames * Self.format.bytesPerFrame)
            var next = MonotonicClock.now()
            while pulled.withLock({ current in
                guard let current else { return false }
                buffer.withUnsafeMutableBytes { current.fill($0, now: MonotonicClock.now()) }
                return true
            }) {
                next += 10_000_000
                MonotonicClock.sleep(until: next)
            }
        }
    }
    func detach() {
        detached += 1
        feed.withLock { $0 = nil }
    }
}

/// A camera whose frames and losses the test sends.
final class CameraTwin: VideoSource {
    private struct State {
        var frames: (@Sendable (VideoFrame) -> Void)?
        var events: (@Sendable (CaptureEvent) -> Void)?
        var starts = 0
        var stops = 0
    }
    private let state = Locked(State())
    let info: VideoSourceInfo
    /// Whether a start fails (a camera unplugged, or not there at all).
    let failsToStart = Locked(false)
    init(name: String = "twin") {
        info = VideoSourceInfo(name: name, size: Size(width: 64, height: 48), fps: 30, deviceFormat: .yuyv, deliveredFormat: .yuyv)
    }
    var droppedFrames: Int { 0 }
    var starts: Int { state.withLock { $0.starts } }
    var stops: Int { state.withLock { $0.stops } }

    func start(frames: @escaping @Sendable (VideoFrame) -> Void, events: @escaping @Sendable (CaptureEvent) -> Void) throws {
        if failsToStart.withLock({ $0 }) { throw TwinError.noDevice }
        state.withLock {
            $0.frames = frames
            $0.events = events
            $0.starts += 1
        }
    }
    func stop() { state.withLock { $0.stops += 1; $0.frames = nil } }

    /// A frame as the capture thread would hand it over (from this thread).
    func send(sequence: UInt32) {
        let frame = TestPattern(size: info.size, fps: 30).frame(number: Int(sequence), timestamp: MonotonicClock.now(), flash: false)
        state.withLock { $0.frames }?(frame)
    }
    func lose() { state.withLock { $0.events }?(.cameraLost(reason: "twin unplugged")) }
}

enum TwinError: Error { case noDevice }

/// A microphone that notes which thread opened and closed it, and whose sound the test sends.
final class MicrophoneTwin: AudioSource {
    private let calls = Locked<[(String, Bool)]>([])
    /// Where its sound goes while it runs (in a struct: a closure held directly in Locked grows a
    /// thunk on every access).
    private struct Feed { var chunks: (@Sendable (AudioChunk) -> Void)? }
    private let feed = Locked(Feed())
    let failsToOpen: Bool
    let ui: EmbeddedExecutors
    init(failsToOpen: Bool = false, ui: EmbeddedExecutors) {
        self.failsToOpen = failsToOpen
        self.ui = ui
    }
    var info: AudioSourceInfo { AudioSourceInfo(name: "twin", sampleRate: 48000, channels: 1) }
    var overruns: Int { 0 }
    /// (call, on the UI thread) in order.
    var log: [(String, Bool)] { calls.withLock { $0 } }
    func start(chunks: @escaping @Sendable (AudioChunk) -> Void, events: @escaping @Sendable (CaptureEvent) -> Void) throws {
        calls.withLock { $0.append(("start", on(ui))) }
        if failsToOpen { throw TwinError.noDevice }
        feed.withLock { $0.chunks = chunks }
    }
    func stop() {
        calls.withLock { $0.append(("stop", on(ui))) }
        feed.withLock { $0.chunks = nil }
    }
    /// 10 ms of sound at `peak` (0: silence), as the capture thread would hand it over.
    func send(peak: Int16) {
        let chunk = AudioChunk(samples: [Int16](repeating: peak, count: 480), channels: 1, sampleRate: 48000, timestamp: 0)
        feed.withLock { $0.chunks }?(chunk)
    }
}

/// A writer the test controls: it may fail to start, and it finishes when asked to stop (or when the
/// test says it hit a limit). (A start that waits for the disk is the file worker held.)
final class WriterTwin: TakeWriter {
    enum StartBehaviour: Sendable { case succeed, fail }
    private struct State {
        var frames = 0
        var stops: [StopReason] = []
        var startedOnUIThread: Bool?
        var settings: MovieSettings?
    }
    private let state = Locked(State())
    private let behaviour: StartBehaviour
    private let onFinish: @Sendable (RecordingResult) -> Void
    let settings: MovieSettings

    let ui: EmbeddedExecutors

    init(settings: MovieSettings, behaviour: StartBehaviour, ui: EmbeddedExecutors, onFinish: @escaping @Sendable (RecordingResult) -> Void) {
        self.settings = settings
        self.ui = ui
        self.behaviour = behaviour
        self.onFinish = onFinish
    }

    var frames: Int { state.withLock { $0.frames } }
    var stops: [StopReason] { state.withLock { $0.stops } }
    var startedOnUIThread: Bool? { state.withLock { $0.startedOnUIThread } }
    /// What the test says the take measures (nil: a frame is 1/30 s and 1000 bytes, no limit near).
    let measured = Locked<(elapsed: Double, written: Int64, room: Int64)?>(nil)
    var elapsed: Double { measured.withLock { $0?.elapsed } ?? Double(frames) / 30 }
    var bytesWritten: Int64 { measured.withLock { $0?.written } ?? Int64(frames) * 1000 }
    var bytesLeft: Int64 { measured.withLock { $0?.room } ?? Int64.max }
    /// What the test says the disk is doing: how long the take has been finishing, and how long its
    /// sync has waited (nil: not finishing, no sync running).
    let disk = Locked<(finishingFor: Double?, syncWaited: Double?)>((nil, nil))
    var finishingFor: Double? { disk.withLock { $0.finishingFor } }
    var syncWaited: Double? { disk.withLock { $0.syncWaited } }
    /// What the test says the encoder's queue holds.
    let waiting = Locked(0)
    var videoWaiting: Int { waiting.withLock { $0 } }

    func start() throws(RecordingStartError) {
        state.withLock { $0.startedOnUIThread = on(ui) }
        switch behaviour {
        case .succeed: return
        case .fail: throw RecordingStartError(code: .recordingFailed, message: "twin: avcodec_open2 failed")
        }
    }
    func append(_ frame: VideoFrame) { state.withLock { $0.frames += 1 } }
    func append(_ chunk: AudioChunk) {}
    /// Whether a stop finishes the take at once (as a quick disk does), or leaves it to the test
    /// (`finish`), as a slow disk would.
    let finishesOnStop = Locked(true)
    func stop(reason: StopReason) {
        let first = state.withLock { s -> Bool in
            s.stops.append(reason)
            return s.stops.count == 1
        }
        if first && finishesOnStop.withLock({ $0 }) { finish(reason) }
    }
    /// The writer ends by itself (a limit, a full disk) or after a stop: the file is safe.
    func finish(_ reason: StopReason) {
        onFinish(RecordingResult(outputPath: settings.outputPath, duration: elapsed, bytes: 1000, reason: reason, success: true))
    }
}

/// logind's inhibitor as the booth sees it: held until released, held again on reacquire.
final class SleepTwin: SleepInhibitor {
    private let state = Locked((held: true, calls: [String]()))
    var held: Bool { state.withLock { $0.held } }
    /// `release` and `reacquire` in order (a release with nothing held is not noted).
    var calls: [String] { state.withLock { $0.calls } }
    func release() {
        state.withLock { s in
            if s.held { s.calls.append("release") }
            s.held = false
        }
    }
    func reacquire() {
        state.withLock { s in
            s.calls.append("reacquire")
            s.held = true
        }
    }
    func stop() {}
}

/// stdout as the parent reads it: every line, in order, kept as the booth emits it (no thread, no
/// pipe). `reading: false`: a parent that does not read; the lines wait until `startReading`.
/// (stdout's own writer, its bound and what it drops, has tests of its own: LineWriterTests.)
final class StdoutTwin: Sendable {
    /// The lines, as the booth's event sink writes them.
    final class Lines: LineOutput {
        fileprivate struct State {
            var reading: Bool
            var received: [String] = []
            var waiting: [String] = []
        }
        fileprivate let state: Locked<State>
        init(reading: Bool) { state = Locked(State(reading: reading)) }

        func enqueue(_ line: Data, droppable: Bool) {
            let text = String(decoding: line.last == 10 ? line.dropLast() : line, as: UTF8.self)
            state.withLock { s in
                if s.reading { s.received.append(text) } else { s.waiting.append(text) }
            }
        }
        /// The twin's reader never leaves.
        func onReaderGone(_ handler: @escaping @Sendable () -> Void) {}
        func flush(timeout: Double) -> Bool { state.withLock { $0.reading } }
    }
    private let lines: Lines
    let sink: EventSink

    /// `copies`: where the sink also gives each line (a control socket's clients).
    init(reading: Bool = true, copies: (@Sendable (Data) -> Void)? = nil) {
        lines = Lines(reading: reading)
        sink = EventSink(writer: lines, copies: copies)
    }

    /// The parent starts (or resumes) reading: what waited arrives first.
    func startReading() {
        lines.state.withLock { s in
            s.reading = true
            s.received += s.waiting
            s.waiting.removeAll()
        }
    }
    /// Lines emitted while nobody read.
    var waitingLines: Int { lines.state.withLock { $0.waiting.count } }

    /// Every line read so far.
    var received: [String] { lines.state.withLock { $0.received } }
    /// The `event` names received so far, in order.
    var names: [String] {
        received.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
        }
    }
}

/// A booth wired to twins, stepped by the test.
final class BoothHarness {
    let screen = ScreenTwin()
    let audio = AudioTwin()
    let camera = CameraTwin()
    /// The cameras the switch goes through after `camera` (`cameras`).
    let moreCameras: [CameraTwin]
    let events: StdoutTwin
    let booth: Booth
    let folder: String
    /// The booth's worker queues: the test's thread runs their jobs in each step.
    let executors = EmbeddedExecutors()
    /// The booth's clock (nil: the player alone, whose threads keep real time).
    let clock: VirtualClock?
    /// The folder is the test's (a booth started again on it): it stays when this harness goes.
    private let keepsFolder: Bool
    private let writers = Locked<[WriterTwin]>([])
    private let microphones = Locked<[MicrophoneTwin]>([])
    private let microphoneChoices = Locked<[MicrophoneChoice]>([])
    /// The text of the config file `booth.conf` (with `configFile`), which SIGHUP reads again.
    let configText = Locked("")
    /// How many times the booth stopped its process (SIGTSTP's stop, `BoothParts.stopProcess`).
    let processStops = Locked(0)

    /// `configFile`: the booth runs with `--config booth.conf` (whose text is `configText`), so
    /// SIGHUP reloads.
    /// `clock`: the clock the booth's loop reads instead of CLOCK_MONOTONIC (a new one when nil,
    /// which stands still until the test moves it). The player alone (`playing`) keeps real time:
    /// its decoding threads and its sound's pull are the player's own.
    /// `configure`: changes to the configuration the booth starts with.
    init(session: SessionMode = .once, start: WriterTwin.StartBehaviour = .succeed, microphoneFails: Bool = false,
         events: StdoutTwin = StdoutTwin(), playing file: String? = nil, configFile: String? = nil,
         clock: VirtualClock? = nil, cameras: Int = 1, monitorsMicrophone: Bool = false,
         folder: String? = nil, takeFolder: Bool = false,
         configure: (inout Configuration) -> Void = { _ in }) {
        moreCameras = (1..<max(cameras, 1)).map { CameraTwin(name: "twin\($0)") }
        let ui = executors
        keepsFolder = folder != nil
        self.folder = folder ?? NSTemporaryDirectory() + "kiosk-booth-\(getpid())-\(UUID().uuidString.prefix(8))"
        let folder = self.folder
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        self.events = events
        var config = Configuration()
        config.guest.session = session
        // The booth's Start begins the take at once (the countdown has its own tests).
        config.guest.countdown = 0
        configure(&config)
        let (writers, microphones, microphoneChoices, configText) = (writers, microphones, microphoneChoices, configText)
        var source: ConfigurationSource?
        if let configFile {
            configText.withLock { $0 = configFile }
            source = ConfigurationSource(parser: OptionParser(readFile: { _ in configText.withLock { $0 } }),
                                         arguments: ["--config", "booth.conf", "--session", session.rawValue, "--countdown", "0"])
            config = try! source!.read()
        }
        var parts = BoothParts(
            screen: screen, audio: audio, camera: camera,
            makeMicrophone: { choice in
                microphoneChoices.withLock { $0.append(choice) }
                let mic = MicrophoneTwin(failsToOpen: microphoneFails, ui: ui)
                microphones.withLock { $0.append(mic) }
                return mic
            },
            makeWriter: { settings, onFinish in
                let writer = WriterTwin(settings: settings, behaviour: start, ui: ui, onFinish: onFinish)
                writers.withLock { $0.append(writer) }
                return writer
            },
            events: events.sink)
        parts.configurationSource = source
        parts.moreCameras = moreCameras
        parts.monitorsMicrophone = monitorsMicrophone
        let processStops = processStops
        parts.stopProcess = { processStops.withLock { $0 += 1 } }
        self.clock = file == nil ? clock ?? VirtualClock() : nil
        if let clock = self.clock { parts.clock = clock.read }
        parts.makeQueue = executors.factory
        booth = try! file.map { path throws(SystemError) in try Booth(playing: path, config: config, parts: parts) }
            ?? (takeFolder
                ? Booth(config: config, outputPath: folder + "/" + config.storage.nameTemplate, parts: parts,
                        folder: TakeFolder(path: folder, template: config.storage.nameTemplate, clockTrusted: true))
                : Booth(config: config, outputPath: folder + "/output.mov", parts: parts))
    }

    deinit { if !keepsFolder { try? FileManager.default.removeItem(atPath: folder) } }

    var writer: WriterTwin? { writers.withLock { $0.last } }
    var writerCount: Int { writers.withLock { $0.count } }
    var microphone: MicrophoneTwin? { microphones.withLock { $0.last } }
    /// The microphone each take asked for, in order.
    var microphonesChosen: [MicrophoneChoice] { microphoneChoices.withLock { $0 } }

    /// One step: every job the workers were given runs (and the jobs those give), then a turn of
    /// the booth's loop.
    func turn() {
        executors.run()
        booth.step()
    }

    /// Takes turns until `condition` holds; false if it did not in `turns` (nothing left to do
    /// then: a booth on virtual time does in a turn all it will do until the clock moves or a
    /// device speaks). The player alone waits for its threads, a turn a millisecond, 10 s at most.
    /// `threads`: what is awaited comes from a thread that is not the booth's (a movie player's
    /// decoding, the control socket's server), which keeps real time: a turn a millisecond, 10 s at
    /// most. (The player alone always waits so.)
    @discardableResult
    func step(until condition: () -> Bool, turns: Int = 200, threads: Bool = false) -> Bool {
        let realTime = threads || clock == nil
        for _ in 0..<(realTime ? 10_000 : turns) {
            if condition() { return true }
            turn()
            if realTime { usleep(1000) }
        }
        return condition()
    }

    /// Sends a command as the stdin reader would.
    func send(_ command: Command) { booth.inbox.post(.command(command)) }

    /// Starts the booth and records a take up to `recordingStarted`.
    func startTake() -> Bool {
        booth.start()
        send(.press(.start))
        return step(until: { events.names.contains("recordingStarted") })
    }
}

/// A clock a test moves: the booth's loop reads it (`BoothParts.clock`) instead of CLOCK_MONOTONIC.
final class VirtualClock: Sendable {
    private let nanoseconds = Locked<Int64>(1_000_000_000)
    var read: @Sendable () -> Int64 { { [nanoseconds] in nanoseconds.withLock { $0 } } }
    func advance(seconds: Double) { nanoseconds.withLock { $0 += Int64(seconds * 1e9) } }
}

extension BoothHarness {
    /// A booth with the photo button on `clock`, in ready, its Photo just pressed and a turn taken
    /// (no frame sent: the photo waits for one).
    static func photoPressed(clock: VirtualClock) -> BoothHarness {
        let h = BoothHarness(configFile: "photo-button = yes\n", clock: clock)
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        h.send(.press(.photo))
        h.turn()
        return h
    }
}
