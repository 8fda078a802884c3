// The boomerang's rules (issue 45), pure: the loop's order, the slow motion plan, where the button
// shows and what a press does (a take of another kind, through the same countdown), the finished
// screen's loop (its options: KioskOptionsTests' FamilyOptionsTests).
import Testing
@testable import KioskCore
import KioskContract

@Suite("Boomerang rules")
struct BoomerangRuleTests {
    @Test("the loop's order: forward, back without the turning pictures twice, whole rounds until 3 s at the rate; none twice in a row",
          arguments: [(30, 30.0), (15, 30.0), (90, 30.0), (60, 30.0), (2, 30.0), (3, 25.0)])
    func order(count: Int, rate: Double) {
        let order = BoomerangPlan(seconds: 1, frameRate: rate).order(count: count)
        let round = Array(0..<count) + Array((1..<(count - 1)).reversed())
        #expect(order.count % round.count == 0 && Double(order.count) / rate >= 3, "\(order.count)")
        #expect(Double(order.count - round.count) / rate < 3, "one round more than needed: \(order.count)")
        #expect(Array(order.prefix(round.count)) == round)
        // Seamless: no picture twice in a row, across the rounds and from the end back to the start.
        #expect(zip(order, order.dropFirst() + [order[0]]).allSatisfy { $0 != $1 }, "\(order)")
    }

    @Test("one picture is shown for the loop's length; none gives none")
    func degenerate() {
        #expect(BoomerangPlan(seconds: 1, frameRate: 30).order(count: 1) == [Int](repeating: 0, count: 90))
        #expect(BoomerangPlan(seconds: 1, frameRate: 30).order(count: 0).isEmpty)
    }

    @Test("slow motion: half speed only where the camera gives 60 fps or more; else the camera's rate",
          arguments: [(60.0, 0.5, 30.0), (120.0, 0.5, 60.0), (30.0, 0.5, 30.0), (50.0, 0.5, 50.0), (60.0, 1.0, 60.0)])
    func slowMotion(fps: Double, speed: Double, played: Double) {
        var settings = BoomerangSettings()
        settings.speed = speed
        #expect(settings.plan(cameraFPS: fps).frameRate == played)
        #expect(settings.plan(cameraFPS: fps).seconds == 1)
    }

    @Test("the Boomerang button shows beside Start in ready (with a live camera), nowhere else; pressed, it counts down as Start does and opens a boomerang")
    func button() {
        for fixture in Fixture.allCases {
            var m = fixture.make()
            m.boomerangButton = true
            #expect(m.visibleButtons.contains(.boomerang) == (fixture == .ready), "\(fixture): \(m.visibleButtons)")
            #expect(!fixture.make().visibleButtons.contains(.boomerang), "\(fixture) without --boomerang-button")
        }
        var m = RecorderMachine(session: .once, outputPath: out, orientation: .portrait, countdown: 3)
        m.boomerangButton = true
        _ = m.start()
        #expect(m.visibleButtons == [.cancel, .start, .boomerang])
        _ = m.handle(.press(.boomerang))
        #expect(m.mode == .countdown && m.takeKind == .boomerang)
        _ = m.handle(.countdownTick)
        _ = m.handle(.countdownTick)
        #expect(m.handle(.countdownTick) == [.discardTake, .startRecording(orientation: .portrait)])
        #expect(m.handle(.recordingStarted(outputPath: out)).contains(.emit(.recordingStarted(outputPath: out, kind: .boomerang))))
        // Its pictures all taken (the writer finishing: the loop is made), the camera rests; back in ready it runs again.
        #expect(m.handle(.captureEnded) == [.stopCamera] && m.mode == .recording)
        #expect(m.handle(.captureEnded) == [])
        _ = m.handle(.recordingFinished(RecordingResult(outputPath: out, duration: 3.9, bytes: 1, reason: .maxDuration, success: true, kind: .boomerang)))
        #expect(m.handle(.press(.retake)).contains(.startCamera))
        // Record afterwards opens a video again.
        var again = Fixture.ready.make()
        again.boomerangButton = true
        _ = again.handle(.press(.boomerang))
        _ = again.handle(.recordingFinished(RecordingResult(outputPath: out, duration: 3.9, bytes: 1, reason: .maxDuration, success: true, kind: .boomerang)))
        _ = again.handle(.press(.retake))
        _ = again.handle(.press(.start))
        #expect(again.takeKind == .video)
    }

    @Test("the finished screen loops a boomerang (state says review looping), not a video, a failed take, the background or the way out; no trimmer for it")
    func reviewLoop() {
        func finished(_ result: RecordingResult) -> RecorderMachine {
            var m = RecorderMachine(session: .loop, outputPath: out, orientation: .landscapeRight, trims: true)
            m.boomerangButton = true
            _ = m.start()
            _ = m.handle(.press(.boomerang))
            _ = m.handle(.recordingStarted(outputPath: out))
            _ = m.handle(.recordingFinished(result))
            return m
        }
        let loop = RecordingResult(outputPath: "/t/7.mp4", duration: 3.867, bytes: 1, reason: .maxDuration, success: true, kind: .boomerang)
        var m = finished(loop)
        #expect(m.reviewLoop == "/t/7.mp4" && m.trimmerView == nil)
        if case let .state(_, _, _, _, _, _, _, _, _, _, review) = m.stateEvent { #expect(review == .looping) } else { Issue.record("no state") }
        #expect(m.handle(.trim(TrimRange(start: 1, end: 2))).first.map { if case .emit(.error(.notAllowed, _)) = $0 { true } else { false } } == true)
        _ = m.handle(.background)
        #expect(m.reviewLoop == nil)
        _ = m.handle(.foreground)
        #expect(m.reviewLoop != nil)
        _ = m.handle(.press(.playVideo))
        #expect(m.reviewLoop == nil, "Play Video has the screen")
        _ = m.handle(.press(.closePlayer))
        #expect(m.reviewLoop != nil)
        _ = m.handle(.terminate(signal: "SIGTERM"))
        #expect(m.reviewLoop == nil)
        var failed = loop
        failed.success = false
        #expect(finished(failed).reviewLoop == nil)
        var video = loop
        video.kind = .video
        #expect(finished(video).reviewLoop == nil && finished(video).trimmerView != nil)
        if case let .state(_, _, _, _, _, _, _, _, _, _, review) = finished(video).stateEvent { #expect(review == nil) }
    }

}
