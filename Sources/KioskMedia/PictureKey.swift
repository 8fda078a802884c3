// The green screen (`--background`, `--key`): each camera picture keyed against the backdrop's
// colour and put in front of the operator's background by one libavfilter graph (chromakey, then
// despill, then overlay onto the background), once, on the camera's thread, before the picture goes
// to the preview, the take and a photo: what the guest sees is what the take holds, and the brand
// overlay, which each of those blends later, stays on top. The key and despill work on a small copy
// (256x144 for 1280x720, a 25th of its pixels: at 720p30 the key has about 6 ms a picture, 0.4 of
// what the rest of the booth costs), the key's alpha and despill's colour scaled back up; the
// picture's own luma stays, and no step is RGB at the picture's size. A still background is
// decoded once (`BackgroundPicture`) and made the camera's size once per size (BackgroundFill:
// libavfilter's scale to fill, then crop: aspect-fill, as the preview fills the screen); a video is
// played in a loop by a thread of its own (BackgroundVideo), each picture at the time of the camera's;
// the graph is made once per size and settings, and its frames are reused.
import CFFmpeg
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskSystem

/// What a key is made of: `--background`, `--key` (as a colour), `--key-similarity`, `--key-blend`
/// and `--despill`.
public struct KeySettings: Equatable, Sendable {
    public var background: String
    /// The backdrop's colour: red, green and blue.
    public var red: UInt8, green: UInt8, blue: UInt8
    /// chromakey's similarity (0.01 to 1) and blend (0 to 1): how far from the colour a picture's
    /// chroma is still keyed out, and how far beyond that it fades in.
    public var similarity: Double, blend: Double
    /// The backdrop's colour taken out of the guest's edges (libavfilter's despill).
    public var despill: Bool

    public init(background: String, red: UInt8, green: UInt8, blue: UInt8, similarity: Double, blend: Double, despill: Bool) {
        (self.background, self.red, self.green, self.blue) = (background, red, green, blue)
        (self.similarity, self.blend, self.despill) = (similarity, blend, despill)
    }

    /// A blue backdrop's spill is taken out as blue, any other as green.
    var blueScreen: Bool { blue > green }

    /// The colour as video-range (or full-range) BT.601 Y, Cb, Cr, `0xYYUUVV`: chromakey compares
    /// a picture's own samples with it (`yuv=1`).
    func yuvHex(fullRange: Bool) -> String {
        let (r, g, b) = (Double(red), Double(green), Double(blue))
        let y = 0.299 * r + 0.587 * g + 0.114 * b
        let (cb, cr) = ((b - y) / 1.772, (r - y) / 1.402)
        let scale = fullRange ? (luma: 1.0, chroma: 1.0) : (luma: 219.0 / 255, chroma: 224.0 / 255)
        let samples = [(fullRange ? 0 : 16) + y * scale.luma, 128 + cb * scale.chroma, 128 + cr * scale.chroma]
        return "0x" + samples.map { String(printf: "%02X", Int(min(max($0.rounded(), 0), 255))) }.joined()
    }
}

/// The operator's background, checked once: a PNG or a JPEG decoded, or a video's first picture (any
/// video libavformat opens and libavcodec decodes, played in a loop); opaque, at most `maxSide` a side.
public struct BackgroundPicture: Sendable {
    let picture: DecodedPicture
    /// A video (played in a loop), not a still.
    public let isVideo: Bool
    public var size: Size { picture.size }

    /// The largest width and height of a background.
    public static let maxSide = 8192

