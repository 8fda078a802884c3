// Rules the booth's shell used to decide itself, now the core's: the settings the rules read come
// in as an input (a reload's), STOPPING=1 is said once, and which modes show the live picture.
import Testing
@testable import KioskCore
import KioskContract

@Suite("BoothCore: the settings as an input, STOPPING said once, the live modes")
struct BoothCoreShellRulesTests {
    static let second: Int64 = 1_000_000_000

    @Test("settings come in as an input: the idle reset reads the new timeout from the next turn on, and nothing else happens at the input itself")
    func settingsInput() {
        var core = BoothCore(machine: Fixture.finished.make(session: .loop), settings: BoothCore.Settings(idleTimeout: 60, idleAction: .use), now: 0)
        #expect(core.handle(.turn(BoothCore.Turn()), at: 0).isEmpty)
        #expect(core.handle(.settings(BoothCore.Settings(idleTimeout: 10, idleAction: .discard)), at: 1 * Self.second).isEmpty)
        #expect(core.settings.idleTimeout == 10)
        #expect(!core.handle(.turn(BoothCore.Turn()), at: 9 * Self.second).contains(.machine(.discardTake)))
        let due = core.handle(.turn(BoothCore.Turn()), at: 11 * Self.second)
        #expect(due.contains(.machine(.discardTake)), "\(due)")
        #expect(due.contains(.log("idle for 10.0 s: the take is reset (idle-action discard)")), "\(due)")
    }

    @Test("STOPPING: said once, with the input that set the machine on its way out, and never again, whatever follows", arguments: [
        RecorderEvent.quit, .terminate(signal: "SIGTERM"), .press(.cancel),
    ])
    func stoppingOnce(leaving: RecorderEvent) {
        var core = BoothCore(machine: RecorderMachine(session: .once, outputPath: "/tmp/x.mov", orientation: .landscapeRight), now: 0)
        _ = core.handle(.start, at: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 0)
        #expect(!core.handle(.turn(BoothCore.Turn()), at: 1).contains(.stopping))
        let said = core.handle(.event(leaving), at: 2)
        #expect(said.filter { $0 == .stopping }.count == 1, "\(said)")
        #expect(core.stoppingSaid)
        var later: [BoothCore.Effect] = []
        for at in 3..<10 { later += core.handle(.turn(BoothCore.Turn()), at: Int64(at)) + core.handle(.event(.quit), at: Int64(at)) }
        #expect(!later.contains(.stopping), "\(later)")
    }

    @Test("the live picture shows in ready, the countdown and the take, in no other mode", arguments: Mode.allCases)
    func live(mode: Mode) {
        #expect(mode.live == [.ready, .countdown, .recording].contains(mode))
    }

    @Test("the machine's actions the core carries out itself (the camera switch, the two clocks, the exit, the photo) never reach the booth as .machine: from every fixture, every press and command", arguments: Fixture.allCases)
    func keptActionsStay(fixture: Fixture) {
        let events: [RecorderEvent] = Button.allCases.map { .press($0) }
            + [.start(countdown: 3), .quit, .terminate(signal: "SIGTERM"), .stateQuery, .countdownTick, .cameraLost, .background]
        for event in events {
          for session in SessionMode.allCases {
            var machine = fixture.make(session: session)
            machine.photoButton = true
            var core = BoothCore(machine: machine, settings: BoothCore.Settings(), now: 0)
            let said = core.handle(.event(event), at: 0) + core.handle(.turn(BoothCore.Turn()), at: 5 * Self.second)
            let passed = said.compactMap { if case let .machine(action) = $0 { action } else { nil } }
            #expect(!passed.contains(where: BoothCore.keeps), "\(fixture) + \(event): \(passed)")
          }
        }
    }
}
