// SIGHUP's reload, read: the command line parsed again and its `--config` file read anew on a worker
// of its own (a file on a stuck mount holds up nothing else), a new language's font files looked up
// there too; then the configuration accepted is held until the machine applies it in ready (a newer
// reload replacing one still waiting). Whether a reload is read, and what follows it, are the core's
// (BoothCore+Reload).
import KioskContract
import KioskCore
import KioskOptions
import KioskSystem
import KioskUI

final class ConfigurationReader: Sendable {
    /// The command line to parse again; nil: none (the player alone, a test's booth).
    private let source: ConfigurationSource?
    private let queue: any Executor
    /// The configuration accepted and not yet applied: set and taken on the UI thread.
    private let accepted = Locked<Configuration?>(nil)

    init(source: ConfigurationSource?, queue: any Executor) {
        self.source = source
        self.queue = queue
    }

    /// The configuration read again, posted to `inbox` as `configurationRead`.
    func read(reportingTo inbox: Inbox) {
        guard let source else { return }
        queue.async {
            let read = Result { () throws(UsageError) in try source.read() }
            // A new language's font files are read here, not on the UI thread that checks them.
            if case let .success(configuration) = read {
                FontLookup.preload(language: configuration.screen.language, font: configuration.screen.font)
            }
            inbox.post(.configurationRead(read))
        }
    }

    /// What the configuration read (`result`) is to the core, against the `running` one: refused
    /// (`badConfig`, the running one kept), or accepted, its machine's part for the machine, which
    /// applies it in ready, and the whole of it held here until then. A reload that changes the words
    /// on screen (language, labels, prompt, font) is refused like a bad file when `checkWords`
    /// throws (a `--font` that is no font); a character no font has is left out, not refused.
    func hand(_ result: Result<Configuration, UsageError>, running: Configuration,
              checkWords: (Configuration) throws -> Void) -> BoothCore.ReloadStep {
        let file = running.configFile ?? "the command line"
        let decision = switch result {
        case let .failure(error): ReloadDecision.refused(message: error.message)
        case let .success(reloaded): running.reload(to: reloaded)
        }
        switch decision {
        case let .refused(message):
            return .refused(file: file, message: message)
        case let .accepted(next, changed, kept):
            if next.textDiffers(from: running) {
                do { try checkWords(next) } catch { return .refused(file: file, message: "\(error)") }
            }
            accepted.withLock { $0 = next }
            return .accepted(file: file, next.machineSettings, changed: changed, kept: kept)
        }
    }

    /// The configuration accepted, once (nil: none waits).
    func takeAccepted() -> Configuration? { accepted.withLock { c in defer { c = nil }; return c } }
}
