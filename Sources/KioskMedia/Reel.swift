// The hosts' film (`kiosk-recorder reel`): a title card, then for each take a card with its
// question and the take itself, upright, every picture at one size with black bars where the aspect
// differs, every take's sound at −16 LUFS. Made with the project's own parts: each take read and
// decoded by libavformat and libavcodec, turned, scaled, padded and timed by libavfilter (transpose,
// scale, pad; each picture at its own time), the cards' words drawn by libavfilter's drawtext (FreeType, fontconfig), the
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

/// Why a take was left out of the film.
public struct ReelError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One film being made: cards and takes appended in order, then finished into its file. Not
/// thread-safe: one thread.
public final class Reel {
    public let size: Size
    public static let fps = 30.0
    /// Every take's sound is set to this (EBU R128).
    public static let loudness = -16.0
    private let writer: MovieWriter
    private let result: Locked<RecordingResult?>
    private let done: DispatchSemaphore
    /// The writer's file (fragmented, as a take's); `finish` remuxes it to the film.
    private let working: String
    /// Where the next part starts on the film's time line (ns), and the next picture's number.
    private var time: Int64 = 0
    private var sequence: UInt32 = 0
    /// Text files for drawtext, one a line, in a folder of their own.
    private let scratch: String
    /// Asked between packets: a SIGINT or SIGTERM stops the film.
    private let cancelled: @Sendable () -> Bool

    /// Starts the writer on `working` (a hidden name beside the film).
    public init(size: Size, working: String, scratch: String, cancelled: @escaping @Sendable () -> Bool) throws(ReelError) {
        self.size = size
        self.working = working
        self.scratch = scratch
        self.cancelled = cancelled
        var settings = MovieSettings(outputPath: working, videoSize: size, fps: Self.fps, audio: (48000, 2))
        settings.maxDuration = 7 * 86400
        settings.maxFileSize = Int64.max / 4
        settings.fileMode = 0o644
        unlink(working)
        unlink(TakeFiles.markerPath(for: working))
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

    /// A card of `seconds`: `text` large in the middle, wrapped, white on black; no sound.
    public func card(_ text: String, seconds: Double) throws(ReelError) {
        let picture = try cardPicture(text)
        let count = Int((seconds * Self.fps).rounded())
        for k in 0..<count {
            if cancelled() { throw ReelError("interrupted") }
            append(picture, at: time + Int64((Double(k) / Self.fps * 1e9).rounded()))
        }
        time += Int64((Double(count) / Self.fps * 1e9).rounded())
    }

    /// The card's one picture: black (yuv420p) through drawtext, a drawtext a line, each centred.
    private func cardPicture(_ text: String) throws(ReelError) -> [UInt8] {
        let fontSize = max(size.height / 12, 12)
        let lines = ReelText.wrap(text, width: Double(size.width) * 0.85 / Double(fontSize), maxLines: 6)
        let lineHeight = fontSize * 3 / 2
        let top = (size.height - lineHeight * lines.count) / 2
        var chain: [String] = []
        for (i, line) in lines.enumerated() {
            let file = scratch + "/line-\(i).txt"
            guard FileManager.default.createFile(atPath: file, contents: Data(line.utf8)) else { throw ReelError("cannot write \(file)") }
            chain.append("drawtext=font='\(ReelText.font)':textfile=\(file):fontcolor=white:fontsize=\(fontSize):x=(w-text_w)/2:y=\(top + i * lineHeight)")
        }
        do {
            let graph = try FilterGraph(pictures: chain.isEmpty ? "null" : chain.joined(separator: ","), size: size, format: AV_PIX_FMT_YUV420P,
                                        timeBase: AVRational(num: 1, den: 30))
            let frame = try Frame()
            let f = frame.pointer
            f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            f.pointee.width = Int32(size.width)
            f.pointee.height = Int32(size.height)
            f.pointee.pts = 0
            let made = av_frame_get_buffer(f, 0)
            guard made >= 0 else { throw AVError(code: made, call: "av_frame_get_buffer") }
            // Black in limited range: Y 16, Cb and Cr 128.
            for (plane, value, rows) in [(0, UInt8(16), size.height), (1, 128, size.height / 2), (2, 128, size.height / 2)] {
                memset(Self.plane(f, plane), Int32(value), Int(Self.pitch(f, plane)) * rows)
            }
            try graph.push(f)
            try graph.push(nil)
            av_frame_unref(f)
            guard try graph.pull(into: f) else { throw AVError(code: kiosk_AVERROR_EOF(), call: "drawtext gave no picture") }
            defer { av_frame_unref(f) }
            return Self.copyPlanes(f, size: size)
        } catch {
            throw ReelError("a card could not be drawn: \(error)")
        }
    }

    private static func plane(_ f: UnsafeMutablePointer<AVFrame>, _ i: Int) -> UnsafeMutablePointer<UInt8> {
        withUnsafePointer(to: f.pointee.data) { $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0[i]! } }
    }

