// The writer's queue thinned when the take's rate steps down (issue 35): the pictures the new rate
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
            if case let .video(frame, before) = item { return (frame.sequence, before) }
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
}
