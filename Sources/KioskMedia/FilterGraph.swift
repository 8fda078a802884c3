// libavfilter: a graph of FFmpeg's own filters between a buffer source and a buffer sink, as
// `ffmpeg -af` and `-vf` build one. For sound: the take's high-pass as it is recorded (`--high-pass`:
// two 12 dB/oct biquads, 24 dB per octave), its gain and limiter at the hand-over (`--loudness`,
// TakeLoudness) and the reel's. For pictures: the reel's turn, scale, bars, rate and cards (Reel),
// and the green screen's key with its background as a second source (PictureKey).
import CFFmpeg
import KioskContract
import KioskCore

/// Owns one AVFilterGraph (`avfilter_graph_alloc`, `avfilter_graph_free`, which frees its filters;
/// libavfilter's calls through the pointers of `kiosk_avfilter_load`, made with the first graph):
/// `abuffer` (`buffer` for pictures) → the chain → `abuffersink` (`buffersink`). One thread at a time.
final class FilterGraph {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    /// A picture graph's second source (`[bg]`), when it has one.
    private let second: UnsafeMutablePointer<AVFilterContext>?
    private let tally: OwnerTally
    let sampleRate: Int32
    let channels: Int32

    /// The live sound's high-pass at `hertz`: two second-order Butterworth sections (each 12 dB per
    /// octave), 24 dB per octave below the corner; no latency (an IIR filter, sample in, sample out).
    static func highPass(_ hertz: Double) -> String {
        let corner = String(printf: "%g", hertz)
        return "highpass=f=\(corner):poles=2,highpass=f=\(corner):poles=2"
    }

    /// A graph of `chain` (libavfilter's text, e.g. "volume=3dB") taking `format` at `sampleRate`
    /// with `channels`' usual layout, and giving `output` (S16 interleaved or float planes) at
    /// `outputRate` with `outputChannels` (the same as they come in, by default). With `frameSize`,
    /// every frame out has that many samples (the last one at the end may be short).
    convenience init(_ chain: String, sampleRate: Int32, channels: Int32, format: AVSampleFormat, output: AVSampleFormat,
                     outputRate: Int32? = nil, outputChannels: Int32? = nil, frameSize: Int32? = nil) throws(AVError) {
        let (layout, outputLayout) = (Self.layoutName(channels), Self.layoutName(outputChannels ?? channels))
        let formatName = String(cString: av_get_sample_fmt_name(format)), outputName = String(cString: av_get_sample_fmt_name(output))
        try self.init(source: "abuffer", arguments: "sample_rate=\(sampleRate):sample_fmt=\(formatName):channel_layout=\(layout):time_base=1/\(sampleRate)",
                      graph: "[in]" + chain + ",aformat=sample_fmts=\(outputName):sample_rates=\(outputRate ?? sampleRate):channel_layouts=\(outputLayout)[out]",
                      sink: "abuffersink", sampleRate: outputRate ?? sampleRate, channels: outputChannels ?? channels)
        if let frameSize { kiosk_av_buffersink_set_frame_size(sink, UInt32(frameSize)) }
    }

    /// A graph of `chain` for pictures of `size` in `format`, their times in `timeBase`, giving
    /// `output` (yuv420p unless told; the chain ends with the format).
    convenience init(pictures chain: String, size: Size, format: AVPixelFormat, timeBase: AVRational, output: String = "yuv420p") throws(AVError) {
        try self.init(source: "buffer", arguments: Self.pictureArguments(size, format, timeBase), graph: "[in]" + chain + ",format=\(output)[out]",
                      sink: "buffersink", sampleRate: 0, channels: 0)
    }