    private static func pitch(_ f: UnsafeMutablePointer<AVFrame>, _ i: Int) -> Int32 {
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

    /// The take's question (its file's `title` tag), if it has one.
    public static func question(of path: String) -> String? {
        guard let demuxer = try? Demuxer(path: path, interruption: Interruption(), timeout: MovieProbe.readTimeout),
              let entry = av_dict_get(demuxer.format.pointee.metadata, "title", nil, 0), let value = entry.pointee.value else { return nil }
        let title = String(cString: value).trimmingWhitespace
        return title.isEmpty ? nil : title
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
        let start = time
        var heard = false
        let end = try part.run(video: { bytes, offset in append(bytes, at: start + offset) },
                               audio: { chunk, offset in
                                   heard = true
                                   writer.append(AudioChunk(samples: chunk, channels: 2, sampleRate: 48000, timestamp: start + offset))
                               })
        // A take without sound (a boomerang, a take with --microphone none) is silence in the film,
        // which always has its AAC track, whatever its takes have.
        if !heard {
            let frames = Int(Double(end) * 48000 / 1e9), piece = 4800
            for first in stride(from: 0, to: frames, by: piece) {
                writer.append(AudioChunk(samples: [Int16](repeating: 0, count: 2 * min(piece, frames - first)), channels: 2, sampleRate: 48000,
                                         timestamp: start + Int64(first) * 1_000_000_000 / 48000))
            }
        }
        time = start + end
        return Double(end) / 1e9
    }

    /// Ends the writer and writes the film at `output` (a hidden name beside it first, renamed once
    /// synced): H.264, AAC, its index first. Its length in seconds.
    public func finish(into output: String) throws(ReelError) -> Double {
        writer.stop(reason: .user)
        done.wait()
        unlink(TakeFiles.markerPath(for: working))
        defer { unlink(working) }
        guard let recorded = result.withLock({ $0 }), recorded.success else { throw ReelError("the film could not be written") }
        let url = URL(fileURLWithPath: output)
        let folder = url.deletingLastPathComponent().path, hidden = "." + url.lastPathComponent + ".partial"
        unlink(folder + "/" + hidden)
        do throws(ShareError) {
            let demuxer: Demuxer
            do { demuxer = try Demuxer(path: working, interruption: Interruption(), timeout: MovieProbe.readTimeout) } catch {
                throw ShareError(step: "reading the film", error)
            }
            _ = try ShareRemux.run(from: demuxer, into: folder, name: hidden, mode: 0o644)
            guard rename(folder + "/" + hidden, output) == 0 else { throw ShareError(step: "renaming the film to \(output)", errno: errno) }
            FolderSync.sync(of: output)
        } catch {
            unlink(folder + "/" + hidden)
            throw ReelError("\(error)")
        }
        return recorded.duration
    }

    /// Stops the writer and removes what it wrote (SIGINT, SIGTERM, a failure).
    public func abandon() {
        writer.stop(reason: .user)
        done.wait()
        unlink(working)
        unlink(TakeFiles.markerPath(for: working))
    }
}

/// The words on a card, wrapped.
enum ReelText {
    /// fontconfig's name for the cards' font: Noto Sans CJK has Latin and CJK (kiosk/setup installs
    /// it); fontconfig gives its nearest where it is missing.
    static let font = "Noto Sans CJK JP"

    /// `text` in lines of at most `width` ems (a CJK character one em, others about half), broken
    /// at spaces (anywhere in CJK text); at most `maxLines`, the last cut with "…".
    static func wrap(_ text: String, width: Double, maxLines: Int) -> [String] {
        func ems(_ c: Character) -> Double { c.unicodeScalars.first.map { $0.value >= 0x2E80 } == true ? 1 : 0.55 }
        var lines: [String] = [], line = "", lineWidth = 0.0
        var word = "", wordWidth = 0.0
        func flushWord() {
            if !line.isEmpty, lineWidth + wordWidth > width {
                lines.append(line.trimmingWhitespace)
                (line, lineWidth) = ("", 0)
            }
            line += word
            lineWidth += wordWidth
            (word, wordWidth) = ("", 0)
        }
        for c in text {
            let wide = ems(c) == 1
            if c == " " || wide {
                if wide { word.append(c); wordWidth += 1 }
                flushWord()
                if c == " " { line += " "; lineWidth += 0.55 }
            } else {
                word.append(c)
                wordWidth += ems(c)
            }
        }
        flushWord()
        if !line.trimmingWhitespace.isEmpty { lines.append(line.trimmingWhitespace) }
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] += "…"
        }
        return lines
    }
}
