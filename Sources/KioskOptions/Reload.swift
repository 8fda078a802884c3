// SIGHUP's reload, decided without side effects: the command line parsed again with its config
// file read anew (so flags still win), and what the new settings change, sorted by when a change
// can take effect. The booth carries the decision out; the machine says when (in ready).
import KioskContract
import KioskCore

/// Where the running configuration came from, kept to read it again on SIGHUP: the command line
/// as it was given, parsed anew, which reads its `--config` file again.
public struct ConfigurationSource: Sendable {
    public let parser: OptionParser
    public let arguments: [String]

    public init(parser: OptionParser, arguments: [String]) {
        self.parser = parser
        self.arguments = arguments
    }

    /// The configuration as the command line and the file say now (`OptionParser.parse`, which
    /// also runs `validate`). Reads a file: call it off the UI thread.
    public func read() throws(UsageError) -> Configuration {
        switch try parser.parse(arguments) {
        case let .record(configuration), let .play(_, configuration, _), let .listCameras(configuration), let .check(configuration):
            return configuration
        case .help, .version, .send:
            throw UsageError("the command line no longer starts a booth")
        }
    }
}

/// When a changed setting takes effect.
public enum ReloadEffect: Sendable {
    /// Cannot change while the booth runs (where takes go, the control socket): a reload that
    /// changes it is refused.
    case refused
    /// Set up once at launch (the camera's device and format, the window): the running value is
    /// kept until the booth is restarted, and the log says so.
    case atRestart
    /// Applied when the booth is in ready: the next take, the next hand-over, the preview.
    case inReady
}

/// One setting as a reload sees it: its option's name, when a change takes effect, and how to
/// compare it and (for `atRestart`) keep the running value. Each option of the table that is a
/// setting carries one (`OptionSpec.setting`).
struct ReloadSetting: Sendable {
    let option: String
    let effect: ReloadEffect
    let differs: @Sendable (Configuration, Configuration) -> Bool
    /// Puts the running value back into a reloaded configuration.
    let keep: @Sendable (inout Configuration, Configuration) -> Void
    /// The field's value, for the test that a default declared unset is nil or empty.
    let read: @Sendable (Configuration) -> any Sendable

    init<Value: Equatable & Sendable>(_ option: String, _ effect: ReloadEffect,
                                      _ path: WritableKeyPath<Configuration, Value> & Sendable) {
        self.option = option
        self.effect = effect
        differs = { $0[keyPath: path] != $1[keyPath: path] }
        keep = { $0[keyPath: path] = $1[keyPath: path] }
        read = { $0[keyPath: path] }
    }
}

/// What a reloaded configuration does to the running one.
public enum ReloadDecision: Equatable, Sendable {
    /// Refused (an `error` event `badConfig` with `message`): the running settings stay.
    case refused(message: String)
    /// To be applied in ready: `configuration` (with the `atRestart` settings as running),
    /// `changed` the options it changes, `keptUntilRestart` those that wait for a restart.
    case accepted(Configuration, changed: [String], keptUntilRestart: [String])
}

extension Configuration {
    /// Every setting of the configuration but `configFile` (the same command line names the same
    /// file), as the option table declares them; each member of a family (`camera.*`, `label.*`: one
    /// entry of a dictionary each) under the family's name. A test checks that none is missing.
    static let reloadSettings: [ReloadSetting] = OptionParser.options.compactMap(\.setting)

    /// What replacing this running configuration with `reloaded` (already parsed and validated)
    /// does: refused when it changes a setting that cannot change while running, otherwise
    /// accepted with the settings set up at launch kept as they run.
    public func reload(to reloaded: Configuration) -> ReloadDecision {
        let changed = Self.reloadSettings.filter { $0.differs(self, reloaded) }
        // A family is said once, however many of its members changed.
        func names(_ settings: [ReloadSetting]) -> [String] {
            var said: Set<String> = []
            return settings.map(\.option).filter { said.insert($0).inserted }
        }
        let refused = names(changed.filter { $0.effect == .refused })
        if !refused.isEmpty {
            let names = refused.joined(separator: ", ")
            return .refused(message: "\(names) cannot change while the booth runs; restart it to change \(refused.count == 1 ? "it" : "them")")
        }
        var applied = reloaded
        let kept = changed.filter { $0.effect == .atRestart }
        for setting in kept { setting.keep(&applied, self) }
        return .accepted(applied, changed: names(changed.filter { $0.effect == .inReady }), keptUntilRestart: names(kept))
    }
}

extension Configuration {
    /// What of these settings the machine reads (`RecorderEvent.reload`): the rest the booth puts in
    /// force when the machine says `applyReload`.
    public var machineSettings: MachineSettings {
        MachineSettings(session: guest.session, shares: share.folder != nil, trims: guest.trim, countdown: guest.countdown,
                        warnRemaining: limits.warnRemaining, orientation: screen.orientation,
                        consent: guest.consent.map { ConsentOffer(version: $0.version, choices: guest.consentChoices) })
    }
}
