// The machine's sleep and SIGTSTP as the core keeps them (SafeStop, through BoothCore): let go only
// once no take is being written, and before `ready` at once.
import Testing
@testable import KioskCore

@Suite("SafeStop: the machine's sleep and SIGTSTP wait for the take to be safe")
struct SafeStopTests {
    /// A core from `fixture`, its gate open (`ready` out).
    static func core(_ fixture: Fixture) -> BoothCore {
        var core = BoothCore(machine: fixture.make(session: .loop), now: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 0)
        return core
    }

    static func lets(_ effects: [BoothCore.Effect]) -> [BoothCore.Effect] {
        effects.filter { [.service(.releaseSleep), .service(.reacquireSleep), .service(.stopProcess)].contains($0) }
    }

    @Test("mid-take: the take stopped as on background; the sleep and the stop go only with recordingFinished, once", arguments: [true, false])
    func midTake(sleep: Bool) {
        var core = Self.core(.recording)
        let asked = core.handle(sleep ? .service(.sleep(true)) : .service(.terminalStop), at: 0)
        #expect(asked.contains(.machine(.stopRecording(.background))), "\(asked)")
        #expect(Self.lets(asked) == [])
        #expect(Self.lets(core.handle(.turn(BoothCore.Turn()), at: 1)) == [], "still writing")
        let finished = core.handle(.event(.recordingFinished(Fixture.goodTake)), at: 2)
        #expect(Self.lets(finished) == [sleep ? .service(.releaseSleep) : .service(.stopProcess)], "\(finished)")
        #expect(Self.lets(core.handle(.turn(BoothCore.Turn()), at: 3)) == [], "once")
    }

    @Test("in ready, and before ready: let go at once; the resume takes the inhibitor again (after ready only)")
    func nothingRecording() {
        var ready = Self.core(.ready)
        #expect(Self.lets(ready.handle(.service(.sleep(true)), at: 0)) == [.service(.releaseSleep)])
        #expect(Self.lets(ready.handle(.service(.sleep(false)), at: 1)) == [.service(.reacquireSleep)])
        #expect(Self.lets(ready.handle(.service(.terminalStop), at: 2)) == [.service(.stopProcess)])
        var starting = BoothCore(machine: Fixture.ready.make(), now: 0)
        let early = starting.handle(.service(.sleep(true)), at: 0)
        #expect(early == [.service(.releaseSleep)], "nothing said, no background before ready: \(early)")
        #expect(starting.handle(.service(.sleep(false)), at: 1) == [], "the resume comes again after ready")
    }
}
