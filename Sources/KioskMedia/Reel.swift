// The hosts' film (`kiosk-recorder reel`): a title card, then for each take a card with its
// question and the take itself, upright, every picture at one size with black bars where the aspect
// differs, every take's sound at −16 LUFS. Each card fades in from black and out to black over half
// a second (the takes' own pictures are left as they are). Made with the project's own parts: each
// take read and decoded by libavformat and libavcodec, turned, scaled, padded and timed by
// libavfilter (transpose, scale, pad; each picture at its own time), the cards drawn by libavfilter
// (drawbox for the brand's background, drawtext for the words: FreeType, fontconfig; fade), the
// sound measured by libebur128 and set by libavfilter (volume, alimiter, aresample), all of it
// encoded by the booth's own writer (MovieWriter: libx264, AAC) and remuxed with the index first.
import CFFmpeg
import Dispatch
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskStorage
import KioskSystem

/// Why a take was left out of the film, or (`endsFilm`) why the film cannot be made at all.
public struct ReelError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public let endsFilm: Bool
    public init(_ description: String, endsFilm: Bool = false) { (self.description, self.endsFilm) = (description, endsFilm) }
}

/// One film being made: cards and takes appended in order, then finished into its file. Not
/// thread-safe: one thread.
public final class Reel {
    public let size: Size
    public static let fps = 30.0
    /// Every take's sound is set to this (EBU R128).
    public static let loudness = -16.0
    /// A card's fade from black at its start and to black at its end, in pictures (half a second).
    public static let fadePictures = 15
    /// The cards' background and words, `0xRRGGBB`.
    private let colours: (background: UInt32, text: UInt32)
    private let writer: MovieWriter
    private let result: Locked<RecordingResult?>
    private let done: DispatchSemaphore
    /// The film's private folder (beside its output, made by the caller with mkdtemp): the writer's
    /// file (fragmented, as a take's) and the remuxed film before its rename. No take folder's
    /// recovery looks inside a folder, so a killed reel leaves nothing that becomes a take.
    private let workspace: String
    private var working: String { workspace + "/film.working.mp4" }
    /// Whether the writer's end was waited for (its `done` is signalled once).
    private var writerEnded = false
    /// Where the next part starts on the film's time line (ns), and the next picture's number.
    private var time: Int64 = 0
    private var sequence: UInt32 = 0
    /// Asked between packets: a SIGINT or SIGTERM stops the film.
    private let cancelled: @Sendable () -> Bool

    /// The `comment` tag every film carries: a folder's next film leaves it out (it is no take).
    public static let mark = "kiosk-recorder reel"

    /// Starts the writer in `workspace`, a new private folder in the film's own folder.
    public init(size: Size, colours: (background: UInt32, text: UInt32) = (0x000000, 0xFFFFFF), workspace: String,
                cancelled: @escaping @Sendable () -> Bool) throws(ReelError) {
        self.size = size
        self.colours = colours
        self.workspace = workspace
        self.cancelled = cancelled
        var settings = MovieSettings(outputPath: workspace + "/film.working.mp4", videoSize: size, fps: Self.fps, audio: (48000, 2))
        settings.maxDuration = 7 * 86400
        settings.maxFileSize = Int64.max / 4
        settings.fileMode = 0o644
        let result = Locked<RecordingResult?>(nil), done = DispatchSemaphore(value: 0)
        (self.result, self.done) = (result, done)
        writer = MovieWriter(settings: settings) { r in
            result.withLock { $0 = r }
            done.signal()
        }
        do { try writer.start() } catch { throw ReelError("the film's writer could not start: \(error)") }
    }

    /// Seconds of film so far.
    public var seconds: Double { Double(time) / 1e9 }

    // MARK: - Cards

    /// A card of `seconds`: `text` large in the middle, wrapped, and `note` (the title's date) a
    /// line under it, smaller, in the words' colour on the background's; no sound. Its first
    /// `fadePictures` pictures rise from black and its last as many fall back to it: the first and
    /// the last are black, the middle ones the card as drawn (libavfilter's fade, counting pictures:
    /// the two fades' 2 × `fadePictures` copies pushed through one graph, the plain ones between:
    /// the fade out starts on the fade in's last copy, so its first picture is one step down).
    public func card(_ text: String, note: String? = nil, seconds: Double) throws(ReelError) {
        let picture = try cardPicture(text, note: note)
        let count = Int((seconds * Self.fps).rounded()), fading = min(Self.fadePictures, count / 2)
        let fades: FilterGraph?
        do {
            fades = fading == 0 ? nil : try FilterGraph(pictures: "fade=t=in:s=0:n=\(fading),fade=t=out:s=\(fading - 1):n=\(fading)",
                                                         size: size, format: AV_PIX_FMT_YUV420P, timeBase: AVRational(num: 1, den: Int32(Self.fps)))
        } catch {
            throw ReelError("a card's fade could not be made: \(error)")
        }
        for k in 0..<count {
            if cancelled() { throw ReelError("interrupted") }
            try checkWriter()
            let faded = k < fading || k >= count - fading
            let shown: [UInt8]
            if faded, let fades {
                do { shown = try Self.filtered(picture, through: fades, size: size) } catch { throw ReelError("a card could not fade: \(error)") }
            } else {
                shown = picture
            }
            append(shown, at: time + Int64((Double(k) / Self.fps * 1e9).rounded()))
        }
        time += Int64((Double(count) / Self.fps * 1e9).rounded())
    }

