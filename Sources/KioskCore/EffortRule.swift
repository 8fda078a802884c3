// How hard a take's encoder works and how many of the camera's pictures it keeps, as a value fed
// what the writer measures after each picture: the time it spent on it and how many pictures wait
// behind it. Pure: the time comes in as a number (CLOCK_MONOTONIC ns in the writer, a virtual clock
// in the tests).
//
// Under a CPU quota (a cgroup's cpu.max: the process runs its share of each 100 ms, then stands
// still for the rest), the wall time a picture takes swings with where the freeze falls: at every
// 2nd picture on 0.3 of a core it read 85 % one second and 12 % the next. There the load is the
// process's CPU time against the quota's share instead (`quota`, the `cpu` of each picture), which
// does not swing; a machine without a quota is judged by the wall time, as before.
//
// The way down: first the encoder's effort, a step at a time (each at the next key frame, where the
// writer can change it without a new stream), then the rate, evenly (every 2nd picture, then every
// 3rd). A queue half full cannot wait for a key frame: the rate steps at once, and the effort
// follows at the key frame. The way up is the way down in reverse: the rate comes back first, as
// soon as the full rate is measured to fit, then the effort. A guest sees a lost picture (a jerk in
// the motion); a step of effort costs bits, not pictures. So the pictures are the last thing given
// up and the first taken back; a step of effort comes back only once the full rate has held.
// ("Step back up, effort first" means: undo the steps in the reverse order of the way down.)
//
// The camera's thread is judged too (`camera`, its wall time on each picture kept: the decoding and
// the green screen's key, before the picture splits to the preview and the take). When it takes
// `behindLoad` of the time between the pictures kept, the rate steps (a cheaper effort does not
// lighten that thread), and comes back only when the camera's time would fit there too. Under a
// quota the process's CPU time holds the camera's thread's already, and its wall time swings.

public struct EffortRule: Equatable, Sendable {
    /// One change, for the log: the new effort (0: the configured one) or the new rate (1: every
    /// picture, 2: every second one, …).
    public enum Step: Equatable, Sendable {
        case effort(from: Int, to: Int)
        case keepEvery(from: Int, to: Int)
    }

    /// Effort levels the encoder has (1: only the configured one; a hardware encoder's case).
    public private(set) var efforts: Int
    /// The camera's frame interval, ns.
    public let interval: Int64
    /// The cores' worth of CPU a quota allows the process (nil: none; `CPUQuota`).
    public let quota: Double?
    /// The effort the encoder should work at (0: the configured one) and every how many pictures
    /// the take keeps one.
    public private(set) var effort = 0
    public private(set) var keepEvery = 1
    /// Steps taken, both ways.
    public private(set) var steps = 0
    /// An effort step waits for the writer's next key frame (`effortApplied`).
    public private(set) var effortPending = false

    /// The writer's time per picture over the last `upHold` (2 s; the load is the last `window`'s),
    /// and since when the present level is measured (nothing is judged on less than a full window
    /// of it).
    private var samples: [Sample] = []
    private var since: Int64?
    /// The last urgent step and the pictures waiting then (in `busy`): another only if more wait.
    private var lastUrgent: Sample?
    private var lastUp: Int64?
    /// How long a level must hold with room to spare before a step up; doubled each time a step
    /// down follows a step up within `flapWindow` (no flapping), up to `maxUpHold`.
    public private(set) var upHold = Self.upHold

    struct Sample: Equatable, Sendable {
        var at: Int64
        var busy: Int64
        /// The process's CPU time so far (under a quota), ns.
        var cpu: Int64 = 0
        /// Pictures waiting behind this one.
        var waiting = 0
        /// The camera's thread's time on this picture, ns.
        var camera: Int64 = 0
    }

