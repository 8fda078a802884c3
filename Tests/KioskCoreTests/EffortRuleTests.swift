// The effort rule on a virtual clock: a camera at 30 fps, a writer whose time per picture depends
// on the effort it works at, and the queue behind it; when it steps down (effort at the key frame,
// then the rate), when it steps back up (the rate first), and that it does not flap.
import Testing
import KioskCore

@Suite("EffortRule: stepping the take's effort and rate to the CPU it has")
struct EffortRuleTests {
    static let ms: Int64 = 1_000_000

    /// A take at 30 fps for `seconds`: each picture kept costs `cost(effort, t)` ns of the writer's
    /// time; pictures wait in a queue when the writer is behind (it drains at the writer's pace, up
    /// to 8; what does not fit is dropped). The effort changes at the writer's key frames (every 30
    /// pictures encoded), or at the next picture when it was asked for with the queue past half
    /// full (as the writer does). Keeps the steps with their times, and the pictures dropped.
    struct Run {
        var rule: EffortRule
        var now: Int64 = 0
        var steps: [(at: Double, step: EffortRule.Step)] = []
        var dropped = 0
        var encoded = 0
        private var busyUntil: Int64 = 0
        private var queue: [Int64] = []
        private var number = 0
        private var lastKept = Int.min / 2
        private var soon = false

        init(efforts: Int = 3) { rule = EffortRule(efforts: efforts, fps: 30) }

        /// Runs on for `seconds`; returns the steps taken in them. `camera(t)`: the camera's
        /// thread's time on the picture that arrived at `t` (its decoding and key).
        @discardableResult
        mutating func run(seconds: Double, camera: (Int64) -> Int64 = { _ in 0 }, cost: (Int, Int64) -> Int64) -> [EffortRule.Step] {
            let before = steps.count
            let end = now + Int64(seconds * 1e9)
            var next = now
            while next < end {
                // The writer works through the queue until the next picture arrives.
                while let first = queue.first, max(busyUntil, first) <= next {
                    let start = max(busyUntil, first)
                    queue.removeFirst()
                    let done = start + cost(rule.effort, start)
                    busyUntil = done
                    encoded += 1
                    if rule.effortPending, soon || encoded % 30 == 0 {
                        rule.effortApplied(at: done)
                        soon = false
                    }
                    for step in rule.picture(at: done, busy: done - start, waiting: queue.count, camera: camera(first)) {
                        steps.append((Double(done) / 1e9, step))
                        if case .effort = step, queue.count >= EffortRule.urgentWaiting { soon = true }
                    }
                }
                // A picture arrives: kept when `keepEvery` after the last kept (every 2nd with 6
                // waiting, every 3rd with 7, as the writer's queue does), queued or dropped.
                let every = max(rule.keepEvery, queue.count >= 7 ? 3 : queue.count >= 6 ? 2 : 1)
                if number - lastKept >= every {
                    lastKept = number
                    if queue.count < 8 { queue.append(next) } else { dropped += 1 }
                }
                number += 1
                next += rule.interval
            }
            now = end
            return steps.dropFirst(before).map(\.step)
        }
    }

    /// One effort, and a writer at 20 pictures a second (50 ms each) for 5 s: stepped down to every
    /// 2nd picture.
    static func everySecond(sourceLocation: SourceLocation = #_sourceLocation) -> Run {
        var run = Run(efforts: 1)
        run.run(seconds: 5) { _, _ in 50 * ms }
        #expect(run.rule.keepEvery == 2, "\(run.steps)", sourceLocation: sourceLocation)
        return run
    }

    @Test("with CPU to spare (a third of each frame interval): no step in a minute, the configured effort at every picture")
    func spareCPU() {
        var run = Run()
        run.run(seconds: 60) { _, _ in 11 * Self.ms }
        #expect(run.steps.isEmpty)
        #expect(run.rule.effort == 0 && run.rule.keepEvery == 1 && run.rule.steps == 0 && run.dropped == 0)
    }

