// The booth's rooms that are values, by table: holding messages until `ready`, the camera switch
// and its banner, the encoder each take asks for, and the outstanding work (file jobs, hooks and
// the takes they protect) that the exit waits for. No booth, no threads, no waiting: time is a value.
import KioskCore
import Testing

@Suite("the booth's rooms as values")
struct BoothRoomsTests {
    // MARK: ReadyGate

    enum Step { case message(String), camera(String?), microphone(String?), launchDone }

    /// Runs `steps` through a gate; what each step released (`ready` as "READY" or "READY!why",
    /// then the held messages) and what passed because the gate was open.
    static func run(_ steps: [Step], launchFiles: Bool, microphone: Bool = false) -> [String] {
        var gate = ReadyGate<String>(launchFiles: launchFiles, microphone: microphone)
        var out: [String] = []
        func opened(_ opening: ReadyGate<String>.Opening?) {
            guard let opening else { return }
            out.append("READY" + (opening.cameraFailure.map { "!" + $0 } ?? "") + (opening.microphoneFailure.map { "?" + $0 } ?? ""))
            out += opening.held
        }
        for step in steps {
            switch step {
            case let .message(m):
                if gate.isOpen { out.append(m) } else { gate.hold(m) }
            case let .camera(failure): opened(gate.cameraTried(failure: failure))
            case let .microphone(failure): opened(gate.microphoneTried(failure: failure))
            case .launchDone: opened(gate.launchFilesDone())
            }
        }
        return out
    }

    @Test("ready waits for the camera's first attempt and the launch's file work, in either order; what came before is released after it, in order",
          arguments: [
            ([Step.message("a"), .camera(nil), .message("b")], false, ["READY", "a", "b"]),
            ([.message("a"), .camera(nil), .message("b"), .launchDone, .message("c")], true, ["READY", "a", "b", "c"]),
            ([.launchDone, .message("a"), .camera("no /dev/video0")], true, ["READY!no /dev/video0", "a"]),
            ([.message("a"), .message("b")], false, []),
            ([.camera(nil), .message("a")], true, []),
          ] as [([Step], Bool, [String])])
    func readyGate(steps: [Step], launchFiles: Bool, expected: [String]) {
        #expect(Self.run(steps, launchFiles: launchFiles) == expected)
    }

    @Test("with a microphone asked for, ready also waits for the look at it, in any order, and carries its failure",
          arguments: [
            ([Step.camera(nil), .message("a"), .microphone(nil)], ["READY", "a"]),
            ([.microphone("no such device"), .message("a"), .camera(nil)], ["READY?no such device", "a"]),
            ([.camera("gone"), .message("a")], []),
          ] as [([Step], [String])])
    func readyWaitsForMicrophone(steps: [Step], expected: [String]) {
        #expect(Self.run(steps, launchFiles: false, microphone: true) == expected)
    }

    @Test("ready goes out once: a second camera report or launch report opens nothing")
    func readyOnce() {
        var gate = ReadyGate<String>(launchFiles: false)
        let r1 = gate.cameraTried(failure: nil)
        #expect(r1 != nil)
        let r2 = gate.cameraTried(failure: "again")
        #expect(r2 == nil)
        let r3 = gate.launchFilesDone()
        #expect(r3 == nil)
        #expect(gate.isOpen)
    }

    // MARK: CameraRing

    @Test("the switch tries every other camera after the one in use, round, then the one in use",
          arguments: [(0, 1, [0]), (0, 3, [1, 2, 0]), (1, 3, [2, 0, 1]), (2, 3, [0, 1, 2])])
    func order(current: Int, count: Int, expected: [Int]) {
        #expect(CameraRing.order(from: current, count: count) == expected)
    }

    @Test("the switch passes over a lost camera (failed, or waiting for its device) and comes back to the one in use when none opens",
          arguments: [
            // attempts by index; current; expected pick
            ([CameraRing.Attempt.opened, .opened, .opened], 0, 1, true),
            ([.opened, .failed, .opened], 0, 2, true),
            ([.opened, .waiting, .opened], 0, 2, true),
            ([.opened, .failed, .waiting], 0, 0, true),
            ([.waiting, .failed, .failed], 0, 0, false),
            ([.opened, .waiting, .failed], 1, 0, true),
          ] as [([CameraRing.Attempt], Int, Int, Bool)])
    func pick(attempts: [CameraRing.Attempt], current: Int, index: Int, open: Bool) {
        var tried: [Int] = []
        let picked = CameraRing.pick(from: current, count: attempts.count) { index in
            tried.append(index)
            return attempts[index]
        }
        #expect(picked?.index == index && picked?.open == open, "\(String(describing: picked))")
        // It stops at the first that opens.
        #expect(tried.last == index)
    }

    @Test("even the camera in use failing to start again picks nothing (the booth keeps it, lost)")
    func pickNone() {
        #expect(CameraRing.pick(from: 0, count: 2) { _ in .failed } == nil)
    }

