// The trimmed take (`--trim`): the take cut to [start, end] without re-encoding, as
// `ffmpeg -ss S -to E -c copy` cuts it. The video's packets are copied from the key frame at or
// before the start (a picture after it cannot be decoded without it), the audio's from the packet
// before the one that holds the start (AAC's overlap needs one to prime the decoder), all moved
// so that the start is 0 and what comes before it negative: libavformat's MOV/MP4 muxer then writes
// each track an edit list that begins the presentation at the start, so players that honour edit
// lists (ffmpeg, Chromium, Safari, VLC, ours) show the first picture and the first sound at it.
// The cut is written beside the take under a hidden name, synced, and only then renamed over the
// take: a kill -9 during the cut leaves the whole take, with its marker, for the recovery at launch.
import CFFmpeg
import FoundationEssentials
import Glibc
import KioskCore
import KioskStorage
import KioskSystem

public enum TakeTrim {
    /// What the cut delivered.
    public struct Cut: Sendable, Equatable {
        /// Where the delivered take begins and ends on the take's time line (seconds from its first
        /// picture): the start is the picture showing at the asked-for start.
        public var start: Double
        public var end: Double
        /// The delivered take's length as its file says it (libavformat's duration of the cut, edit
        /// lists applied: what ffprobe and a browser report, a few milliseconds over `end - start`
        /// where a track's last packet reaches past the end); `end - start` when the file says none.
        public var duration: Double
        public var bytes: Int64
        /// Packets copied (the video's from the key frame, the audio's priming included).
        public var videoPackets: Int
        public var audioPackets: Int
        /// Seconds its fsync took.
        public var syncSeconds: Double
    }

    /// The length the delivered file's header gives (seconds), read back as any player opens it; nil
    /// when it cannot be opened or says none.
    static func deliveredDuration(of path: String) -> Double? {
        guard let file = try? Demuxer(path: path, interruption: Interruption(), timeout: MovieProbe.readTimeout),
              let nanoseconds = file.duration else { return nil }
        return Double(nanoseconds) / 1e9
    }

    /// A timestamp within a tick of a picture's is that picture's (the take's clock and the time
    /// asked for need not round alike).
    static let tolerance: Int64 = 1_000_000

    /// Cuts `take` to [start, end] seconds of its time line, in place: the cut is written to
    /// `TakeFiles.trimmingPath(for:)` with the take's own mode, synced, renamed over the take, and the folder
    /// synced. Throws a `ShareError` naming the step; the take is then untouched and the partial
    /// file gone.
    public static func cut(_ take: String, start: Double, end: Double) throws(ShareError) -> Cut {
        guard start.isFinite, end.isFinite, start >= 0, end > start else {
            throw ShareError(step: "trimming \(take)", reason: "[\(start), \(end)] is no span of the take")
        }
        var info = stat()
        guard stat(take, &info) == 0 else { throw ShareError(step: "reading \(take)", errno: errno) }
        let partial = TakeFiles.trimmingPath(for: take)
        // One a kill left behind.
        unlink(partial)
        do throws(ShareError) {
            let plan = try Plan.make(take, start: start, end: end)
            var cut = try write(plan, from: take, to: partial, mode: Int(info.st_mode & 0o7777))
            guard rename(partial, take) == 0 else { throw ShareError(step: "renaming the cut over \(take)", errno: errno) }
            FolderSync.sync(of: take)
            cut.start = Double(plan.cutStart - plan.origin) / 1e9
            cut.end = Double(plan.cutEnd - plan.origin) / 1e9
            cut.duration = deliveredDuration(of: take) ?? cut.end - cut.start
            return cut
        } catch {
            unlink(partial)
            throw error
        }
    }

    /// Where to cut, from a first look at every packet's time (nanoseconds, on the take's clock).
    struct Plan {
        /// The take's first picture: its time line's 0.
        var origin: Int64
        /// The picture showing at the start: the cut's 0.
        var cutStart: Int64
        var cutEnd: Int64
        /// The key frame at or before `cutStart`: the video is copied from here.
        var keyFrame: Int64
        /// The audio is copied from the packet starting here (the one before the start's).
        var audioFrom: Int64

        static func make(_ take: String, start: Double, end: Double) throws(ShareError) -> Plan {
            let demuxer = try open(take)
            var video: [(time: Int64, key: Bool, end: Int64)] = []
            var audio: [Int64] = []
            try forEachPacket(of: demuxer) { p, stream, isVideo in
                guard let time = TakeTrim.time(p, stream) else { return }
                if isVideo {
                    let duration = VideoDecoder.nanoseconds(p.pointee.duration, stream.pointee.time_base) ?? 0
                    video.append((time, p.pointee.flags & AV_PKT_FLAG_KEY != 0, time.saturatingAdding(max(duration, 0))))
                } else {
                    audio.append(time)
                }
            }
            video.sort { $0.time < $1.time }
            audio.sort()
            guard let first = video.first, let last = video.last else {
                throw ShareError(step: "trimming \(take)", reason: "the take has no picture")
            }
            let origin = first.time
            let takeEnd = max(last.end, last.time)
            let asked = origin.saturatingAdding(Int64((start * 1e9).rounded()))
            let askedEnd = min(origin.saturatingAdding(Int64((end * 1e9).rounded())), takeEnd)
            guard asked < askedEnd else {
                throw ShareError(step: "trimming \(take)", reason: "the start \(start) s is not before the take's end")
            }
            let showing = video.last { $0.time <= asked + tolerance } ?? first
            guard let key = video.last(where: { $0.key && $0.time <= showing.time }) else {
                throw ShareError(step: "trimming \(take)", reason: "no key frame at or before \(start) s")
            }
            let holding = audio.lastIndex { $0 <= showing.time } ?? 0
            return Plan(origin: origin, cutStart: showing.time, cutEnd: askedEnd, keyFrame: key.time,
                        audioFrom: audio.isEmpty ? .min : audio[max(holding - 1, 0)])
        }

