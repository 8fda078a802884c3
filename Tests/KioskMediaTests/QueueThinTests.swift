// The writer's queue thinned when the take's rate steps down: the pictures the new rate
// leaves out come out of the queue, counted skipped before the next one kept, and never so that a
// gap over the new rate opens (the queue's own every 2nd at 6 waiting may have left out a
// neighbour already).
import Testing
@testable import KioskMedia
import KioskCore

@Suite("MovieWriter's queue thinned at a step of the rate")
struct QueueThinTests {
    /// A queue of pictures by their camera numbers, each with the pictures left out just before it.
    static func queue(_ pictures: [(UInt32, Int)], approved: UInt32? = nil) -> MovieWriter.Queue {
        var q = MovieWriter.Queue()
        let size = Size(width: 2, height: 2)
        for (sequence, before) in pictures {
            let frame = VideoFrame(format: .yuv420p, size: size, planes: PixelFormat.yuv420p.planes(for: size), bytes: [UInt8](repeating: 0, count: 6),
                                   timestamp: Int64(sequence) * 33_333_333, sequence: sequence)
            q.items.append(.video(frame, skippedBefore: before))
            q.videoCount += 1
        }
        q.approved = approved
        q.lastKept = approved ?? pictures.last?.0
        return q
    }

    static func kept(_ q: MovieWriter.Queue) -> [(UInt32, Int)] {
        q.items.compactMap { item in
            if case let .video(frame, before, _) = item { return (frame.sequence, before) }
            return nil
        }
    }

