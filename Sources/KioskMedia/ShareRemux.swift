// The share folder's video: the take's packets copied, not re-encoded, into a progressive
// MP4 whose index (`moov`) comes before its samples (`mdat`), so a phone's browser plays it at once.
// The streams keep their codecs, timestamps and side data (the display matrix: the take's rotation).
// ShareRendition fills a take's share folder: video.mp4 remuxed here, poster.jpg (SharePoster) and
// index.html (KioskCore's SharePage), published whole by KioskStorage's ShareFiles.
import CFFmpeg
import FoundationEssentials
import Glibc
import KioskCore
import KioskScreenText
import KioskStorage
import KioskSystem

/// Owns the MP4's AVFormatContext (an `OutputFormat`) writing through an IOContext into a FileSink
/// (the file made by `NewFile.create`). A take's
/// packets copied as they are: the share's video, and a trimmed take (TakeTrim, in the take's own
/// container).
final class ShareMP4 {
    private let output: OutputFormat
    private var context: UnsafeMutablePointer<AVFormatContext> { output.pointer }
    private let tally: OwnerTally

    /// Creates `path` with exactly `mode`. The context's url is the file's too, with "file:" before
    /// it (a colon in the path is then no protocol): faststart opens it again, read-only, to move the
    /// samples along behind the index it writes last.
    /// `container`: "mp4" (the share's) or "mov" (a take's, `MovieSettings.container`).
    init(path: String, mode: Int, container: String = "mp4") throws(AVError) {
        let io = try IOContext(writingTo: FileSink(path: path, mode: mode, syncingFolder: false))
        output = try OutputFormat(container: container, url: "file:" + path, io: io)
        tally = OwnerTally(ShareMP4.self)
    }

    var sink: FileSink { output.io.sink }

    /// A stream with `input`'s codec parameters and side data (`avcodec_parameters_copy`,
    /// `av_stream_new_side_data`): the display matrix goes across as it is, so the share turns the
    /// picture as the take does.
    func addStream(copying input: UnsafeMutablePointer<AVStream>) throws(AVError) -> UnsafeMutablePointer<AVStream> {
        let stream = try output.newStream()
        let result = avcodec_parameters_copy(stream.pointee.codecpar, input.pointee.codecpar)
        guard result >= 0 else { throw AVError(code: result, call: "avcodec_parameters_copy") }
        // The MOV's sample entry tag is not the MP4 muxer's to keep: it picks its own ('avc1', 'mp4a').
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = input.pointee.time_base
        stream.pointee.avg_frame_rate = input.pointee.avg_frame_rate
        // Its tags (language, handler) as the take has them.
        av_dict_copy(&stream.pointee.metadata, input.pointee.metadata, 0)
        for i in 0..<Int(max(input.pointee.nb_side_data, 0)) {
            let side = input.pointee.side_data[i]
            guard let data = side.data, side.size > 0 else { continue }
            guard let copy = av_stream_new_side_data(stream, side.type, side.size) else {
                throw AVError(code: AVError.code(posix: ENOMEM), call: "av_stream_new_side_data")
            }
            copy.update(from: data, count: side.size)
        }
        return stream
    }

    /// The file's tags as `input` has them (a title or a date a take may carry); the muxer writes
    /// its own brand.
    func copyTags(from input: UnsafeMutablePointer<AVFormatContext>) {
        av_dict_copy(&context.pointee.metadata, input.pointee.metadata, 0)
    }

    /// The streams of `input` this file copies, with the file's tags: its audio and its first video stream (a second one,
    /// which none of our takes has, stays behind; so do other kinds). `map[i]`: the output stream
    /// of the input's stream i, -1 for none; `video`: the input's video stream's index, -1 for none.
    func addStreams(copying input: UnsafeMutablePointer<AVFormatContext>) throws(AVError)
        -> (map: [Int32], outputs: [UnsafeMutablePointer<AVStream>], video: Int32) {
        copyTags(from: input)
        var map = [Int32](repeating: -1, count: Int(input.pointee.nb_streams))
        var outputs: [UnsafeMutablePointer<AVStream>] = []
        var video: Int32 = -1
        for i in 0..<Int(input.pointee.nb_streams) {
            let stream = input.pointee.streams[i]!
            let type = stream.pointee.codecpar.pointee.codec_type
            guard type == AVMEDIA_TYPE_VIDEO || type == AVMEDIA_TYPE_AUDIO else { continue }
            if type == AVMEDIA_TYPE_VIDEO {
                guard video < 0 else { continue }
                video = Int32(i)
            }
            map[i] = Int32(outputs.count)
            outputs.append(try addStream(copying: stream))
        }
        return (map, outputs, video)
    }

