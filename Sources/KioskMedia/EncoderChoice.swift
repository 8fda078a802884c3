// Which H.264 encoder a take uses: `--video-encoder auto` probes the hardware encoders FFmpeg has
// (VA-API on a render node, then the V4L2 memory-to-memory encoder of a Raspberry Pi 4 within its
// limits) by opening each for the configured size and rate, and falls back to libx264, saying why.
// FFmpeg's hardware encoders never fall back by themselves; this does, at launch and at each Start.
import CFFmpeg
import FoundationEssentials
import KioskContract
import KioskCore

/// The encoder `auto` settled on, and why (for the log and `ready`).
public struct EncoderChoice: Equatable, Sendable {
    public let name: VideoEncoderName
    public let reason: String

    public init(name: VideoEncoderName, reason: String) {
        (self.name, self.reason) = (name, reason)
    }

    /// What `--video-encoder NAME` means for this size and rate: `auto` probed, any other name as it
    /// is (a name that cannot open falls back to libx264 at Start). Opens devices (VA-API's render
    /// nodes in `renderFolder`, `KioskEnvironment.renderFolder`): call it off the UI thread (at
    /// launch, before the loop, it is).
    public static func resolve(_ requested: VideoEncoderName, size: Size, fps: Double, bitrate: Int?, renderFolder: String) -> EncoderChoice {
        guard requested == .auto else { return EncoderChoice(name: requested, reason: "--video-encoder \(requested)") }
        var passedOver: [String] = []
        for candidate in VideoEncoderName.hardwareCandidates {
            if let problem = problem(with: candidate, size: size, fps: fps, bitrate: bitrate, renderFolder: renderFolder) {
                passedOver.append("\(candidate): \(problem)")
            } else {
                return EncoderChoice(name: candidate, reason: "auto: \(candidate) opened for \(size) at \(KioskEvent.milliseconds(fps)) fps")
            }
        }
        return EncoderChoice(name: .libx264, reason: "auto: libx264 (" + passedOver.joined(separator: "; ") + ")")
    }

    /// The names `--video-encoder` takes besides `auto`: the H.264 encoders this FFmpeg's
    /// libavcodec has (`av_codec_iterate`, the encoders of `AV_CODEC_ID_H264`, in its order), and
    /// the test-only ones after them when `testEncoders` (KIOSK_TEST_ENCODERS=1).
    public static func offered(testEncoders: Bool) -> [VideoEncoderName] {
        var names: [VideoEncoderName] = []
        var iteration: UnsafeMutableRawPointer?
        while let codec = av_codec_iterate(&iteration) {
            if av_codec_is_encoder(codec) != 0, codec.pointee.id == AV_CODEC_ID_H264, let name = codec.pointee.name {
                names.append(VideoEncoderName(rawValue: String(cString: name)))
            }
        }
        return names + (testEncoders ? [TestEncoders.stalling, TestEncoders.slow] : [])
    }

    /// Why this hardware encoder cannot take a size and rate here, or nil when it opened.
    static func problem(with name: VideoEncoderName, size: Size, fps: Double, bitrate: Int?, renderFolder: String) -> String? {
        guard avcodec_find_encoder_by_name(name.rawValue) != nil else { return "not in this FFmpeg build" }
        switch name {
        case .vaapi:
            let nodes = HardwareFrames.renderNodes(in: renderFolder)
            guard !nodes.isEmpty else { return "no render node (\(renderFolder)/renderD*)" }
            guard nodes.contains(where: { access($0, R_OK | W_OK) == 0 }) else {
                return "\(nodes.joined(separator: ", ")) not readable by this user (add it to the render group)"
            }
        case .v4l2m2m:
            if let limit = V4L2M2MLimits.problem(size: size, fps: fps) { return limit }
        default:
            break
        }
        var settings = MovieSettings(outputPath: "/dev/null", videoSize: size, fps: fps, audio: nil)
        settings.videoEncoder = name
        settings.bitrate = bitrate
        settings.encoderHost.renderFolder = renderFolder
        do {
            _ = try VideoEncoder.openCodec(name, settings: settings, globalHeader: true)
            return nil
        } catch {
            return "could not open (\(error.text))"
        }
    }

    /// The average rate a hardware encoder runs at when `--video-bitrate` is not set: 0.1 bit per
    /// pixel per frame (about what libx264 at crf 23 spends on a booth's picture), at least
    /// 500 kbit/s, at most 20 Mbit/s: 1280x720 at 30 fps is 2.76 Mbit/s, 1920x1080 at 30 6.22.
    public static func defaultBitrate(size: Size, fps: Double) -> Int {
        let bits = Double(size.width * size.height) * max(fps, 1) * 0.1
        return Int(bits.rounded()).clamped(500_000, 20_000_000)
    }

    /// Whether `name` is a hardware encoder (runs at a bit rate; preset and CRF mean nothing to it).
    public static func isHardware(_ name: VideoEncoderName) -> Bool { ![.libx264, TestEncoders.stalling, TestEncoders.slow].contains(name) }
}

