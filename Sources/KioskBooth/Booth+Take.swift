// The take: opening it on the file worker (the microphone, then the writer), its start and its end
// as the writer reports them, what its end says about lost pictures, and what the loop watches
// while it runs (time left, the slow disk, the preview yielding to the encoder).
import FoundationEssentials
import KioskCapture
import KioskContract
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

extension Booth {
    /// Opens the microphone and the writer on the file worker (after the old take is gone); the
    /// result comes back as `takeStarted` or `takeFailed`.
    func startRecording(orientation: Orientation) {
        let info = camera.info
        let kind = machine.takeKind
        var settings = MovieSettings(outputPath: outputPath, videoSize: info.size, fps: info.fps, audio: nil)
        settings.framesFromLiveClock = true
        settings.videoEncoder = core.nextEncoder
        settings.preset = config.video.preset
        settings.crf = config.video.crf
        settings.bitrate = config.video.bitrate
        settings.maxDuration = config.limits.maxDuration
        settings.maxFileSize = config.limits.maxFileSize
        settings.minFreeDisk = config.limits.minFreeDisk
        settings.fileMode = config.storage.fileMode
        settings.highPass = config.sound.highPass
        // The guestbook's question this take is made under (the core took it as Start asked for the take).
        settings.title = core.guestbook.take
        if kind == .boomerang {
            // Its pictures alone, for as long as asked; the loop follows (BoomerangLoop).
            settings.boomerang = config.boomerang.plan(cameraFPS: info.fps)
            settings.maxDuration = config.boomerang.seconds
            if config.boomerang.speed < 1, settings.boomerang?.frameRate == info.fps {
                Log.info("boomerang: the camera gives \(String(printf: "%.4g", info.fps)) fps, under the 60 slow motion needs; played at its own rate")
            }
        }
        settings.rotationQuarterTurns = DisplayTransform(physical: screen.outputSize, orientation: orientation)
            .cameraQuarterTurns(mount: config.capture.cameraRotation)
        let (inbox, activeWriter, makeMicrophone, makeWriter, storage) = (inbox, activeWriter, parts.makeMicrophone, parts.makeWriter, storage)
        let (overlays, overlayFiles) = (parts.overlays, config.video)
        let (opening, lock) = (shared.openingWriter, shared.outputLock)
        // A boomerang has no sound: no microphone opens for it.
        let (planned, microphone, meter, monitor) = (settings, kind == .boomerang ? MicrophoneChoice.none : config.capture.microphone, meter, shared.microphoneMonitor)
        // (The core closed the listening microphone just before: the same device opens for the take.)
        fileJob {
            monitor.sync {}
            // What the last review's player freed goes back first (its threads' arenas keep it
            // otherwise, and a take's encoder would take its memory anew beside it).
            MallocArenas.giveBack()
            switch storage.nextTake(planned: planned.outputPath, kind: kind, lock: lock) {
            case let .failure(refusal):
                return .take(.failed(code: .recordingFailed, message: refusal.message))
            case let .success((number, path)):
                var take = planned
                take.outputPath = path
                // Decoded at launch (or by the reload): taken as they are unless a file changed.
                take.overlay = overlays.take(overlayFiles.overlay, portrait: overlayFiles.overlayPortrait)
                return Booth.openTake(settings: take, number: number, inbox: inbox, activeWriter: activeWriter, opening: opening,
                                      meter: meter, microphone: microphone, makeMicrophone: makeMicrophone, makeWriter: makeWriter)
            }
        }
    }

    /// The writer began: the take runs, fed by the camera and the microphone.
    func takeStarted(_ started: StartedTake) {
        takes.current = Take(writer: started.writer, microphone: started.microphone, cameraDropsAtStart: camera.droppedFrames,
                             previewDropsAtStart: frames.dropped, startedAt: now)
        // A microphone missing at launch that opened for this take is there again.
        if started.microphone != nil { microphone.missing = false }
        outputPath = started.path
        takes.number = started.number
        activeWriter.set(started.writer)
        tell(.recordingStarted(outputPath: started.path))
    }

    /// The writer finished the take (it is safe on disk, or failed): where its missing pictures
    /// went is logged, its microphone closes, and the machine hears of it.
    func recordingFinished(_ result: RecordingResult) {
        var result = result
        if let take = takes.current {
            let report = DropReport(result: result, cameraDropped: max(camera.droppedFrames - take.cameraDropsAtStart, 0),
                                    stalls: ProcessStalls.shared.lengths(since: take.startedAt),
                                    previewLeft: take.previewYielded ? frames.dropped - take.previewDropsAtStart : nil)
            report.lines.forEach { Log.info("take: " + $0) }
            result.droppedFrames = report.total
            if let microphone = take.microphone { onFiles { microphone.stop(); return [] } }
        }
        activeWriter.set(nil)
        takes.current = nil
        // When the last take that counts finished, for the metrics (the core counts the rest).
        shared.metrics?.takeFinished(result)
        // (The core says a lost file, takes the encoder's stall from it, and asks for the trimmer's
        // pictures and the leveled copy.)
        tell(.recordingFinished(result))
    }

    /// Whether the live picture waits this turn (the core's rule, TakeWatch.previewYields): the
    /// picture stays in its slot, a newer one replaces it (a dropped preview frame, counted).
    func previewYields() -> Bool {
        guard core.take.previewYields(recording: machine.mode == .recording && takes.current != nil, at: now) else { return false }
        takes.current?.previewYielded = true
        return true
    }

    /// What the take's writer measured, for the core's turn (its time left, the slow disk, saving),
    /// and the sync's wait of a writer being opened (the core reads it while a take opens).
    func takeMeasures() -> (take: TakeMeasures?, openingWait: Double?) {
        let take = takes.current.map { take in
            let w = take.writer
            return TakeMeasures(elapsed: w.elapsed, written: w.bytesWritten, room: w.bytesLeft, finishingFor: w.finishingFor, syncWaited: w.syncWaited,
                                backlog: w.videoWaiting, steppedDown: w.steppedDown)
        }
        return (take, take == nil ? shared.openingWriter.withLock({ $0 })?.syncWaited : nil)
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
                inbox.post(.input(.say([.error(code: .microphoneUnavailable, message: "\(error); recording without sound")])))
                microphone = nil
            }
        }
        settings.audio = microphone.map { (sampleRate: $0.info.sampleRate, channels: $0.info.channels) }
        let writer = makeWriter(settings) { inbox.post(.take(.finished($0))) }
        // While it opens, the loop reads how long the disk keeps it waiting (`storageSlow`).
        opening.withLock { $0 = writer }
        defer { opening.withLock { $0 = nil } }
        do {
            try writer.start()
            return .take(.started(StartedTake(writer: writer, microphone: microphone, path: settings.outputPath, number: number)))
        } catch {
            microphone?.stop()
            return .take(.failed(code: error.code, message: error.message))
        }
    }
}
