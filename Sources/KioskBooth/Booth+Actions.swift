// The core's effects and the machine's actions among them, carried out: each starts work on a worker
// (the camera's queue, the file worker) or changes what the UI thread owns; what the work leads to
// comes back through the inbox.
import FoundationEssentials
import KioskContract
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

extension Booth {
    /// `input` to the core, at this turn's time, and what it says carried out.
    func feed(_ input: BoothCore.Input) {
        carryOut(core.handle(input, at: now))
    }

    /// A touch (or a press) for the core, what it says carried out: true when it only woke the
    /// attract screen (it presses nothing then).
    func touchSpent(swallow: Bool, screen: Bool = true) -> Bool {
        let effects = core.handle(.touch(swallow: swallow, screen: screen), at: now)
        carryOut(effects)
        return effects.contains(.touchSpent)
    }

    /// An event for the machine, through the core.
    func tell(_ event: RecorderEvent) {
        feed(.event(event))
    }

    /// What the core said to do, in its order: the machine's actions, the log's lines, a new
    /// drawing, its own events, `ready`.
    func carryOut(_ effects: [BoothCore.Effect]) {
        for effect in effects {
            switch effect {
            case let .machine(action): perform(action)
            case let .photo(.take(orientation, job, written)): takePhoto(orientation: orientation, job: job, written: written)
            case let .photo(.withdraw(job)): withdrawPhoto(job)
            case let .file(.post(job)): post(job)
            case let .file(.discard(own)): discardTake(own: own)
            case let .file(.writeShare(take, question, loops)): writeShare(of: take, question: question, loops: loops)
            case let .file(.sharePhoto(path, size)): sharePhoto(path, size: size)
            case let .file(.trimPictures(path)): askTrimPictures(of: path)
            case let .file(.levelAhead(path, loudness)): levelAhead(path, to: loudness)
            case let .log(line): Log.info(line)
            case .redraw: needsDraw = true
            case let .emit(event): events.emit(event)
            case .ready: sayReady()
            case let .camera(.tryCamera(index, stop)): tryCamera(index, stopping: stop)
            case let .camera(.inUse(index, changed)): cameraInUse(index, changed: changed)
            case .camera(.focus): camera.triggerFocus()
            case let .hook(.save(text, thenRetention)): saveHooks(text, thenRetention: thenRetention)
            case let .hook(.run(run, queue)): runHook(run, queue: queue)
            case .hook(.stop): shared.hooks.stop()
            case .touchSpent: break
            case let .listen(wanted): listen(wanted)
            case .service(.readConfiguration): readConfigurationFile()
            case .service(.reloaded): tellService(.ready)
            case let .service(.status(text)): tellService(.status(text))
            case let .service(.metrics(figures, rate, final)): writeMetrics(figures, bytesPerSecond: rate, final: final)
            case .exit: break // the loop ends: `isFinished`, with the core's code
            case .service(.releaseSleep): sleepInhibitor?.release()
            case .service(.reacquireSleep): sleepInhibitor?.reacquire()
            case .service(.stopProcess): stopProcess()
            case .service(.stopping): tellService(.stopping)
            case .service(.watchdog): tellService(.watchdog)
            case let .slideshow(effect): carryOut(effect)
            }
        }
    }

    private func perform(_ action: RecorderAction) {
        switch action {
        case .switchCamera, .startShareClock, .startCountdownClock, .exit, .takePhoto, .discardTake, .shareTake:
            // The core's own (`BoothCore.keeps`): it never passes them on.
            assertionFailure("the core passed on \(action)")
        case .startCamera:
            let (camera, inbox, index) = (camera, inbox, core.ring.index)
            camera.setControls(config.capture.cameraControls)
            let start = startCamera
            shared.cameraControl.async {
                var failure: String?
                do { try start(camera, index) } catch { failure = "\(error)" }
                inbox.post(.cameraStarted(failure: failure))
            }
        case .stopCamera:
            // A boomerang's writer makes its loop once the camera's memory is back.
            let (camera, writer) = (camera, takes.current?.writer)
            shared.cameraControl.async {
                camera.stop()
                writer?.cameraRested()
            }
        case .handOverTake:
            handOverTake()
        case let .trimTake(range):
            takes.trim = range
        case .listLibrary:
            listLibrary()
        case .releaseLibrary:
            releaseLibrary()
        case let .startRecording(orientation):
            startRecording(orientation: orientation)
        case let .stopRecording(reason):
            // Before the writer reported its start there is nothing to stop yet: the machine asks
            // again when the start arrives.
            takes.current?.writer.stop(reason: reason)
        case let .playSound(sound):
            parts.audio.play(sound)
        case let .startPlayback(path):
            stopPlayback()
            // The review's player takes the screen's player surface from a boomerang's loop (the
            // core stopped the attract slideshow just before).
            endReview()
            // The review of a trimmed take plays only the part kept (`--trim`).
            player.playback = Playback(path: path, screen: screen, audio: parts.audio, loop: player.loops,
                                       range: machine.mode == .playing ? machine.trim : nil)
        case let .setPlaybackPaused(paused):
            player.playback?.setPaused(paused)
        case let .seekPlayback(seconds):
            player.playback?.seek(to: seconds)
        case .stopPlayback:
            stopPlayback()
        case let .applyOrientation(orientation):
            screen.setOrientation(orientation)
        case .applyReload:
            if let configuration = shared.reader.takeAccepted() { apply(configuration) }
        case let .emit(event):
            events.emit(event)
        }
        needsDraw = true
    }

