// Where one decoded stream (pictures, sound) stands across seeks and ends, and what the player's
// queues of decoded output (the frame queue, the audio ring) share: dropping what a seek made
// stale, and waiting for room unless the player is closing.

/// Where one decoded stream stands across seeks, as the frame queue and the audio ring both keep
/// it: the player's serial now, whether that serial's stream has ended, and whether the stream
/// will never carry anything (then it counts as ended whatever the serial).
struct StreamSerial: Sendable {
    /// The player's serial now: what was decoded for another is stale (decoded before a seek).
    var generation = 0
    var finished = false
    var streamless = false

    /// The stream of `generation` (nil: whichever runs now) is done.
    mutating func finish(generation: Int?) {
        if generation.map({ $0 == self.generation }) ?? true { finished = true }
    }

    /// Nothing will ever come, after a seek too.
    mutating func finishForGood() {
        finished = true
        streamless = true
    }

    /// A seek: from now on only `generation`'s (or a later one's) count; a stream that can still
    /// carry something is not finished.
    mutating func flush(to generation: Int) {
        self.generation = max(self.generation, generation)
        finished = streamless
    }
}

/// A queue of one decoded stream (pictures, sound) that ends and seeks by its `StreamSerial`.
protocol SerialQueue: AnyObject {
    /// Changes the serial under the queue's lock, waking its waiters.
    func updateSerial(_ body: (inout StreamSerial) -> Void)
}

extension SerialQueue {
    /// The decoding thread is done with the stream of `generation` (nil: whichever runs now).
    func finish(generation: Int? = nil) { updateSerial { $0.finish(generation: generation) } }

    /// Nothing will ever come (the file has no such stream, or no device plays it), after a seek too.
    func finishForGood() { updateSerial { $0.finishForGood() } }
}

/// The state behind a `SerialQueue`: whether the player is closing, the stream's serial, and what
/// waits to be taken.
protocol SerialQueueState: Sendable {
    var closed: Bool { get }
    var serial: StreamSerial { get set }
    /// Throws away everything waiting (a seek made it stale).
    mutating func removeWaiting()
}

extension Monitor where State: SerialQueueState {
    /// Waits to queue what was decoded for `generation`: false when the player is closing; true at
    /// once, without queueing it, when it is stale (decoded before the last seek); else what `append`
    /// returns, waiting while it returns nil (no room yet).
    func queue(generation: Int, _ append: (inout State) -> Bool?) -> Bool {
        wait { s -> Bool? in
            if s.closed { return false }
            if generation < s.serial.generation { return true }
            return append(&s)
        }
    }

    /// A seek: everything waiting is stale; from now on only `generation`'s is taken.
    func flush(generation: Int) {
        update { s in
            s.serial.flush(to: generation)
            s.removeWaiting()
        }
    }
}