    @Test("a switch to another camera shows its name for 2 s; a switch back to the same one changes nothing")
    func banner() {
        let s: Int64 = 1_000_000_000
        var ring = CameraRing(count: 2)
        #expect(ring.bannerName(at: 0) == nil)
        let r4 = ring.switched(to: 0, name: "Front", at: 0)
        #expect(r4 == false)
        #expect(ring.bannerName(at: 0) == nil)
        let r5 = ring.switched(to: 1, name: "Back", at: 10 * s)
        #expect(r5)
        #expect(ring.index == 1)
        #expect(ring.bannerName(at: 10 * s) == "Back" && ring.bannerName(at: 12 * s - 1) == "Back")
        #expect(ring.bannerName(at: 12 * s) == nil)
    }

    // MARK: EncoderFallback

    @Test("the encoder each take asks for: auto as resolved (libx264 when nothing was), a name as given; libx264 for one that stalled",
          arguments: [
            ("auto", "h264_vaapi", [], "h264_vaapi"),
            ("auto", nil, [], "libx264"),
            ("h264_v4l2m2m", "h264_vaapi", [], "h264_v4l2m2m"),
            ("auto", "h264_vaapi", ["h264_vaapi"], "libx264"),
            ("h264_v4l2m2m", nil, ["h264_v4l2m2m"], "libx264"),
            ("h264_v4l2m2m", nil, ["h264_vaapi"], "h264_v4l2m2m"),
          ] as [(VideoEncoderName, VideoEncoderName?, [VideoEncoderName], VideoEncoderName)])
    func encoder(configured: VideoEncoderName, auto: VideoEncoderName?, stalled: [VideoEncoderName], expected: VideoEncoderName) {
        var fallback = EncoderFallback()
        for name in stalled { _ = fallback.takeEnded(encoder: name, stalled: true) }
        #expect(fallback.next(configured: configured, auto: auto) == expected)
    }

    @Test("a stall is said once an encoder; libx264's own stall and a take that did not stall change nothing")
    func stallSaidOnce() {
        var fallback = EncoderFallback()
        let r6 = fallback.takeEnded(encoder: "h264_vaapi", stalled: false)
        #expect(r6 == nil)
        let r7 = fallback.takeEnded(encoder: "h264_vaapi", stalled: true)
        #expect(r7?.contains("libx264 from the next take on") == true)
        let r8 = fallback.takeEnded(encoder: "h264_vaapi", stalled: true)
        #expect(r8 == nil)
        let r9 = fallback.takeEnded(encoder: "libx264", stalled: true)
        #expect(r9 == nil)
        let r10 = fallback.takeEnded(encoder: nil, stalled: true)
        #expect(r10 == nil)
        #expect(fallback.stalled == ["h264_vaapi"])
    }

    // MARK: BoothJobs

    @Test("the exit waits for every file job and the running hook to report back, not for a try still to come")
    func exitWaits() {
        var jobs = BoothJobs()
        let job = jobs.filePosted()
        jobs.owed.add(HookQueue.Entry(path: "/t/take-1.mov", duration: 1.5), now: 0)
        let run = jobs.owed.next(commands: [.take: "upload"], limit: nil, now: 0)
        jobs.exitCode = 0
        #expect(!jobs.isFinished)
        jobs.fileDone(job)
        #expect(!jobs.isFinished, "a hook still runs")
        _ = jobs.owed.ended(path: "/t/take-1.mov", outcome: .exited(1), now: 5)
        #expect(jobs.isFinished, "the next try waits for the next launch")
        #expect(jobs.protectedTakes == ["take-1.mov"])
        #expect(run == HookQueue.Run(path: "/t/take-1.mov", command: "upload",
                                     environment: ["KIOSK_TAKE_PATH": "/t/take-1.mov", "KIOSK_TAKE_DURATION": "1.5"], attempt: 1))
        var idle = BoothJobs()
        #expect(!idle.isFinished, "no exit asked")
        idle.exitCode = 3
        #expect(idle.isFinished)
    }

    @Test("file jobs come back in any order, each by the id it was given: the exit waits for exactly those still out")
    func outOfOrder() {
        var jobs = BoothJobs()
        // Use Video's hand-over, the microphone's close, a discarded take: posted in that order.
        let handOver = jobs.filePosted(), close = jobs.filePosted(), discard = jobs.filePosted()
        #expect(Set([handOver, close, discard]).count == 3)
        jobs.exitCode = 0
        jobs.fileDone(discard)
        jobs.fileDone(handOver)
        #expect(!jobs.isFinished && jobs.outstanding == [close.id], "the microphone's close is still out")
        let late = jobs.filePosted()
        jobs.fileDone(close)
        #expect(!jobs.isFinished && jobs.outstanding == [late.id])
        jobs.fileDone(late)
        #expect(jobs.isFinished)
    }

    @Test("a signal asks the running hook to end, once; without a hook running, or without a signal, never")
    func stopHooks() {
        var jobs = BoothJobs()
        let r11 = jobs.stopHooks(signalled: true)
        #expect(!r11, "no hook runs")
        jobs.owed.add(HookQueue.Entry(path: "/t/a.mov", duration: 1), now: 0)
        _ = jobs.owed.next(commands: [.take: "upload"], limit: nil, now: 0)
        let r12 = jobs.stopHooks(signalled: false)
        #expect(!r12)
        let r13 = jobs.stopHooks(signalled: true)
        #expect(r13)
        let r14 = jobs.stopHooks(signalled: true)
        #expect(!r14)
    }
}