    /// Retake or a new Start: our own take nobody wanted goes (`own`, the core's); one left by an
    /// earlier run is kept (`TakeStorage.discard`).
    private func discardTake(own: Bool) {
        dropTrimPictures()
        let (output, storage) = (outputPath, storage)
        onFiles { storage.discard(output, own: own) }
    }

    /// Use Video: the take is handed over (`TakeStorage.handOver`).
    private func handOverTake() {
        // The session of the take's own settings: a reload the machine applies on this return
        // to ready comes as the next action, after this one.
        let (output, rename, storage, number, rules) = (outputPath, config.guest.session == .loop, storage, takes.number, retention)
        let protected = core.jobs.protectedTakes
        let trim = takes.trim
        takes.trim = nil
        dropTrimPictures()
        // A boomerang has no sound to level; its outcome says its kind (the core's, of the last take).
        let kind = core.handOver.lastKind
        let (loudness, leveling, boomerang) = (kind == .video ? config.sound.loudness : nil, shared.leveling, kind == .boomerang)
        onFiles(handOver: true) {
            // The cut and the loudness first, while the take still has its marker: a kill during
            // either leaves the whole take.
            let cut = trim.map { TakeCut.cut(output, to: $0) }
            let level = loudness.map { leveling.level(output, to: $0, cut: cut != nil) }
            let failures = [cut?.failure, level?.failure].compactMap { $0 }
            return failures + storage.handOver(output, number: number, rename: rename, rules: rules, protected: protected).map { event in
                let trimmed = cut?.done.map(event.trimmed) ?? event
                let outcome = boomerang && trimmed.handedOverPath != nil ? .boomerang(trimmed) : trimmed
                guard let leveled = level?.done, outcome.handedOverPath != nil else { return outcome }
                return .leveled(outcome, loudness: leveled)
            }
        }
    }

    /// Runs `job` on the file worker, in order with the jobs before it; the events it returns are
    /// emitted on the UI thread when it reports back. `handOver`: Use Video's hand-over.
    func onFiles(handOver: Bool = false, _ job: @escaping @Sendable () -> [KioskEvent]) {
        fileJob { .input(.say(job(), handOver: handOver)) }
    }

    /// Runs `work` on the file worker, in order with the jobs before it, as one of the jobs the exit
    /// waits for: the core counts it out (`.file(.post)`, which `post` carries out). What it returns
    /// is its report: posted as `fileJobReported` with the job the core gave it, that job counted
    /// done as the loop takes it, then handled. The one place a file job meets its report (a report
    /// taken for another job's lost a guest's share: a microphone's close counted as Use Video's
    /// hand-over). The photo is the one job counted apart: it starts on the camera's next frame
    /// (Booth+Photo).
    func fileJob(_ work: @escaping @Sendable () -> BoothMessage) {
        posting.append(work)
        feed(.filePosted)
    }

    /// The core's `.file(.post(job))`: the work being posted goes to the file worker as `job`.
    private func post(_ job: FileJob) {
        let (work, inbox) = (posting.removeFirst(), inbox)
        shared.files.async { inbox.post(.fileJobReported(job, work())) }
    }

    /// The output folder's retention rules.
    var retention: TakeFolder.Retention {
        TakeFolder.Retention(maxTakes: config.storage.maxTakes, maxAge: config.storage.maxAge, keepFree: config.storage.keepFree)
    }
}
