// The boomerang's loop. Its round is the capture's pictures forward, then back without
// the turning pictures twice (BoomerangPlan.order), and the file holds whole rounds to at least three
// seconds. The forward half is the capture's own packets, copied. The backward half is encoded anew:
// the capture (a key frame every third of a second) is decoded one group at a time from its end, and
// each group's pictures go to libx264 in reverse, with the capture's settings, so its parameter sets
// (SPS and PPS, the track's one `avcC`) are byte for byte the capture's and both halves play as one
// stream; it begins with an IDR picture, and so does the capture. Where they differ (a capture by a
// hardware encoder) the forward half is encoded anew too. Only a group of pictures is ever held
// decoded. The rounds after the first are the first's packets again, retimed: what is encoded is one
// round's backward half, about half of what the ffmpeg CLI's reverse/concat/loop encodes. The
// capture's display matrix and tags (the guestbook's question) go across; the index comes first.
// The loop is written beside the capture under a hidden name, synced, and only then renamed over it;
// the capture's mark (`TakeFiles.boomerangPendingPath`) goes last, so a kill at any point leaves
// either the capture with its mark (the next launch makes the loop again) or the loop.
import CFFmpeg
import Dispatch
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskStorage
import KioskSystem

public enum BoomerangLoop {
    /// What the loop holds.
    public struct Made: Sendable, Equatable {
        /// Seconds it plays for.
        public var duration: Double
        public var bytes: Int64
        /// The pictures captured, the pictures the loop shows (its rounds of them), and those encoded
        /// anew (the backward half; the whole round where the capture's parameter sets differed).
        public var pictures: Int
        public var frames: Int
        public var encoded: Int
    }

    /// The time base of the loop's pictures: 90 kHz, as MPEG's clocks (exact for 25, 30 and 60 fps).
    static let clock: Int32 = 90000