    @Test("a short hiccup (one picture of 120 ms) steps nothing")
    func hiccup() {
        var run = Run()
        run.run(seconds: 5) { _, t in t >= 2_000 * Self.ms && t < 2_033 * Self.ms ? 120 * Self.ms : 10 * Self.ms }
        #expect(run.steps.isEmpty, "\(run.steps)")
    }

    @Test("behind by a little (0.9 of the time at the configured effort): the effort steps down once, at a key frame, and the rate stays")
    func effortFirst() throws {
        var run = Run()
        run.run(seconds: 20) { effort, _ in effort == 0 ? 30 * Self.ms : 22 * Self.ms }
        let first = try #require(run.steps.first)
        #expect(first.step == .effort(from: 0, to: 1))
        #expect(first.at >= 1 && first.at < 2, "after a full second measured: \(first.at)")
        #expect(run.steps.count == 1, "\(run.steps)")
        #expect(run.rule.effort == 1 && run.rule.keepEvery == 1 && !run.rule.effortPending && run.dropped == 0)
    }

    @Test("behind at every effort (40, 36, 33 ms a picture at 30 fps): every 2nd picture and the effort down to the cheapest, and it holds there without a drop after the steps")
    func thenTheRate() {
        var run = Run()
        run.run(seconds: 30) { effort, _ in [40, 36, 33][effort] * Self.ms }
        let kinds = run.steps.map(\.step)
        #expect(kinds == [.keepEvery(from: 1, to: 2), .effort(from: 0, to: 1), .effort(from: 1, to: 2)], "\(kinds)")
        #expect(run.rule.effort == 2 && run.rule.keepEvery == 2, "\(kinds)")
        // No step up: at every 2nd picture the writer is busy 0.5, 1.0 at the full rate.
        #expect(!kinds.contains { if case let .keepEvery(from, to) = $0 { return to < from } else { return false } }, "\(kinds)")
        let dropsAfter = run.dropped
        run.run(seconds: 30) { effort, _ in [40, 36, 33][effort] * Self.ms }
        #expect(run.dropped == dropsAfter && run.rule.keepEvery == 2, "\(run.steps.map(\.step))")
    }

    @Test("a queue past half full steps the rate at once (and the effort at the key frame): a writer at 20 pictures a second loses none of 30")
    func urgent() throws {
        var run = Run()
        run.run(seconds: 20) { _, _ in 50 * Self.ms }
        let first = try #require(run.steps.first)
        #expect(first.step == .keepEvery(from: 1, to: 2) && first.at < 0.7, "\(run.steps)")
        #expect(run.dropped == 0)
        #expect(run.rule.keepEvery == 2, "\(run.steps)")
        // The effort steps (they do not help this writer) are all taken, and nothing more.
        #expect(run.rule.effort == 2 && run.steps.count == 3, "\(run.steps)")
    }

