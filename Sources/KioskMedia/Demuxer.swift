// The player's input: a movie file opened with libavformat, read packet by packet, with a read
// timeout and an abort through AVIOInterruptCB, and the timestamps of each stream kept sane.
import CFFmpeg
import FoundationEssentials
import KioskCore
import KioskSystem
import Synchronization

/// What libavformat's interrupt callback looks at: abort (the player closes) or a read that has
/// taken longer than its deadline (a stalled disk, a hostile file that makes it spin).
final class Interruption: Sendable {
    private let aborted = Atomic<Bool>(false)
    private let deadline = Atomic<Int64>(.max)
    private let timedOut = Atomic<Bool>(false)

    func abort() { aborted.store(true, ordering: .releasing) }
    var isAborted: Bool { aborted.load(ordering: .acquiring) }
    /// A read ran past its deadline (reported as an error, unlike an abort).
    var didTimeOut: Bool { timedOut.load(ordering: .acquiring) }

    /// The next blocking call must end by `now + nanoseconds`.
    func arm(_ nanoseconds: Int64) { deadline.store(MonotonicClock.now() + nanoseconds, ordering: .releasing) }

    /// libavformat asks this often while it reads or probes: nonzero stops it (AVERROR_EXIT).
    func shouldStop() -> Bool {
        if isAborted { return true }
        if MonotonicClock.now() > deadline.load(ordering: .acquiring) {
            timedOut.store(true, ordering: .releasing)
            return true
        }
        return false
    }
}

/// Owns the AVFormatContext (`avformat_close_input` in deinit). Lives on the demux thread.
final class Demuxer {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// Kept alive here: libavformat holds a raw pointer to it in `interrupt_callback`.
    private let interruption: Interruption
    private let timeout: Int64

    enum Read {
        case packet
        /// EAGAIN: nothing yet (some inputs), try again.
        case again
        case end
        case failed(AVError)
    }

    /// `avformat_open_input` and `avformat_find_stream_info`, both under the read timeout. Only the
    /// `file` protocol is allowed: a playlist or a concat list inside a file cannot make the player
    /// open network addresses or other files' protocols.
    init(path: String, interruption: Interruption, timeout: Int64) throws(AVError) {
        self.interruption = interruption
        self.timeout = timeout
        guard let context = avformat_alloc_context() else { throw AVError(code: AVError.code(posix: ENOMEM), call: "avformat_alloc_context") }
        context.pointee.interrupt_callback = AVIOInterruptCB(
            callback: { opaque in
                guard let opaque else { return 0 }
                return Unmanaged<Interruption>.fromOpaque(opaque).takeUnretainedValue().shouldStop() ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(interruption).toOpaque())
        var options: OpaquePointer?
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        defer { av_dict_free(&options) }
        self.context = context
        interruption.arm(timeout)
        // The "file:" prefix: a path with a colon in it is a file, not a protocol name.
        var result = avformat_open_input(&self.context, "file:" + path, nil, &options)
        guard result >= 0, let opened = self.context else { throw Self.error(result, interruption, call: "avformat_open_input(\(path))") }
        interruption.arm(timeout)
        result = avformat_find_stream_info(opened, nil)
        guard result >= 0 else { throw Self.error(result, interruption, call: "avformat_find_stream_info(\(path))") }
    }

    deinit { avformat_close_input(&context) }

    private static func error(_ code: Int32, _ interruption: Interruption, call: String) -> AVError {
        interruption.didTimeOut ? AVError(code: AVError.code(posix: ETIMEDOUT), call: call) : AVError(code: code, call: call)
    }

    var format: UnsafeMutablePointer<AVFormatContext> { context! }

    /// The best stream of a kind (`av_find_best_stream`), nil when there is none.
    func bestStream(_ type: AVMediaType, related: Int32 = -1) -> UnsafeMutablePointer<AVStream>? {
        let index = av_find_best_stream(format, type, -1, related, nil, 0)
        guard index >= 0, index < format.pointee.nb_streams else { return nil }
        return format.pointee.streams[Int(index)]
    }

    /// Only these streams' packets are read; the rest are discarded inside libavformat.
    func keep(only streams: [Int32]) {
        for i in 0..<Int(format.pointee.nb_streams) {
            if !streams.contains(Int32(i)) { format.pointee.streams[i]!.pointee.discard = AVDISCARD_ALL }
        }
    }

    /// `av_read_frame` under the read timeout.
    func read(into packet: UnsafeMutablePointer<AVPacket>) -> Read {
        interruption.arm(timeout)
        let result = av_read_frame(format, packet)
        if result >= 0 { return .packet }
        if result == kiosk_AVERROR_EAGAIN() { return .again }
        if result == kiosk_AVERROR_EOF() || interruption.isAborted { return .end }
        return .failed(Self.error(result, interruption, call: "av_read_frame"))
    }

    /// `read` for a reader with nothing else to do meanwhile (a thumbnail, a cut, a remux, a probe):
    /// true with a packet, false at the end; EAGAIN is waited out 5 ms at a time.
    func nextPacket(into packet: UnsafeMutablePointer<AVPacket>) throws(AVError) -> Bool {
        while true {
            switch read(into: packet) {
            case .packet: return true
            case .again: usleep(5_000)
            case .end: return false
            case .failed(let error): throw error
            }
        }
    }

    /// `av_seek_frame` (backward) to the key frame at or before `microseconds` (AV_TIME_BASE, on the
    /// file's own clock, its start included), under the read timeout. nil when it went.
    func seek(toMicroseconds microseconds: Int64) -> AVError? {
        interruption.arm(timeout)
        let result = av_seek_frame(format, -1, microseconds, AVSEEK_FLAG_BACKWARD)
        return result >= 0 ? nil : Self.error(result, interruption, call: "av_seek_frame")
    }

    /// A stream's time base (for the loop's length, from the packets' ends).
    func timeBase(of index: Int32) -> AVRational? {
        guard index >= 0, index < format.pointee.nb_streams else { return nil }
        return format.pointee.streams[Int(index)]?.pointee.time_base
    }

    /// The file's length in nanoseconds, when its header says (and it is a length at all: a
    /// hostile header can say anything).
    var duration: Int64? {
        let d = format.pointee.duration
        guard d != kiosk_AV_NOPTS_VALUE(), d > 0 else { return nil }
        return d.checkedMultiplied(by: 1000)
    }

    /// When the file's first stream starts, in nanoseconds.
    var startTime: Int64? {
        let s = format.pointee.start_time
        guard s != kiosk_AV_NOPTS_VALUE() else { return nil }
        return s.checkedMultiplied(by: 1000)
    }
}

/// Places one stream's timestamps on the player's timeline, which starts at 0 where the file starts
/// (so a file stamped near the end of Int64's range plays like any other): fills in missing ones,
/// and where a stream jumps far ahead or back (a broken or hostile file), or says a time that does
/// not fit in nanoseconds, carries on from where it was instead, so nothing waits for hours or plays
/// all at once. Small steps back are left alone: such a frame is just late. Its arithmetic is
/// checked or saturating: no timestamp or duration a file holds can trap.
struct StreamTimeline {
    /// A jump larger than this is a break in the file, not a pause in it.
    static let maxJump: Int64 = 10_000_000_000

