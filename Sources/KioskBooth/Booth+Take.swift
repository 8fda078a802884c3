// The take: opening it as the core says (TakeOpening, on the file worker), its start and its end
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
    /// The core's `.file(.openTake)`: the take opens on the file worker (after the old take is
    /// gone); the result comes back as `takeStarted` or `takeFailed`.
    func openTake(orientation: Orientation, kind: TakeKind, encoder: VideoEncoderName, title: String?, comment: String?) {
        let turns = DisplayTransform(physical: screen.outputSize, orientation: orientation).cameraQuarterTurns(mount: config.capture.cameraRotation)
        let opening = TakeOpening(config, output: outputPath, camera: camera.info, kind: kind, encoder: encoder, title: title, comment: comment, quarterTurns: turns,
                                  storage: storage, parts: parts, workers: shared, writer: activeWriter, inbox: inbox)
        fileJob { opening.open() }
    }

    /// The writer began: the take runs, fed by the camera and the microphone.
    func takeStarted(_ started: StartedTake) {
        takes.current = Take(writer: started.writer, microphone: started.microphone, cameraDropsAtStart: camera.droppedFrames,
                             previewDropsAtStart: frames.dropped, startedAt: now)
        // A microphone missing at launch that opened for this take is there again.
        if let opened = started.microphone { feed(.microphoneTried(name: opened.info.name, failure: nil)) }
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
            let report = take.drops(in: result, camera: camera.droppedFrames, preview: frames.dropped)
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
        let take = takes.current?.measures
        return (take, take == nil ? shared.openingWriter.withLock({ $0 })?.syncWaited : nil)
    }
}