/// The Raspberry Pi 4's H.264 encoder (bcm2835-codec through V4L2 M2M): level 4.1 at most, so
/// 8192 macroblocks a frame (1920x1088) and 245760 a second (1080p30); even sizes.
enum V4L2M2MLimits {
    static let maxMacroblocks = 8192
    static let maxMacroblocksPerSecond = 245_760

    static func problem(size: Size, fps: Double) -> String? {
        let blocks = ((size.width + 15) / 16) * ((size.height + 15) / 16)
        if size.width > 1920 || size.height > 1920 || blocks > maxMacroblocks {
            return "\(size) is over its level 4.1 limit (1920x1080)"
        }
        if Double(blocks) * fps > Double(maxMacroblocksPerSecond) {
            return "\(size) at \(KioskEvent.milliseconds(fps)) fps is over its level 4.1 limit (1080p at 30 fps)"
        }
        return nil
    }
}

/// Test-only encoders, enabled by `KIOSK_TEST_ENCODERS=1` in the environment (documented in
/// docs/recording.md; it reaches a take as `MovieSettings.encoderHost`), each libx264 under another
/// name: `test_stall_h264` stops returning packets after its first second of pictures, as a hardware
/// encoder that hangs would; `test_slow_h264` takes `slowPictureMicroseconds` over each picture (20
/// a second), as libx264 on a machine too weak for the camera's rate would.
public enum TestEncoders {
    public static let stalling = VideoEncoderName.testStalling
    public static let slow = VideoEncoderName.testSlow
    static let slowPictureMicroseconds: useconds_t = 50_000
    /// The encoder a test-only name stands for (the name itself when it is none, or when disabled).
    static func underlying(_ name: VideoEncoderName, enabled: Bool) -> VideoEncoderName { enabled && [stalling, slow].contains(name) ? .libx264 : name }
}

/// Owns a VA-API device (`av_hwdevice_ctx_create` on a render node), its pool of NV12 surfaces
/// (`av_hwframe_ctx_init`) and the frame each picture is uploaded into (`av_hwframe_transfer_data`).
/// Written to FFmpeg's API; there is no VA-API device on the machine that tests it (docs/deploy.md
/// says how to check it on one).
final class HardwareFrames {
    /// `renderD*` nodes in `folder` (/dev/dri, or `KIOSK_DRI_DIR`), in numeric order.
    static func renderNodes(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("renderD") }.sorted().map { folder + "/" + $0 }
    }

    private var device: UnsafeMutablePointer<AVBufferRef>?
    private(set) var frames: UnsafeMutablePointer<AVBufferRef>?
    private let surface: Frame

    /// The first render node in `renderFolder` that opens as a VA-API device, with a pool of
    /// surfaces of `size`.
    init(vaapiFor size: Size, renderFolder: String) throws(AVError) {
        // First, so that every stored property is set and a throw below runs deinit.
        surface = try Frame()
        var lastError = AVError(code: AVError.code(posix: ENODEV), call: "no render node in \(renderFolder)")
        for node in Self.renderNodes(in: renderFolder) {
            var made: UnsafeMutablePointer<AVBufferRef>?
            let r = av_hwdevice_ctx_create(&made, AV_HWDEVICE_TYPE_VAAPI, node, nil, 0)
            if r >= 0, made != nil {
                device = made
                break
            }
            lastError = AVError(code: r, call: "av_hwdevice_ctx_create(VAAPI, \(node))")
        }
        guard let device else { throw lastError }
        guard let pool = av_hwframe_ctx_alloc(device) else {
            throw AVError(code: AVError.code(posix: ENOMEM), call: "av_hwframe_ctx_alloc")
        }
        frames = pool
        let context = UnsafeMutableRawPointer(pool.pointee.data).assumingMemoryBound(to: AVHWFramesContext.self)
        context.pointee.format = AV_PIX_FMT_VAAPI
        context.pointee.sw_format = AV_PIX_FMT_NV12
        context.pointee.width = Int32(size.width)
        context.pointee.height = Int32(size.height)
        context.pointee.initial_pool_size = 8
        let r = av_hwframe_ctx_init(pool)
        guard r >= 0 else { throw AVError(code: r, call: "av_hwframe_ctx_init(VAAPI NV12 \(size))") }
    }

    deinit {
        av_buffer_unref(&frames)
        av_buffer_unref(&device)
    }

    /// `software` (NV12) copied into a surface from the pool: the frame to give the encoder,
    /// valid until the next call.
    func upload(_ software: UnsafeMutablePointer<AVFrame>) throws(AVError) -> UnsafeMutablePointer<AVFrame> {
        let target = surface.pointer
        av_frame_unref(target)
        var r = av_hwframe_get_buffer(frames, target, 0)
        guard r >= 0 else { throw AVError(code: r, call: "av_hwframe_get_buffer") }
        r = av_hwframe_transfer_data(target, software, 0)
        guard r >= 0 else { throw AVError(code: r, call: "av_hwframe_transfer_data") }
        return target
    }
}

extension Comparable {
    func clamped(_ low: Self, _ high: Self) -> Self { min(max(self, low), high) }
}
