// The fragmented MOV/MP4 muxer of a take (libavformat), writing through the take's IOContext into
// its FileSink: the streams, the header (with the mehd box FFmpeg leaves out), packets, the fragments
// we cut ourselves, the trailer. What to write when is EncodingSession's business.
import CFFmpeg
import KioskCore
import KioskStorage
import KioskSystem

/// Owns the take's AVFormatContext (an `OutputFormat`, writing through the take's IOContext). Used
/// on the writer's thread only.
final class Muxer {
    private let output: OutputFormat
    private var context: UnsafeMutablePointer<AVFormatContext> { output.pointer }
    private let tally: OwnerTally
    /// The mehd duration field (file offset) and the movie timescale, once the header has one.
    private var mehd: (offset: Int, timescale: UInt64)?
    /// The file's title tag (`MovieSettings.title`), written with the header.
    private let title: String?
    /// The file's comment tag (`MovieSettings.comment`: a take's consent), written with the header.
    private let comment: String?

    init(settings: MovieSettings, io: IOContext) throws(AVError) {
        output = try OutputFormat(container: settings.container, url: settings.outputPath, io: io)
        tally = OwnerTally(Muxer.self)
        title = settings.title
        comment = settings.comment
    }

    var sink: FileSink { output.io.sink }

    /// Whether the container wants the codecs' headers once, in its own header (MOV and MP4 do).
    var globalHeader: Bool { context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    /// A stream for an opened encoder (`avformat_new_stream`, `avcodec_parameters_from_context`), its
    /// picture to be turned `quarterTurns` clockwise. The context owns it.
    func addStream(for codec: CodecContext, quarterTurns: Int = 0) throws(AVError) -> UnsafeMutablePointer<AVStream> {
        let stream = try output.newStream()
        let result = avcodec_parameters_from_context(stream.pointee.codecpar, codec.pointer)
        guard result >= 0 else { throw AVError(code: result, call: "avcodec_parameters_from_context") }
        stream.pointee.time_base = codec.pointer.pointee.time_base
        // The display matrix: players turn the picture by this much clockwise. FFmpeg's sign is the
        // other way round (av_display_rotation_get(set(a)) == -a), so ffprobe shows -90 for a quarter.
        let degrees = Double(((quarterTurns % 4) + 4) % 4 * 90)
        if degrees != 0, let side = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * 4) {
            side.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_set($0, degrees) }
        }
        return stream
    }

    /// Writes the header (`avformat_write_header`) and gives it the mehd box FFmpeg leaves out (see
    /// MoovDurations).
    func writeHeader() throws(AVError) {
        // Fragmented: a moov without samples first, then self-contained fragments that we cut
        // ourselves (frag_custom) and sync one by one. A file cut anywhere plays up to its last
        // whole fragment.
        var options: OpaquePointer?
        // skip_trailer: no mfra index at the end. Its moof offsets would be the muxer's, 20 bytes short
        // of the file's after the mehd; demuxers find the fragments by walking them anyway.
        av_dict_set(&options, "movflags", "frag_custom+empty_moov+default_base_moof+skip_trailer", 0)
        // The guestbook's question as the file's title (udta ©nam; ffprobe's format_tags.title).
        if let title { av_dict_set(&context.pointee.metadata, "title", title, 0) }
        // A take's consent (`--consent`) as its comment (udta ©cmt; ffprobe's format_tags.comment).
        if let comment { av_dict_set(&context.pointee.metadata, "comment", comment, 0) }
        let result = avformat_write_header(context, &options)
        av_dict_free(&options)
        guard result >= 0 else { throw AVError(code: result, call: "avformat_write_header") }
        avio_flush(context.pointee.pb)
        if let header = MoovDurations.insertMehd(into: sink.read(upTo: Int(sink.size))), sink.replaceHeader(with: header) {
            mehd = MoovDurations.mehdField(in: header)
        }
    }

    /// Writes a packet, interleaved with the other stream's (`av_interleaved_write_frame`), which
    /// takes its data: the packet is blank afterwards, written or not.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(AVError) {
        let result = av_interleaved_write_frame(context, packet)
        av_packet_unref(packet)
        guard result >= 0 else { throw AVError(code: result, call: "av_interleaved_write_frame") }
    }

    /// Puts everything the interleaver holds into the open fragment, cuts it (`av_write_frame(NULL)`)
    /// and hands its bytes to the sink.
    func cutFragment() throws(AVError) {
        var result = av_interleaved_write_frame(context, nil)
        guard result >= 0 else { throw AVError(code: result, call: "av_interleaved_write_frame(flush)") }
        result = av_write_frame(context, nil)
        guard result >= 0 else { throw AVError(code: result, call: "av_write_frame(flush)") }
        avio_flush(context.pointee.pb)
    }

    /// Writes the trailer (`av_write_trailer`; a failure is logged, the fragments stand) and hands
    /// its bytes to the sink.
    func writeTrailer() {
        let result = av_write_trailer(context)
        if result < 0 { Log.info("writer: \(AVError(code: result, call: "av_write_trailer"))") }
        avio_flush(context.pointee.pb)
    }

    /// Puts the movie's length into the header's mehd box, if it has one.
    func writeDuration(seconds: Double) {
        if let mehd { MoovDurations.writeMehd(fd: sink.file.rawValue, offset: mehd.offset, seconds: seconds, timescale: mehd.timescale) }
    }
}

/// The latest video packet, held until the next one is out (or the take ends), so that each is
/// written with its real length. movenc begins a fragment where the one before it ended, whatever
/// the first picture's own time: with each length known, a fragment ends exactly where its next
/// picture begins, even after a gap (pictures left out for want of CPU, a stall), and no picture is
/// placed early. (Before, the last length was guessed from the steps before it, and a picture after
/// a longer gap came up to four frames early under a CPU hog.) Writer's thread only.
final class HeldVideoPacket {
    private let packet: Packet
    private var held = false
    private var timeBase = AVRational(num: 1, den: 90000)

    init() throws(AVError) { packet = try Packet() }

    /// The bytes held (0: none): they belong to the fragment after the one being cut.
    var bytes: Int64 { held ? Int64(packet.pointer.pointee.size) : 0 }

    /// Holds `next` (in `timeBase`, its length guessed), first writing the one held before it with
    /// its length up to `next`'s time. `next` is blank afterwards.
    func hold(_ next: UnsafeMutablePointer<AVPacket>, timeBase: AVRational, stream: UnsafeMutablePointer<AVStream>,
              muxer: Muxer) throws(AVError) {
        if held {
            let p = packet.pointer
            let start = av_rescale_q(next.pointee.pts, timeBase, self.timeBase)
            if start > p.pointee.pts { p.pointee.duration = start - p.pointee.pts }
            try write(stream: stream, muxer: muxer)
        }
        av_packet_move_ref(packet.pointer, next)
        self.timeBase = timeBase
        held = true
    }

    /// Writes the packet held, with the length it has (the take's last picture).
    func release(stream: UnsafeMutablePointer<AVStream>, muxer: Muxer) throws(AVError) {
        if held { try write(stream: stream, muxer: muxer) }
    }

    private func write(stream: UnsafeMutablePointer<AVStream>, muxer: Muxer) throws(AVError) {
        let p = packet.pointer
        held = false
        av_packet_rescale_ts(p, timeBase, stream.pointee.time_base)
        p.pointee.stream_index = stream.pointee.index
        try muxer.write(p)
    }
}
