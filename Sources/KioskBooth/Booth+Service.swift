// The booth and its service manager: signals, the machine's sleep, SIGTSTP, SIGHUP's reload and
// what systemd is told (READY, RELOADING, STOPPING, STATUS).
import FoundationEssentials
import Glibc
import KioskCore
import KioskOptions
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
            readConfiguration()
        default:
            tell(.terminate(signal: Booth.signalName(number)))
        }
    }

    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "SIG\(number)"
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
    func readConfiguration() {
        feed(.reload(.asked(file: parts.configurationSource == nil ? nil : config.configFile)))
    }

    /// The core's `.service(.readConfiguration)`: the command line parsed again, its config file read
    /// anew, off the UI thread; the answer comes back as `configurationRead`.
    func readConfigurationFile() {
        guard let source = parts.configurationSource else { return }
        tellService(.reloading(monotonicUSec: now / 1000))
        let inbox = inbox
        shared.configReader.async {
            let read = Result { () throws(UsageError) in try source.read() }
            // A new language's font files are read here, not on the UI thread that checks them.
            if case let .success(configuration) = read {
                FontLookup.preload(language: configuration.screen.language, font: configuration.screen.font)
            }
            inbox.post(.configurationRead(read))
        }
    }

    /// The configuration read again, checked (its words against the fonts) and handed to the core:
    /// refused (`badConfig`, the running one kept), or the machine's part of it to the machine, which
    /// applies it in ready; the booth holds the whole of it (a newer reload replacing one still
    /// waiting). Either way the reload is done for systemd (READY=1): a reload held for the end of a
    /// take must not keep the unit "reloading" for as long.
    func reload(_ result: Result<Configuration, UsageError>) {
        let file = config.configFile ?? "the command line"
        let decision = switch result {
        case let .failure(error): ReloadDecision.refused(message: error.message)
        case let .success(reloaded): checkedWords(config.reload(to: reloaded))
        }
        switch decision {
        case let .refused(message):
            feed(.reload(.refused(file: file, message: message)))
        case let .accepted(configuration, changed, kept):
            service.pendingReload = configuration
            feed(.reload(.accepted(file: file, configuration.machineSettings, changed: changed, kept: kept)))
        }
    }

    /// A reload that changes the words on screen (language, labels, prompt, font) is accepted only
    /// when a font has every glyph of them; otherwise it is refused like a bad file.
    private func checkedWords(_ decision: ReloadDecision) -> ReloadDecision {
        guard case let .accepted(next, _, _) = decision, next.textDiffers(from: config) else { return decision }
        let shown = next.screen
        do { try screen.checkWords(shown.words, prompt: next.guestTexts, font: shown.font) } catch {
            return .refused(message: "\(error)")
        }
        return decision
    }

    /// The machine applies a reloaded configuration (in ready): the words on screen, the camera's
    /// controls, the preview; the rest is read where it is used.
    func apply(_ configuration: Configuration) {
        let shown = configuration.screen
        if configuration.textDiffers(from: config) {
            // Checked when the reload was accepted; a font file changed on disk since is logged.
            do { try screen.setWords(shown.words, prompt: configuration.guestTexts, font: shown.font) } catch {
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
    /// decoded by the launch's or the reload's option check, so taken here without decoding).
    func showOverlay(_ video: Configuration.Video) {
        let overlay = parts.overlays.take(video.overlay, portrait: video.overlayPortrait)
        do { try screen.setOverlay(overlay?.landscape, portrait: overlay?.portrait) } catch {
            Log.info("overlay: the preview shows none: \(error)")
        }
    }

    // MARK: - systemd

    /// Tells systemd (when it listens) without waiting; the first message that cannot go is logged.
    func tellService(_ state: ServiceState) {
        guard let notifier = parts.notifier, let failure = notifier.notify(state), notifier.failedSends == 1 else { return }
        Log.info("systemd notify: \(failure) (later failures are not logged)")
    }
}
