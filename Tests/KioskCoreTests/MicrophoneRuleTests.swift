// The microphone's rule in the booth core (MicrophoneRule): the listening microphone for the meter
// in ready and the countdown, closed before a take opens the device, and silence in a take, on a
// virtual clock.
import Testing
@testable import KioskCore
import KioskContract

@Suite("MicrophoneRule: listening between takes, silence in a take")
struct MicrophoneRuleTests {
    static let s: Int64 = 1_000_000_000
    static let listening = BoothCore.Settings(microphone: true, listensBetweenTakes: true)

    static func listens(_ effects: [BoothCore.Effect]) -> [Bool] {
        effects.compactMap { if case let .listen(on) = $0 { on } else { nil } }
    }

    @Test("it listens in ready once the camera runs; Start closes it before the take is asked for; back in ready it listens again; never without a microphone or a meter, nor on the way out")
    func listening() {
        var core = BoothCore(machine: BoothCoreTests.machine(), settings: Self.listening, now: 0)
        #expect(Self.listens(core.handle(.turn(BoothCore.Turn()), at: 0)) == [true])
        #expect(Self.listens(core.handle(.turn(BoothCore.Turn()), at: Self.s)).isEmpty, "said once")
        let start = core.handle(.event(.press(.start)), at: 2 * Self.s)
        let closes = start.firstIndex(of: .listen(false)), asks = start.firstIndex { if case .file(.openTake) = $0 { true } else { false } }
        #expect(closes != nil && asks != nil && closes! < asks!, "\(start)")
        // The take runs: no listening; it ends and is retaken: listening again in ready.
        #expect(Self.listens(core.handle(.turn(BoothCore.Turn(take: TakeMeasures(elapsed: 1))), at: 3 * Self.s)).isEmpty)
        _ = core.handle(.event(.recordingStarted(outputPath: "/takes/take.mov")), at: 3 * Self.s)
        _ = core.handle(.event(.press(.stop)), at: 4 * Self.s)
        _ = core.handle(.event(.recordingFinished(Fixture.goodTake)), at: 4 * Self.s)
        _ = core.handle(.event(.press(.retake)), at: 5 * Self.s)
        #expect(core.machine.mode == .ready)
        #expect(Self.listens(core.handle(.turn(BoothCore.Turn()), at: 6 * Self.s)) == [true])
        _ = core.handle(.event(.quit), at: 7 * Self.s)
        #expect(Self.listens(core.handle(.turn(BoothCore.Turn()), at: 7 * Self.s)) == [false])
        for settings in [BoothCore.Settings(microphone: false, listensBetweenTakes: true), BoothCore.Settings(microphone: true)] {
            var quiet = BoothCore(machine: BoothCoreTests.machine(), settings: settings, now: 0)
            #expect(Self.listens(quiet.handle(.turn(BoothCore.Turn()), at: 0)).isEmpty)
        }
    }

    @Test("silence in a take: said 3 s after the last sound, once, not before; sound starts it afresh; not just after the process stood still")
    func silence() {
        var core = BoothCore(machine: BoothCoreTests.machine(), settings: Self.listening, now: 0)
        _ = core.handle(.event(.press(.start)), at: 0)
        _ = core.handle(.event(.recordingStarted(outputPath: "/takes/take.mov")), at: 0)
        func said(at t: Int64, sound: Int64?, stalled: Bool = false) -> Bool {
            core.handle(.turn(BoothCore.Turn(take: TakeMeasures(elapsed: Double(t / Self.s)), lastSound: sound, stallAftermath: stalled)), at: t)
                .contains(.emit(.microphoneSilent))
        }
        #expect(!said(at: 0, sound: nil))
        #expect(!said(at: 2 * Self.s, sound: Self.s))
        #expect(!said(at: 4 * Self.s - 1, sound: Self.s))
        #expect(!said(at: 4 * Self.s, sound: Self.s, stalled: true), "just after a stall of the whole process")
        #expect(said(at: 4 * Self.s + 1, sound: Self.s))
        #expect(core.listener.silence.reported)
        #expect(!said(at: 9 * Self.s, sound: Self.s), "once")
        #expect(!said(at: 10 * Self.s, sound: 10 * Self.s) && !core.listener.silence.reported, "sound again")
        #expect(said(at: 13 * Self.s, sound: 10 * Self.s))
    }

    @Test("a boomerang opens no microphone: 5 s of it without a sound is never microphoneSilent (a video's take then is)")
    func boomerangSilence() {
        for kind in [TakeKind.boomerang, .video] {
            var machine = BoothCoreTests.machine()
            machine.boomerangButton = true
            var core = BoothCore(machine: machine, settings: Self.listening, now: 0)
            _ = core.handle(.event(.press(kind == .boomerang ? .boomerang : .start)), at: 0)
            _ = core.handle(.event(.recordingStarted(outputPath: "/takes/take.mov")), at: 0)
            let said = (0...50).contains { tenth in
                let t = Int64(tenth) * Self.s / 10
                return core.handle(.turn(BoothCore.Turn(take: TakeMeasures(elapsed: Double(tenth) / 10), lastSound: nil)), at: t)
                    .contains(.emit(.microphoneSilent))
            }
            #expect(core.machine.mode == .recording && said == (kind == .video), "\(kind)")
        }
    }
}
