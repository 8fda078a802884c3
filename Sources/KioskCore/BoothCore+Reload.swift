// The booth core's reload room (SIGHUP): whether a reload is read at all (a `--config` file to read,
// not the player alone, not on the way out), and what a read one leads to: refused (`badConfig`, the
// running settings kept), or handed to the machine, which applies it in ready (`applyReload`); said in
// the log either way, and systemd hears READY=1 once it is done, unless the booth is on its way out
// (STOPPING=1 said). The booth reads the file on a worker, checks its words against the fonts and
// holds the whole configuration; the machine's part comes in as `MachineSettings`.
import KioskContract

extension BoothCore {
    /// A reload's steps, as the booth reports them.
    public enum ReloadStep: Sendable {
        /// SIGHUP, or the command `reload` (`command`, refused out loud where SIGHUP is only logged):
        /// `file` is the `--config` file to read again (nil: none to read).
        case asked(file: String?, command: Bool = false)
        /// The file (`file`: its name, or "the command line") was read again and refused: why.
        case refused(file: String, message: String)
        /// It was read and accepted: the machine's part of it, the settings it changed and those
        /// set up at launch that stay as running until a restart.
        case accepted(file: String, MachineSettings, changed: [String], kept: [String])
    }

    mutating func reload(_ step: ReloadStep) -> [Effect] {
        switch step {
        case let .asked(file, command):
            let why = file == nil ? "no --config file to reload" : machine.playerFile != nil ? "the player alone; nothing to reload" : "on the way out; nothing to reload"
            guard let file, machine.playerFile == nil, !machine.exiting else {
                return command && !machine.exiting ? [.emit(.error(code: .notAllowed, message: "reload: \(why)"))] : [.log("SIGHUP: \(why)\(file == nil ? "; ignored" : "")")]
            }
            return [.log("SIGHUP: reading \(file) again"), .service(.readConfiguration)]
        case let .refused(file, message):
            guard !machine.exiting else { return [.log("reload: \(file) read, but the booth is on its way out; ignored")] }
            return [.emit(.error(code: .badConfig, message: "reload of \(file) refused, the running settings are kept: \(message)")),
                    .service(.reloaded)]
        case let .accepted(file, settings, changed, kept):
            guard !machine.exiting else { return [.log("reload: \(file) read, but the booth is on its way out; ignored")] }
            var effects: [Effect] = []
            if !kept.isEmpty {
                effects.append(.log("reload: \(kept.joined(separator: ", ")) changed in \(file) but set up at launch: kept as running until a restart"))
            }
            let when = machine.mode == .ready ? "now" : "when the booth is back in ready"
            effects += [.log("reload: \(changed.isEmpty ? "no setting changed" : "changed " + changed.joined(separator: ", ")); applied \(when)"),
                        .emit(.reloaded(changed: changed, kept: kept))]
            // The machine says when it is in force (`applyReload`); the booth holds the whole of it.
            return effects + handle(.reload(settings)) + [.service(.reloaded)]
        }
    }
}
