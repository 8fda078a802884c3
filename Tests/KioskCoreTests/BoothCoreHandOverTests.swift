// The hand-over room the booth's shell used to keep itself, now the core's (BoothCore+Share): which
// take on disk is this run's own, and Use Video's share and `--on-take` hook in their order; and a
// file job counted out as an input (`.filePosted`), never through a side door.
import Testing
import KioskContract
@testable import KioskCore

@Suite("BoothCore: this run's take on disk, the share before the hook, file jobs counted out")
struct BoothCoreHandOverTests {
    static let out = "/tmp/test-take.mov"

    /// A booth core whose machine is `fixture`, with a hook (and `shares`: a share folder and address).
    static func core(_ fixture: Fixture, shares: Bool = false, session: SessionMode = .loop) -> BoothCore {
        var machine = fixture.make(session: session)
        if shares, fixture == .stopping {
            machine = RecorderMachine(session: session, outputPath: out, orientation: .landscapeRight, shares: true)
            _ = machine.start()
            _ = machine.handle(.press(.start))
            _ = machine.handle(.recordingStarted(outputPath: out))
            _ = machine.handle(.press(.stop))
        }
        return BoothCore(machine: machine, settings: BoothCore.Settings(shares: shares, onTake: "upload"), now: 0)
    }

    /// The discards the core said, as their `own`.
    static func discards(_ effects: [BoothCore.Effect]) -> [Bool] {
        effects.compactMap { if case let .file(.discard(own)) = $0 { own } else { nil } }
    }

    @Test("a discard says whether the take is this run's own: only after a take of this run finished, and not once it was handed over or discarded", arguments: [
        // (from, what happens, the discards said by the last press)
        (Fixture.ready, [RecorderEvent](), Button.start, [false]),
        (.stopping, [.recordingFinished(Fixture.goodTake)], .retake, [true]),
        (.stopping, [.recordingFinished(Fixture.badTake)], .retake, [true]),
        (.stopping, [.recordingFinished(Fixture.goodTake), .press(.retake)], .start, [false]),
        (.stopping, [.recordingFinished(Fixture.goodTake), .press(.useVideo)], .start, [false]),
        (.finished, [], .retake, [false]),
    ])
    func ownOnDisk(from: Fixture, before: [RecorderEvent], press: Button, said: [Bool]) {
        var core = Self.core(from)
        for event in before { _ = core.handle(.event(event), at: 0) }
        let effects = core.handle(.event(.press(press)), at: 1)
        #expect(Self.discards(effects) == said, "\(effects)")
        #expect(!effects.contains(.machine(.discardTake)), "the discard is the core's: \(effects)")
        #expect(!core.handOver.ownOnDisk)
    }

    @Test("Use Video's hand-over is the core's file job: the trim the guest kept, a video's loudness (never a boomerang's), a boomerang said as one, and the takes whose hooks are owed kept from retention", arguments: [
        // (the take's kind, --loudness, the trim asked for, a hook owed, the hand-over said)
        (TakeKind.video, Double?.none, TrimRange?.none, String?.none, BoothCore.FileEffect.handOver(trim: nil, boomerang: false, loudness: nil, protected: [])),
        (.video, -16, nil, nil, .handOver(trim: nil, boomerang: false, loudness: -16, protected: [])),
        (.boomerang, -16, nil, nil, .handOver(trim: nil, boomerang: true, loudness: nil, protected: [])),
        (.video, nil, TrimRange(start: 1, end: 3), nil, .handOver(trim: TrimRange(start: 1, end: 3), boomerang: false, loudness: nil, protected: [])),
        (.video, nil, nil, "/t/old.mov", .handOver(trim: nil, boomerang: false, loudness: nil, protected: ["old.mov"])),
    ])
    func handOverSays(kind: TakeKind, loudness: Double?, trim: TrimRange?, owed: String?, said: BoothCore.FileEffect) {
        var machine = RecorderMachine(session: .loop, outputPath: Self.out, orientation: .landscapeRight, trims: true)
        _ = machine.start()
        _ = machine.handle(.press(.start))
        _ = machine.handle(.recordingStarted(outputPath: Self.out))
        _ = machine.handle(.press(.stop))
        var core = BoothCore(machine: machine, settings: BoothCore.Settings(onTake: "upload", loudness: loudness), now: 0)
        if let owed { _ = core.handle(.hookOwed(HookQueue.Entry(path: owed, duration: 1)), at: 0) }
        var take = Fixture.goodTake
        take.kind = kind
        _ = core.handle(.event(.recordingFinished(take)), at: 1)
        if let trim { _ = core.handle(.event(.trim(trim)), at: 2) }
        let used = core.handle(.event(.press(.useVideo)), at: 3)
        #expect(used.filter { if case .file(.handOver) = $0 { true } else { false } } == [.file(said)], "\(used)")
        #expect(!used.contains { if case .machine(.handOverTake) = $0 { true } else { false } }, "\(used)")
    }

