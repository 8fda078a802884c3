// The booth and its service manager: signals, the machine's sleep, SIGTSTP, SIGHUP's reload and
// what systemd is told (READY, RELOADING, STOPPING, STATUS).
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskOptions
import KioskScreenText
import KioskMedia
import KioskSystem
import KioskUI

extension Booth {
    /// A signal the watcher took.
    func handle(signal number: Int32) {
        switch number {
        case SIGUSR1:
            tell(.background)
        case SIGTSTP:
            feed(.service(.terminalStop))
        case SIGUSR2, SIGCONT:
            tell(.foreground)
        case SIGHUP:
            readConfiguration(command: false)
        default:
            tell(.terminate(signal: SignalWatcher.name(of: number)))
        }
    }

    /// SIGTSTP's stop, the take safe (the core's SafeStop): its `recordingFinished` goes out first
    /// (at most 1 s for a reader that does not read: the process is about to stop anyway).
    func stopProcess() {
        events.flush(timeout: 1)
        parts.stopProcess()
    }

    // MARK: - Reload

    /// SIGHUP: the core says whether there is a reload to read (BoothCore+Reload).
    func readConfiguration(command: Bool) {
        feed(.reload(.asked(file: parts.configurationSource == nil ? nil : config.configFile, command: command)))
    }

    /// The core's `.service(.readConfiguration)`: systemd hears RELOADING=1, and the reader reads the
    /// configuration again; the answer comes back as `configurationRead`.
    func readConfigurationFile() {
        tellService(.reloading(monotonicUSec: now / 1000))
        shared.reader.read(reportingTo: inbox)
    }

    /// The configuration read again, checked against the running one and the screen's fonts and
    /// handed to the core (ConfigurationReader.hand). Either way the reload is done for systemd
    /// (READY=1): a reload held for the end of a take must not keep the unit "reloading" for as long.
    func reload(_ result: Result<Configuration, UsageError>) {
        let screen = screen
        feed(.reload(shared.reader.hand(result, running: config) { next in
            try screen.checkWords(next.screen.words, texts: next.shownTexts, font: next.screen.font)
        }))
    }

    /// The machine applies a reloaded configuration (in ready): the words on screen, the camera's
    /// controls, the preview; the rest is read where it is used.
    func apply(_ configuration: Configuration) {
        let shown = configuration.screen
        if configuration.textDiffers(from: config) {
            // Checked when the reload was accepted; a font file changed on disk since is logged.
            do {
                let undrawable = try screen.setWords(shown.words, texts: configuration.shownTexts, font: shown.font)
                if let warning = Glyphs.warning(undrawable) { Log.info("reload: warning: \(warning)") }
            } catch {
                Log.info("reload: the words on screen are kept: \(error)")
            }
        }
        config = configuration
        // The core's rules read it from now on (a Start in this same turn asks for the new encoder).
        feed(.settings(Self.coreSettings(configuration, parts: parts)))
        camera.setControls(configuration.capture.cameraControls)
        screen.setPreview(mirror: shown.mirrorPreview, cameraMount: configuration.capture.cameraRotation,
                          fit: shown.shownPreviewFit(overlay: configuration.video.overlay != nil))
        showOverlay(configuration.video)
        Log.info("reload: the settings of \(configuration.configFile ?? "the command line") are in force")
    }

    /// The operator's overlay over the live preview, the pictures the takes get (`OverlayFiles`:
    /// decoded by the launch's or the reload's option check, so taken here without decoding); and
    /// the green screen's background and key, from the camera's next picture on.
    func showOverlay(_ video: Configuration.Video) {
        shared.key.set(video.keySettings(measured: shared.backdrop.measured))
        shared.backdrop.startIfUnmeasured(auto: video.keyInForce == .auto)
        let overlay = parts.overlays.take(video.overlay, portrait: video.overlayPortrait)
        do { try screen.setOverlay(overlay?.landscape, portrait: overlay?.portrait) } catch {
            Log.info("overlay: the preview shows none: \(error)")
        }
    }

    /// `--key auto`'s measure of the backdrop (KeyCalibration): said (`keyCalibrated`, its warning
    /// also as an `error` `keyBackdrop`), and the key from the camera's next picture on.
    func keyMeasured(_ measure: BackdropMeasure) {
        events.emit(.keyCalibrated(colour: measure.colour.description, similarity: measure.similarity, warning: measure.warning))
        _ = measure.warning.map { events.emit(.error(code: .keyBackdrop, message: "--key auto: \($0)")) }
        shared.key.set(config.video.keySettings(measured: measure))
    }

    /// The core's `.service(.metrics)`: its figures written by the metrics file's worker
    /// (MetricsWriter, which adds the last take's time).
    func writeMetrics(_ figures: BoothFigures, bytesPerSecond: Double?, final: Bool) {
        shared.metrics?.write(figures, output: outputPath, keepFree: config.limits.minFreeDisk, bytesPerSecond: bytesPerSecond, waiting: final)
    }

    // MARK: - systemd

    /// Tells systemd (when it listens) without waiting.
    func tellService(_ state: ServiceState) {
        parts.notifier?.tell(state)
    }
}