    public static let window: Int64 = 1_000_000_000
    /// Behind: each picture kept takes this share of the time between the pictures kept.
    public static let behindLoad = 0.85
    /// Past half the writer's queue of 8: the rate steps at once, before a burst is dropped.
    public static let urgentWaiting = 5
    /// Past half the queue in force: 5 of the usual 8; 8 of a young take's 16. A young take's deeper
    /// queue is there to hold its start-up burst (the first key frame, a new encoder's first
    /// pictures, the first second's busier machine): at 1080p a burst of 5 stepped the rate at once
    /// in 3 takes of 4 on a machine that kept every picture after it, each take then losing 33 to
    /// 62 pictures before the rate came back.
    public static func urgentWaiting(limit: Int) -> Int { limit > 8 ? limit / 2 : limit / 2 + 1 }
    /// The writer's queue keeps every 2nd picture by itself from this many waiting: 6 of the usual
    /// 8 (one past the urgency), 8 of a young take's 16, with the urgency, which the writer judges
    /// on the queue as it is after each picture, so the rule leads the rate (a burst of up to 7 at a
    /// take's start waits whole; a weak machine's first pictures, 9 intervals each on 0.3 of a
    /// core, still leave no gap over 2 and no drop: QueueThinTests).
    public static func queueThinsAt(limit: Int) -> Int { limit > 8 ? urgentWaiting(limit: limit) : limit - 2 }
    public static let urgentEvery: Int64 = 500_000_000
    /// A step up is taken when its predicted load fits under this (a margin under `behindLoad`:
    /// the camera's decoding goes on at the full rate whatever the take keeps, so the load does
    /// not fall quite in proportion; on 0.3 of a core at 720p, 49 % at every 3rd picture became
    /// 85 % at every 2nd, not 73 %).
    public static let upLoad = 0.65
    /// A step of effort up costs about half again (superfast to veryfast, measured at 720p).
    public static let effortCost = 1.5
    public static let upHold: Int64 = 2_000_000_000
    public static let maxUpHold: Int64 = 32_000_000_000
    public static let flapWindow: Int64 = 10_000_000_000
    public static let maxKeepEvery = 3
    /// Under a quota the load is the share of it used: the process is behind when it uses nearly
    /// all of it (the rest of each period it stands still, the camera's pictures waiting in the
    /// driver's buffers), and a step up is taken when its prediction leaves a little of it.
    /// Nearly all of it used is not yet behind: a booth that keeps up at 95 % of its share does
    /// (measured: 720p at every 2nd picture on 0.3 of a core, nothing waiting). It is behind when
    /// pictures also wait, on average over the second, as they do once it falls behind, and their
    /// number does not fall (`backlogFalling`).
    public static let quotaBehindLoad = 0.92
    public static let quotaBehindWaiting = 2.0
    public static let quotaUpLoad = 0.85

    public init(efforts: Int, fps: Double, quota: Double? = nil) {
        self.efforts = max(efforts, 1)
        interval = Int64((1e9 / max(fps, 1)).rounded())
        self.quota = quota.flatMap { $0 > 0 ? $0 : nil }
    }

    private var behindLoad: Double { quota == nil ? Self.behindLoad : Self.quotaBehindLoad }
    private var upLoad: Double { quota == nil ? Self.upLoad : Self.quotaUpLoad }

    /// Whether anything is stepped down now.
    public var stepped: Bool { effort > 0 || keepEvery > 1 }

    /// The headroom: the writer's mean time per picture over the last second against the time
    /// between the pictures it keeps (1: it just keeps up); under a quota, the process's CPU time
    /// over the last second against the quota's (1: all of it); nil before a full second of the
    /// present level. A backlog does not count here (the writer is busy all the time it drains
    /// one, at no greater cost per picture); the pictures waiting do, in `picture`.
    public func load(at now: Int64) -> Double? { load(at: now, over: Self.window) }