    /// A graph of two picture sources, `[in]` (pictures of `size` in `format`) and `[bg]` (of
    /// `secondSize` in `secondFormat`), both timed in `timeBase`: `text` names them and ends in `[out]`.
    /// `threads`: libavfilter's slice threads for the filters that have them (1: the caller's only).
    convenience init(pictures text: String, size: Size, format: AVPixelFormat, second secondSize: Size, _ secondFormat: AVPixelFormat,
                     timeBase: AVRational, threads: Int32 = 1) throws(AVError) {
        try self.init(source: "buffer", arguments: Self.pictureArguments(size, format, timeBase), graph: text, sink: "buffersink",
                      sampleRate: 0, channels: 0, second: Self.pictureArguments(secondSize, secondFormat, timeBase), threads: threads)
    }

    private static func pictureArguments(_ size: Size, _ format: AVPixelFormat, _ timeBase: AVRational) -> String {
        "video_size=\(size.width)x\(size.height):pix_fmt=\(format.rawValue):time_base=\(timeBase.num)/\(max(timeBase.den, 1)):pixel_aspect=1/1"
    }

    /// `text` as one value that libavfilter's parsers (av_get_token) read back exactly: in single
    /// quotes, where nothing is special, each `'` closed, escaped and reopened. A filter's option in a
    /// graph's text is read twice (the graph's parser, then the filter's), so its value is quoted,
    /// then the filter's whole options again.
    static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// The usual layout's name for `channels` (av_channel_layout_default, av_channel_layout_describe).
    private static func layoutName(_ channels: Int32) -> String {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, channels)
        var description = [CChar](repeating: 0, count: 64)
        av_channel_layout_describe(&layout, &description, description.count)
        return description.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// `source` (its `arguments`, `[in]`; and a second one of the same filter, `[bg]`) → `text` →
    /// `sink` (`[out]`), configured.
    private init(source sourceName: String, arguments: String, graph text: String, sink sinkName: String, sampleRate: Int32, channels: Int32,
                 second secondArguments: String? = nil, threads: Int32 = 1) throws(AVError) {
        // libavfilter is loaded with the first graph (avfilter_on_demand.h); a machine without it
        // gets this graph's failure, as any other, and keeps what it records unfiltered.
        if let why = kiosk_avfilter_load() {
            throw AVError(code: AVError.code(posix: ENOSYS), call: "dlopen(libavfilter): " + String(cString: why))
        }
        guard let graph = kiosk_avfilter_graph_alloc() else { throw AVError(code: AVError.code(posix: ENOMEM), call: "avfilter_graph_alloc") }
        self.graph = graph
        tally = OwnerTally(FilterGraph.self)
        (self.sampleRate, self.channels) = (sampleRate, channels)
        // One thread unless told: the graph runs on its caller's (the writer's, the file worker's,
        // the reel's); the key's takes slice threads beside the camera's.
        graph.pointee.nb_threads = threads
        var made: UnsafeMutablePointer<AVFilterContext>?
        var result = kiosk_avfilter_graph_create_filter(&made, kiosk_avfilter_get_by_name(sourceName), "in", arguments, nil, graph)
        guard result >= 0, let source = made else { throw AVError(code: result, call: "avfilter_graph_create_filter(\(sourceName))") }
        made = nil
        result = kiosk_avfilter_graph_create_filter(&made, kiosk_avfilter_get_by_name(sinkName), "out", nil, nil, graph)
        guard result >= 0, let sink = made else { throw AVError(code: result, call: "avfilter_graph_create_filter(\(sinkName))") }
        (self.source, self.sink) = (source, sink)
        var secondSource: UnsafeMutablePointer<AVFilterContext>?
        if let secondArguments {
            made = nil
            result = kiosk_avfilter_graph_create_filter(&made, kiosk_avfilter_get_by_name(sourceName), "bg", secondArguments, nil, graph)
            guard result >= 0, let made else { throw AVError(code: result, call: "avfilter_graph_create_filter(\(sourceName) bg)") }
            secondSource = made
        }
        second = secondSource
        var inputs = kiosk_avfilter_inout_alloc(), outputs = kiosk_avfilter_inout_alloc(), more = secondSource == nil ? nil : kiosk_avfilter_inout_alloc()
        defer {
            kiosk_avfilter_inout_free(&inputs)
            kiosk_avfilter_inout_free(&outputs)
        }
        guard let first = outputs, let last = inputs, secondSource == nil || more != nil else {
            kiosk_avfilter_inout_free(&more)
            throw AVError(code: AVError.code(posix: ENOMEM), call: "avfilter_inout_alloc")
        }
        first.pointee.name = av_strdup("in")
        first.pointee.filter_ctx = source
        first.pointee.pad_idx = 0
        first.pointee.next = more
        if let more, let secondSource {
            more.pointee.name = av_strdup("bg")
            more.pointee.filter_ctx = secondSource
            more.pointee.pad_idx = 0
            more.pointee.next = nil
        }
        last.pointee.name = av_strdup("out")
        last.pointee.filter_ctx = sink
        last.pointee.pad_idx = 0
        last.pointee.next = nil
        result = kiosk_avfilter_graph_parse_ptr(graph, text, &inputs, &outputs, nil)
        guard result >= 0 else { throw AVError(code: result, call: "avfilter_graph_parse_ptr(\(text))") }
        result = kiosk_avfilter_graph_config(graph, nil)
        guard result >= 0 else { throw AVError(code: result, call: "avfilter_graph_config(\(text))") }
    }

