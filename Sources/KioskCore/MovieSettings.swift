// What a take is written as: container, codecs, tuning, limits and orientation.
import KioskContract

public struct MovieSettings: Sendable {
    public var outputPath: String
    public var videoSize: Size
    public var fps: Double
    /// nil: no audio track (`--microphone none`).
    public var audio: (sampleRate: Int, channels: Int)?
    /// An FFmpeg encoder name; libx264 when it cannot open.
    public var videoEncoder = VideoEncoderName.libx264
    /// libx264's preset (also passed to encoders that know the option).
    public var preset = "veryfast"
    /// Constant quality (libx264's crf) unless `bitrate` is set.
    public var crf = 23
    /// Average bits per second, for encoders (or operators) that want a rate rather than a quality.
    public var bitrate: Int?
    public var maxDuration: Double = 1200
    /// `--high-pass`: the corner (Hz) of the 24 dB/octave high-pass the sound is recorded through;
    /// nil: none.
    public var highPass: Double?
    public var maxFileSize: Int64 = 160 * 1024 * 1024
    public var minFreeDisk: Int64 = 1024 * 1024
    /// Clockwise quarter turns a player must apply (DisplayTransform.cameraQuarterTurns).
    public var rotationQuarterTurns = 0
    /// The operator's overlay, burnt into every picture before it is encoded (`OverlayPlanes`,
    /// made once for the take on the writer's thread); nil: none.
    public var overlay: TakeOverlay?
    /// The file's `title` tag (the guestbook's question, `--questions`) and `comment` tag (`--consent`:
    /// the choices its guest allowed, `Consent.tag`); nil: none.
    public var tags: (title: String?, comment: String?) = (nil, nil)
    public var title: String? {
        get { tags.title }
        set { tags.title = newValue }
    }
    public var comment: String? {
        get { tags.comment }
        set { tags.comment = newValue }
    }
    /// Permissions of the take and its marker, created new (O_EXCL, never through a symlink).
    public var fileMode = 0o600
    /// How much video a fragment holds before it is written and synced: the most a crash loses.
    public var fragmentSeconds: Double { Self.defaultFragmentSeconds }
    public static let defaultFragmentSeconds = 0.5
    /// Live capture (the booth): frames are stamped by CLOCK_MONOTONIC, and one captured before the
    /// take started (a leftover still on its way through the camera's queue or the MJPEG decoder)
    /// is not part of the take. Off for benchmarks and tests that feed made-up timestamps.
    public var framesFromLiveClock = false
    /// What this machine's environment says of the encoders (`KioskEnvironment`, which the booth's
    /// writers hand in).
    public var encoderHost = EncoderHost()
    /// libx264's threads at a step of effort below the configured one (`effortLadder`); nil: the
    /// configured two. The writer makes it 1 under a CPU quota of less than a core, where a second
    /// thread buys no time and costs a switch at every picture (x264's slices; the SPS and PPS are
    /// the same either way).
    public var steppedThreads: Int?
    /// A boomerang's capture: a key frame every third of a second, and once the pictures
    /// are safe the file becomes their loop (BoomerangLoop); nil: a take.
    public var boomerang: BoomerangPlan?

    public init(outputPath: String, videoSize: Size, fps: Double, audio: (sampleRate: Int, channels: Int)?) {
        self.outputPath = outputPath
        self.videoSize = videoSize
        self.fps = fps
        self.audio = audio
    }

    /// "mp4" for a .mp4 output, "mov" otherwise (the seed's output.mov).
    public var container: String { outputPath.lowercased().hasSuffix(".mp4") ? "mp4" : "mov" }
}

/// Why a take could not start.
public struct RecordingStartError: Error, CustomStringConvertible, Sendable {
    public let code: ErrorCode
    public let message: String
    public var description: String { message }

    public init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }
}

/// How the H.264 encoder is opened for a take: the fields the writer sets and the encoder's own
/// options. One place for both the writer and the benchmarks, so that the ffmpeg CLI they compare
/// with runs exactly the writer's settings.
public struct VideoTuning: Equatable, Sendable {
    public struct Option: Equatable, Sendable {
        public let name: String
        public let value: String

        public init(name: String, value: String) { (self.name, self.value) = (name, value) }
    }

    public let encoder: VideoEncoderName
    /// Keyframe interval in frames.
    public let gop: Int
    public let bFrames: Int
    public let threads: Int
    public let bitrate: Int?
    /// Options passed to the encoder when it opens (libx264's preset, tune and crf).
    public let options: [Option]

    /// The ffmpeg CLI's output options for the same encoder with the same settings.
    public var ffmpegArguments: [String] {
        // Appended a part at a time: as one expression of `+`s it took the type checker seconds.
        var arguments: [String] = ["-c:v", encoder.rawValue, "-g", String(gop), "-bf", String(bFrames), "-threads", String(threads)]
        for option in options { arguments += ["-" + option.name, option.value] }
        if let bitrate { arguments += ["-b:v", String(bitrate)] }
        arguments += ["-pix_fmt", "yuv420p", "-color_range", "tv", "-colorspace", "smpte170m"]
        return arguments
    }
}

