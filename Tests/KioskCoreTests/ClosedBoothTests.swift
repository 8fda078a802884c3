// The operator's door (RecorderMachine+Closed, through BoothCore) on a virtual clock: closeBooth
// mid-take keeps the take and closes once it is finished; a review's take is kept, never discarded;
// a countdown ends with nothing recorded; nothing but openBooth opens the booth again (idle reset,
// the attract screen and its slideshow, the foreground, a reload leave it closed). The table of every
// (mode, event) pair has closeBooth and openBooth too (RecorderMachineTests).
@testable import KioskCore
import Testing
import KioskContract

@Suite("the closed booth: closeBooth and openBooth")
struct ClosedBoothTests {
    typealias T = BoothCoreTests
    static let stopped = RecordingResult(outputPath: out, duration: 2, bytes: 5, reason: .background, success: true)

    /// A loop session's booth recording (confirmed), with `--trim` and `--loudness`: what its review would get.
    static func recordingCore() -> BoothCore {
        var m = RecorderMachine(session: .loop, outputPath: out, orientation: .landscapeRight, trims: true)
        _ = m.start()
        _ = m.handle(.press(.start))
        _ = m.handle(.recordingStarted(outputPath: out))
        return BoothCore(machine: m, settings: BoothCore.Settings(loudness: -16), now: 0)
    }

    static func emitted(_ effects: [BoothCore.Effect]) -> [KioskEvent] {
        effects.compactMap { if case let .machine(.emit(event)) = $0 { event } else { nil } }
    }

    @Test("the commands parse: closeBooth and openBooth, and no field is needed")
    func parse() {
        #expect(CommandParser().parse(line: #"{"command":"closeBooth"}"#) == .success(.closeBooth))
        #expect(CommandParser().parse(line: #"{"command":"openBooth","path":"x"}"#) == .success(.openBooth))
        #expect(Command.names.contains("closeBooth") && Command.names.contains("openBooth"))
    }

    @Test("closeBooth mid-take: the take stops as for the background; openBooth is refused meanwhile; once finished the take is kept (the storage's keep, not ours to delete; no trimmer pictures, no leveled copy), then boothClosed; the next guest's Start after openBooth deletes nothing")
    func midTake() {
        var core = Self.recordingCore()
        #expect(core.handle(.command(.closeBooth), at: 1) == [.machine(.stopRecording(.background))])
        let refused = Self.emitted(core.handle(.command(.openBooth), at: 2))
        #expect(refused.count == 1 && refused.first.map { if case .error(.notAllowed, _) = $0 { true } else { false } } == true, "\(refused)")
        #expect(core.machine.mode == .recording && core.machine.visibleButtons == [])
        let finished = core.handle(.event(.recordingFinished(Self.stopped)), at: 3)
        #expect(Self.emitted(finished) == [.recordingFinished(Self.stopped), .boothClosed], "\(finished)")
        #expect(finished.contains(.file(.discard(own: false))) && !finished.contains(.file(.discard(own: true))), "\(finished)")
        #expect(!finished.contains { if case .file(.trimPictures) = $0 { true } else if case .file(.levelAhead) = $0 { true } else { false } })
        #expect(core.machine.mode == .closed && !core.handOver.ownOnDisk)
        // Closed: no buttons, every guest's command refused; the state says closed.
        for command in [Command.press(.start), .start(countdown: 0), .press(.boomerang), .press(.photo), .press(.cancel)] {
            let said = Self.emitted(core.handle(.command(command), at: 4))
            #expect(said.count == 1 && said.first.map { if case .error(.notAllowed, _) = $0 { true } else { false } } == true, "\(command): \(said)")
        }
        #expect(Self.emitted(core.handle(.command(.state), at: 4)).map(\.unfigured) == [.state(mode: "closed", timer: "00:00", buttons: [], orientation: .landscapeRight)])
        let opened = core.handle(.command(.openBooth), at: 5)
        #expect(Self.emitted(opened) == [.boothOpened] && opened.contains(.machine(.startCamera)), "\(opened)")
        #expect(core.machine.mode == .ready)
        let next = core.handle(.command(.press(.start)), at: 6)
        #expect(next.contains(.file(.discard(own: false))) && !next.contains(.file(.discard(own: true))), "\(next)")
    }

