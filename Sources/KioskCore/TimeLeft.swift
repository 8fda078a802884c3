// The time a take has left before a limit ends it, as a value fed what the writer says: the duration
// cap, and the bytes the file-size cap and the free disk still allow at the take's rate. Pure: the
// elapsed time comes in with the bytes.

public struct TimeLeft: Equatable, Sendable {
    /// `--max-duration`, in seconds.
    public var maxDuration: Double
    /// The counts seen last, where the rate counts from, the rate over whole seconds (bytes a
    /// second), and the time the bytes left allowed as last said.
    private var last: Sample?
    private var base: Sample?
    public private(set) var rate: Double?
    private var said: Said?

    struct Sample: Equatable, Sendable {
        var elapsed: Double
        var written: Int64
    }

    struct Said: Equatable, Sendable {
        var seconds: Double
        var room: Int64
    }

    public init(maxDuration: Double) { self.maxDuration = maxDuration }

    /// Seconds left after `elapsed` seconds of the take with `written` bytes and `room` bytes more
    /// allowed (`Int64.max`: no byte limit in sight).
    ///
    /// The rate is over whole seconds of the take: the counts seen last before the video crossed
    /// whole seconds, from the first one on. Each second opens with a key frame (the GOP is a
    /// second), several times a P frame's size: a rate taken mid-second swings with it, and the
    /// time left would rise through each second and then fall by more than one. The first second
    /// is left out: it carries the stream's headers and its first key frame, larger than the others
    /// (counted in, the time left rose by half a second at the next update). Until there is a rate
    /// (the third second), only the duration counts.
    public mutating func seconds(elapsed: Double, written: Int64, room: Int64) -> Double {
        var left = maxDuration - elapsed
        if let last, Int(elapsed) > Int(last.elapsed), last.elapsed > 0 {
            if let base {
                if last.elapsed > base.elapsed, last.written > base.written {
                    rate = Double(last.written - base.written) / (last.elapsed - base.elapsed)
                }
            } else {
                base = last
            }
        }
        last = Sample(elapsed: elapsed, written: written)
        if let rate, room < Int64.max {
            // A countdown does not go back up: when a new second's rate is a little lower, the time
            // left holds until the bytes catch up (seen in CI under load: 5.86 s, then 6.00 s a
            // quarter second later). Only more room is news (the disk freed): then it is said.
            var byBytes = Double(room) / rate
            if let said, byBytes > said.seconds, room <= said.room { byBytes = said.seconds }
            said = Said(seconds: byBytes, room: room)
            left = min(left, byBytes)
        }
        return max(left, 0)
    }
}