    /// The card's one picture: the background (drawbox over black, yuv420p) through drawtext, a
    /// drawtext a line, each centred (ReelCard: the face, the line breaks, the size); the note under
    /// the lines at two thirds of their size.
    private func cardPicture(_ text: String, note: String?) throws(ReelError) -> [UInt8] {
        do {
            let card = try ReelCard.layout(text, size: size)
            let lineHeight = card.fontSize * 3 / 2
            let top = (size.height - lineHeight * card.lines.count) / 2
            var chain = [ReelCard.background(colours.background)] + card.lines.enumerated().map {
                ReelCard.drawtext($1, font: card.font, fontSize: card.fontSize, colour: colours.text, x: "(w-text_w)/2", y: top + $0 * lineHeight)
            }
            if let note {
                chain.append(ReelCard.drawtext(note, font: ReelCard.font(for: note), fontSize: max(card.fontSize * 2 / 3, 12), colour: colours.text,
                                               x: "(w-text_w)/2", y: top + card.lines.count * lineHeight + lineHeight / 2))
            }
            return try ReelCard.draw(chain, size: size)
        } catch {
            throw ReelError("a card could not be drawn: \(error)")
        }
    }

    /// `picture` (yuv420p, packed) pushed through `graph` and the one picture it gives back.
    private static func filtered(_ picture: [UInt8], through graph: FilterGraph, size: Size) throws(AVError) -> [UInt8] {
        let frame = try Self.picture(size)
        let f = frame.pointer
        picture.withUnsafeBufferPointer { bytes in
            for (i, plane) in PixelFormat.yuv420p.planes(for: size).enumerated() {
                let target = Self.plane(f, i), pitch = Int(Self.pitch(f, i))
                for row in 0..<plane.rows {
                    (target + row * pitch).update(from: bytes.baseAddress! + plane.offset + row * plane.stride, count: plane.stride)
                }
            }
        }
        try graph.push(f)
        av_frame_unref(f)
        guard try graph.pull(into: f) else { throw AVError(code: kiosk_AVERROR_EOF(), call: "fade gave no picture") }
        defer { av_frame_unref(f) }
        return copyPlanes(f, size: size)
    }

    /// A yuv420p frame of `size` at time 0, its buffers made (their bytes not set).
    static func picture(_ size: Size) throws(AVError) -> Frame {
        let frame = try Frame()
        let f = frame.pointer
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        f.pointee.width = Int32(size.width)
        f.pointee.height = Int32(size.height)
        f.pointee.pts = 0
        let made = av_frame_get_buffer(f, 0)
        guard made >= 0 else { throw AVError(code: made, call: "av_frame_get_buffer") }
        return frame
    }

