// The recorder's settings: defaults are the seed's (30 fps, 1200 s, 160 MiB, 1 MiB) but for the size,
// which is HD (`auto`: the camera's largest mode up to 1280x720).
import KioskCore
import KioskContract
import KioskScreenText

/// Every setting of the command line and the config file, grouped by what it is about (the capture,
/// the video, the limits, …) so that no one type holds them all. The option table
/// (OptionTable.swift) names each setting's field by its key path through its group.
public struct Configuration: Equatable, Sendable {
    /// What the booth records from: the cameras and how they are read, the microphone.
    public var capture = Capture()
    /// How the picture is encoded.
    public var video = Video()
    public var sound = Sound()
    /// The take's sound (the guestbook): `--high-pass`, `--loudness`.
    public struct Sound: Equatable, Sendable {
        /// The corner (Hz) of the 24 dB/octave high-pass the sound is recorded through; nil: off.
        public var highPass: Double?
        /// The integrated loudness (LUFS) a take is set to when it is handed over, its true peak at
        /// most −1 dBTP; nil: off.
        public var loudness: Double?
        /// The true peak a leveled take keeps under (dBTP).
        public static let truePeakCeiling = -1.0

        public init() {}
    }

    /// When a take stops by itself, and when the timer warns of it.
    public var limits = Limits()
    /// Where takes go, with what permissions, and which of them a folder keeps.
    public var storage = Storage()
    /// What the screen shows and how: its orientation, the window, the words and how they look.
    public var screen = Screen()
    /// The guest's turn: whether the booth waits for the next one, the countdown, what an untouched
    /// booth does.
    public var guest = Guest()
    /// The booth as a service on its machine: the control socket, the command after each take.
    public var service = Service()
    /// The guest's take on their phone: the share folder, its address and the share screen.
    public var share = Share()
    /// The boomerang: its button, its capture's length and its speed.
    public var boomerang = BoomerangSettings()
    /// The `--config` file, kept for SIGHUP's reload.
    public var configFile: String?

    public init() {}

    /// What the booth records from (`--camera`, `--microphone`, …).
    public struct Capture: Equatable, Sendable {
        /// The cameras in switch order (`--camera` repeated; the first is the one the booth
        /// opens); never empty.
        public var cameras: [CameraChoice] = [.device("/dev/video0")]
        /// The first camera.
        public var camera: CameraChoice {
            get { cameras[0] }
            set { cameras[0] = newValue }
        }
        /// What an `exec:` camera's command writes (`--camera-format`).
        public var cameraFormat: CameraPipeFormat = .mjpeg
        /// How long an `exec:` camera's pictures take from the sensor to our read of the pipe
        /// (`--camera-delay`, milliseconds): their capture times are moved back by it.
        public var cameraDelay = 0
        /// Camera settings made through its controls each time it opens (`camera.focus = auto`, …).
        public var cameraControls: [CameraControl: CameraControlValue] = [:]
        /// How the camera is mounted: clockwise quarter turns its picture needs to be upright (0–3).
        public var cameraRotation = 0
        /// The size asked of the camera (`auto`: its largest up to 1280x720 at the rate; a size: the
        /// nearest it has).
        public var size = CaptureSize.auto
        public var fps = 30
        public var microphone: MicrophoneChoice = .pcm("default")

        public init() {}
    }