    /// The streams as `addStreams(copying:)` makes them, but `encoding`'s (the input's audio stream)
    /// takes `encoder`'s parameters (a leveled take's new sound, TakeLoudness), its tags kept.
    func addStreams(copying input: UnsafeMutablePointer<AVFormatContext>, encoding: Int32, with encoder: AudioEncoder?) throws(AVError)
        -> (map: [Int32], outputs: [UnsafeMutablePointer<AVStream>], video: Int32) {
        let made = try addStreams(copying: input)
        guard let encoder, encoding >= 0, Int(encoding) < made.map.count, made.map[Int(encoding)] >= 0 else { return made }
        let stream = made.outputs[Int(made.map[Int(encoding)])]
        let result = avcodec_parameters_from_context(stream.pointee.codecpar, encoder.codec.pointer)
        guard result >= 0 else { throw AVError(code: result, call: "avcodec_parameters_from_context") }
        stream.pointee.codecpar.pointee.codec_tag = 0
        return made
    }

    /// `avformat_write_header` with `movflags=+faststart`; only the `file` protocol may be opened
    /// (the read-back of faststart). The muxer writes an edit list where a track's first packet is
    /// not at 0 (`use_editlist`'s default for a file that is not fragmented): TakeTrim's cut.
    func writeHeader() throws(AVError) {
        var options: OpaquePointer?
        av_dict_set(&options, "movflags", "+faststart", 0)
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        let result = avformat_write_header(context, &options)
        av_dict_free(&options)
        guard result >= 0 else { throw AVError(code: result, call: "avformat_write_header") }
    }

    /// `av_interleaved_write_frame`, which takes the packet's data: it is blank afterwards.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(AVError) {
        let result = av_interleaved_write_frame(context, packet)
        av_packet_unref(packet)
        guard result >= 0 else { throw AVError(code: result, call: "av_interleaved_write_frame") }
    }

    /// A packet of the input's `stream` written as `target`'s (its times rescaled, its place in the
    /// input forgotten).
    func write(_ p: UnsafeMutablePointer<AVPacket>, from stream: UnsafeMutablePointer<AVStream>, to target: UnsafeMutablePointer<AVStream>) throws(AVError) {
        av_packet_rescale_ts(p, stream.pointee.time_base, target.pointee.time_base)
        p.pointee.stream_index = target.pointee.index
        p.pointee.pos = -1
        try write(p)
    }

    /// What went wrong at `step` as a ShareError: the write that failed first says why better than
    /// what libavformat made of it.
    func failure(at step: String, _ error: any Error) -> ShareError {
        if let error = error as? ShareError { return error }
        if let failure = sink.failure { return ShareError(step: step, errno: failure) }
        if let error = error as? AVError { return ShareError(step: step, error) }
        return ShareError(step: step, reason: "\(error)")
    }

    /// `av_write_trailer`: the index, then (faststart) the samples moved along behind it.
    func writeTrailer() throws(AVError) {
        let result = av_write_trailer(context)
        guard result >= 0 else { throw AVError(code: result, call: "av_write_trailer") }
        avio_flush(context.pointee.pb)
    }

    /// The trailer, then the file made durable (`fsync`): its size and the seconds the sync took.
    /// A write that failed after the muxer's last look at its IOContext throws its errno.
    func finish(name: String) throws -> (bytes: Int64, syncSeconds: Double) {
        try writeTrailer()
        if let failure = sink.failure { throw AVError(code: AVError.code(posix: failure), call: "write") }
        let syncStart = MonotonicClock.now()
        guard fsync(sink.file.rawValue) == 0 else { throw ShareError(step: "syncing " + name, errno: errno) }
        return (sink.size, Double(MonotonicClock.now() - syncStart) / 1e9)
    }
}

/// The remux itself, and the packet the poster is decoded from, picked on the way.
enum ShareRemux {
    /// The poster's picture: the first key frame at least this far into the take (nanoseconds), or
    /// the first key frame when there is none that late.
    static let posterTime: Int64 = 1_000_000_000

    struct Result {
        var bytes: Int64
        /// Seconds its fsync took (part of the remux's time).
        var syncSeconds: Double
        /// A reference to the poster's key frame, on the take's video stream's clock; nil: no video.
        var poster: Packet?
        /// The take's video stream, which lives as long as its Demuxer.
        var videoStream: UnsafeMutablePointer<AVStream>?
    }