    /// The same over the last `span` (at most `upHold`'s first value: the samples kept); `camera`:
    /// the camera's thread's time instead of the writer's (nil under a quota).
    func load(at now: Int64, over span: Int64, camera: Bool = false) -> Double? {
        guard let since, now - since >= span, !camera || quota == nil else { return nil }
        let recent = samples.filter { $0.at > now - span }
        guard !recent.isEmpty else { return nil }
        if let quota {
            guard let first = recent.first, let last = recent.last, last.at - first.at >= span / 2 else { return nil }
            return Double(last.cpu - first.cpu) / Double(last.at - first.at) / quota
        }
        let busy = recent.reduce(Int64(0)) { $0 + (camera ? $1.camera : $1.busy) }
        return Double(busy) / Double(recent.count) / Double(interval * Int64(keepEvery))
    }

    /// The camera's thread's mean time per picture kept over the last second against the time
    /// between them (1: it just keeps up); nil under a quota, or before a full second.
    public func cameraLoad(at now: Int64) -> Double? { load(at: now, over: Self.window, camera: true) }

    /// The writer spent `busy` ns on a picture it finished at `now`, with `waiting` pictures queued
    /// behind it, and the process had used `cpu` ns of CPU time by then (under a quota): the steps
    /// to take (none most of the time).
    /// `limit`: the pictures the writer's queue holds now (a young take's is deeper); `queued`: the
    /// pictures in it now, after this one (nil: `waiting`), which urgency is judged by. `camera`:
    /// the camera's thread's time on this picture (0: not measured).
    public mutating func picture(at now: Int64, busy: Int64, waiting: Int, cpu: Int64 = 0, limit: Int = 8, queued: Int? = nil,
                                 camera: Int64 = 0) -> [Step] {
        if since == nil { since = now }
        samples.append(Sample(at: now, busy: max(busy, 0), cpu: cpu, waiting: waiting, camera: max(camera, 0)))
        samples.removeAll { $0.at <= now - Self.upHold }
        var taken: [Step] = []
        // Past half the queue, and more than at the last urgent step: the rate steps now; the
        // effort follows at the next key frame. Past every 2nd picture (gaps of 3 intervals) only
        // once no cheaper effort is left to wait for: every 2nd at the cheapest effort is tried
        // first.
        let queued = queued ?? waiting
        if queued >= Self.urgentWaiting(limit: limit), lastUrgent.map({ now - $0.at >= Self.urgentEvery && Int64(queued) > $0.busy }) ?? true {
            lastUrgent = Sample(at: now, busy: Int64(queued))
            if keepEvery < Self.maxKeepEvery, keepEvery == 1 || (effort + 1 >= efforts && !effortPending) {
                taken.append(setKeep(keepEvery + 1))
            }
            if effort + 1 < efforts, !effortPending { taken.append(setEffort(effort + 1)) }
            restart(at: now, down: true, steps: taken.count)
            return taken
        }
        guard let load = load(at: now), !effortPending else { return [] }
        let behind = load >= behindLoad && (quota == nil || (meanWaiting(at: now) >= Self.quotaBehindWaiting && !backlogFalling(at: now)))
        // The camera's thread: behind by itself, or holding the rate where it is (the rate one up
        // would not fit it); the writer fitting the rate one up (the way back brings it then).
        let cameraShare = cameraLoad(at: now) ?? 0
        let cameraHeld = self.load(at: now, over: Self.upHold, camera: true).map { max($0, cameraShare) } ?? cameraShare
        let up = Double(keepEvery) / Double(max(keepEvery - 1, 1))
        let rateHeld = cameraHeld * up > upLoad, writerFitsUp = load * up <= upLoad
        if effort + 1 < efforts, behind || (keepEvery > 1 && !rateHeld && !writerFitsUp) {
            // Behind, or pictures left out while a cheaper effort is still to be had and would
            // bring them back: effort first.
            taken.append(setEffort(effort + 1))
            restart(at: now, down: true, steps: 1)
        } else if behind || cameraShare >= behindLoad, keepEvery < Self.maxKeepEvery {
            taken.append(setKeep(keepEvery + 1))
            restart(at: now, down: true, steps: 1)
        } else if waiting == 0, let since, now - since >= upHold, load < behindLoad, cameraShare < behindLoad,
                  let held = self.load(at: now, over: Self.upHold).map({ max($0, load) }) {
            // The way back: the rate first, then the effort, each when it is predicted to fit, by
            // the last second and by the last two, whichever is heavier (a CPU whose share swings,
            // a cgroup's throttling, does not lift the take on one light second).
            if keepEvery > 1, max(held, cameraHeld) * up <= upLoad {
                taken.append(setKeep(keepEvery - 1))
            } else if keepEvery == 1, effort > 0, held * Self.effortCost <= upLoad {
                taken.append(setEffort(effort - 1))
            }
            restart(at: now, down: false, steps: taken.count)
        }
        return taken
    }