    /// How the picture is encoded (`--video-encoder`, `--video-preset`, `--video-crf`,
    /// `--video-bitrate`).
    public struct Video: Equatable, Sendable {
        /// An FFmpeg H.264 encoder (e.g. h264_v4l2m2m on a Raspberry Pi), libx264 when it cannot
        /// open; `auto` probes h264_vaapi, then h264_v4l2m2m, then takes libx264.
        public var encoder = VideoEncoderName.auto
        public var preset = "veryfast"
        /// libx264's constant quality, 0 (lossless) to 51; used unless `bitrate` is set.
        public var crf = 23
        /// Average bits per second instead of constant quality.
        public var bitrate: Int?
        /// `--overlay`: a PNG with alpha burnt into every picture of a take; nil: none.
        public var overlay: String?
        /// `--overlay-portrait`: the one for a portrait take; nil: `overlay`, scaled to cover it.
        public var overlayPortrait: String?
        /// The largest width and height of an overlay PNG (`OverlayPicture.maxSide`).
        public static let overlayMaxSide = OverlayPicture.maxSide
        /// `--background`: a PNG or JPEG the guest is keyed in front of (the green screen); nil: none.
        public var background: String?
        /// `--key`: the backdrop's colour; nil: green, with a background.
        public var key: KeyColour?
        /// `--key-similarity`, `--key-blend`: libavfilter chromakey's ranges (how far from the key's
        /// colour a picture's chroma is keyed out, and how far beyond that it fades in).
        public var keySimilarity = 0.15
        public var keyBlend = 0.05
        /// `--despill`: the backdrop's colour taken out of the guest's edges.
        public var despill = true
        /// The key in force: `key`, or green with a background; nil without one.
        public var keyInForce: KeyColour? { background == nil ? nil : key ?? .green }

        public init() {}
    }

    /// When a take stops by itself, and when the timer warns of it.
    public struct Limits: Equatable, Sendable {
        /// The longest take, in seconds.
        public var maxDuration: Double = 1200
        /// The largest file, in bytes.
        public var maxFileSize: Int64 = 160 * 1024 * 1024
        /// Bytes to leave free on the output's disk.
        public var minFreeDisk: Int64 = 1024 * 1024
        /// Under this many seconds left before a limit, the timer counts down in red; 0: never.
        public var warnRemaining: Double = 10

        public init() {}
    }

    /// Where takes go, with what permissions, and which of them an output folder keeps.
    public struct Storage: Equatable, Sendable {
        /// nil: output.mov in a private temporary folder made at start.
        public var output: String?
        /// `--output-dir`: each take under its own name in this folder (instead of `output`).
        public var outputDirectory: String?
        /// `--name-template`: strftime fields plus `{n}` (the folder's take counter); carries the
        /// extension.
        public var nameTemplate = "take-%Y%m%d-%H%M%S-{n}.mov"
        /// `--photo-template`: the photos' names (strftime fields and `{n}`), in the output folder or
        /// beside `--output`.
        public var photoTemplate = "photo-%Y%m%d-%H%M%S-{n}.jpg"
        /// Permissions of the takes and their markers (`--file-mode`): the recorder's user only.
        public var fileMode = 0o600
        /// Retention in the output folder: at most this many accepted takes.
        public var maxTakes: Int?
        /// Retention: accepted takes older than this (seconds) go, while the wall clock is
        /// synchronised.
        public var maxAge: Double?
        /// Retention: the oldest accepted takes go while the disk has less than this free.
        public var keepFree: Int64?

        public init() {}
    }

    /// What the screen shows and how.
    public struct Screen: Equatable, Sendable {
        /// nil: the display's natural orientation (landscape-right on a landscape panel, portrait
        /// on a portrait one).
        public var orientation: Orientation?
        public var window: WindowMode = .fullscreen
        /// Show the preview mirrored, like a mirror (the recording is never mirrored).
        public var mirrorPreview = false
        /// `--preview-fit`: whether the live preview crops the picture or shows all of it; nil: the
        /// default, `shownPreviewFit(overlay:)`.
        public var previewFit: PictureFit?
        /// Words for the guest shown in ready (`--prompt`), e.g. "Leave a message for Anna & Tom".
        public var prompt: String?
        /// The language of the words on screen (`--language`).
        public var language: Language = .en
        /// The operator's own words for some of them (`label.use-video = …` in the config).
        public var labels: [ScreenText: String] = [:]
        /// The words on screen: the language's table with the operator's labels.
        public var words: ScreenWords { ScreenWords(language: language, overrides: labels) }
        /// A font for text DejaVu Sans cannot show (`--font`); otherwise fontconfig finds one.
        public var font: String?
        /// Opaque panels and light buttons with black titles, for guests who see less.
        public var highContrast = false
        /// Text 1.35 times as large, and buttons wide enough for it.
        public var largeText = false
        /// `--photo-button`: a shutter button beside the record button in ready and while recording.
        public var photoButton = false
        /// `--library`: a Library button in ready (and the command `openLibrary`): the output
        /// folder's accepted takes to look at again, or to use (LibraryRoom).
        public var library = false