    /// Copies the take's video and audio packets into a new MP4 at `folder/name` (mode `mode`),
    /// synced (fsync) before it returns. Other streams are left out. Throws a `ShareError` naming the
    /// step; a write that failed is named by its errno (ENOSPC: the disk is full).
    static func run(from take: Demuxer, into folder: String, name: String, mode: Int) throws(ShareError) -> Result {
        let step = "writing " + name
        let output: ShareMP4
        do { output = try ShareMP4(path: folder + "/" + name, mode: mode) } catch { throw ShareError(step: step, error) }
        do { return try copy(from: take, to: output, name: name) } catch { throw output.failure(at: step, error) }
    }

    private static func copy(from take: Demuxer, to output: ShareMP4, name: String) throws -> Result {
        let input = take.format
        let (map, outputs, video) = try output.addStreams(copying: input)
        try output.writeHeader()
        let packet = try Packet()
        var poster: Packet?, posterLate = false
        var videoStart: Int64?
        while true {
            let read: Bool
            do { read = try take.nextPacket(into: packet.pointer) } catch { throw ShareError(step: "reading the take", error) }
            guard read else { break }
            let p = packet.pointer
            let index = Int(p.pointee.stream_index)
            guard index >= 0, index < map.count, map[index] >= 0, let stream = input.pointee.streams[index] else {
                av_packet_unref(p)
                continue
            }
            if index == video, p.pointee.flags & AV_PKT_FLAG_KEY != 0, !posterLate {
                let pts = p.pointee.pts == kiosk_AV_NOPTS_VALUE() ? p.pointee.dts : p.pointee.pts
                let time = VideoDecoder.nanoseconds(pts, stream.pointee.time_base) ?? 0
                let start = videoStart ?? time
                videoStart = start
                posterLate = time.saturatingSubtracting(start) >= posterTime
                if poster == nil || posterLate {
                    let reference = try Packet()
                    let r = av_packet_ref(reference.pointer, p)
                    guard r >= 0 else { throw AVError(code: r, call: "av_packet_ref") }
                    poster = reference
                }
            }
            try output.write(p, from: stream, to: outputs[Int(map[index])])
        }
        let (bytes, syncSeconds) = try output.finish(name: name)
        return Result(bytes: bytes, syncSeconds: syncSeconds, poster: poster, videoStream: video >= 0 ? input.pointee.streams[Int(video)] : nil)
    }
}

extension ShareError {
    init(step: String, _ error: AVError) {
        self.init(step: step, reason: "\(error.text) (\(error.call))")
    }
}

public enum ShareRendition {
    /// Writes `DIR/<token>/` whole. On failure nothing of it is left (the partial folder goes) and
    /// the error names the step.
    public static func write(_ request: ShareRequest) throws(ShareError) -> ShareWritten {
        try ShareFiles.publish(request) { partial throws(ShareError) in try fill(partial, request) }
    }

    /// The three files, each synced, into `partial`.
    private static func fill(_ partial: String, _ request: ShareRequest) throws(ShareError) -> ShareWritten {
        var start = MonotonicClock.now()
        let take: Demuxer
        do { take = try Demuxer(path: request.take, interruption: Interruption(), timeout: MovieProbe.readTimeout) } catch {
            throw ShareError(step: "opening the take \(request.take)", error)
        }
        let remux = try ShareRemux.run(from: take, into: partial, name: SharePage.video, mode: request.fileMode)
        let remuxSeconds = ShareFiles.seconds(since: start)

        start = MonotonicClock.now()
        guard let packet = remux.poster, let stream = remux.videoStream else {
            throw ShareError(step: "making poster.jpg", reason: "the take has no key frame")
        }
        // The stream is the demuxer's: it must outlive the decoding (ARC may end it after its last use).
        let poster = try withExtendedLifetime(take) { () throws(ShareError) in try SharePoster.jpeg(of: packet, in: stream) }
        try ShareFiles.writeFile(partial + "/" + SharePage.poster, poster.bytes, mode: request.fileMode)
        let posterSeconds = ShareFiles.seconds(since: start)

        start = MonotonicClock.now()
        let page = Array(SharePage.html(title: request.title, question: request.question, language: request.language,
                                        downloadName: "video-" + ShareFiles.downloadStamp(request.now) + ".mp4", loops: request.loops).utf8)
        try ShareFiles.writeFile(partial + "/index.html", page, mode: request.fileMode)
        return ShareWritten(folder: partial, videoBytes: remux.bytes, posterBytes: poster.bytes.count, pageBytes: page.count,
                            posterSize: poster.size, remuxSeconds: remuxSeconds, videoSyncSeconds: remux.syncSeconds, posterSeconds: posterSeconds,
                            pageSeconds: ShareFiles.seconds(since: start), publishSeconds: 0)
    }

}
