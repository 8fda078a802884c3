// A take being opened: its settings from the configuration, the camera and what the core said (the
// encoder, the guestbook's question), then on the file worker its file (TakeStorage.nextTake), the
// microphone and the writer. What came of it is the file job's report: the take started or failed.
import KioskCapture
import KioskContract
import KioskCore
import KioskMedia
import KioskOptions
import KioskStorage
import KioskSystem

struct TakeOpening: Sendable {
    var settings: MovieSettings
    let kind: TakeKind
    /// A boomerang has no sound: no microphone opens for it.
    let microphone: MicrophoneChoice
    let overlay: (landscape: String?, portrait: String?)
    let storage: any TakeStorage
    let overlays: OverlayFiles
    let workers: BoothWorkers
    let writer: WriterSlot
    let inbox: Inbox
    let makeMicrophone: @Sendable (MicrophoneChoice) -> (any AudioSource)?
    let makeWriter: TakeWriterFactory

    /// The take the core said to open (`.file(.openTake)`) at `output`, from `camera`, its picture
    /// turned `quarterTurns` upright.
    init(_ config: Configuration, output: String, camera: VideoSourceInfo, kind: TakeKind, encoder: VideoEncoderName, title: String?,
         comment: String? = nil, quarterTurns: Int, storage: any TakeStorage, parts: BoothParts, workers: BoothWorkers, writer: WriterSlot, inbox: Inbox) {
        var settings = MovieSettings(outputPath: output, videoSize: camera.size, fps: camera.fps, audio: nil)
        settings.framesFromLiveClock = true
        settings.videoEncoder = encoder
        (settings.preset, settings.crf, settings.bitrate) = (config.video.preset, config.video.crf, config.video.bitrate)
        (settings.maxDuration, settings.maxFileSize, settings.minFreeDisk) = (config.limits.maxDuration, config.limits.maxFileSize, config.limits.minFreeDisk)
        (settings.fileMode, settings.highPass, settings.title, settings.comment) = (config.storage.fileMode, config.sound.highPass, title, comment)
        if kind == .boomerang {
            // Its pictures alone, for as long as asked; the loop follows (BoomerangLoop).
            settings.boomerang = config.boomerang.plan(cameraFPS: camera.fps)
            settings.maxDuration = config.boomerang.seconds
            if config.boomerang.speed < 1, settings.boomerang?.frameRate == camera.fps {
                Log.info("boomerang: the camera gives \(String(printf: "%.4g", camera.fps)) fps, under the 60 slow motion needs; played at its own rate")
            }
        }
        settings.rotationQuarterTurns = quarterTurns
        self.settings = settings
        (self.kind, microphone, overlay) = (kind, kind == .boomerang ? .none : config.capture.microphone, (config.video.overlay, config.video.overlayPortrait))
        (self.storage, overlays, self.workers, self.writer, self.inbox) = (storage, parts.overlays, workers, writer, inbox)
        (makeMicrophone, makeWriter) = (parts.makeMicrophone, parts.makeWriter)
    }

    /// What remakes the loop of a boomerang a kill cut (at the next launch), with the takes' preset and
    /// quality: its length, nil: none.
    static func boomerangRemake(_ config: Configuration) -> @Sendable (String) -> Double? {
        let (boomerang, video) = (config.boomerang, config.video)
        return { path in
            var encoding = MovieSettings(outputPath: path, videoSize: Size(width: 0, height: 0), fps: 30, audio: nil)
            (encoding.preset, encoding.crf, encoding.bitrate) = (video.preset, video.crf, video.bitrate)
            return BoomerangLoop.remake(path, settings: boomerang, video: encoding)
        }
    }

    /// On the file worker: the take's file, then the microphone, then the writer. What to post back.
    func open() -> BoothMessage {
        // The core closed the listening microphone just before: the same device opens for the take.
        workers.microphoneMonitor.sync {}
        // What the last review's player freed goes back first (its threads' arenas keep it
        // otherwise, and a take's encoder would take its memory anew beside it).
        MallocArenas.giveBack()
        var settings = settings
        switch storage.nextTake(planned: settings.outputPath, kind: kind, lock: workers.outputLock) {
        case let .failure(refusal):
            return .take(.failed(code: .recordingFailed, message: refusal.message))
        case let .success((number, path)):
            settings.outputPath = path
            // Decoded at launch (or by the reload): taken as they are unless a file changed.
            settings.overlay = overlays.take(overlay.landscape, portrait: overlay.portrait)
            return start(settings, number: number)
        }
    }

    /// The microphone, then the writer.
    private func start(_ settings: MovieSettings, number: Int?) -> BoothMessage {
        var settings = settings
        let (inbox, writer, meter) = (inbox, writer, workers.meter)
        // The microphone opens first: the file's sound track takes the rate and channels the
        // device negotiated, which an ALSA microphone only knows once open. Its chunks go to
        // the take as soon as the take exists.
        var microphone = makeMicrophone(self.microphone)
        if let source = microphone {
            do {
                try source.start(chunks: { writer.append($0); meter.feed($0) }, events: { inbox.post(.capture($0)) })
            } catch {
                inbox.post(.input(.say([.error(code: .microphoneUnavailable, message: "\(error); recording without sound")])))
                microphone = nil
            }
        }
        settings.audio = microphone.map { (sampleRate: $0.info.sampleRate, channels: $0.info.channels) }
        let take = makeWriter(settings) { inbox.post(.take(.finished($0))) }
        // While it opens, the loop reads how long the disk keeps it waiting (`storageSlow`).
        workers.openingWriter.withLock { $0 = take }
        defer { workers.openingWriter.withLock { $0 = nil } }
        do {
            try take.start()
            return .take(.started(StartedTake(writer: take, microphone: microphone, path: settings.outputPath, number: number)))
        } catch {
            microphone?.stop()
            return .take(.failed(code: error.code, message: error.message))
        }
    }
}