        public init() {}

        /// How the preview covers the screen: as asked, else aspect-fill, or aspect-fit with an
        /// overlay (so that the frame's edges show where the take has them).
        public func shownPreviewFit(overlay: Bool) -> PictureFit {
            previewFit ?? (overlay ? .fit : .fill)
        }

        /// Whether this screen's text differs from `other`'s: its words, its prompt or the font
        /// drawing them.
        public func textDiffers(from other: Screen) -> Bool {
            words != other.words || prompt != other.prompt || font != other.font
        }
    }

    /// Every text the screen may show, each with where it comes from (for the one warning about
    /// characters no font has): its words, the prompt, and each question as `FILE:LINE`.
    public var shownTexts: [ShownText] {
        let questions = guest.questions.map { list in
            list.lines.enumerated().map { ShownText($1, origin: list.path + (list.lineNumbers.count > $0 ? ":\(list.lineNumbers[$0])" : "")) }
        }
        return screen.words.shownTexts(prompt: screen.prompt) + (questions ?? [])
    }

    /// Whether the text on screen would change: the words, the prompt, the font or the questions.
    public func textDiffers(from other: Configuration) -> Bool {
        screen.textDiffers(from: other.screen) || guest.questions?.lines != other.guest.questions?.lines
    }

    /// The guest's turn: whether the booth waits for the next guest, the countdown before a take,
    /// and what a booth nobody touches does.
    public struct Guest: Equatable, Sendable {
        public var session: SessionMode = .once
        /// Seconds counted down (3-2-1) between Start and the take; 0: none.
        public var countdown = 3
        /// Seconds in ready without a touch before the calm attract screen; 0: never.
        public var attractAfter: Double = 0
        /// `--attract-slideshow`: the attract screen plays the newest accepted takes, silent, under
        /// its prompt (SlideshowRule).
        public var attractSlideshow = false
        /// Seconds the finished screen (or a paused review) may stay untouched; 0: forever.
        public var idleTimeout: Double = 0
        public var idleAction: IdleAction = .use
        /// `--trim`: a trimmer on the review; Use Video delivers the part kept.
        public var trim = false
        /// `--questions FILE` (the guestbook): the file, and its questions as read at launch or by
        /// the last reload (Questions.numbered); nil: none.
        public var questions: QuestionList?
        /// `--question-order`: in turn, or shuffled (each once before any repeats).
        public var questionOrder = QuestionOrder.order
        /// `--consent FILE`: the text the guest reads before each take, as read at launch or by the last
        /// reload (its version the SHA-256 of its bytes); nil: no consent screen.
        public var consent: ConsentFile?
        /// `--consent-choice`: the switches the consent screen offers, in the contract's order.
        public var consentChoices: [ConsentChoice] = []
        /// Each `--consent-choice` (or `consent-choice =` line) adds its choices to those before it.
        public var consentChoice: [ConsentChoice] {
            get { consentChoices }
            set { consentChoices = ConsentChoice.allCases.filter { consentChoices.contains($0) || newValue.contains($0) } }
        }

        public init() {}
    }