    /// The picture in `path`, or why it cannot be a background (a sentence naming the file).
    public static func load(_ path: String) -> Result<BackgroundPicture, OverlayError> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(OverlayError(path, "cannot be read: \(String(cString: strerror(errno)))")) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(OverlayError(path, "is a folder, not a picture")) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(OverlayError(path, "is not a regular file")) }
        if info.st_size == 0 { return .failure(OverlayError(path, "is empty (0 bytes), not a picture")) }
        // A PNG's size, from its IHDR, before FFmpeg's probe decodes a huge one to learn it.
        if let size = pngSize(path), size.width > maxSide || size.height > maxSide {
            return .failure(OverlayError(path, "is \(size.width)x\(size.height): a background is at most \(maxSide)x\(maxSide)"))
        }
        let demuxer: Demuxer
        do { demuxer = try Demuxer(path: path, interruption: Interruption(), timeout: MovieProbe.readTimeout) } catch {
            return .failure(OverlayError(path, "is not a picture or a video FFmpeg can read (a PNG, a JPEG or a video such as an MP4): \(error)"))
        }
        guard let stream = demuxer.bestStream(AVMEDIA_TYPE_VIDEO) else {
            return .failure(OverlayError(path, "has no picture in it (no video stream): a background is a PNG, a JPEG or a video"))
        }
        let parameters = stream.pointee.codecpar.pointee
        // A still is read by an image demuxer (by its name, or by its first bytes through a pipe's).
        let container = String(cString: demuxer.format.pointee.iformat.pointee.name)
        let still = container == "image2" || container.hasSuffix("_pipe")
        guard !still || parameters.codec_id == AV_CODEC_ID_PNG || parameters.codec_id == AV_CODEC_ID_MJPEG else {
            return .failure(OverlayError(path, "is not a PNG or a JPEG (its picture is \(String(cString: avcodec_get_name(parameters.codec_id))))"))
        }
        guard parameters.width > 0, parameters.height > 0 else {
            return .failure(OverlayError(path, "is not a picture or a video FFmpeg can decode (a PNG, a JPEG or a video)"))
        }
        guard parameters.width <= maxSide, parameters.height <= maxSide else {
            return .failure(OverlayError(path, "is \(parameters.width)x\(parameters.height): a background is at most \(maxSide)x\(maxSide)"))
        }
        let index = stream.pointee.index
        demuxer.keep(only: [index])
        let decoder: VideoDecoder
        do { decoder = try VideoDecoder(stream: stream, threads: 1, maxPixels: maxSide * maxSide) } catch {
            return .failure(OverlayError(path, "cannot be decoded: \(error)"))
        }
        guard let picture = withExtendedLifetime(demuxer, { TakeThumbnails.picture(at: 0, demuxer, index, decoder) }) else {
            return .failure(OverlayError(path, "cannot be decoded: no picture came out of it"))
        }
        if let problem = transparency(picture) { return .failure(OverlayError(path, problem)) }
        return .success(BackgroundPicture(picture: picture, isVideo: !still))
    }

    /// The width and height in a PNG's IHDR (its first chunk, right after the signature); nil for
    /// a file that does not start as a PNG.
    private static func pngSize(_ path: String) -> Size? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var head = [UInt8](repeating: 0, count: 24)
        guard fread(&head, 1, 24, file) == 24, head[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], head[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return nil }
        func word(_ at: Int) -> Int { Int(head[at]) << 24 | Int(head[at + 1]) << 16 | Int(head[at + 2]) << 8 | Int(head[at + 3]) }
        return Size(width: word(16), height: word(20))
    }

    /// Why a picture with an alpha channel cannot be a background (some pixel is not opaque: the
    /// take would show through it), or nil. A video's first picture stands for the video.
    private static func transparency(_ picture: DecodedPicture) -> String? {
        let f = picture.reference.frame.pointee
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: f.format)),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0 else { return nil }
        let (w, h) = (Int(f.width), Int(f.height))
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        do throws(AVError) {
            let scaler = try Scaler(Scaler.Key(f, to: AV_PIX_FMT_RGBA))
            try rgba.withUnsafeMutableBufferPointer { out throws(AVError) in
                try scaler.scale(f.planePointers.map { $0.map { UnsafePointer($0) } }, pitches: f.planePitches,
                                 into: [out.baseAddress], pitches: [w * 4])
            }
        } catch {
            return "cannot be decoded: \(error)"
        }
        var i = 3
        while i < rgba.count {
            if rgba[i] != 255 { return "is transparent in places: a background is opaque (save it without an alpha channel)" }
            i += 4
        }
        return nil
    }
}

/// Keys the camera's pictures (`key`, on the camera's thread; one thread at a time) with the
/// settings given last (`set`, from any thread): the next picture is keyed with them.
public final class PictureKey: Sendable {
    private let wanted = Locked<KeySettings?>(nil)
    private let work: Locked<KeyWork>
    /// Nanoseconds each keyed picture takes longer (`KIOSK_TEST_SLOW_KEY`: a test's key too slow
    /// for the camera on any machine); 0 in production.
    private let slower: Int64