    /// Where one frame or packet sits: from `start` to `end`, nanoseconds on the timeline.
    struct Span: Equatable {
        var start: Int64
        var end: Int64
    }

    /// Added to a timestamp to place it; nil when the last re-timing could not say (the
    /// difference did not fit), so the next timestamp is re-timed too.
    private var offset: Int64?
    private(set) var last: Span?
    let defaultDuration: Int64
    /// Timestamps that were not kept: jumps over `maxJump` and values out of range.
    private(set) var retimed = 0

    /// `start`: the file's start on the stream's clock, in nanoseconds; it is placed at 0.
    init(start: Int64, defaultDuration: Int64) {
        offset = Int64(0).checkedSubtracting(start)
        self.defaultDuration = defaultDuration
    }

    /// The timeline after a boundary: the file's timestamps moved by `shift` (a loop's later play),
    /// the next one expected near `expected` (a seek's target, a loop's start).
    init(start: Int64, defaultDuration: Int64, shift: Int64, expected: Int64) {
        offset = shift.checkedSubtracting(start)
        self.defaultDuration = defaultDuration
        last = Span(start: expected, end: expected)
    }

    /// Where a frame stamped `timestamp` (`VideoDecoder.noTimestamp` when it has none) lasting
    /// `duration` (0 when unknown; one over `maxJump` is not believed) goes.
    mutating func place(_ timestamp: Int64, duration: Int64) -> Span {
        let length = duration > 0 && duration < Self.maxJump ? duration : defaultDuration
        let expected = last?.end ?? 0
        var t = expected
        if timestamp != VideoDecoder.noTimestamp {
            if let offset, let shifted = timestamp.checkedAdding(offset), let step = shifted.checkedSubtracting(expected),
               (-Self.maxJump...Self.maxJump).contains(step) {
                t = shifted
            } else {
                retimed += 1
                offset = expected.checkedSubtracting(timestamp)
            }
        }
        let span = Span(start: t, end: t.saturatingAdding(length))
        last = span
        return span
    }
}
