// The effects the core groups by the part of the booth that carries them out: the camera switch's
// steps, the `--on-take` hooks' queue and tries, the photo, the file worker's jobs, and what the
// service manager, logind and the process itself are told. Each is one case of `BoothCore.Effect`.
import KioskContract

extension BoothCore {
    /// The camera switch's steps (BoothCore+Cameras).
    public enum CameraEffect: Equatable, Sendable {
        /// Try camera `index`: the booth, on its camera queue, stops camera `stop` first (the one in
        /// use, or one passed over), starts `index` (nothing heard from any camera meanwhile) and
        /// reports back (`cameraTried`).
        case tryCamera(index: Int, stop: Int?)
        /// The switch ended on camera `index`, now the one heard; `changed`: another than before
        /// (the booth says `cameraChanged` with what it is).
        case inUse(index: Int, changed: Bool)
        /// A tap on the live picture: the camera in use is asked to focus (where it can).
        case focus
        /// `calibrate`: the backdrop measured from the camera's next pictures (`--key auto`).
        case calibrate
    }

    /// The screen's part.
    public enum ScreenEffect: Equatable, Sendable {
        /// What shows changed without a machine action (the attract screen began or ended).
        case redraw
        /// The `tap` command at this point of the display: the screen routes it as a finger's touch,
        /// `visible` the buttons it can press.
        case tap(Point, visible: [Button])
        /// The `focus` command at this point of the display: the screen maps it to the canvas (`focus`).
        case focus(Point)
        /// The `screenshot` command: the screen read back into a new file at `path`.
        case screenshot(path: String)
    }

    /// The `--on-take` hooks (BoothCore+Jobs).
    public enum HookEffect: Equatable, Sendable {
        /// The hook queue as it is now, to be saved (on the file worker); `thenRetention`: a hook
        /// succeeded or its take is gone, so retention runs again after the save.
        case save(String, thenRetention: Bool)
        /// A hook's try is due: the queue (its attempt counted) saved first, then `run` (its end comes
        /// back as `hookEnded`).
        case run(HookQueue.Run, queue: String)
        /// A signal is ending the booth while a hook runs: the booth asks the hook to end (once).
        case stop
    }

    /// The photo (PhotoWait).
    public enum PhotoEffect: Equatable, Sendable {
        /// The shutter: the core counted the photo out as `job` (its outcome brings it back);
        /// `written`: this run's photos so far (`{n}` beside `--output`); `consent`: the one it is taken
        /// under (`--consent`), for the takes' list and the consent log, its line synced before it is said.
        case take(orientation: Orientation, job: FileJob, written: Int, consent: Consent? = nil)
        /// The photo of `job` had no picture within `PhotoWait.waitLimit`: its request is withdrawn
        /// and it is said as failed, unless a picture took it meanwhile (then it is on its way).
        case withdraw(FileJob)
    }

    /// The file worker's jobs the core decides (BoothCore+Jobs, BoothCore+Share).
    public enum FileEffect: Equatable, Sendable {
        /// A take opens (the machine's `startRecording`): of `kind`, in the interface's `orientation` at
        /// its start, asking for `encoder`, under the guestbook's question `title`.
        /// With `--consent`, its file's `comment` tag says the choices agreed to (`Consent.tag`).
        case openTake(orientation: Orientation, kind: TakeKind, encoder: VideoEncoderName, title: String?, comment: String? = nil)
        /// The job the booth is posting is counted out as `job` (`filePosted`): its report comes
        /// back with it, and the exit waits for it.
        case post(FileJob)
        /// Retake, a new Start or an idle discard: the take goes if it is this run's own (`own`); one
        /// left by an earlier run is kept.
        case discard(own: Bool)
        /// The share folder of the take handed over to `take`, its page with `question` (the
        /// guestbook's) and `loops` (a boomerang); `takeShared` or `shareFailed` follows.
        case writeShare(take: String, question: String?, loops: Bool)
        /// The share folder of the photo just written at this path (`size`, upright); `.photo(.shared)`
        /// or `.photo(.shareFailed)` follows.
        case sharePhoto(String, size: Size)
        /// The finished take at this path shows the trimmer (`--trim`): its pictures are decoded on the
        /// file worker, in order with its other work.
        case trimPictures(String)
        /// `--loudness`: the finished take's leveled copy is made at `loudness` (LUFS) while the guest
        /// reviews it (an accepted video that was not lost), so the hand-over need not wait for it.
        case levelAhead(String, loudness: Double)
        /// Use Video's hand-over (TakeStorage.handOver), cut to `trim` first and with a video's sound
        /// set to `loudness` (LUFS) while the take keeps its marker; `protected`: the takes retention
        /// keeps (their hooks are owed); `consent`: the take's (`--consent`), its log line written and
        /// synced before the outcome is said. It reports as `say(_, handOver: true)`.
        case handOver(trim: TrimRange?, boomerang: Bool, loudness: Double?, protected: Set<String>, consent: Consent? = nil)
        /// `hideTake`, `showTake`, `deleteTake`, for the storage (TakeRecords): its event or refusal is said;
        /// `reviewed`: the take the library's review shows, which a delete by share token must not touch.
        case changeTake(TakeChange, reviewed: String?)
    }

    /// What logind and systemd hear, and SIGTSTP's stop.
    public enum ServiceEffect: Equatable, Sendable {
        /// SIGHUP's reload is to be read: systemd hears RELOADING=1 and the file is read on a worker
        /// (BoothCore+Reload).
        case readConfiguration
        /// The reload is done (accepted or refused): systemd hears READY=1.
        case reloaded
        /// What `systemctl status` shows now (STATUS=), said when it changed (BoothCore+Service).
        case status(String)
        /// `--metrics-file`'s figures, to be written with the disk's seconds at `bytesPerSecond` (the
        /// last take's rate); `final`: as the booth leaves, waited for.
        case metrics(BoothFigures, bytesPerSecond: Double?, final: Bool)
        /// A sleep logind announced may go on (SafeStop): the inhibitor is released.
        case releaseSleep
        /// The machine resumed: the inhibitor is taken again.
        case reacquireSleep
        /// SIGTSTP's stop, now that the take is safe: the events said so far go out (at most 1 s),
        /// then the process stops itself (SIGSTOP) until SIGCONT.
        case stopProcess
        /// The machine is on its way out: systemd hears STOPPING=1 (said once).
        case stopping
        /// The loop is alive: systemd's watchdog hears WATCHDOG=1 (when due: `watchdogLook`).
        case watchdog
    }
}