    /// `threads`: the graph's slice threads (`PictureKey.threads`; the benchmark compares others).
    /// `slower`: ns each keyed picture waits more (a sleep: the wall time a take's step-down and
    /// `--check` judge, not CPU time).
    public init(threads: Int32 = PictureKey.threads, slower: Int64 = 0) {
        work = Locked(KeyWork(threads: threads))
        self.slower = max(slower, 0)
    }

    /// The key from the next picture on; nil: pictures pass as they are.
    public func set(_ settings: KeySettings?) {
        wanted.withLock { $0 = settings }
    }

    /// Whether a key is set.
    public var isOn: Bool { wanted.withLock { $0 != nil } }
    /// Whether the last picture's key could not be made (it passed unkeyed; the log says why).
    public var failed: Bool { work.withLock { $0.failing } }

    /// The graph's slice threads (libavfilter's own, for chromakey, despill and overlay): one, the
    /// camera's. With 2 the pictures are the same (`kiosk-bench key` keys its frames both ways: not
    /// one sample differs), yet the booth with 2 (GreenScreenEndToEndTests, a debug build on 2 cores
    /// beside other work) measured worse: the photo's IoU 0.993 against 0.998, the take's 0.974 and
    /// 0.954 against 0.997, in takes that stepped down. So it is the booth under load, not the key
    /// (the camera's pictures or the take's encoding); until that is found, one.
    public static let threads: Int32 = 1

    /// The key's graph as libavfilter's text, for pictures of `size` (video range unless
    /// `fullRange`): `[in]` the camera's picture, `[bg]` the background at its size (video-range
    /// yuv420p, as BackgroundFill makes it), `[out]` the keyed picture, video-range yuv420p.
    ///
    /// chromakey averages its distances over each sample's 3x3 neighbours, in doubles: at the
    /// half size a 4:2:0 picture's chroma has (640x360 for 1280x720) it cost about 8 ms a picture
    /// (the ffmpeg CLI, one thread), on a 256x144 copy about 1.5 ms, and its alpha, scaled back up
    /// (softer at the edges), still matches the ground truth's subject (IoU 0.996, the old graph
    /// 0.988 on the same clip: docs/benchmarks.md). despill works on RGBA: on the picture at full
    /// size, after the key, it was the other half of the cost (12 ms with the round trip); on the
    /// same copy it and its round trip cost about 1 ms, and its colour (the despilled Cb and Cr,
    /// scaled up to the picture's chroma size) goes with the picture's own luma, so that only the
    /// colour of a guest's edges is changed, not their brightness. The price: with despill, the
    /// guest's colour is as sharp as the copy's (at 1280x720, 0.4 of a 4:2:0 picture's chroma
    /// resolution); without it, the picture's own chroma stays.
    public static func graphText(_ settings: KeySettings, size: Size, fullRange: Bool) -> String {
        let key = "chromakey=color=\(settings.yuvHex(fullRange: false)):yuv=1:similarity=\(String(printf: "%g", settings.similarity))"
            + ":blend=\(String(printf: "%g", settings.blend))"
        let (w, h) = (size.width, size.height)
        // The camera's picture as video-range yuv420p: the booth's cameras' pictures already are.
        let input = fullRange ? "[in]scale=in_range=pc:out_range=tv:in_color_matrix=bt601:out_color_matrix=bt601,format=yuv420p"
            : "[in]format=yuv420p"
        let small = keySize(size)
        let keyed = "scale=\(small.width):\(small.height):flags=area,format=yuva444p,\(key)"
        // The alpha a little blurred before its scale up (gblur, 0.5 of the copy's pixels: about 0.5
        // ms): a key from a copy a fifth the size is near binary at its pixels, and scaled up as it
        // is, a hard edge (a shoulder against the sky) shows the copy's pixels as steps.
        let alpha = "alphaextract,gblur=sigma=0.5,scale=\(w):\(h):flags=bicubic[alpha]"
        let overlay = "[bg][fg]overlay=format=yuv420,format=yuv420p[out]"
        guard settings.despill else {
            return "\(input),split[whole][small];[small]\(keyed),\(alpha);[whole]format=yuva420p[picture];[picture][alpha]alphamerge[fg];\(overlay)"
        }
        // The copy keyed, then despilled (RGBA and back), split: its alpha, and its colour
        // scaled to the picture's chroma planes' size; mergeplanes puts them together with the
        // picture's luma as yuva420p (its inputs all gray: it takes one format for all of them).
        // despill's mix=1 limits the green (a blue screen's blue) to the red, not to the mean of
        // the red and the other: with the picture's own luma kept, the mean turned the guest's
        // yellow-greens a bright orange (the ground truth's subject 17.6 levels from its colour on
        // average, against 5.1 with mix=1, and IoU 0.968 where its orange met the background's);
        // the edges' green excess is gone either way. Teals and light blues lose more of their
        // green with it.
        let despill = "scale=in_range=tv:in_color_matrix=bt601,format=rgba,despill=type=\(settings.blueScreen ? "blue" : "green"):mix=1,"
            + "scale=out_range=tv:out_color_matrix=bt601,format=yuva444p"
        let chroma = "scale=\((w + 1) / 2):\((h + 1) / 2):flags=bilinear,format=yuv444p,extractplanes=u+v[u][v]"
        return "\(input),split[whole][small];[small]\(keyed),\(despill),split[colour][keyed];[keyed]\(alpha);[colour]\(chroma);"
            + "[whole]extractplanes=y[y];[y][u][v][alpha]mergeplanes=map1s=1:map2s=2:map3s=3:format=yuva420p[fg];\(overlay)"
    }

