// SIGHUP's reload as the core decides it (BoothCore+Reload), which the booth's shell used to guard
// itself with a copy of the machine's rules: read only with a config file, not for the player alone,
// not on the way out; a read one refused or handed to the machine, and READY=1 after it.
import Testing
import KioskContract
@testable import KioskCore

@Suite("BoothCore: SIGHUP's reload, read and applied")
struct BoothCoreReloadTests {
    static func core(_ fixture: Fixture, leaving: Bool = false) -> BoothCore {
        var core = BoothCore(machine: fixture.make(session: .loop), now: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 0)
        if leaving { _ = core.handle(.event(.quit), at: 0) }
        return core
    }

    /// The effects as words: a log line, the read, READY, an error's code, the machine's applyReload.
    static func said(_ effects: [BoothCore.Effect]) -> [String] {
        effects.compactMap { effect in
            switch effect {
            case let .log(line): line
            case .service(.readConfiguration): "read"
            case .service(.reloaded): "READY"
            case let .emit(.error(code, _)): "error \(code.rawValue)"
            case .machine(.applyReload): "apply"
            default: nil
            }
        }
    }

    @Test("SIGHUP: read with a config file, not without one, not for the player alone, not on the way out", arguments: [
        (Fixture.ready, "/etc/kiosk.conf" as String?, false, ["SIGHUP: reading /etc/kiosk.conf again", "read"]),
        (.ready, nil, false, ["SIGHUP: no --config file to reload; ignored"]),
        (.recording, "/etc/kiosk.conf", false, ["SIGHUP: reading /etc/kiosk.conf again", "read"]),
        (.ready, "/etc/kiosk.conf", true, ["SIGHUP: on the way out; nothing to reload"]),
    ])
    func asked(from: Fixture, file: String?, leaving: Bool, said: [String]) {
        var core = Self.core(from, leaving: leaving)
        #expect(Self.said(core.handle(.reload(.asked(file: file)), at: 1)) == said)
    }

    @Test("the command reload where SIGHUP is only logged: refused out loud (notAllowed, why), so its sender hears an answer; on the way out, only logged")
    func command() {
        var core = Self.core(.ready, leaving: false)
        let refused = core.handle(.reload(.asked(file: nil, command: true)), at: 1)
        #expect(Self.said(refused) == ["error notAllowed"])
        #expect(refused.contains { if case let .emit(.error(_, message)) = $0 { message == "reload: no --config file to reload" } else { false } })
        var player = BoothCore(machine: RecorderMachine(playing: "/tmp/a.mov", orientation: .landscapeRight), now: 0)
        #expect(Self.said(player.handle(.reload(.asked(file: "/etc/kiosk.conf", command: true)), at: 1))
            == ["error notAllowed"])
        var leaving = Self.core(.ready, leaving: true)
        #expect(Self.said(leaving.handle(.reload(.asked(file: "/etc/kiosk.conf", command: true)), at: 1)) == ["SIGHUP: on the way out; nothing to reload"])
    }

    @Test("SIGHUP for the player alone: nothing to reload")
    func player() {
        var core = BoothCore(machine: RecorderMachine(playing: "/tmp/a.mov", orientation: .landscapeRight), now: 0)
        #expect(Self.said(core.handle(.reload(.asked(file: "/etc/kiosk.conf")), at: 1)) == ["SIGHUP: the player alone; nothing to reload"])
    }

    static let settings = MachineSettings(session: .loop, shares: false, trims: false, countdown: 5, warnRemaining: 10, orientation: nil)

    @Test("read: refused says badConfig and READY; accepted is logged (kept, changed, when) and applied in ready (or on the way back to it), READY after; on the way out ignored, no READY", arguments: [
        (Fixture.ready, false, true, ["reload: countdown changed in /etc/kiosk.conf but set up at launch: kept as running until a restart",
                                     "reload: changed countdown; applied now", "apply", "READY"]),
        (.recording, false, true, ["reload: countdown changed in /etc/kiosk.conf but set up at launch: kept as running until a restart",
                                   "reload: changed countdown; applied when the booth is back in ready", "READY"]),
        (.ready, false, false, ["error badConfig", "READY"]),
        (.ready, true, true, ["reload: /etc/kiosk.conf read, but the booth is on its way out; ignored"]),
        (.ready, true, false, ["reload: /etc/kiosk.conf read, but the booth is on its way out; ignored"]),
    ])
    func read(from: Fixture, leaving: Bool, accepted: Bool, said: [String]) {
        var core = Self.core(from, leaving: leaving)
        let step: BoothCore.ReloadStep = accepted
            ? .accepted(file: "/etc/kiosk.conf", Self.settings, changed: ["countdown"], kept: ["countdown"])
            : .refused(file: "/etc/kiosk.conf", message: "bad line 3")
        #expect(Self.said(core.handle(.reload(step), at: 1)) == said)
    }
}