    /// The pictures waiting fell over the last second (its second half against its first, by
    /// more than half a picture on average): a backlog being worked off, not a booth falling behind. Under
    /// a quota the share is all used while a backlog drains (a take's slow first pictures left 9
    /// waiting at 720p on 0.3 of a core, worked off at every 2nd picture using 99 % of the quota);
    /// stepping the rate down for it left gaps of 3 for the rest of the take (bench/weak-machine).
    private func backlogFalling(at now: Int64) -> Bool {
        let recent = samples.filter { $0.at > now - Self.window }
        guard recent.count >= 4 else { return false }
        let half = recent.count / 2
        let first = Double(recent[..<half].reduce(0) { $0 + $1.waiting }) / Double(half)
        let second = Double(recent[half...].reduce(0) { $0 + $1.waiting }) / Double(recent.count - half)
        return second < first - 0.5
    }

    /// The pictures waiting behind each picture over the last second, on average.
    private func meanWaiting(at now: Int64) -> Double {
        let recent = samples.filter { $0.at > now - Self.window }
        return recent.isEmpty ? 0 : Double(recent.reduce(0) { $0 + $1.waiting }) / Double(recent.count)
    }

    /// The writer changed the encoder's effort at a key frame: the new effort is measured from now.
    public mutating func effortApplied(at now: Int64) {
        effortPending = false
        samples.removeAll()
        since = now
    }

    /// The writer could not take that effort (the stream would not stay one): it stays where it
    /// was, and no effort below it is tried again in this take.
    public mutating func effortRefused(at now: Int64, kept: Int) {
        effortPending = false
        effort = kept
        efforts = kept + 1
        samples.removeAll()
        since = now
    }

    private mutating func setKeep(_ value: Int) -> Step {
        defer { keepEvery = value }
        return .keepEvery(from: keepEvery, to: value)
    }

    private mutating func setEffort(_ value: Int) -> Step {
        effortPending = true
        defer { effort = value }
        return .effort(from: effort, to: value)
    }

    private mutating func restart(at now: Int64, down: Bool, steps count: Int) {
        guard count > 0 else { return }
        if down, let lastUp, now - lastUp < Self.flapWindow { upHold = min(upHold * 2, Self.maxUpHold) }
        if !down { lastUp = now }
        steps += count
        samples.removeAll()
        since = now
    }
}

extension EffortRule {
    /// What a machine sustains, from the seconds a picture takes at each step of effort (the
    /// configured one first) at `fps`: the first effort that keeps each picture under `fits` of the
    /// interval, at every picture, or else at every 2nd or 3rd picture at the cheapest effort; nil
    /// when not even that fits (`--check`: then a smaller size).
    public static func sustains(secondsPerPicture costs: [Double], fps: Double, fits: Double) -> (effort: Int, keepEvery: Int)? {
        let interval = 1 / max(fps, 1)
        if let effort = costs.firstIndex(where: { $0 <= fits * interval }) { return (effort, 1) }
        guard let cheapest = costs.last else { return nil }
        for keep in 2...maxKeepEvery where cheapest <= fits * interval * Double(keep) { return (costs.count - 1, keep) }
        return nil
    }
}