        /// Whether a packet at `time` is copied.
        func keeps(_ time: Int64, video: Bool) -> Bool {
            time < cutEnd && time >= (video ? keyFrame : audioFrom)
        }
    }

    /// A packet's presentation time in nanoseconds (its decoding time when it has none).
    static func time(_ p: UnsafeMutablePointer<AVPacket>, _ stream: UnsafeMutablePointer<AVStream>) -> Int64? {
        let pts = p.pointee.pts == kiosk_AV_NOPTS_VALUE() ? p.pointee.dts : p.pointee.pts
        guard pts != kiosk_AV_NOPTS_VALUE() else { return nil }
        return VideoDecoder.nanoseconds(pts, stream.pointee.time_base)
    }

    private static func open(_ take: String) throws(ShareError) -> Demuxer {
        do { return try Demuxer(path: take, interruption: Interruption(), timeout: MovieProbe.readTimeout) } catch {
            throw ShareError(step: "opening the take \(take)", error)
        }
    }

    /// Every packet of the take's first video stream and its audio, in file order; `body` gets the
    /// packet (unreferenced after it returns), its stream and whether it is the picture's.
    private static func forEachPacket(of demuxer: Demuxer, _ body: (UnsafeMutablePointer<AVPacket>, UnsafeMutablePointer<AVStream>, Bool) throws -> Void) throws(ShareError) {
        let input = demuxer.format
        let video = demuxer.bestStream(AVMEDIA_TYPE_VIDEO)?.pointee.index ?? -1
        let packet: Packet
        do { packet = try Packet() } catch { throw ShareError(step: "reading the take", error) }
        while true {
            let read: Bool
            do { read = try demuxer.nextPacket(into: packet.pointer) } catch { throw ShareError(step: "reading the take", error) }
            guard read else { return }
            let p = packet.pointer
            defer { av_packet_unref(p) }
            let index = Int(p.pointee.stream_index)
            guard index >= 0, index < Int(input.pointee.nb_streams), let stream = input.pointee.streams[index] else { continue }
            let type = stream.pointee.codecpar.pointee.codec_type
            guard index == video || type == AVMEDIA_TYPE_AUDIO else { continue }
            do { try body(p, stream, index == video) } catch let error as ShareError { throw error } catch {
                throw ShareError(step: "cutting the take", reason: "\(error)")
            }
        }
    }

    /// The second look: the packets the plan keeps, moved by `-cutStart`, into a new file at `path`
    /// in the take's container (ShareMP4: the share's remux, with its streams, side data and sync).
    private static func write(_ plan: Plan, from take: String, to path: String, mode: Int) throws(ShareError) -> Cut {
        let step = "writing the cut " + path
        let demuxer = try open(take)
        let output: ShareMP4
        do {
            output = try ShareMP4(path: path, mode: mode, container: take.lowercased().hasSuffix(".mp4") ? "mp4" : "mov")
        } catch { throw ShareError(step: step, error) }
        do {
            let (map, outputs, _) = try output.addStreams(copying: demuxer.format)
            try output.writeHeader()
            var videoPackets = 0, audioPackets = 0
            try forEachPacket(of: demuxer) { p, stream, isVideo in
                guard let time = time(p, stream), plan.keeps(time, video: isVideo) else { return }
                let index = Int(p.pointee.stream_index)
                guard map[index] >= 0 else { return }
                let tb = stream.pointee.time_base
                let shift = av_rescale_q(plan.cutStart, AVRational(num: 1, den: 1_000_000_000), tb)
                if p.pointee.pts != kiosk_AV_NOPTS_VALUE() { p.pointee.pts = p.pointee.pts.saturatingSubtracting(shift) }
                if p.pointee.dts != kiosk_AV_NOPTS_VALUE() { p.pointee.dts = p.pointee.dts.saturatingSubtracting(shift) }
                if isVideo { videoPackets += 1 } else { audioPackets += 1 }
                try output.write(p, from: stream, to: outputs[Int(map[index])])
            }
            let (bytes, syncSeconds) = try output.finish(name: path)
            return Cut(start: 0, end: 0, duration: 0, bytes: bytes, videoPackets: videoPackets, audioPackets: audioPackets, syncSeconds: syncSeconds)
        } catch { throw output.failure(at: step, error) }
    }
}