    /// The size of the copy the key and despill work on: as many pixels as 256x144 (a fifth of
    /// 1280x720's width and height), so the key costs about the same at any size, but at least a
    /// fifth of the picture's width and height and at most half (an 854x480 picture's copy is
    /// 256x144 too, not 171x96: the edges of its alpha, scaled up, are less coarse). At 1280x720,
    /// 320x180 cost 1.4 ms a picture more (the ffmpeg CLI: 5.7 against 4.3 ms) and left the keyed
    /// booth at 1.38 times the unkeyed booth's CPU in a quiet run, 1.43 in a round beside other
    /// builds, too near the 1.4 it is held to; the IoU on the ground truth: 0.998 against 0.996.
    static func keySize(_ size: Size) -> Size {
        let scale = min(0.5, max(0.2, (256.0 * 144 / Double(max(1, size.width * size.height))).squareRoot()))
        return Size(width: max(2, Int((Double(size.width) * scale).rounded())), height: max(2, Int((Double(size.height) * scale).rounded())))
    }

    /// `frame` keyed and in front of the background (video-range yuv420p), or `frame` as it is
    /// without a key, or when the key cannot be made (said once in the log for each setting).
    public func key(_ frame: VideoFrame) -> VideoFrame {
        guard let settings = wanted.withLock({ $0 }) else { return frame }
        let keyed = work.withLock { $0.key(frame, settings) }
        if slower > 0 {
            var wait = timespec(tv_sec: Int(slower / 1_000_000_000), tv_nsec: Int(slower % 1_000_000_000)), rest = timespec()
            while nanosleep(&wait, &rest) != 0 && errno == EINTR { wait = rest }
        }
        return keyed
    }
}

/// The key's graph and what it is made from, on the camera's thread.
private final class KeyWork {
    private struct Made: Equatable {
        let settings: KeySettings, size: Size, format: PixelFormat, fullRange: Bool
    }
    private var made: Made?
    private var graph: FilterGraph?
    /// The background at the picture's size (video-range yuv420p): a still, or a video's first
    /// picture (shown until its player has one of the time).
    private var background: FrameReference?
    /// A video background's player, and its clock's start on the camera's (the time of the first
    /// camera picture its player had a picture for).
    private var video: BackgroundVideo?
    private var origin: Int64?
    private var decoded: (path: String, picture: BackgroundPicture)?
    /// Settings that failed (said once): pictures pass unkeyed until they change.
    private var failed: Made?
    var failing: Bool { failed != nil }
    private var input: Frame?, output: Frame?, shown: Frame?
    private let threads: Int32

    init(threads: Int32) { self.threads = threads }

    func key(_ frame: VideoFrame, _ settings: KeySettings) -> VideoFrame {
        let wanted = Made(settings: settings, size: frame.size, format: frame.format, fullRange: frame.fullRange)
        guard wanted != failed, frame.format != .mjpeg, frame.format != .xrgb else { return frame }
        do throws(AVError) {
            if wanted != made { try make(wanted) }
            return try run(frame)
        } catch {
            Log.info("background: pictures pass unkeyed: \(error)")
            (failed, made, graph, video) = (wanted, nil, nil, nil)
            return frame
        }
    }

