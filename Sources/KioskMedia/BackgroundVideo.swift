// The green screen's video background (`--background` naming a video), played in a loop on its own
// clock: a thread of its own decodes it and makes each picture the camera's size (aspect-fill, as a
// still is: BackgroundFill) a few pictures ahead, into a small ring; the camera's thread takes the
// picture of its time from the ring and never waits (the one shown before stays while the decoder
// is late). A loop's next play follows its last picture on the background's clock, one file's
// length later, and is decoded ahead like any other picture: the wrap has no jump, no black
// picture and no stall.
import CFFmpeg
import FoundationEssentials
import KioskCore
import KioskSystem

/// The pictures made ahead, each with where it starts on the background's clock (nanoseconds since
/// its first picture; the loop's later plays one length later each), and the time the camera asked
/// for last. A value: the decoding thread and the camera's share it behind one lock.
struct BackgroundRing<Picture: Sendable>: Sendable {
    /// How many pictures are made ahead: at 30 a second, 130 ms (a 1280x720 yuv420p picture is 1.4 MB).
    static var capacity: Int { 5 }
    private(set) var pictures: [(start: Int64, picture: Picture)] = []
    /// The camera's latest time: a picture that ends by then will not be shown.
    private(set) var wanted: Int64 = 0
    /// The owner is gone: the decoding thread ends.
    var closed = false

    /// The picture to show at `elapsed`: the last that starts by then (those before it go), or the
    /// first while none has started; nil before the first is made.
    mutating func take(at elapsed: Int64) -> Picture? {
        wanted = max(wanted, elapsed)
        while pictures.count > 1, pictures[1].start <= elapsed { pictures.removeFirst() }
        return pictures.first?.picture
    }

    var hasRoom: Bool { pictures.count < Self.capacity }

    var hasPictures: Bool { !pictures.isEmpty }

    /// Whether a picture ending at `end` would still be shown (one the camera passed is not made).
    func wants(end: Int64) -> Bool { end > wanted }

    mutating func add(_ picture: Picture, start: Int64) {
        pictures.append((start, picture))
    }
}

/// A picture made `size` in video-range yuv420p (the key's overlay's layout) by libavfilter: scaled
/// to cover it and cropped to it, centred (aspect-fill, as the preview fills the screen). One graph
/// for the pictures of one size and format; made again when they change (a video's may).
final class BackgroundFill {
    let size: Size
    private var graph: FilterGraph?
    private var madeFor: (size: Size, format: Int32)?
    private let out: Frame

    init(size: Size) throws(AVError) {
        self.size = size
        out = try Frame()
    }

    /// `frame` (not changed) made `size`: a picture of its own.
    func fill(_ frame: UnsafeMutablePointer<AVFrame>) throws(AVError) -> FrameReference {
        let f = frame.pointee
        let source = Size(width: Int(f.width), height: Int(f.height))
        if graph == nil || madeFor?.size != source || madeFor?.format != f.format {
            graph = nil
            let (w, h) = (size.width, size.height)
            graph = try FilterGraph(pictures: "scale=\(w):\(h):force_original_aspect_ratio=increase:flags=bicubic:out_range=tv:out_color_matrix=bt601,crop=\(w):\(h)",
                                    size: source, format: AVPixelFormat(rawValue: f.format), timeBase: AVRational(num: 1, den: 1), output: "yuv420p")
            madeFor = (source, f.format)
        }
        guard let graph else { throw AVError(code: kiosk_AVERROR_EOF(), call: "the background's scale") }
        try graph.push(frame)
        av_frame_unref(out.pointer)
        guard try graph.pull(into: out.pointer) else { throw AVError(code: kiosk_AVERROR_EOF(), call: "the background's scale") }
        guard let made = FrameReference(moving: out.pointer) else { throw AVError(code: AVError.code(posix: ENOMEM), call: "av_frame_alloc") }
        return made
    }
}

/// Plays a video background on a thread of its own (stopped and joined when this goes) into the
/// ring that `picture(at:)` takes from.
final class BackgroundVideo {
    private let ring = Monitor(BackgroundRing<FrameReference>())
    private let interruption = Interruption()
    private let thread: WorkerThread

    /// Opens `path` (a video `BackgroundPicture.load` accepted) and starts decoding it, each picture
    /// made `size` (video-range yuv420p).
    init(path: String, size: Size) throws(AVError) {
        let source = try BackgroundSource(path: path, interruption: interruption, fill: BackgroundFill(size: size))
        let ring = ring
        do {
            thread = try WorkerThread(name: "background") { _ in source.play(into: ring) }
        } catch {
            throw AVError(code: AVError.code(posix: EAGAIN), call: "the background's thread: \(error)")
        }
    }