    /// Makes the loop of the capture at `path` in place, played at `plan.frameRate`; `settings`: the
    /// capture's (its size, rate, preset and quality). Written beside it with the capture's mode,
    /// synced, renamed over it, the mark removed and the folder synced. Throws a ShareError naming
    /// the step; the capture is then as it was.
    public static func make(_ path: String, plan: BoomerangPlan, settings: MovieSettings) throws(ShareError) -> Made {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ShareError(step: "reading the boomerang \(path)", errno: errno) }
        let partial = TakeFiles.boomerangLoopPath(for: path)
        unlink(partial)
        do throws(ShareError) {
            let made = try write(path, to: partial, plan: plan, settings: settings, mode: Int(info.st_mode & 0o7777))
            guard rename(partial, path) == 0 else { throw ShareError(step: "renaming the loop over \(path)", errno: errno) }
            unlink(TakeFiles.boomerangPendingPath(for: path))
            FolderSync.sync(of: path)
            return made
        } catch {
            unlink(partial)
            throw error
        }
    }

    /// A launch's remake of a boomerang a kill cut (`TakeFiles.recoverBoomerang`): the loop of the
    /// pictures its capture kept, at the capture's own rate (half of it with `speed` 0.5 where that
    /// is 30 fps or more), encoded with `video`'s preset and quality; its length, nil when none can be made.
    public static func remake(_ path: String, settings boomerang: BoomerangSettings, video: MovieSettings? = nil) -> Double? {
        guard let demuxer = try? Demuxer(path: path, interruption: Interruption(), timeout: MovieProbe.readTimeout),
              let stream = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else { return nil }
        let rates = [stream.pointee.avg_frame_rate, stream.pointee.r_frame_rate].map(av_q2d).filter { $0.isFinite && $0 > 0 }
        let p = stream.pointee.codecpar.pointee
        var settings = video ?? MovieSettings(outputPath: path, videoSize: Size(width: 0, height: 0), fps: 30, audio: nil)
        (settings.outputPath, settings.videoSize, settings.fps) = (path, Size(width: Int(p.width), height: Int(p.height)), (rates.first ?? 30).rounded())
        let plan = boomerang.plan(cameraFPS: settings.fps)
        settings.boomerang = plan
        do { return try make(path, plan: plan, settings: settings).duration } catch {
            Log.info("boomerang: \(path) cannot be looped: \(error)")
            return nil
        }
    }

    /// The capture's pictures, in presentation order, as references to their packets; the first a key frame.
    static func pictures(of demuxer: Demuxer, stream: UnsafeMutablePointer<AVStream>) throws(ShareError) -> [Packet] {
        var pictures: [(time: Int64, packet: Packet)] = []
        do {
            while true {
                let packet = try Packet()
                guard try demuxer.nextPacket(into: packet.pointer) else { break }
                guard packet.pointer.pointee.stream_index == stream.pointee.index else { continue }
                pictures.append((TakeTrim.time(packet.pointer, stream) ?? Int64(pictures.count), packet))
            }
        } catch {
            throw ShareError(step: "reading the capture", reason: "\(error)")
        }
        let sorted = pictures.sorted { $0.time < $1.time }.map(\.packet)
        guard let first = sorted.first, first.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 else {
            throw ShareError(step: "making the loop", reason: sorted.isEmpty ? "the capture has no picture" : "the capture does not begin with a key frame")
        }
        return sorted
    }

    private static func write(_ capture: String, to path: String, plan: BoomerangPlan, settings: MovieSettings, mode: Int) throws(ShareError) -> Made {
        var demuxer: Demuxer?
        do { demuxer = try Demuxer(path: capture, interruption: Interruption(), timeout: MovieProbe.readTimeout) } catch {
            throw ShareError(step: "opening the capture \(capture)", error)
        }
        guard let stream = demuxer?.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw ShareError(step: "making the loop of \(capture)", reason: "the capture has no picture")
        }
        let pictures = try Self.pictures(of: demuxer!, stream: stream)
        let step = "writing the loop " + path
        let output: ShareMP4
        do throws(AVError) { output = try ShareMP4(path: path, mode: mode, container: capture.lowercased().hasSuffix(".mp4") ? "mp4" : "mov") } catch {
            throw ShareError(step: step, error)
        }
        do {
            output.copyTags(from: demuxer!.format)
            let target = try output.addStream(copying: stream)
            // The capture's file closes before the pictures are decoded: what it opened goes (its
            // stream information's decoder too); the packets are references of their own.
            demuxer = nil
            let halves: Halves
            do { halves = try Halves.make(pictures, stream: target, settings: settings) } catch {
                throw ShareError(step: "encoding the loop of \(capture)", reason: "\(error)")
            }
            let round = halves.forward + halves.backward
            let rounds = max(plan.order(count: pictures.count).count / max(round.count, 1), 1)
            let tick = Int64((Double(clock) / max(plan.frameRate, 1)).rounded())
            // A capture whose parameter sets the new encoder could not repeat: the track is the new encoder's.
            if let own = halves.encoder {
                let r = avcodec_parameters_from_context(target.pointee.codecpar, own.pointer)
                guard r >= 0 else { throw AVError(code: r, call: "avcodec_parameters_from_context") }
                target.pointee.codecpar.pointee.codec_tag = 0
            }
            target.pointee.time_base = AVRational(num: 1, den: clock)
            target.pointee.avg_frame_rate = av_d2q(Double(clock) / Double(tick), 90000)
            try output.writeHeader()
            let scratch = try Packet(), ours = AVRational(num: 1, den: clock)
            for i in 0..<(rounds * round.count) {
                let p = scratch.pointer
                let result = av_packet_ref(p, round[i % round.count].pointer)
                guard result >= 0 else { throw AVError(code: result, call: "av_packet_ref") }
                // The muxer may have chosen its own time base for the stream at the header.
                let tb = target.pointee.time_base
                p.pointee.pts = av_rescale_q(Int64(i) * tick, ours, tb)
                p.pointee.dts = p.pointee.pts
                p.pointee.duration = av_rescale_q(tick, ours, tb)
                p.pointee.stream_index = target.pointee.index
                p.pointee.pos = -1
                try output.write(p)
            }
            let (bytes, _) = try output.finish(name: path)
            return Made(duration: Double(Int64(rounds * round.count) * tick) / Double(clock), bytes: bytes, pictures: pictures.count,
                        frames: rounds * round.count, encoded: halves.encoded)
        } catch let error as ShareError { throw error } catch { throw output.failure(at: step, error) }
    }
}

/// The writer's last step for a boomerang: once the booth's camera rests (or half a second has
/// passed, or at once for pictures not from a live camera), the loop is made and said on stderr with
/// its time and how long after the last picture (CLOCK_MONOTONIC) it was in place. The camera's
/// buffers and the loop's decoder and encoder are then never held at once.
final class BoomerangStep: Sendable {
    private let rested = DispatchSemaphore(value: 0)
    static let cameraWait = 500

    func cameraRested() { rested.signal() }