    /// The booth as a service on its machine.
    public struct Service: Equatable, Sendable {
        /// A Unix stream socket taking commands and sending events, like stdin and stdout.
        public var controlSocket: String?
        /// `--metrics-file`: the booth's figures in Prometheus' text format, for node_exporter.
        public var metricsFile: String?
        /// A shell command run after each accepted take (`KIOSK_TAKE_PATH`, `KIOSK_TAKE_DURATION`).
        public var onTake: String?
        /// A shell command run for each take `deleteTake` deleted, until it exits 0 (`KIOSK_TAKE_PATH`,
        /// `KIOSK_SHARE_TOKEN`): its tombstone, to delete the copies the `--on-take` hook made.
        public var onDelete: String?
        /// `--on-take` or `--on-delete` is set: the saved queue of hooks owed is read at launch.
        public var hooks: Bool { onTake != nil || onDelete != nil }
        /// `--hook-attempts`: tries of a take's hook before it is given up; nil: no limit.
        public var hookAttempts: Int?
        /// `--console-settings`: the operator's console's file of settings, read after `--config`.
        public var consoleSettings = "/var/lib/kiosk-recorder/console.conf"
        /// `--console-pairing`: the console's password file, typed on the screen's keyboard to pair a phone; nil: no pairing.
        public var consolePairing: String?

        public init() {}
    }

    /// The guest takes the video home: each accepted take gets a folder a web server
    /// serves, and the screen shows its address as a QR code.
    public struct Share: Equatable, Sendable {
        /// `--share-dir`: where each accepted take's share folder (`<token>/`) is written; nil: no sharing.
        public var folder: String?
        /// `--share-url`: the address of a share folder, `{token}` standing for its token.
        public var urlTemplate: String?
        /// `--share-title`: the operator's title on the share page.
        public var title: String?
        /// `--share-seconds`: how long the share screen shows before the booth moves on.
        public var seconds: Double = 60
        /// `--share-wifi-ssid` and `--share-wifi-password`: the hotspot a first QR code joins.
        public var wifiSSID: String?
        public var wifiPassword: String?
        /// `--share-file-mode`: the share files' permissions (folders get search rights too).
        public var fileMode = 0o644
        /// `--share-max-age`: share folders older than this many seconds are removed.
        public var maxAge: Double = 7 * 86400

        public init() {}
    }
}

/// `--play FILE`'s own options (command line only).
public struct PlayerOptions: Equatable, Sendable {
    /// `--loop`: the file plays again and again, without a gap, until Close, `quit` or a signal.
    public var loop = false
    /// `--fit`: aspect-fit (default) or aspect-fill.
    public var fit: PictureFit = .fit

    public init(loop: Bool = false, fit: PictureFit = .fit) {
        self.loop = loop
        self.fit = fit
    }
}

/// What the command line asks for.
public enum Invocation: Equatable, Sendable {
    /// Run the booth.
    case record(Configuration)
    /// `--play FILE`: the player alone, with `--loop` and `--fit`.
    case play(file: String, Configuration, player: PlayerOptions)
    /// `--list-cameras`: print the cameras as JSON and exit.
    case listCameras(Configuration)
    /// `--check`: try each part of the booth, report, exit 0 when it can run.
    case check(Configuration)
    /// `--send COMMAND`: hand one command to the booth listening on the control socket at `socket`,
    /// print the events until its answer, exit.
    case send(SendRequest, socket: String)

    case help
    case version
}

/// A bad command line or config file: exit status 2, the message names the option or the line.
public struct UsageError: Error, Equatable, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Why a config file could not be read, as a sentence that names the file (and the line, where
/// there is one): thrown by the reader the parser is given, said after `--config: `.
public struct ConfigFileError: Error, Equatable, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}


/// `--consent FILE`: the file, its text as read (at launch or by the last reload), and its version:
/// the SHA-256 of its bytes in lowercase hex, which every take made under it names.
public struct ConsentFile: Equatable, Sendable {
    public var path: String
    public var text: String
    public var version: String

    public init(path: String, text: String = "", version: String = "") { (self.path, self.text, self.version) = (path, text, version) }

    /// What the consent screen shows of it (ConsentText).
    public var blocks: [ConsentText.Block] { ConsentText.blocks(of: text, markdown: ConsentText.isMarkdown(path)) }
}