extension MovieSettings {
    /// The tuning of `encoder` (the one asked for, or libx264 when that could not open), at a step
    /// of `effortLadder` (0: the configured preset, as every take has it with the CPU to spare).
    public func videoTuning(encoder: VideoEncoderName? = nil, effort: Int = 0) -> VideoTuning {
        let name = encoder ?? videoEncoder
        var options: [VideoTuning.Option] = []
        if name == .libx264 {
            options.append(.init(name: "preset", value: effortLadder[min(max(effort, 0), effortLadder.count - 1)].preset))
            // zerolatency: no look-ahead, no frame threads (slice threads instead), no B-frames:
            // nothing waits inside the encoder, so a crash or a stop loses no extra frames.
            options.append(.init(name: "tune", value: "zerolatency"))
            if bitrate == nil { options.append(.init(name: "crf", value: "\(crf)")) }
        }
        // One keyframe a second: a crash-cut file plays from its first whole second, and seeking
        // in review is quick. No B-frames: each frame leaves the encoder as soon as it is coded.
        // A boomerang's key frames come every third of a second, at most 8 MB of pictures apart (5
        // at 720p, 2 at 1080p): its loop decodes the capture a group at a time from the end to encode
        // it backwards, and a group is what it holds (BoomerangLoop) beside the loop's own libx264.
        let group = 8_000_000 / max(videoSize.width * videoSize.height * 3 / 2, 1)
        let gop = boomerang != nil ? min(max(Int((fps / 3).rounded()), 1), max(group, 1)) : max(Int(fps.rounded()), 1)
        return VideoTuning(encoder: name, gop: gop, bFrames: 0, threads: effort > 0 ? steppedThreads ?? 2 : 2,
                           bitrate: bitrate, options: options)
    }
}

/// One step of libx264's effort: its preset, and how far its CRF is raised above the take's (a
/// change libx264 takes mid-stream, in the same instance: `VideoEncoder.setCRF`).
public struct VideoEffort: Equatable, Sendable {
    public let preset: String
    public var crfRaise = 0
    public var description: String { crfRaise > 0 ? "\(preset) at crf +\(crfRaise)" : preset }
}

extension MovieSettings {
    /// libx264's presets, the fastest first.
    static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]

    /// The steps of effort a take may go down when the CPU runs short (`EffortRule`): the
    /// configured preset, then superfast when the preset is slower. Nothing below it: ultrafast
    /// drops CABAC and the 8x8 transform, which are in the stream's PPS (its profile becomes
    /// Constrained Baseline); x264's cheaper searches on top of superfast (subme 0, no partitions,
    /// no AQ, no deblocking) saved no CPU on real footage and cost up to twice the bytes
    /// (docs/recording.md); a higher CRF changes the PPS's initial QP. Each step is taken only where
    /// the stream's SPS and PPS stay byte for byte what they are (`VideoEncoder.opened`): from
    /// veryfast (the default) they do; from a slower preset with more reference frames they do
    /// not, and the step is refused (said), leaving the rate to step.
    public var effortLadder: [VideoEffort] {
        let configured = VideoEffort(preset: preset)
        guard let index = Self.presets.firstIndex(of: preset), index >= 2 else { return [configured] }
        // Last, under CRF, superfast at a CRF 3 higher: the same encoder told a new CRF
        // (libavcodec's `reconfig_encoder`), so the PPS, written once at open, stays; about a
        // seventh less CPU for some SSIM (docs/recording.md).
        return [configured, VideoEffort(preset: "superfast")] + (bitrate == nil ? [VideoEffort(preset: "superfast", crfRaise: 3)] : [])
    }
}

extension MovieSettings {
    /// The AAC encoder's bit rate: 96 kbit/s mono, 128 kbit/s stereo.
    public static func aacBitrate(channels: Int) -> Int { channels > 1 ? 128_000 : 96_000 }

    /// The ffmpeg CLI's options for the same sound track (FFmpeg's own AAC encoder at that rate).
    public static func aacFFmpegArguments(sampleRate: Int, channels: Int) -> [String] {
        ["-c:a", "aac", "-b:a", "\(aacBitrate(channels: channels))", "-ar", "\(sampleRate)", "-ac", "\(channels)"]
    }
}

/// The encoders as this machine's environment has them.
public struct EncoderHost: Sendable, Equatable {
    /// Where the VA-API encoder looks for render nodes (`renderD*`): `KioskEnvironment.renderFolder`
    /// (`KIOSK_DRI_DIR`); the system's own folder otherwise.
    public var renderFolder = "/dev/dri"
    /// The test-only encoders answer to their names (`TestEncoders`; `KioskEnvironment.testEncoders`).
    public var testEncoders = false

    public init(renderFolder: String = "/dev/dri", testEncoders: Bool = false) {
        (self.renderFolder, self.testEncoders) = (renderFolder, testEncoders)
    }
}