    /// The result takes the loop's length and size, or says the take lost.
    func loop(_ result: inout RecordingResult, plan: BoomerangPlan, settings: MovieSettings, lastPicture: Int64) {
        let live = settings.framesFromLiveClock
        if live, rested.wait(timeout: .now() + .milliseconds(Self.cameraWait)) == .timedOut {
            Log.info("boomerang: the camera did not rest within \(Self.cameraWait) ms; the loop is made beside it")
        }
        MallocArenas.giveBack()
        let began = MonotonicClock.now()
        do throws(ShareError) {
            let made = try BoomerangLoop.make(result.outputPath, plan: plan, settings: settings)
            let now = MonotonicClock.now()
            Log.info("boomerang: \(made.pictures) pictures looped into \(made.frames) (\(String(printf: "%.2f", made.duration)) s at "
                     + "\(String(printf: "%.4g", plan.frameRate)) fps, \(made.encoded) encoded anew, \(made.bytes) bytes) in "
                     + "\(String(printf: "%.1f", Double(now - began) / 1e6)) ms"
                     + (live && lastPicture > .min ? "; in place \(String(printf: "%.0f", Double(now - lastPicture) / 1e6)) ms after its last picture was captured" : ""))
            (result.duration, result.bytes) = (made.duration, made.bytes)
        } catch {
            (result.success, result.lost) = (false, "the boomerang's loop could not be made: \(error)")
        }
    }
}

/// One round's packets: forward (the capture's, or encoded anew) and backward (encoded anew).
private struct Halves {
    var forward: [Packet]
    var backward: [Packet]
    /// The encoder whose parameter sets the track takes; nil: the capture's.
    var encoder: CodecContext?
    var encoded: Int

    static func make(_ pictures: [Packet], stream: UnsafeMutablePointer<AVStream>, settings: MovieSettings) throws -> Halves {
        let count = pictures.count
        guard count > 2 else { return Halves(forward: pictures, backward: [], encoder: nil, encoded: 0) }
        let encoder = try LoopEncoder(settings: settings, size: Size(width: Int(stream.pointee.codecpar.pointee.width),
                                                                     height: Int(stream.pointee.codecpar.pointee.height)))
        let same = ParameterSets.avcC(stream.pointee.codecpar) == ParameterSets.annexB(encoder.codec.extradata)
        let decoder = try DecoderContext.make(for: stream)
        decoder.pointer.pointee.thread_count = 1
        try decoder.open()
        let keys = pictures.indices.filter { pictures[$0].pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
        let groups = zip(keys, keys.dropFirst() + [count]).map { $0..<$1 }
        var forward = pictures
        if !same {
            // The forward half encoded anew, group by group as decoded.
            for group in groups { for frame in try decode(group, of: pictures, with: decoder) { try encoder.encode(frame.pointer) } }
            forward = encoder.taken()
        }
        // Backward: pictures count−2 … 1, each group decoded and its pictures encoded in reverse.
        for group in groups.reversed() {
            let frames = try decode(group, of: pictures, with: decoder)
            for (index, frame) in zip(group, frames).reversed() where index >= 1 && index <= count - 2 { try encoder.encode(frame.pointer) }
        }
        try encoder.encode(nil)
        let backward = encoder.taken()
        if same { try backward.forEach(ParameterSets.lengthPrefixed) }
        return Halves(forward: forward, backward: backward, encoder: same ? nil : encoder.codec, encoded: (same ? 0 : count) + backward.count)
    }

    /// The pictures of `group`, decoded from its key frame (the decoder drained and reset after).
    private static func decode(_ group: Range<Int>, of pictures: [Packet], with decoder: CodecContext) throws -> [Frame] {
        var frames: [Frame] = []
        func receive() throws {
            while true {
                let frame = try Frame()
                let r = avcodec_receive_frame(decoder.pointer, frame.pointer)
                if r == kiosk_AVERROR_EAGAIN() || r == kiosk_AVERROR_EOF() { return }
                guard r >= 0 else { throw AVError(code: r, call: "avcodec_receive_frame") }
                frames.append(frame)
            }
        }
        for i in group {
            _ = try DecoderContext.send(pictures[i].pointer, to: decoder)
            try receive()
        }
        _ = try DecoderContext.send(nil, to: decoder)
        try receive()
        avcodec_flush_buffers(decoder.pointer)
        guard frames.count == group.count else {
            throw AVError(code: kiosk_AVERROR_INVALIDDATA(), call: "decoding pictures \(group.lowerBound)…\(group.upperBound - 1): \(frames.count) came out")
        }
        return frames
    }
}

/// libx264 as the capture's writer opened it, taking decoded pictures in the loop's order.
private final class LoopEncoder {
    let codec: CodecContext
    private var next: Int64 = 0
    private var out: [Packet] = []
    private let tick: Int64

