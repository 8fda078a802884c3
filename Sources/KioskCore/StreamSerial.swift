// Where one decoded stream (pictures, sound) stands across seeks and ends: the player's queues of
// decoded output (the frame queue, the audio ring, KioskMedia's PlayerQueues) keep one each.

/// Where one decoded stream stands across seeks, as the frame queue and the audio ring both keep
/// it: the player's serial now, whether that serial's stream has ended, and whether the stream
/// will never carry anything (then it counts as ended whatever the serial).
public struct StreamSerial: Sendable {
    /// The player's serial now: what was decoded for another is stale (decoded before a seek).
    public var generation = 0
    public var finished = false
    public var streamless = false

    public init() {}

    /// The stream of `generation` (nil: whichever runs now) is done.
    public mutating func finish(generation: Int?) {
        if generation.map({ $0 == self.generation }) ?? true { finished = true }
    }

    /// Nothing will ever come, after a seek too.
    public mutating func finishForGood() {
        finished = true
        streamless = true
    }

    /// A seek: from now on only `generation`'s (or a later one's) count; a stream that can still
    /// carry something is not finished.
    public mutating func flush(to generation: Int) {
        self.generation = max(self.generation, generation)
        finished = streamless
    }
}
