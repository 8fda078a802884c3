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

    /// A touch (or a key) on the screen for the core, what it says carried out: true when it only
    /// woke the attract screen (it presses nothing then).
    func touchSpent(swallow: Bool) -> Bool {
        let effects = core.handle(.touch(swallow: swallow), at: now)
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
            case let .photo(.take(orientation, job, written, consent)): takePhoto(orientation: orientation, job: job, written: written, consent: consent)
            case let .photo(.withdraw(job)): withdrawPhoto(job)
            case let .file(.openTake(orientation, kind, encoder, title, comment)):
                openTake(orientation: orientation, kind: kind, encoder: encoder, title: title, comment: comment)
            case let .file(.post(job)): post(job)
            case let .file(.discard(own)): discardTake(own: own)
            case let .file(.changeTake(change, reviewed)): changeTake(change, reviewed: reviewed)
            case let .file(.writeShare(take, question, loops)): writeShare(of: take, question: question, loops: loops)
            case let .file(.sharePhoto(path, size)): sharePhoto(path, size: size)
            case let .file(.trimPictures(path)): askTrimPictures(of: path)
            case let .file(.levelAhead(path, loudness)): levelAhead(path, to: loudness)
            case let .file(.handOver(trim, boomerang, loudness, protected, consent)):
                handOverTake(trim: trim, boomerang: boomerang, loudness: loudness, protected: protected, consent: consent)
            case let .log(line): Log.info(line)
            case .screen(.redraw): needsDraw = true
            case let .screen(.tap(point, visible)):
                stats.write("tap", mode: machine.mode, at: now)
                // Routed as a finger's touch is, by the screen; handled as one.
                for input in screen.tap(at: point, visible: pressable(visible)) { handle(input) }
            case let .screen(.focus(point)): feed(.focus(screen.logical(point)))
            case let .screen(.screenshot(path)):
                Screenshot.take(to: path, output: outputPath, screen: screen, queue: shared.screenshots, inbox: inbox, events: events)
            case let .emit(event): events.emit(event)
            case let .ready(encoder, microphone): sayReady(encoder: encoder, microphone: microphone)
            case let .camera(.tryCamera(index, stop)): cameras.tryCamera(index, stopping: stop, controls: config.capture.cameraControls)
            case let .camera(.inUse(index, changed)): cameras.inUse(index, changed: changed)
            case .camera(.focus): camera.triggerFocus()
            case .camera(.calibrate): shared.backdrop.start()
            case let .hook(.save(text, thenRetention)): saveHooks(text, thenRetention: thenRetention)
            case let .hook(.run(run, queue)): runHook(run, queue: queue)
            case .hook(.stop): shared.hooks.stop()
            case .touchSpent: break
            case let .listen(wanted): shared.listen(wanted, config.capture.microphone, make: parts.makeMicrophone)
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
        case .switchCamera, .startShareClock, .startCountdownClock, .exit, .takePhoto, .discardTake, .keepTake, .shareTake, .handOverTake, .startRecording:
            // The core's own (`BoothCore.keeps`): it never passes them on.
            assertionFailure("the core passed on \(action)")
        case .startCamera:
            cameras.startInUse(controls: config.capture.cameraControls)
        case .stopCamera:
            cameras.stopInUse(resting: takes.current?.writer)
        case .listLibrary:
            listLibrary()
        case .releaseLibrary:
            releaseLibrary()
        case let .stopRecording(reason):
            // Before the writer reported its start there is nothing to stop yet: the machine asks
            // again when the start arrives.
            takes.current?.writer.stop(reason: reason)
        case let .playSound(sound):
            parts.audio.play(sound)
        case let .startPlayback(path):
            player.stopPlayback()
            // The review's player takes the screen's player surface from a boomerang's loop (the
            // core stopped the attract slideshow just before).
            player.endReview()
            // The review of a trimmed take plays only the part kept (`--trim`).
            player.playback = Playback(path: path, screen: screen, audio: parts.audio, loop: player.loops,
                                       range: machine.mode == .playing ? machine.trim : nil)
        case let .setPlaybackPaused(paused):
            player.playback?.setPaused(paused)
        case let .seekPlayback(seconds):
            player.playback?.seek(to: seconds)
        case .stopPlayback:
            player.stopPlayback()
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

    /// `hideTake`, `showTake`, `deleteTake`, on the file worker (TakeStorage.change); a deleted take's
    /// tombstone, saved there, is owed in the core's queue before its event is said.
    private func changeTake(_ change: TakeChange, reviewed: String?) {
        let (storage, shares, tombstones, inbox) = (storage, config.share.folder, config.service.onDelete != nil, inbox)
        fileJob {
            let (events, tombstone) = storage.change(change, shares: shares, reviewed: reviewed, tombstones: tombstones)
            if let tombstone { inbox.post(.input(.hookOwed(tombstone))) }
            return .input(.say(events))
        }
    }

    /// Use Video: the take is handed over (HandOver.swift), as the core says (`.file(.handOver)`).
    private func handOverTake(trim: TrimRange?, boomerang: Bool, loudness: Double?, protected: Set<String>, consent: Consent?) {
        // The session of the take's own settings: a reload the machine applies on this return
        // to ready comes as the next action, after this one.
        let (output, rename, storage, number, rules, leveling) = (outputPath, config.guest.session == .loop, storage, takes.number, retention, shared.leveling)
        dropTrimPictures()
        onFiles(handOver: true) {
            storage.handOver(output, number: number, rename: rename, rules: rules, protected: protected, trim: trim, boomerang: boomerang,
                             loudness: loudness, leveling: leveling, consent: consent)
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
