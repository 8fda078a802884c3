// The screen's model and the `state` reply as the core decides them (BoothCore+View): the machine's
// view with the core's rules and the booth's facts, on a virtual clock.
import Testing
@testable import KioskCore
import KioskContract

@Suite("BoothCore's view: what the screen shows and what state says")
struct BoothViewTests {
    static func core(_ fixture: Fixture, settings: BoothCore.Settings = BoothCore.Settings()) -> BoothCore {
        var core = BoothCore(machine: fixture.make(session: .loop), settings: settings, now: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 0)
        return core
    }

    @Test("the facts: the prompt only in ready, no microphone said in ready, no camera found for a lost auto camera, the meter in half-decibel steps only live")
    func facts() {
        var ready = Self.core(.ready)
        _ = ready.handle(.microphoneTried(failure: "busy"), at: 0)
        let facts = BoothCore.ViewFacts(prompt: "Smile", levels: (-20.26, -10.74))
        let model = ready.viewModel(facts, at: 0)
        #expect(model.prompt == "Smile" && model.message == .noMicrophone)
        #expect(model.microphoneLevel?.now == -20.5 && model.microphoneLevel?.peak == -10.5)
        let recording = Self.core(.recording).viewModel(facts, at: 0)
        #expect(recording.prompt == nil && recording.message == nil && recording.microphoneLevel != nil)
        #expect(Self.core(.finished).viewModel(facts, at: 0).microphoneLevel == nil, "no meter on the review")
        let lost = Self.core(.readyNoCamera)
        #expect(lost.viewModel(BoothCore.ViewFacts(), at: 0).message == .cameraUnavailable)
        #expect(lost.viewModel(BoothCore.ViewFacts(noCameraFound: true), at: 0).message == .noCameraFound)
    }

    @Test("--prompt with --questions: both in ready (the question large); the countdown has the question alone, large; recording the question alone, in the band (not large)")
    func promptAndQuestion() {
        var settings = BoothCore.Settings()
        settings.questions = ["one"]
        let facts = BoothCore.ViewFacts(prompt: "Smile")
        let shown = [Fixture.ready, .countdown, .recording].map { fixture -> (String?, String?, Bool?) in
            let model = Self.core(fixture, settings: settings).viewModel(facts, at: 0)
            return (model.prompt, model.question?.text, model.question?.large)
        }
        #expect(shown[0] == ("Smile", "one", true) && shown[1] == (nil, "one", true) && shown[2] == (nil, "one", false), "\(shown)")
    }

    @Test("the focus box grows over a second in 30 steps, then is gone; only over the live picture")
    func focusBox() {
        let ms: Int64 = 1_000_000
        let facts = BoothCore.ViewFacts()
        var ready = Self.core(.ready)
        #expect(ready.handle(.focus(Point(x: 10, y: 20)), at: 100 * ms) == [.camera(.focus), .screen(.redraw)])
        #expect(ready.viewModel(facts, at: 100 * ms).focusBox?.progress == 0)
        #expect(ready.viewModel(facts, at: 600 * ms).focusBox?.progress == 0.5)
        #expect(ready.viewModel(facts, at: 1_099 * ms).focusBox != nil)
        #expect(ready.viewModel(facts, at: 1_100 * ms).focusBox == nil, "gone after a second")
        var finished = Self.core(.finished)
        #expect(finished.handle(.focus(Point(x: 10, y: 20)), at: 100 * ms).isEmpty)
        #expect(finished.viewModel(facts, at: 100 * ms).focusBox == nil)
    }

    @Test("the share screen's first code joins the hotspot when there is one")
    func wifi() {
        let sharing = Self.core(.sharing)
        #expect(sharing.viewModel(BoothCore.ViewFacts(wifi: "WIFI:S:booth;;"), at: 0).share?.wifi == "WIFI:S:booth;;")
        #expect(sharing.viewModel(BoothCore.ViewFacts(), at: 0).share?.wifi == nil)
        #expect(Self.core(.ready).viewModel(BoothCore.ViewFacts(wifi: "WIFI:S:booth;;"), at: 0).share == nil)
    }

    @Test("state: the hooks owed with --on-take, the level the last turn measured with a microphone; neither without")
    func state() {
        var plain = Self.core(.ready)
        let bare = plain.handle(.event(.stateQuery), at: 0)
        guard case let .machine(.emit(event))? = bare.first, case let .state(_, _, _, _, _, level, hooks, _, _, _, _) = event.unfigured else {
            Issue.record("\(bare)")
            return
        }
        #expect(level == nil && hooks == nil)
        var full = Self.core(.ready, settings: BoothCore.Settings(onTake: "true", microphone: true))
        _ = full.handle(.turn(BoothCore.Turn(level: -33)), at: 1)
        let said = full.handle(.event(.stateQuery), at: 2)
        guard case let .machine(.emit(event))? = said.first, case let .state(_, _, _, _, _, level, hooks, _, _, _, _) = event.unfigured else {
            Issue.record("\(said)")
            return
        }
        #expect(level == -33 && hooks == 0)
    }

    @Test("state's figures: the metrics file's counts as the core has them, the last take's rate, and the uptime and camera the last turn gave (kept until a turn gives others)")
    func figures() {
        var core = Self.core(.ready, settings: BoothCore.Settings(onTake: "true", microphone: true))
        func figures(at now: Int64) -> StateFigures? {
            guard case let .machine(.emit(.figured(_, figures)))? = core.handle(.event(.stateQuery), at: now).first else { return nil }
            return figures
        }
        let before = figures(at: 0)
        #expect(before == StateFigures(core.figures, bytesPerSecond: nil, running: nil), "\(String(describing: before))")
        #expect(before?.uptime == nil && before?.camera == nil && before?.bytesPerSecond == nil && before?.takes == 0)
        let camera = StateFigures.Camera(name: "/dev/video0", width: 640, height: 480, fps: 30, measuredFps: 29.97)
        _ = core.handle(.turn(BoothCore.Turn(running: StateFigures.Running(uptime: 12.34, camera: camera))), at: 1)
        _ = core.handle(.turn(BoothCore.Turn()), at: 2)
        let after = figures(at: 3)
        #expect(after?.uptime == 12.3 && after?.camera?.measuredFps == 30 && after?.camera?.name == "/dev/video0", "\(String(describing: after))")
        #expect(after?.hooksPending == core.figures.hooksPending && after?.cameraUp == core.figures.cameraUp)
    }
}