    static func plane(_ f: UnsafeMutablePointer<AVFrame>, _ i: Int) -> UnsafeMutablePointer<UInt8> {
        withUnsafePointer(to: f.pointee.data) { $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0[i]! } }
    }

    static func pitch(_ f: UnsafeMutablePointer<AVFrame>, _ i: Int) -> Int32 {
        withUnsafePointer(to: f.pointee.linesize) { $0.withMemoryRebound(to: Int32.self, capacity: 8) { $0[i] } }
    }

    /// A yuv420p frame's planes, packed (no padding), as a VideoFrame's bytes.
    static func copyPlanes(_ f: UnsafeMutablePointer<AVFrame>, size: Size) -> [UInt8] {
        let planes = PixelFormat.yuv420p.planes(for: size)
        var bytes = [UInt8](repeating: 0, count: PixelFormat.yuv420p.frameBytes(for: size))
        bytes.withUnsafeMutableBufferPointer { out in
            for (i, plane) in planes.enumerated() {
                let source = Self.plane(f, i), sourcePitch = Int(Self.pitch(f, i))
                for row in 0..<plane.rows {
                    (out.baseAddress! + plane.offset + row * plane.stride).update(from: source + row * sourcePitch, count: plane.stride)
                }
            }
        }
        return bytes
    }

    private func append(_ bytes: [UInt8], at timestamp: Int64) {
        writer.appendWaiting(VideoFrame(format: .yuv420p, size: size, planes: PixelFormat.yuv420p.planes(for: size), bytes: bytes,
                                        timestamp: timestamp, sequence: sequence))
        sequence &+= 1
    }

    // MARK: - Takes

    /// The file's question (its `title` tag), if it has one, and whether it is a film (its
    /// `comment` tag is `mark`).
    public static func tags(of path: String) -> (question: String?, isFilm: Bool) {
        guard let demuxer = try? Demuxer(path: path, interruption: Interruption(), timeout: MovieProbe.readTimeout) else { return (nil, false) }
        return (demuxer.tag("title"), demuxer.tag("comment") == mark)
    }

    /// The take at `path`, checked (a picture of it decodes) and its sound measured, to be appended
    /// by `take`; throws (nothing of it in the film) when it cannot be read.
    /// Then `take` appends it: its pictures upright at the film's size and rate, its sound at −16
    /// LUFS (a take that breaks off later keeps what was read, logged). Its length in seconds.
    public func check(_ path: String) throws(ReelError) -> ReelTake {
        try ReelTake(path: path, size: size, cancelled: cancelled)
    }

    @discardableResult
    public func take(_ part: ReelTake) throws(ReelError) -> Double {
        try checkWriter()
        let start = time
        var heard = false
        // A take without sound (a boomerang, a take with --microphone none) is silence in the film,
        // which always has its AAC track, whatever its takes have: given with its pictures as they
        // come (a take without a sound track), else after them, 0.1 s a piece, so no more than a
        // picture's worth of it waits in the writer's queue.
        var silent: Int64 = 0
        func silence(to offset: Int64) {
            let frames = Int64(Double(offset) * 48000 / 1e9), piece: Int64 = 4800
            while silent < frames {
                let count = min(piece, frames - silent)
                writer.append(AudioChunk(samples: [Int16](repeating: 0, count: 2 * Int(count)), channels: 2, sampleRate: 48000,
                                         timestamp: start + Int64(Double(silent) * 1e9 / 48000)))
                silent += count
            }
        }
        let end = try part.run(video: { bytes, offset in
                                   if !part.hasSound { silence(to: offset) }
                                   append(bytes, at: start + offset)
                               },
                               audio: { chunk, offset in
                                   heard = true
                                   writer.append(AudioChunk(samples: chunk, channels: 2, sampleRate: 48000, timestamp: start + offset))
                               })
        if !heard { silence(to: end) }
        time = start + end
        return Double(end) / 1e9
    }

    /// Throws when the writer ended before it was asked to (a full disk, an encoder that failed):
    /// the film cannot be finished, and nothing more is made for it.
    private func checkWriter() throws(ReelError) {
        guard let ended = result.withLock({ $0 }) else { return }
        throw Self.failure(ended)
    }

    private static func failure(_ result: RecordingResult) -> ReelError {
        let why = switch result.reason {
        case .diskFull: "the disk is full"
        case .user: "its writer failed"
        default: "its writer stopped (\(result.reason.rawValue))"
        }
        return ReelError("the film could not be written: " + why, endsFilm: true)
    }

    /// Asks the writer to end and waits for it, once: what it wrote, or nil.
    private func endWriter() -> RecordingResult? {
        if !writerEnded {
            writer.stop(reason: .user)
            done.wait()
            writerEnded = true
        }
        return result.withLock { $0 }
    }

    /// Ends the writer and writes the film at `output` (in the workspace first, renamed over
    /// `output` once synced; the workspace is in `output`'s folder): H.264, AAC, its index first,
    /// tagged as a film (`mark`). Its length in seconds. What it leaves in the workspace is the
    /// caller's to remove.
    public func finish(into output: String) throws(ReelError) -> Double {
        guard let recorded = endWriter() else { throw ReelError("the film could not be written") }
        // Ended by anything but our stop (a full disk during the last take): the film is cut short.
        guard recorded.success, recorded.reason == .user else { throw Self.failure(recorded) }
        let partial = "film.partial.mp4"
        do throws(ShareError) {
            let demuxer: Demuxer
            do { demuxer = try Demuxer(path: working, interruption: Interruption(), timeout: MovieProbe.readTimeout) } catch {
                throw ShareError(step: "reading the film", error)
            }
            // ShareRemux copies the file's tags: the mark goes with them.
            av_dict_set(&demuxer.format.pointee.metadata, "comment", Self.mark, 0)
            _ = try ShareRemux.run(from: demuxer, into: workspace, name: partial, mode: 0o644)
            guard rename(workspace + "/" + partial, output) == 0 else { throw ShareError(step: "renaming the film to \(output)", errno: errno) }
            FolderSync.sync(of: output)
        } catch {
            throw ReelError("\(error)")
        }
        return recorded.duration
    }

    /// Stops the writer (SIGINT, SIGTERM, a failure); what it wrote is in the workspace, which the
    /// caller removes.
    public func abandon() {
        _ = endWriter()
    }
}
