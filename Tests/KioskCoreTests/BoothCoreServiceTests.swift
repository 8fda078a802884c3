// The service room the booth's shell used to keep itself, now the core's (BoothCore+Service): the
// status line systemd shows and `--metrics-file`'s figures and pace, counted from what the core hears.
import Testing
import KioskContract
@testable import KioskCore

@Suite("BoothCore: the status line and the metrics, counted by the core")
struct BoothCoreServiceTests {
    static let s: Int64 = 1_000_000_000

    static func core(metrics: Bool = true) -> BoothCore {
        var core = BoothCore(machine: RecorderMachine(session: .loop, outputPath: "/tmp/x.mov", orientation: .landscapeRight),
                             settings: BoothCore.Settings(metrics: metrics), now: 0)
        _ = core.handle(.start, at: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 0)
        return core
    }

    static func lines(_ effects: [BoothCore.Effect]) -> [String] {
        effects.compactMap { if case let .service(.status(text)) = $0 { text } else { nil } }
    }

    static func figures(_ effects: [BoothCore.Effect]) -> [BoothFigures] {
        effects.compactMap { if case let .service(.metrics(figures, _, _)) = $0 { figures } else { nil } }
    }

    /// A take recorded from ready (`result`), then `press` on the finished screen.
    static func take(_ core: inout BoothCore, _ result: RecordingResult, then press: Button, at t: Int64) {
        _ = core.handle(.event(.press(.start)), at: t)
        _ = core.handle(.event(.recordingStarted(outputPath: "/tmp/x.mov")), at: t)
        _ = core.handle(.event(.press(.stop)), at: t)
        _ = core.handle(.event(.recordingFinished(result)), at: t)
        _ = core.handle(.event(.press(press)), at: t)
    }

    @Test("the status line: said at the first turn after ready, again only when it changes, never once the booth is on its way out")
    func statusLine() {
        var core = Self.core()
        #expect(Self.lines(core.handle(.turn(BoothCore.Turn()), at: 0)) == ["Ready. No take yet."])
        #expect(Self.lines(core.handle(.turn(BoothCore.Turn()), at: Self.s)).isEmpty)
        var good = Fixture.goodTake
        good.droppedFrames = 3
        Self.take(&core, good, then: .useVideo, at: 2 * Self.s)
        #expect(Self.lines(core.handle(.turn(BoothCore.Turn()), at: 3 * Self.s)) == ["Ready. 1 take since launch, 1 used."])
        _ = core.handle(.event(.quit), at: 4 * Self.s)
        #expect(Self.lines(core.handle(.turn(BoothCore.Turn()), at: 5 * Self.s)).isEmpty)
    }

    @Test("the counts: recorded and used, a discard of a recorded take of ours counted once, a failed take's lost pictures counted but not the take", arguments: [
        // (the takes and what follows each, recorded, used, discarded, lost pictures)
        ([(Fixture.goodTake, Button.useVideo)], 1, 1, 0, 0),
        ([(Fixture.goodTake, .retake)], 1, 0, 1, 0),
        ([(Fixture.badTake, .retake)], 0, 0, 0, 0),
        ([(Fixture.goodTake, .retake), (Fixture.goodTake, .useVideo), (Fixture.goodTake, .retake)], 3, 1, 2, 0),
    ])
    func counts(takes: [(RecordingResult, Button)], recorded: Int, used: Int, discarded: Int, lost: Int) {
        var core = Self.core()
        for (i, (result, press)) in takes.enumerated() { Self.take(&core, result, then: press, at: Int64(i + 1) * Self.s) }
        let f = core.figures
        #expect((f.recorded, f.used, f.discarded, f.framesDropped) == (recorded, used, discarded, lost))
    }

    @Test("the figures' pace: written at the first turn, then at each change at most once a second, again after 10 s unchanged; none without --metrics-file; once more, final, with the exit")
    func pace() {
        var core = Self.core()
        #expect(Self.figures(core.handle(.turn(BoothCore.Turn()), at: 0)).count == 1)
        #expect(Self.figures(core.handle(.turn(BoothCore.Turn()), at: Self.s)).isEmpty, "unchanged")
        _ = core.handle(.event(.cameraLost), at: Self.s + 1)
        #expect(Self.figures(core.handle(.turn(BoothCore.Turn()), at: Self.s + 2)).map(\.cameraUp) == [false])
        _ = core.handle(.event(.cameraBack), at: Self.s + 3)
        #expect(Self.figures(core.handle(.turn(BoothCore.Turn()), at: 2 * Self.s)).isEmpty, "at most once a second")
        #expect(Self.figures(core.handle(.turn(BoothCore.Turn()), at: 2 * Self.s + 2)).map(\.cameraUp) == [true])
        #expect(Self.figures(core.handle(.turn(BoothCore.Turn()), at: 12 * Self.s + 1)).isEmpty)
        #expect(Self.figures(core.handle(.turn(BoothCore.Turn()), at: 12 * Self.s + 2)).count == 1, "again after 10 s")
        _ = core.handle(.event(.quit), at: 13 * Self.s)
        let leaving = core.handle(.turn(BoothCore.Turn()), at: 13 * Self.s + 1)
        #expect(leaving.contains { if case .service(.metrics(_, _, true)) = $0 { true } else { false } }, "\(leaving)")
        var none = Self.core(metrics: false)
        #expect(Self.figures(none.handle(.turn(BoothCore.Turn()), at: 0)).isEmpty)
    }

    @Test("the slow disk goes on the status line: counted when said, its longest wait kept")
    func slowDisk() {
        var core = Self.core()
        _ = core.handle(.event(.press(.start)), at: 0)
        _ = core.handle(.event(.recordingStarted(outputPath: "/tmp/x.mov")), at: 0)
        _ = core.handle(.turn(BoothCore.Turn(take: TakeMeasures(elapsed: 1, syncWaited: 3))), at: Self.s)
        _ = core.handle(.turn(BoothCore.Turn(take: TakeMeasures(elapsed: 2, syncWaited: 5))), at: 2 * Self.s)
        #expect(core.service.status.slowDisk?.count == 1 && core.service.status.slowDisk?.worst == 5)
    }
}
