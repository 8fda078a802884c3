// The boomerang: a take of another kind. After the countdown the booth captures
// `--boomerang-seconds` of pictures (no sound, the overlay burnt in), and the file the guest gets
// plays them forward, then back, repeated to at least three seconds. The forward half is the
// capture's own packets; only the backward half is encoded again (BoomerangLoop in KioskMedia), so
// the review starts a fraction of a second after the last picture.

/// `--boomerang-button`, `--boomerang-seconds`, `--boomerang-speed`.
public struct BoomerangSettings: Equatable, Sendable {
    /// The Boomerang button beside Record in ready (the command `boomerang` needs it too).
    public var button = false
    /// How long the pictures are captured (0.5 to 3 s).
    public var seconds = 1.0
    /// 1: played at the camera's rate; 0.5: at half speed, where the camera gives at least 60 fps
    /// (the pictures are then timed for 30 fps); a slower camera plays at its own rate (said).
    public var speed = 1.0

    public init() {}

    /// The plan for a boomerang from a camera at `fps`.
    public func plan(cameraFPS fps: Double) -> BoomerangPlan {
        let slow = speed < 1 && fps * speed >= BoomerangPlan.slowMotionFloor
        return BoomerangPlan(seconds: seconds, frameRate: slow ? fps * speed : fps)
    }
}

/// One boomerang's capture and loop.
public struct BoomerangPlan: Equatable, Sendable {
    /// The pictures' capture time (the take's `maxDuration`).
    public var seconds: Double
    /// The rate the loop plays its pictures at: the camera's, or half of it in slow motion.
    public var frameRate: Double
    /// The shortest loop Instagram accepts.
    public static let shortestLoop = 3.0
    /// Slow motion plays at least this many pictures a second (a 60 fps camera at half speed).
    public static let slowMotionFloor = 30.0

    public init(seconds: Double, frameRate: Double) {
        (self.seconds, self.frameRate) = (seconds, frameRate)
    }

    /// The order the loop plays `count` captured pictures in: forward (0…n−1), then back without
    /// the turning pictures twice (n−2…1), that round repeated until it lasts `shortestLoop` at
    /// `frameRate`; whole rounds only, so the file's end runs on into its start. One picture is
    /// shown for the length of the loop; none gives none.
    public func order(count: Int) -> [Int] {
        guard count > 0 else { return [] }
        let round = count == 1 ? [0] : Array(0..<count) + Array((1..<(count - 1)).reversed())
        let least = Int((Self.shortestLoop * max(frameRate, 1)).rounded(.up))
        let rounds = max((least + round.count - 1) / round.count, 1)
        return Array((0..<rounds).map { _ in round }.joined())
    }
}

extension RecorderMachine {
    /// A boomerang's pictures are all taken: the camera rests while its loop is made (its buffers'
    /// memory is back before the loop's encoder takes its own), and starts again in ready.
    mutating func endCapture() {
        guard takeKind == .boomerang, case var .recording(r) = state, r.confirmed else { return }
        r.captured = true
        state = .recording(r)
    }

    /// Whether the take running has all its pictures (a boomerang making its loop).
    var capturedAll: Bool { if case let .recording(r) = state { r.captured } else { false } }

    /// The boomerang the finished screen loops (silent, on the player's surface, from the file the
    /// guest gets), while nothing else has the screen; nil: none (a video's review shows its last
    /// picture until Play Video).
    public var reviewLoop: String? {
        guard case let .finished(take) = state, take.kind == .boomerang, take.success, !exiting, !inBackground else { return nil }
        return take.outputPath
    }
}