    @Test("thinned to every `every` after picture `last`: the pictures kept, each with those left out before it, the pictures left out after the last kept, and the last kept",
          arguments: [
              // Full rate, every 2nd: alternate pictures out, the last too (the next comes 2 after 7).
              (3, [(4, 0), (5, 0), (6, 0), (7, 0), (8, 0)], nil, 2, [(5, 1), (7, 1)], 1, UInt32(7)),
              // The queue's every 2nd already left 9 out: 8 stays, or 7 to 10 would be a gap of 3.
              (3, [(4, 0), (5, 0), (6, 0), (7, 0), (8, 0), (10, 1)], nil, 2, [(5, 1), (7, 1), (8, 0), (10, 1)], 0, 10),
              // 8 is said yes to while it is decoded (7 left out): 6 stays, or 5 to 8 would be a gap of 3.
              (3, [(4, 0), (5, 0), (6, 0)], UInt32(8), 2, [(5, 1), (6, 0)], 0, 8),
              // Every 3rd, at the full rate: gaps of 3 exactly.
              (0, [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0)], nil, 3, [(3, 2), (6, 2)], 0, 6),
          ] as [(UInt32, [(UInt32, Int)], UInt32?, Int, [(UInt32, Int)], Int, UInt32)])
    func thin(last: UInt32, queued: [(UInt32, Int)], approved: UInt32?, every: Int, kept: [(UInt32, Int)], skippingAfter: Int, lastKept: UInt32) {
        var q = Self.queue(queued, approved: approved)
        q.thin(every: every, after: last)
        let result = Self.kept(q)
        #expect(result.map(\.0) == kept.map(\.0) && result.map(\.1) == kept.map(\.1), "\(result)")
        #expect(q.videoCount == kept.count && q.skipping == skippingAfter && q.lastKept == lastKept, "\(q.videoCount) \(q.skipping) \(String(describing: q.lastKept))")
        // Every picture is kept or counted, and no gap in the take is over `every`.
        let counted = result.reduce(0) { $0 + $1.1 } + q.skipping
        #expect(counted + result.count == queued.reduce(0) { $0 + $1.1 } + queued.count)
        let take = [last] + result.map(\.0) + (approved.map { [$0] } ?? [])
        #expect(zip(take, take.dropFirst()).allSatisfy { $1 - $0 <= UInt32(every) }, "\(take)")
    }

    /// A take's first pictures through the queue at the camera's pace (one a tick): the writer
    /// takes the next picture when it is done with the last, each costing the ticks in `costs` (the
    /// last cost for the rest); after a picture with 5 or more waiting the rule steps the rate to
    /// every 2nd (the writer's `adapt`, thinning the queue); the rule's first whole second (tick 30)
    /// lets the queue settle. The longest gap between the pictures the writer encoded, and the drops.
    static func burst(costs: [Int], young: Bool, ticks: UInt32 = 90) -> (longestGap: UInt32, dropped: Int, encoded: Int) {
        var q = MovieWriter.Queue()
        q.accepting = true
        if !young { q.limit = MovieWriter.videoQueueLimit }
        var encoded: [UInt32] = [], current: UInt32?, busyUntil: UInt32 = 0
        let size = Size(width: 2, height: 2)
        for tick in UInt32(1)...ticks {
            if let picture = current, tick >= busyUntil {
                encoded.append(picture)
                current = nil
                if q.videoCount >= EffortRule.urgentWaiting(limit: q.limit), q.keepEvery == 1 {
                    q.keepEvery = 2
                    q.thin(every: 2, after: picture)
                }
            }
            if tick >= 30 { q.settle() }
            if current == nil, !q.items.isEmpty, case let .video(frame, _, _) = q.items.removeFirst() {
                q.videoCount -= 1
                current = frame.sequence
                busyUntil = tick + UInt32(costs[min(encoded.count, costs.count - 1)])
            }
            let frame = VideoFrame(format: .yuv420p, size: size, planes: PixelFormat.yuv420p.planes(for: size), bytes: [UInt8](repeating: 0, count: 6),
                                   timestamp: Int64(tick) * 33_333_333, sequence: tick)
            _ = q.offer(frame, afterStall: false)
        }
        return (zip(encoded, encoded.dropFirst()).map { $1 - $0 }.max() ?? 0, q.dropped, encoded.count)
    }

    @Test("a young take's slow first pictures (a key frame, then the new encoder's after the step of effort: 7 to 10 intervals each on 0.3 of a core) wait in the deeper queue at every 2nd picture: no gap over 2, nothing dropped; the usual queue of 8 from the start left a gap of 3 (bench/weak-machine's first half second)",
          arguments: [[8, 8, 3, 3, 2], [7, 12, 3, 2], [9, 9, 4, 4, 3, 2], [8, 10, 4, 3, 2]])
    func youngBurst(costs: [Int]) {
        let young = Self.burst(costs: costs, young: true)
        #expect(young.longestGap == 2 && young.dropped == 0 && young.encoded >= 30, "\(young)")
        let usual = Self.burst(costs: costs, young: false)
        #expect(usual.longestGap >= 3, "\(usual)")
    }

    @Test("a capable machine's start-up burst (the first key frame 5 or 6 intervals, the next 2, then a picture an interval) waits whole in the young take's deeper queue: every picture kept, none skipped, none dropped; the usual queue from the start would have left pictures out (1080p lost 33 to 62 so)",
          arguments: [[6, 1], [5, 2, 1], [6, 2, 1]])
    func capableBurst(costs: [Int]) {
        let young = Self.burst(costs: costs, young: true)
        #expect(young.longestGap == 1 && young.dropped == 0, "\(young)")
        let usual = Self.burst(costs: costs, young: false)
        #expect(usual.longestGap >= 2, "\(usual)")
    }

    /// Pictures 1... offered one a tick from a take keeping every `every` (`asking`: each asked for
    /// with `wants` first, as a camera that decodes does, those in `lost` then never coming; else
    /// offered straight, as the test pattern's are). The writer takes the oldest queued at the ticks
    /// in `takes`; at a tick in `steps` the rate steps to that (the writer's `adapt`: thinned after
    /// the last picture taken). The take's pictures: those taken, then those still queued.
    static func take(ticks: UInt32, every: Int, takes: Set<UInt32>, steps: [UInt32: Int], asking: Bool, lost: Set<UInt32> = []) -> [UInt32] {
        var q = MovieWriter.Queue()
        (q.accepting, q.keepEvery, q.limit) = (true, every, MovieWriter.videoQueueLimit)
        var taken: [UInt32] = []
        let size = Size(width: 2, height: 2)
        for tick in UInt32(1)...ticks {
            let frame = VideoFrame(format: .yuv420p, size: size, planes: PixelFormat.yuv420p.planes(for: size), bytes: [UInt8](repeating: 0, count: 6),
                                   timestamp: Int64(tick) * 33_333_333, sequence: tick)
            // Asked (`MovieWriter.wants`): a picture said no to is not decoded, so never offered.
            let comes = asking ? q.keeps(tick) && !lost.contains(tick) : true
            if comes { _ = q.offer(frame, afterStall: false) }
            if let to = steps[tick], let last = taken.last {
                q.keepEvery = to
                q.thin(every: to, after: last)
            }
            if takes.contains(tick), !q.items.isEmpty, case let .video(frame, _, _) = q.items.removeFirst() {
                q.videoCount -= 1
                taken.append(frame.sequence)
            }
        }
        return taken + kept(q).map(\.0)
    }

    @Test("a step of the rate from every 2nd to every 3rd with the one picture queued that the new rate leaves out: the take's gaps stay within 3, whether the camera asked before each picture or not (the test pattern, offering straight, left a gap of 5: the picture thinned out stayed the one the next was counted from)",
          arguments: [false, true])
    func stepWithOneQueued(asking: Bool) {
        let take = Self.take(ticks: 15, every: 2, takes: Set([1] + Array(4...15)), steps: [3: 3], asking: asking)
        let gaps = zip(take, take.dropFirst()).map { $1 - $0 }
        #expect(take.first == 1 && gaps.max() == 3 && gaps.allSatisfy { $0 >= 2 }, "\(take)")
    }

    @Test("a picture said yes to that never comes (the camera lost it after asking): the next is judged from the last picture the take has, one more gap only (at every 2nd, 3 where it was 4)")
    func approvedNeverComes() {
        let take = Self.take(ticks: 12, every: 2, takes: Set(1...12), steps: [:], asking: true, lost: [5])
        #expect(take == [1, 3, 6, 8, 10, 12], "\(take)")
    }

    @Test("the deeper queue gives way to the usual one only below the usual every 2nd (5 or fewer waiting), so no burst of drops follows")
    func settles() {
        var q = MovieWriter.Queue()
        q.videoCount = 6
        q.settle()
        #expect(q.limit == MovieWriter.startQueueLimit)
        q.videoCount = 5
        q.settle()
        #expect(q.limit == MovieWriter.videoQueueLimit)
    }
}