    /// What the share room said, in order: a share folder to write, a hook's try (its take, its
    /// share token), the machine's `shareFailed` error.
    static func said(_ effects: [BoothCore.Effect]) -> [String] {
        effects.compactMap { effect in
            switch effect {
            case let .file(.writeShare(take, _, loops)): "share \(take)\(loops ? " loops" : "")"
            case let .hook(.run(run, _)):
                "hook \(run.path) \(run.environment["KIOSK_TAKE_DURATION"] ?? "?") \(run.environment["KIOSK_SHARE_TOKEN"] ?? "-")"
            case let .machine(.emit(.error(code, _))) where code == .shareFailed: "shareFailed"
            default: nil
            }
        }
    }

    static let handedOver = KioskEvent.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: "/t/1.mov")
    static let link = ShareLink(url: "http://booth/s/abc/", token: "abc", folder: "/srv/share/abc")

    @Test("Use Video: the hand-over's report owes the hook at once, or with a share writes the folder first and owes the hook (with its token) once it is written or failed; a photo's link or another job's report changes nothing", arguments: [
        // (shares, the hand-over's report, what follows it, said at the report, said after)
        (false, [handedOver], [RecorderEvent](), ["hook /t/1.mov 3.2 -"], [String]()),
        (false, [KioskEvent](), [], [], []),
        (true, [handedOver], [.takeShared(link)], ["share /t/1.mov"], ["hook /t/1.mov 3.2 abc"]),
        (true, [handedOver], [.shareFailed(message: "disk full")], ["share /t/1.mov"], ["hook /t/1.mov 3.2 -", "shareFailed"]),
        (true, [handedOver], [.takeShared(ShareLink(url: "u", token: "p", folder: "/p", photo: "/t/photo.jpg"))], ["share /t/1.mov"], []),
        (true, [], [], ["shareFailed"], []),
    ])
    func shareThenHook(shares: Bool, report: [KioskEvent], then: [RecorderEvent], atReport: [String], after: [String]) {
        var core = Self.core(.stopping, shares: shares)
        _ = core.handle(.event(.recordingFinished(Fixture.goodTake)), at: 0)
        _ = core.handle(.event(.press(.useVideo)), at: 1)
        // A job posted before the hand-over (the microphone's close) reports back first: nothing follows it.
        #expect(Self.said(core.handle(.say([], handOver: false), at: 2)).isEmpty)
        let reported = core.handle(.say(report, handOver: true), at: 3)
        #expect(Self.said(reported) == atReport, "\(reported)")
        #expect(reported.filter { if case .emit = $0 { true } else { false } } == report.map(BoothCore.Effect.emit))
        let later = then.flatMap { core.handle(.event($0), at: 4) }
        #expect(Self.said(later) == after, "\(later)")
        #expect(core.handOver.sharing == nil || after.isEmpty)
    }

    @Test("the share waits for the settings: sharing turned off by a reload before the hand-over owes the hook at once and fails the share")
    func shareTurnedOff() {
        var core = Self.core(.stopping, shares: true)
        _ = core.handle(.event(.recordingFinished(Fixture.goodTake)), at: 0)
        _ = core.handle(.event(.press(.useVideo)), at: 1)
        _ = core.handle(.settings(BoothCore.Settings(shares: false, onTake: "upload")), at: 2)
        let reported = core.handle(.say([Self.handedOver], handOver: true), at: 3)
        #expect(Self.said(reported) == ["hook /t/1.mov 3.2 -", "shareFailed"], "\(reported)")
    }

    @Test("a boomerang's share folder loops its take; the share page carries the take's question")
    func boomerangShare() {
        var core = Self.core(.stopping, shares: true)
        var boomerang = Fixture.goodTake
        boomerang.kind = .boomerang
        _ = core.handle(.event(.recordingFinished(boomerang)), at: 0)
        _ = core.handle(.event(.press(.useVideo)), at: 1)
        #expect(Self.said(core.handle(.say([Self.handedOver], handOver: true), at: 2)) == ["share /t/1.mov loops"])
    }

    @Test("a file job is counted out as an input: each `.filePosted` says `.file(.post)` with a new job, and the exit waits for each until it is back")
    func filePosted() {
        var core = Self.core(.ready, session: .loop)
        let posted = (0..<3).flatMap { _ in core.handle(.filePosted, at: 0) }
        let jobs = posted.compactMap { if case let .file(.post(job)) = $0 { job } else { nil } }
        #expect(jobs.count == 3 && Set(jobs).count == 3, "\(posted)")
        _ = core.handle(.event(.quit), at: 1)
        for job in jobs.dropLast() { _ = core.handle(.fileDone(job), at: 2) }
        #expect(!core.handle(.turn(BoothCore.Turn()), at: 3).contains { if case .exit = $0 { true } else { false } })
        _ = core.handle(.fileDone(jobs[2]), at: 4)
        #expect(core.handle(.turn(BoothCore.Turn()), at: 5).contains { if case .exit = $0 { true } else { false } })
    }
}