    deinit {
        ring.update { $0.closed = true }
        interruption.abort()
        thread.join()
    }

    /// Whether its first picture is made: its clock starts at the camera's picture that finds it
    /// (PictureKey), so that a decoder slow to start delays the loop rather than skips into it.
    var hasStarted: Bool { ring.read { $0.hasPictures } }

    /// The picture at `elapsed` nanoseconds on the background's clock (nil before its first is made).
    func picture(at elapsed: Int64) -> FrameReference? {
        ring.update { $0.take(at: elapsed) }
    }
}

/// The decoding thread's: the file, its decoder and the fill, read on from the start at the end.
private final class BackgroundSource {
    private let path: String
    private let demuxer: Demuxer
    private let decoder: VideoDecoder
    private let index: Int32
    private let packet: Packet
    private let fill: BackgroundFill
    /// The file's start on its streams' clocks, and a picture's length when the file does not say.
    private let start: Int64, frameLength: Int64

    init(path: String, interruption: Interruption, fill: BackgroundFill) throws(AVError) {
        (self.path, self.fill) = (path, fill)
        demuxer = try Demuxer(path: path, interruption: interruption, timeout: MovieProbe.readTimeout)
        guard let stream = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw AVError(code: kiosk_AVERROR_INVALIDDATA(), call: "the background \(path) has no video stream")
        }
        index = stream.pointee.index
        demuxer.keep(only: [index])
        decoder = try VideoDecoder(stream: stream, threads: 1, maxPixels: BackgroundPicture.maxSide * BackgroundPicture.maxSide)
        packet = try Packet()
        let rate = stream.pointee.avg_frame_rate
        let perSecond = rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : 0
        frameLength = (1...1000).contains(perSecond) ? Int64(1e9 / perSecond) : 1_000_000_000 / 30
        start = demuxer.startTime ?? 0
    }

    /// Decodes into `ring` while it has room, until it closes: at the end of the file the decoder
    /// drains, and the next play's pictures follow one length (the first play's last picture's end)
    /// later. A picture the camera has passed already is decoded but not made.
    func play(into ring: Monitor<BackgroundRing<FrameReference>>) {
        var timeline = StreamTimeline(start: start, defaultDuration: frameLength)
        var (shift, length, played, pictures, failures): (Int64, Int64?, Int64, Int, Int) = (0, nil, 0, 0, 0)
        while ring.wait({ $0.closed ? false : $0.hasRoom ? true : nil }) {
            let output: DecoderOutput<(picture: DecodedPicture, duration: Int64)>
            do { output = try decoder.receive() } catch {
                failures += 1
                guard failures < 100 else { return Log.info("background: \(path): \(error); it stays on its last picture") }
                continue
            }
            switch output {
            case let .output((picture, duration)):
                failures = 0
                let span = timeline.place(picture.timestamp, duration: duration)
                (played, pictures) = (max(played, span.end), pictures + 1)
                guard ring.read({ $0.wants(end: span.end) }) else { continue }
                do {
                    let made = try fill.fill(picture.reference.frame)
                    ring.update { $0.add(made, start: span.start) }
                } catch {
                    return Log.info("background: \(path): \(error); it stays on its last picture")
                }
            case .needsInput:
                switch demuxer.read(into: packet.pointer) {
                case .packet:
                    // A packet the decoder refuses (damaged) is skipped.
                    if packet.pointer.pointee.stream_index == index { _ = try? decoder.send(packet.pointer) }
                    av_packet_unref(packet.pointer)
                case .again: usleep(5_000)
                case .end, .failed: _ = try? decoder.send(nil)
                }
            case .drained:
                guard pictures > 0 else { return Log.info("background: \(path): a play gave no picture; it stays on its last picture") }
                // The loop's length: the first play's (its timeline starts at 0), at least 10 ms.
                let loop = length ?? max(played, 10_000_000)
                (length, shift, pictures) = (loop, shift.saturatingAdding(loop), 0)
                decoder.flush()
                if let error = demuxer.seek(toMicroseconds: start / 1000) {
                    return Log.info("background: \(path): cannot go back to its start to loop (\(error)); it stays on its last picture")
                }
                timeline = StreamTimeline(start: start, defaultDuration: frameLength, shift: shift, expected: shift)
            }
        }
    }
}