    deinit { kiosk_avfilter_graph_free(&graph) }

    /// Gives the graph a frame (its data referenced, not copied: `AV_BUFFERSRC_FLAG_KEEP_REF`), or
    /// nil: the end of the sound (what a filter holds back comes out).
    /// `second`: to the second source (`[bg]`).
    func push(_ frame: UnsafeMutablePointer<AVFrame>?, second toSecond: Bool = false) throws(AVError) {
        let result = kiosk_av_buffersrc_add_frame_flags(toSecond ? second ?? source : source, frame, Int32(AV_BUFFERSRC_FLAG_KEEP_REF))
        guard result >= 0 else { throw AVError(code: result, call: "av_buffersrc_add_frame_flags") }
    }

    /// The next frame out into `frame` (true), or false when the graph needs more (or has ended).
    func pull(into frame: UnsafeMutablePointer<AVFrame>) throws(AVError) -> Bool {
        let result = kiosk_av_buffersink_get_frame(sink, frame)
        if result == kiosk_AVERROR_EAGAIN() || result == kiosk_AVERROR_EOF() { return false }
        guard result >= 0 else { throw AVError(code: result, call: "av_buffersink_get_frame") }
        return true
    }

    /// Interleaved S16 samples through a graph made for S16 in and out (the high-pass): as many come
    /// out as went in (the filters have no latency); empty when a call failed (the caller keeps the
    /// sound unfiltered rather than lose it).
    func filter(_ samples: ArraySlice<Int16>, scratch: Frame) -> [Int16] {
        let count = samples.count / Int(channels)
        guard count > 0 else { return [] }
        let f = scratch.pointer
        av_frame_unref(f)
        f.pointee.format = AV_SAMPLE_FMT_S16.rawValue
        f.pointee.nb_samples = Int32(count)
        f.pointee.sample_rate = sampleRate
        av_channel_layout_default(&f.pointee.ch_layout, channels)
        guard av_frame_get_buffer(f, 0) >= 0 else { return [] }
        samples.withUnsafeBytes { bytes in f.pointee.data.0!.update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count) }
        do throws(AVError) {
            try push(f)
            av_frame_unref(f)
            var out: [Int16] = []
            out.reserveCapacity(samples.count)
            while try pull(into: f) {
                let n = Int(f.pointee.nb_samples) * Int(channels)
                f.pointee.data.0!.withMemoryRebound(to: Int16.self, capacity: n) { out.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
                av_frame_unref(f)
            }
            return out
        } catch {
            av_frame_unref(f)
            return []
        }
    }
}