    /// The graph for `wanted`: its background decoded (when its file changed) and made the
    /// picture's size, then chromakey, despill and overlay.
    private func make(_ wanted: Made) throws(AVError) {
        (made, graph, background, video, origin) = (nil, nil, nil, nil, nil)
        let settings = wanted.settings
        if decoded?.path != settings.background {
            decoded = nil
            switch BackgroundPicture.load(settings.background) {
            case let .success(picture): decoded = (settings.background, picture)
            case let .failure(error): throw AVError(code: kiosk_AVERROR_INVALIDDATA(), call: "the background \(error.message)")
            }
        }
        guard let decoded = decoded?.picture else { return }
        let size = wanted.size
        background = try BackgroundFill(size: size).fill(decoded.picture.reference.frame)
        if decoded.isVideo { video = try BackgroundVideo(path: settings.background, size: size) }
        let text = PictureKey.graphText(settings, size: size, fullRange: wanted.fullRange)
        graph = try FilterGraph(pictures: text, size: size, format: wanted.format.avPixelFormat, second: size,
                                AV_PIX_FMT_YUV420P, timeBase: AVRational(num: 1, den: 1_000_000_000),
                                threads: threads)
        if input == nil { input = try Frame() }
        if output == nil { output = try Frame() }
        if shown == nil { shown = try Frame() }
        made = wanted
    }

    /// One picture through the graph: the camera's picture and the background at its time.
    private func run(_ frame: VideoFrame) throws(AVError) -> VideoFrame {
        guard let graph, let background, let input, let output, let shown else { return frame }
        let f = input.pointer
        try frame.bytes.withUnsafeBufferPointer { bytes throws(AVError) in
            av_frame_unref(f)
            let base = UnsafeMutablePointer(mutating: bytes.baseAddress!)
            (f.pointee.format, f.pointee.width, f.pointee.height) = (frame.format.avPixelFormat.rawValue, Int32(frame.size.width), Int32(frame.size.height))
            let planes = frame.planes
            (f.pointee.data.0, f.pointee.linesize.0) = (base + planes[0].offset, Int32(planes[0].stride))
            if planes.count > 1 { (f.pointee.data.1, f.pointee.linesize.1) = (base + planes[1].offset, Int32(planes[1].stride)) }
            if planes.count > 2 { (f.pointee.data.2, f.pointee.linesize.2) = (base + planes[2].offset, Int32(planes[2].stride)) }
            f.pointee.color_range = frame.fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
            f.pointee.colorspace = AVCOL_SPC_BT470BG
            f.pointee.pts = frame.timestamp
            // Not reference-counted: the source copies the samples while `bytes` is valid.
            try graph.push(f)
            av_frame_unref(f)
        }
        // The background at the picture's time: a video's, on its own clock from the first camera
        // picture its player has a picture for (before that its first picture, as a still). A
        // clock started before, while the player opened the file on a busy machine, would hold the
        // first picture and then skip ahead to catch up.
        if origin == nil, video?.hasStarted == true { origin = frame.timestamp }
        let picture = origin.flatMap { start in video?.picture(at: max(0, frame.timestamp &- start)) } ?? background
        av_frame_unref(shown.pointer)
        guard av_frame_ref(shown.pointer, picture.frame) >= 0 else { throw AVError(code: AVError.code(posix: ENOMEM), call: "av_frame_ref") }
        shown.pointer.pointee.pts = frame.timestamp
        try graph.push(shown.pointer, second: true)
        av_frame_unref(shown.pointer)
        let out = output.pointer
        av_frame_unref(out)
        guard try graph.pull(into: out) else { throw AVError(code: AVError.code(posix: EAGAIN), call: "the key's graph gave no picture for one in") }
        defer { av_frame_unref(out) }
        let o = out.pointee
        guard let y = o.data.0, let u = o.data.1, let v = o.data.2 else { throw AVError(code: kiosk_AVERROR_INVALIDDATA(), call: "the key's picture") }
        return VideoRange.yuv420pFrame(size: frame.size, planes: [(UnsafePointer(y), Int(o.linesize.0)), (UnsafePointer(u), Int(o.linesize.1)),
                                                                  (UnsafePointer(v), Int(o.linesize.2))],
                                       halfRows: false, fullRange: false, timestamp: frame.timestamp, sequence: frame.sequence)
    }
}