    @Test("closeBooth in the review keeps its take (never discarded), from the review's player too; a take that fails to open while closing closes the booth")
    func review() {
        for playing in [false, true] {
            var core = BoothCore(machine: Fixture.stopping.make(session: .loop), now: 0)
            _ = core.handle(.event(.recordingFinished(Fixture.goodTake)), at: 0)
            #expect(core.handOver.ownOnDisk)
            if playing { _ = core.handle(.command(.press(.playVideo)), at: 1) }
            let closed = core.handle(.command(.closeBooth), at: 2)
            #expect(closed.contains(.file(.discard(own: false))) && !closed.contains(.file(.discard(own: true))), "\(closed)")
            #expect(Self.emitted(closed) == (playing ? [.playbackFinished(reason: .closed), .boothClosed] : [.boothClosed]), "\(closed)")
            #expect(core.machine.mode == .closed && !core.handOver.ownOnDisk)
        }
        var m = Fixture.recordingUnconfirmed.make(session: .loop)
        #expect(m.handle(.closeBooth) == [.stopRecording(.background)])
        #expect(m.handle(.recordingFailed(code: .diskFull, message: "no space"))
                == [.emit(.error(code: .diskFull, message: "no space")), .emit(.boothClosed), .stopCamera])
        #expect(m.mode == .closed)
    }

    @Test("a countdown is cancelled: no take opens, and the booth is closed at once")
    func countdown() {
        var core = BoothCore(machine: T.machine(countdown: 3), now: 0)
        let said = T.run(&core, from: 0, to: 6, events: [0.5: .press(.start), 1.2: .closeBooth])
        #expect(!said.contains { if case .file(.openTake) = $0.effect { true } else { false } }, "\(said)")
        #expect(said.contains(T.Said(at: 1.2, effect: .machine(.emit(.boothClosed)))))
        #expect(core.machine.mode == .closed)
    }

    @Test("nothing but openBooth opens it: idle reset and the attract screen (with its slideshow) never come, nor the foreground (SIGUSR2, logind), nor a reload; its view is the back-soon words alone")
    func staysClosed() {
        let settings = BoothCore.Settings(idleTimeout: 10, attractAfter: 5, attractSlideshow: true)
        // Open, the same booth's attract screen comes.
        var open = BoothCore(machine: T.machine(), settings: settings, now: 0)
        _ = T.run(&open, from: 0, to: 8)
        #expect(open.attracting)
        var core = BoothCore(machine: T.machine(), settings: settings, now: 0)
        _ = core.handle(.command(.closeBooth), at: 0)
        let said = T.run(&core, from: 0, to: 120, touches: [30])
        #expect(!core.attracting && core.machine.mode == .closed)
        #expect(!said.contains { if case .slideshow = $0.effect { true } else if case .machine(.emit(.idleReset)) = $0.effect { true } else { false } }, "\(said)")
        _ = core.handle(.command(.background), at: T.ns(121))
        _ = core.handle(.command(.foreground), at: T.ns(122))
        _ = core.handle(.service(.sleep(true)), at: T.ns(123))
        _ = core.handle(.service(.sleep(false)), at: T.ns(124))
        #expect(core.machine.mode == .closed)
        #expect(core.handle(.event(.reload(reloaded)), at: T.ns(125)).contains(.machine(.applyReload)))
        #expect(core.machine.mode == .closed && core.machine.session == .loop)
        let view = core.viewModel(BoothCore.ViewFacts(prompt: "Say hello"), at: T.ns(126))
        #expect(view.mode == .closed && view.buttons == [] && view.message == .backSoon && view.prompt == nil && !view.bottomPanelBackground)
        #expect(!core.machine.cameraRunning)
    }

    @Test("a loop session's share screen ends as Done, the booth closes, and its share folder's report is still said; a once session's ends the session")
    func sharing() {
        var loop = Fixture.sharingPending.make(session: .loop)
        #expect(loop.handle(.closeBooth) == [.emit(.boothClosed)])
        #expect(loop.handle(.takeShared(sharedLink)) == [.emit(.takeShared(url: sharedLink.url, token: "abc", folder: sharedLink.folder))])
        #expect(loop.mode == .closed)
        var once = Fixture.sharing.make(session: .once)
        #expect(once.handle(.closeBooth) == [.exit(code: 0)])
    }

    @Test("the player alone, and a booth on its way out, refuse both with notAllowed")
    func refused() {
        var player = RecorderMachine(playing: "/tmp/x.mov", orientation: .landscapeRight)
        _ = player.start()
        var leaving = Fixture.recording.make(session: .loop)
        _ = leaving.handle(.terminate(signal: "SIGTERM")) // leaving once the take is finished
        for var m in [player, leaving] {
            for event in [RecorderEvent.closeBooth, .openBooth] {
                let said = m.handle(event)
                #expect(said.count == 1 && said.first.map { if case .emit(.error(.notAllowed, _)) = $0 { true } else { false } } == true, "\(said)")
            }
        }
    }
}