    @Test("effort that makes the full rate fit again (40, 30, 20 ms): down to every 2nd picture at once, the cheapest effort, then the full rate back, and no more steps")
    func effortBringsTheRateBack() {
        var run = Run()
        run.run(seconds: 30) { effort, _ in [40, 30, 20][effort] * Self.ms }
        #expect(run.steps.map(\.step) == [.keepEvery(from: 1, to: 2), .effort(from: 0, to: 1), .effort(from: 1, to: 2), .keepEvery(from: 2, to: 1)],
                "\(run.steps)")
        #expect(run.rule.effort == 2 && run.rule.keepEvery == 1)
    }

    @Test("a writer at 12 pictures a second: every 3rd picture, no drop")
    func everyThird() {
        var run = Run()
        run.run(seconds: 20) { _, _ in 83 * Self.ms }
        #expect(run.rule.keepEvery == 3, "\(run.steps)")
        #expect(run.dropped == 0, "\(run.steps)")
    }

    @Test("the headroom comes back: the rate comes back first, then the effort, step by step, and then nothing moves")
    func backUp() {
        var run = Run()
        run.run(seconds: 10) { effort, _ in [40, 36, 33][effort] * Self.ms }
        #expect(run.rule.effort == 2 && run.rule.keepEvery == 2)
        let ups = run.run(seconds: 40) { _, _ in 8 * Self.ms }
        #expect(ups == [.keepEvery(from: 2, to: 1), .effort(from: 2, to: 1), .effort(from: 1, to: 0)], "\(ups)")
        #expect(!run.rule.stepped)
    }

    @Test("room for the full rate but not with margin (0.4 of the time at every 2nd picture, 0.81 predicted): it stays down, no flapping")
    func noFlap() {
        var run = Self.everySecond()
        let later = run.run(seconds: 60) { _, _ in 27 * Self.ms }
        #expect(later.isEmpty, "\(later)")
    }

    @Test("a CPU share that swings second by second (a cgroup's throttling: 8 ms, then 45 ms a picture): no step up on a light second")
    func swingingShare() {
        var run = Self.everySecond()
        let start = run.now
        let later = run.run(seconds: 20) { _, t in (t - start) / 1_000_000_000 % 2 == 0 ? 8 * Self.ms : 45 * Self.ms }
        #expect(later.isEmpty, "\(later)")
    }

    @Test("a step up that does not hold (the load comes back) doubles the hold before the next one")
    func holdDoubles() {
        var run = Self.everySecond()
        #expect(run.rule.upHold == EffortRule.upHold)
        // Light for a while: back to the full rate; then heavy again at once.
        run.run(seconds: 5) { _, _ in 10 * Self.ms }
        #expect(run.rule.keepEvery == 1)
        run.run(seconds: 3) { _, _ in 50 * Self.ms }
        #expect(run.rule.keepEvery == 2)
        #expect(run.rule.upHold == 2 * EffortRule.upHold)
        // Light again: the step up now waits the doubled hold after the step down.
        let down = run.steps.count - 1
        run.run(seconds: 6) { _, _ in 10 * Self.ms }
        #expect(run.rule.keepEvery == 1)
        #expect(run.steps.count == down + 2, "\(run.steps)")
        if run.steps.count == down + 2 { #expect(run.steps[down + 1].at - run.steps[down].at >= 4, "\(run.steps)") }
    }

    @Test("one effort only (a hardware encoder): behind, the rate steps; an effort the writer refuses is not tried again")
    func effortsLimited() {
        var run = Run(efforts: 1)
        run.run(seconds: 10) { _, _ in 40 * Self.ms }
        #expect(run.steps.map(\.step) == [.keepEvery(from: 1, to: 2)])
        var rule = EffortRule(efforts: 3, fps: 30)
        var t: Int64 = 0
        var steps: [EffortRule.Step] = []
        while t < 1_100 * Self.ms {
            t += 33 * Self.ms
            steps += rule.picture(at: t, busy: 32 * Self.ms, waiting: 0)
        }
        #expect(steps == [.effort(from: 0, to: 1)] && rule.effortPending)
        rule.effortRefused(at: t, kept: 0)
        #expect(rule.effort == 0 && rule.efforts == 1 && !rule.effortPending)
        while t < 2_300 * Self.ms {
            t += 33 * Self.ms
            steps += rule.picture(at: t, busy: 32 * Self.ms, waiting: 0)
        }
        #expect(steps == [.effort(from: 0, to: 1), .keepEvery(from: 1, to: 2)])
    }

    @Test("the camera's thread behind (its decoding and key 45 ms a picture at 30 fps) beside a writer with room (5 ms): every 2nd picture after a full second, the effort untouched (it would not lighten that thread), no drop, and it holds there a minute")
    func cameraBehind() throws {
        var run = Run()
        run.run(seconds: 60, camera: { _ in 45 * Self.ms }) { _, _ in 5 * Self.ms }
        let first = try #require(run.steps.first)
        #expect(first.at >= 1 && first.at < 2, "after a full second measured: \(first.at)")
        #expect(run.steps.map(\.step) == [.keepEvery(from: 1, to: 2)], "\(run.steps)")
        #expect(run.rule.effort == 0 && run.dropped == 0)
        #expect(run.rule.cameraLoad(at: run.now).map { abs($0 - 45.0 / 66.7) < 0.01 } == true, "\(String(describing: run.rule.cameraLoad(at: run.now)))")
    }

    @Test("the camera's thread at 70 ms a picture: every 2nd, then every 3rd (70 of 67 ms is still behind), and it holds; the key turned off (5 ms): the rate comes back step by step, the effort never moved")
    func cameraEveryThirdAndBack() {
        var run = Run()
        run.run(seconds: 30, camera: { _ in 70 * Self.ms }) { _, _ in 5 * Self.ms }
        #expect(run.steps.map(\.step) == [.keepEvery(from: 1, to: 2), .keepEvery(from: 2, to: 3)], "\(run.steps)")
        let ups = run.run(seconds: 30, camera: { _ in 5 * Self.ms }) { _, _ in 5 * Self.ms }
        #expect(ups == [.keepEvery(from: 3, to: 2), .keepEvery(from: 2, to: 1)], "\(ups)")
        #expect(!run.rule.stepped && run.rule.steps == 4)
    }

    @Test("a writer behind (70, 50, 40 ms) while the camera's thread holds every 2nd (45 ms): the rate and one effort down at once, and no cheaper effort after them (it would not bring the rate back), where without the camera's time the next effort follows; the camera at 25 ms a picture (0.75 of the full rate's time) steps nothing")
    func cameraAndWriter() {
        var run = Run(), writerAlone = Run()
        run.run(seconds: 20, camera: { _ in 45 * Self.ms }) { effort, _ in [70, 50, 40][effort] * Self.ms }
        #expect(run.steps.map(\.step) == [.keepEvery(from: 1, to: 2), .effort(from: 0, to: 1)], "\(run.steps)")
        writerAlone.run(seconds: 20) { effort, _ in [70, 50, 40][effort] * Self.ms }
        #expect(writerAlone.rule.keepEvery == 2 && writerAlone.rule.effort == 2, "\(writerAlone.steps)")
        var light = Run()
        light.run(seconds: 20, camera: { _ in 25 * Self.ms }) { _, _ in 5 * Self.ms }
        #expect(light.steps.isEmpty, "\(light.steps)")
    }

    @Test("under a quota the camera's thread's wall time is not judged (the process's CPU time holds its work, and a freeze swings its wall time)")
    func cameraUnderQuota() {
        var rule = EffortRule(efforts: 1, fps: 30, quota: 0.5)
        var steps: [EffortRule.Step] = []
        for n in 1...90 { steps += rule.picture(at: Int64(n) * rule.interval, busy: 5 * Self.ms, waiting: 0, cpu: Int64(n) * 5 * Self.ms, camera: 80 * Self.ms) }
        #expect(steps.isEmpty && rule.cameraLoad(at: 90 * rule.interval) == nil, "\(steps)")
    }

    /// Under a quota of `quota` cores: pictures kept at the rule's rate, each taking `busy(n)` ns
    /// of wall time (what a quota's freezes make of it) with none waiting, the process using
    /// `share(keepEvery, effort)` of the quota; the effort applied at once. The steps taken.
    static func underQuota(_ rule: inout EffortRule, from start: Int64, seconds: Double, quota: Double, waiting: (Int) -> Int = { _ in 0 },
                           busy: (Int) -> Int64, share: (Int, Int) -> Double) -> (steps: [EffortRule.Step], end: Int64) {
        var t = start, cpu = Int64(Double(start) * quota * share(rule.keepEvery, rule.effort)), n = 0
        var steps: [EffortRule.Step] = []
        while t < start + Int64(seconds * 1e9) {
            let gap = rule.interval * Int64(rule.keepEvery)
            t += gap
            cpu += Int64(Double(gap) * quota * share(rule.keepEvery, rule.effort))
            n += 1
            steps += rule.picture(at: t, busy: busy(n), waiting: waiting(n), cpu: cpu)
            if rule.effortPending { rule.effortApplied(at: t) }
        }
        return (steps, t)
    }

    /// A rule stepped to every 2nd picture at the cheapest effort by a queue past half full.
    static func steppedUnderQuota(_ quota: Double) -> EffortRule {
        var rule = EffortRule(efforts: 2, fps: 30, quota: quota)
        let steps = rule.picture(at: 33 * ms, busy: 100 * ms, waiting: 6, cpu: 10 * ms)
        rule.effortApplied(at: 34 * ms)
        #expect(steps == [.keepEvery(from: 1, to: 2), .effort(from: 0, to: 1)])
        return rule
    }

    @Test("under a quota, every 2nd picture using 80 % of it, each picture's wall time swinging with the quota's freezes (12 ms, then 62 ms, 93 % of the time between pictures kept): it stays at every 2nd for a minute, no flapping")
    func quotaHoldsEverySecond() {
        var rule = Self.steppedUnderQuota(0.3)
        let (steps, _) = Self.underQuota(&rule, from: 34 * Self.ms, seconds: 60, quota: 0.3,
                                         busy: { $0 / 15 % 2 == 0 ? 12 * Self.ms : 62 * Self.ms }, share: { _, _ in 0.8 })
        #expect(steps.isEmpty, "\(steps)")
        #expect(rule.keepEvery == 2 && rule.effort == 1)
        // The same wall times without a quota: the heavy seconds step it to every 3rd.
        var wall = EffortRule(efforts: 2, fps: 30)
        _ = wall.picture(at: 33 * Self.ms, busy: 100 * Self.ms, waiting: 6)
        wall.effortApplied(at: 34 * Self.ms)
        let (wallSteps, _) = Self.underQuota(&wall, from: 34 * Self.ms, seconds: 60, quota: 0.3,
                                             busy: { $0 / 15 % 2 == 0 ? 12 * Self.ms : 62 * Self.ms }, share: { _, _ in 0.8 })
        #expect(wallSteps.contains(.keepEvery(from: 2, to: 3)), "\(wallSteps)")
    }

    @Test("under a quota, every 2nd picture at the cheapest effort using 95 % of it: with nothing waiting it keeps up, and stays; with 3 waiting on average, every 3rd after a full second; at 55 % there, back to every 2nd (predicted 83 %), and it holds")
    func quotaEveryThirdAndBack() throws {
        var rule = Self.steppedUnderQuota(0.3)
        let (keepsUp, start) = Self.underQuota(&rule, from: 34 * Self.ms, seconds: 20, quota: 0.3, busy: { _ in 60 * Self.ms }, share: { _, _ in 0.95 })
        #expect(keepsUp.isEmpty && rule.keepEvery == 2, "\(keepsUp)")
        let (down, t) = Self.underQuota(&rule, from: start, seconds: 3, quota: 0.3, waiting: { _ in 3 }, busy: { _ in 60 * Self.ms }, share: { _, _ in 0.95 })
        #expect(down == [.keepEvery(from: 2, to: 3)], "\(down)")
        let (up, _) = Self.underQuota(&rule, from: t, seconds: 30, quota: 0.3, busy: { _ in 20 * Self.ms },
                                      share: { keep, _ in keep == 3 ? 0.55 : 0.82 })
        #expect(up == [.keepEvery(from: 3, to: 2)], "\(up)")
        #expect(rule.keepEvery == 2)
    }

    @Test("under a quota, every 2nd picture at the cheapest effort using 99 % of it while a backlog of 6 is worked off (a picture less every 5): no step to every 3rd; with the backlog then steady at 3 or 4, every 3rd")
    func quotaBacklogDraining() {
        var rule = Self.steppedUnderQuota(0.3)
        let (draining, t) = Self.underQuota(&rule, from: 34 * Self.ms, seconds: 3, quota: 0.3, waiting: { max(6 - $0 / 5, 1) },
                                            busy: { _ in 60 * Self.ms }, share: { _, _ in 0.99 })
        #expect(draining.isEmpty && rule.keepEvery == 2, "\(draining)")
        let (steady, _) = Self.underQuota(&rule, from: t, seconds: 3, quota: 0.3, waiting: { 3 + $0 % 2 },
                                          busy: { _ in 60 * Self.ms }, share: { _, _ in 0.99 })
        #expect(steady == [.keepEvery(from: 2, to: 3)], "\(steady)")
    }

    @Test("under a quota, every 2nd picture using 30 % of it: back to every picture (60 % predicted), then the configured effort only if 1.5 times the load fits")
    func quotaBackUp() {
        var rule = Self.steppedUnderQuota(0.3)
        let (up, _) = Self.underQuota(&rule, from: 34 * Self.ms, seconds: 30, quota: 0.3, busy: { _ in 10 * Self.ms },
                                      share: { keep, effort in keep == 2 ? 0.3 : effort == 1 ? 0.62 : 0.95 })
        #expect(up.first == .keepEvery(from: 2, to: 1), "\(up)")
        // At every picture 62 % of the quota: 93 % predicted at the configured effort, so it stays.
        #expect(rule.keepEvery == 1 && rule.effort == 1, "\(up)")
    }

    @Test("a queue past half full again while every 2nd picture waits for its cheaper effort: it stays at every 2nd (gaps of 2) until that effort is in")
    func everySecondBeforeThird() {
        var rule = EffortRule(efforts: 2, fps: 30)
        #expect(rule.picture(at: 33 * Self.ms, busy: 100 * Self.ms, waiting: 5) == [.keepEvery(from: 1, to: 2), .effort(from: 0, to: 1)])
        #expect(rule.picture(at: 600 * Self.ms, busy: 100 * Self.ms, waiting: 6).isEmpty)
        rule.effortApplied(at: 700 * Self.ms)
        #expect(rule.picture(at: 1_300 * Self.ms, busy: 100 * Self.ms, waiting: 7) == [.keepEvery(from: 2, to: 3)])
    }

    @Test("what a machine sustains (--check): the first effort that fits at every picture, else every 2nd or 3rd at the cheapest, else nothing", arguments: [
        ([0.010, 0.006], 1, 0),      // 10 ms at veryfast: every picture, the configured effort
        ([0.025, 0.015], 1, 1),      // only superfast fits in 0.6 of 33 ms
        ([0.040, 0.030], 2, 1),      // superfast at every 2nd picture (30 ms under 40)
        ([0.080, 0.055], 3, 1),      // every 3rd (55 ms under 60)
        ([0.090, 0.070], 0, 0),      // nothing: a smaller size
    ])
    func sustains(costs: [Double], keepEvery: Int, effort: Int) {
        let verdict = EffortRule.sustains(secondsPerPicture: costs, fps: 30, fits: 0.6)
        if keepEvery == 0 {
            #expect(verdict == nil)
        } else {
            #expect(verdict?.effort == effort && verdict?.keepEvery == keepEvery, "\(String(describing: verdict))")
        }
    }
}

extension EffortRuleTests {
    @Test("urgency is past half the queue in force, as it is after the picture: 5 waiting step the rate at once in the usual queue of 8, not in a young take's 16, where 8 do", arguments: [
        (8, 5, true), (8, 4, false), (16, 5, false), (16, 7, false), (16, 8, true),
    ])
    func urgencyByQueue(limit: Int, waiting: Int, steps: Bool) {
        var rule = EffortRule(efforts: 3, fps: 30)
        let taken = rule.picture(at: 100 * Self.ms, busy: 30 * Self.ms, waiting: waiting - 1, limit: limit, queued: waiting)
        #expect(taken.contains { if case .keepEvery = $0 { true } else { false } } == steps, "\(taken)")
    }
}