    init(settings: MovieSettings, size: Size) throws(AVError) {
        var settings = settings
        settings.videoSize = size
        (codec, _) = try VideoEncoder.openCodec(.libx264, settings: settings, globalHeader: true, threads: 1)
        tick = Int64((Double(VideoEncoder.timeBase.den) / max(settings.fps.rounded(), 1)).rounded())
    }

    /// Encodes a picture (nil: drains), keeping what comes out.
    func encode(_ frame: UnsafeMutablePointer<AVFrame>?) throws(AVError) {
        if let frame {
            frame.pointee.pts = next * tick
            // The decoder's picture types are not the loop's: libx264 chooses (its first is an IDR).
            frame.pointee.pict_type = AV_PICTURE_TYPE_NONE
            next += 1
        }
        let sent = avcodec_send_frame(codec.pointer, frame)
        guard sent >= 0 || sent == kiosk_AVERROR_EOF() else { throw AVError(code: sent, call: "avcodec_send_frame") }
        while true {
            let packet = try Packet()
            let r = avcodec_receive_packet(codec.pointer, packet.pointer)
            if r == kiosk_AVERROR_EAGAIN() || r == kiosk_AVERROR_EOF() { return }
            guard r >= 0 else { throw AVError(code: r, call: "avcodec_receive_packet") }
            out.append(packet)
        }
    }

    /// The packets so far, handed over.
    func taken() -> [Packet] {
        defer { out = [] }
        return out
    }
}

/// H.264's parameter sets as the track's `avcC` and an encoder's Annex B extradata hold them, and a
/// packet's NAL units from start codes to 4-byte lengths (what an `avcC` track's samples hold).
enum ParameterSets {
    /// The SPS and PPS units of an `avcC` record; [] when it is not one.
    static func avcC(_ parameters: UnsafeMutablePointer<AVCodecParameters>) -> [[UInt8]] {
        guard let data = parameters.pointee.extradata, parameters.pointee.extradata_size > 6 else { return [] }
        let b = Array(UnsafeBufferPointer(start: data, count: Int(parameters.pointee.extradata_size)))
        guard b[0] == 1 else { return [] }
        var units: [[UInt8]] = [], at = 5
        for kind in 0..<2 {
            guard at < b.count else { return [] }
            let n = Int(kind == 0 ? b[at] & 0x1F : b[at])
            at += 1
            for _ in 0..<n {
                guard at + 2 <= b.count else { return [] }
                let length = Int(b[at]) << 8 | Int(b[at + 1])
                guard at + 2 + length <= b.count else { return [] }
                units.append(Array(b[(at + 2)..<(at + 2 + length)]))
                at += 2 + length
            }
        }
        return units
    }

    /// The NAL units of Annex B bytes (split at 00 00 01 and 00 00 00 01).
    static func annexB(_ bytes: [UInt8]) -> [[UInt8]] {
        var starts: [(unit: Int, code: Int)] = []
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                starts.append((i + 3, i > 0 && bytes[i - 1] == 0 ? i - 1 : i))
                i += 3
            } else {
                i += 1
            }
        }
        return starts.indices.map { k in Array(bytes[starts[k].unit..<(k + 1 < starts.count ? starts[k + 1].code : bytes.count)]) }
    }

    /// A packet's data from Annex B to 4-byte lengths, in place (a new buffer).
    static func lengthPrefixed(_ packet: Packet) throws {
        let p = packet.pointer
        guard let data = p.pointee.data else { return }
        let units = annexB(Array(UnsafeBufferPointer(start: data, count: Int(p.pointee.size))))
        var bytes: [UInt8] = []
        for unit in units {
            let n = UInt32(unit.count)
            bytes += [UInt8(truncatingIfNeeded: n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)]
            bytes += unit
        }
        let flags = p.pointee.flags
        let copy = try Packet()
        let r = av_new_packet(copy.pointer, Int32(bytes.count))
        guard r >= 0 else { throw AVError(code: r, call: "av_new_packet") }
        bytes.withUnsafeBufferPointer { copy.pointer.pointee.data!.update(from: $0.baseAddress!, count: bytes.count) }
        av_packet_unref(p)
        av_packet_move_ref(p, copy.pointer)
        p.pointee.flags = flags
    }
}
