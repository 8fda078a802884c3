// The options of the contract as one table: each option declared once, with the kind of its value,
// its default as people see it, its unit, the field it sets, what a reload does with it and its
// help. The parser (OptionParser.swift), the reload (Reload.swift), --help and the example config
// (OptionTexts.swift) all read it; docs/interface.md's options table is checked against it.
import KioskCore
import KioskContract
import KioskScreenText

/// How an option takes its value.
enum OptionArgument: Equatable {
    /// A flag: `--list-cameras`.
    case none
    /// `--fps N` or `--fps=N`.
    case required(String)
    /// `--windowed` or `--windowed WxH`: the next word is its value unless it is an option.
    case optional(String)
}

/// What an option is when it is not given, as --help, the example config and docs/interface.md
/// show it.
enum OptionDefault: Equatable, Sendable {
    /// A value, written as on the command line: `--fps 30` is the same as no `--fps` (a test parses
    /// each one and compares).
    case value(String)
    /// Nothing is set unless the option is given; what happens then ("none", "the display's own").
    case unset(String)
}

/// How a setting's default is said: the configuration's own value (`Configuration()`, the one place
/// a default is written), shown as the command line writes it; or that nothing is set without the
/// option, and what happens then.
enum SettingDefault: Sendable {
    case configured
    case unset(String)
}

/// One option of the contract.
struct OptionSpec: Sendable {
    let name: String
    let argument: OptionArgument
    let help: String
    /// nil for an option with nothing to show (a mode, a flag of the command line alone). A `var`
    /// so that a test can change it in a copy of the table.
    var defaultValue: OptionDefault?
    /// The unit of a bare number (`s`, `ms`, `bytes`, `bits/s`), said after the default.
    let unit: String?
    /// The field of `Configuration` the option sets and what a reload does with a change to it;
    /// nil for an option that is no setting (a mode, `--config`, `--help`).
    var setting: ReloadSetting?
    /// Offered in --help, the example config and the docs' table; an unlisted option is still read
    /// (old configs name it), with a warning (`unlistedWarning`).
    var unlistedWarning: String?
    var listed: Bool { unlistedWarning == nil }
    /// Values the example config shows instead of the default: for a setting that has none, or
    /// where an example tells more.
    let examples: [String]
    /// Sets the value; throws a message saying what was expected (the caller adds where).
    let apply: @Sendable (inout Configuration, String?) throws(ValueError) -> Void
    /// Checks a value against the machine before `apply` (a folder where a file is asked for, an
    /// encoder FFmpeg lacks); nil for most options, whose values mean the same everywhere.
    let check: (@Sendable (HostFacts, String) throws(ValueError) -> Void)?

    /// The setting's value in a configuration, written as a config file writes it; nil when it is
    /// not set (a field that is nil). Nil for an option that is no setting.
    var current: (@Sendable (Configuration) -> String?)?

    /// Whether `name = value` may appear in a config file: every setting may, no other option.
    var inConfigFile: Bool { setting != nil }

    /// What a setting's value looks like to a form (its kind's).
    var shape = ValueShape.text

    /// A setting: an option that sets `field`, on the command line or in a config file.
    /// `reloadName` names a family of options sharing one field (`camera.*`) for the reload.
    init<Value: Equatable & Sendable>(
        _ name: String, _ argument: OptionArgument, default shown: SettingDefault, unit: String? = nil, help: String,
        sets field: WritableKeyPath<Configuration, Value> & Sendable, reload: ReloadEffect, reloadName: String? = nil,
        examples: [String] = [], check: (@Sendable (HostFacts, String) throws(ValueError) -> Void)? = nil,
        show: @escaping @Sendable (Value) -> String = OptionText.text, kind: OptionKind<Value>
    ) {
        // Only a kind with a bare value may be given without one, and such a kind must be.
        if case .optional = argument { precondition(kind.takesBare, "--\(name): [\(argument)] needs a kind with a bare value") } else {
            precondition(!kind.takesBare, "--\(name): a kind with a bare value needs an optional argument")
        }
        self.name = name
        self.argument = argument
        self.help = help
        switch shown {
        case .configured: defaultValue = .value(show(Configuration()[keyPath: field]))
        case let .unset(what): defaultValue = .unset(what)
        }
        self.unit = unit
        setting = ReloadSetting(reloadName ?? name, reload, field)
        self.examples = examples
        // The field is named once, in `sets`: the value is read by its kind, then put there.
        apply = { c, v throws(ValueError) in c[keyPath: field] = try kind.value(v) }
        self.check = check
        self.shape = kind.shape
        // A kind whose value is itself optional (`--prompt`, `--loudness`) is not set while nil.
        current = { c in OptionText.isNil(c[keyPath: field]) ? nil : show(c[keyPath: field]) }
    }

    /// A setting whose field is nil while the option is not given (`--max-takes`, `--overlay`, a
    /// `camera.*` control): its kind reads the value the field then holds.
    init<Value: Equatable & Sendable>(
        _ name: String, _ argument: OptionArgument, default shown: SettingDefault, unit: String? = nil, help: String,
        sets field: WritableKeyPath<Configuration, Value?> & Sendable, reload: ReloadEffect, reloadName: String? = nil,
        examples: [String] = [], check: (@Sendable (HostFacts, String) throws(ValueError) -> Void)? = nil,
        show: @escaping @Sendable (Value?) -> String = OptionText.text, kind: OptionKind<Value>
    ) {
        self.init(name, argument, default: shown, unit: unit, help: help, sets: field, reload: reload, reloadName: reloadName,
                  examples: examples, check: check, show: show, kind: kind.orNil)
        current = { c in c[keyPath: field] == nil ? nil : show(c[keyPath: field]) }
    }

    /// This option, read but not offered (`unlistedWarning` says why when it is used).
    func unlisted(_ warning: String?) -> OptionSpec {
        var spec = self
        spec.unlistedWarning = warning
        return spec
    }

    /// An option of the command line alone that sets no setting: a mode, its own flags, `--config`,
    /// `--help`. The parser reads it by name.
    init(commandLine name: String, _ argument: OptionArgument, default shown: OptionDefault? = nil, help: String) {
        self.name = name
        self.argument = argument
        self.help = help
        defaultValue = shown
        unit = nil
        setting = nil
        examples = []
        apply = { _, _ throws(ValueError) in }
        check = nil
    }
}

extension OptionParser {
    static let options: [OptionSpec] = [
        OptionSpec("camera", .required("DEVICE|test|auto|exec:COMMAND"), default: .configured,
                   help: "V4L2 device path; test = built-in moving pattern; auto = every camera found (none: \"No camera found\", Record held back, looking again every second); exec:COMMAND = pictures from COMMAND's stdout (run by /bin/sh -c); repeat it for a switch button between cameras",
                   sets: \.capture.cameras, reload: .atRestart,
                   examples: ["/dev/v4l/by-id/usb-Front_Cam-video-index0",
                              "exec:rpicam-vid -t 0 -n --codec mjpeg --width 1280 --height 720 --framerate 30 --flush -o -"],
                   // Each `--camera` (or `camera =` line) is one camera: OptionParser.applyCameras joins them.
                   show: { OptionText.camera($0[0]) }, kind: .camera),
        OptionSpec("camera-format", .required("mjpeg|i420|nv12|yuyv"), default: .configured,
                   help: "what an exec: camera's command writes: mjpeg (concatenated JPEGs) or raw frames of --size",
                   sets: \.capture.cameraFormat, reload: .atRestart, kind: .cameraFormat),
        OptionSpec("camera-delay", .required("MS"), default: .configured, unit: "ms",
                   help: "an exec: camera's known delay from sensor to pipe, 0-2000 ms: its pictures' times are moved back by it",
                   sets: \.capture.cameraDelay, reload: .atRestart, kind: .integer(in: 0...2000)),
        OptionSpec("microphone", .required("PCM|test|none"), default: .configured,
                   help: "ALSA PCM name; test = built-in tone; none = no audio track",
                   sets: \.capture.microphone, reload: .inReady, show: OptionText.microphone, kind: .microphone),
        OptionSpec("size", .required("WxH|auto"), default: .configured,
                   help: "capture size: auto = the camera's largest mode up to 1280x720 that keeps --fps (the test pattern is 1280x720); WxH = the nearest the camera has",
                   sets: \.capture.size, reload: .atRestart, kind: .captureSize),
        OptionSpec("fps", .required("N"), default: .configured,
                   help: "frames per second, 1-240",
                   sets: \.capture.fps, reload: .atRestart, kind: .integer(in: 1...240)),
        OptionSpec("output", .required("PATH"), default: .unset("output.mov in a private temporary folder"),
                   help: "where the take goes; .mov or .mp4 picks the container",
                   sets: \.storage.output, reload: .refused, examples: ["/srv/booth/take.mov"],
                   check: { host, v throws(ValueError) in try Values.notAFolder(v, host) }, kind: .output),
        OptionSpec("max-duration", .required("SECONDS"), default: .configured, unit: "s",
                   help: "longest take, 0 < SECONDS <= 86400",
                   sets: \.limits.maxDuration, reload: .inReady, kind: .seconds),
        OptionSpec("max-file-size", .required("BYTES"), default: .configured, unit: "bytes",
                   help: "largest file, at least 64K; K, M, G suffixes are powers of 1024",
                   sets: \.limits.maxFileSize, reload: .inReady, show: OptionText.bytes, kind: .bytes(atLeast: 64 * 1024)),
        OptionSpec("min-free-disk", .required("BYTES"), default: .configured, unit: "bytes",
                   help: "free space to keep on the output's disk; K, M, G suffixes",
                   sets: \.limits.minFreeDisk, reload: .inReady, show: OptionText.bytes, kind: .bytes(atLeast: 0)),
        OptionSpec("orientation", .required("O"), default: .unset("the display's own"),
                   help: "portrait | portrait-upside-down | landscape-left | landscape-right",
                   sets: \.screen.orientation, reload: .inReady, examples: ["portrait"], kind: .orientation),
        OptionSpec("windowed", .optional("WxH"), default: .configured,
                   help: "a window instead of full screen: of WxH, or \(WindowMode.defaultSize.width)x\(WindowMode.defaultSize.height) (shrunk to fit) without one; in a config file: yes, no or WxH",
                   sets: \.screen.window, reload: .atRestart,
                   show: OptionText.window, kind: .window),
        OptionSpec("session", .required("once|loop"), default: .configured,
                   help: "once: exit 0 after Use Video or Cancel; loop: back to ready for the next guest",
                   sets: \.guest.session, reload: .inReady, kind: .choice(SessionMode.self)),
        OptionSpec("video-encoder", .required("NAME"), default: .configured,
                   help: "auto (h264_vaapi, then h264_v4l2m2m within its limits, else libx264) or an H.264 encoder of this FFmpeg (libx264, h264_v4l2m2m, h264_vaapi; another name exits 2 listing them); falls back to libx264 when it cannot open",
                   sets: \.video.encoder, reload: .inReady,
                   check: { host, v throws(ValueError) in try Values.offeredEncoder(v, host) }, kind: .encoder),
        OptionSpec("video-preset", .required("P"), default: .configured,
                   help: "libx264 preset: ultrafast ... veryslow",
                   sets: \.video.preset, reload: .inReady, kind: .preset),
        OptionSpec("video-crf", .required("N"), default: .configured,
                   help: "constant quality 0-51, lower is better",
                   sets: \.video.crf, reload: .inReady, kind: .integer(in: 0...51)),
        OptionSpec("video-bitrate", .required("BITS"), default: .unset("none, constant quality"), unit: "bits/s",
                   help: "average bits per second instead of constant quality; k and M suffixes are powers of 1000, e.g. 4M",
                   sets: \.video.bitrate, reload: .inReady, examples: ["4M"], kind: .bitrate),
        OptionSpec("overlay", .required("PNG"), default: .unset("none"),
                   help: "a PNG with alpha (the operator's frame or logo) burnt into every picture of a take, upright as the guest sees it; design it at the take's size, it is scaled to cover; at most \(Configuration.Video.overlayMaxSide)x\(Configuration.Video.overlayMaxSide)",
                   sets: \.video.overlay, reload: .inReady, examples: ["/etc/kiosk-recorder/frame-landscape.png"],
                   check: { host, v throws(ValueError) in try Values.overlay(v, host) }, kind: .path),
        OptionSpec("overlay-portrait", .required("PNG"), default: .unset("--overlay, scaled to cover"),
                   help: "the overlay for a portrait take (a booth turned to portrait, or a camera mounted turned); without it --overlay covers the portrait picture, cropped",
                   sets: \.video.overlayPortrait, reload: .inReady, examples: ["/etc/kiosk-recorder/frame-portrait.png"],
                   check: { host, v throws(ValueError) in try Values.overlay(v, host) }, kind: .path),
        OptionSpec("background", .required("FILE"), default: .unset("none"),
                   help: "the green screen: a PNG or JPEG, or a video played in a loop on its own clock (an MP4; opaque, at most 8192x8192), the guest is keyed in front of, live in the preview and in every take, photo and boomerang, under the overlay; scaled to fill the picture",
                   sets: \.video.background, reload: .inReady, examples: ["/etc/kiosk-recorder/beach.jpg"],
                   check: { host, v throws(ValueError) in try Values.background(v, host) }, kind: .path),
        OptionSpec("key", .required("green|blue|#RRGGBB|auto"), default: .unset("green with --background, else off"),
                   help: "the backdrop's colour the key takes out: green (#00B140), blue (#0047BB), the colour itself, or auto: measured from the empty backdrop in ready, from the camera's first pictures and on the command calibrate (keep the guest off the backdrop then), with the similarity its spread needs (--key-similarity is not used) and a warning when it is too dark or uneven to key well",
                   sets: \.video.key, reload: .inReady, examples: ["green"], kind: .keyColour),
        OptionSpec("key-similarity", .required("N"), default: .configured,
                   help: "how far from the key's colour (0.01-1, libavfilter chromakey's similarity) a colour is taken out; raise it for a backdrop lit unevenly, lower it when the guest's clothes go",
                   sets: \.video.keySimilarity, reload: .inReady, kind: .number(in: 0.01...1)),
        OptionSpec("key-blend", .required("N"), default: .configured,
                   help: "how far beyond the similarity (0-1, chromakey's blend) a colour fades in: soft edges",
                   sets: \.video.keyBlend, reload: .inReady, kind: .number(in: 0...1)),
        OptionSpec("despill", .required("on|off"), default: .configured,
                   help: "take the backdrop's colour out of the guest's edges (libavfilter despill), where it is reflected",
                   sets: \.video.despill, reload: .inReady, show: { $0 ? "on" : "off" }, kind: .onOff),
        OptionSpec("mirror-preview", .optional("yes|no"), default: .configured,
                   help: "show the preview mirrored (the recording is not)",
                   sets: \.screen.mirrorPreview, reload: .inReady,
                   kind: .flag),
        OptionSpec("preview-fit", .required("fill|fit"), default: .unset("fill, or fit with --overlay"),
                   help: "the live preview: fill covers the screen, the picture's edges cropped; fit shows the whole picture as the take has it, bars beside it",
                   sets: \.screen.previewFit, reload: .inReady, examples: ["fit"], kind: .choice(PictureFit.self)),
        OptionSpec("camera-rotation", .required("DEGREES"), default: .configured,
                   help: "how the camera is mounted: 0, 90, 180 or 270 clockwise to make its picture upright",
                   sets: \.capture.cameraRotation, reload: .inReady, kind: .quarterTurns),
        OptionSpec("file-mode", .required("MODE"), default: .configured,
                   help: "permissions of takes and markers, octal, 0600 (the recorder's user only) to 0666; 0640 lets the group read them",
                   sets: \.storage.fileMode, reload: .inReady, show: OptionText.fileMode, kind: .fileMode),
        OptionSpec("countdown", .required("N"), default: .configured, unit: "s",
                   help: "seconds counted down (3-2-1, with a tick) between Start and the take, 0-10; 0 = none",
                   sets: \.guest.countdown, reload: .inReady, kind: .integer(in: 0...10)),
        OptionSpec("prompt", .required("TEXT"), default: .unset("none"),
                   help: "words for the guest at the top of the picture in ready, e.g. \"Leave a message for Anna & Tom\"",
                   sets: \.screen.prompt, reload: .inReady, examples: ["Leave a message for Anna & Tom"], kind: .text(maxLength: 200)),
        OptionSpec("questions", .required("FILE"), default: .unset("none"),
                   help: "the guestbook: a UTF-8 file of questions, one a line (blank lines and # lines skipped), one asked of each guest; read again on reload",
                   sets: \.guest.questions, reload: .inReady, examples: ["/etc/kiosk-recorder/questions.txt"],
                   show: { $0?.path ?? "" }, kind: .questionFile),
        OptionSpec("question-order", .required("order|shuffle"), default: .configured,
                   help: "the questions in turn, starting again after the last, or shuffled (each once before any repeats)",
                   sets: \.guest.questionOrder, reload: .inReady, kind: .choice(QuestionOrder.self)),
        OptionSpec("consent", .required("FILE"), default: .unset("none"),
                   help: "the guest's say: a UTF-8 text (a .md file: its headings and paragraphs) shown before each take with Agree and No thanks; No thanks records nothing; the outcome and the consent log (.kiosk-recorder.consent) name its SHA-256; read again on reload",
                   sets: \.guest.consent, reload: .inReady, examples: ["/etc/kiosk-recorder/consent.md"],
                   show: { $0?.path ?? "" }, kind: .consentFile),
        OptionSpec("consent-choice", .required("share|slideshow|film"), default: .configured,
                   help: "a switch on the consent screen, off until the guest turns it on: share (the share page and its QR code), slideshow (the attract slideshow and the library), film (reel); a take is used only for what its guest turned on; repeat it (or name several with commas) for more",
                   sets: \.guest.consentChoice, reload: .inReady, examples: ["share,film"],
                   show: { $0.isEmpty ? "none" : $0.map(\.rawValue).joined(separator: ",") }, kind: .consentChoices),
        OptionSpec("high-pass", .required("HZ|off"), default: .unset("off"),
                   help: "the sound recorded through a high-pass at HZ (20-500), 24 dB per octave: rumble, handling noise and stand thumps go; 80 suits voices",
                   sets: \.sound.highPass, reload: .inReady, examples: ["80"], kind: .highPass),
        OptionSpec("loudness", .required("LUFS|off"), default: .unset("off"),
                   help: "each take set to this integrated loudness (EBU R128, -36 to -6) when it is handed over, its true peak at most -1 dBTP: the sound re-encoded once, the picture copied untouched; -16 suits phones",
                   sets: \.sound.loudness, reload: .inReady, examples: ["-16"], kind: .loudness),
        OptionSpec("language", .required("LANG"), default: .configured,
                   help: "the words on screen: " + Language.allCases.map(\.rawValue).joined(separator: ", "),
                   sets: \.screen.language, reload: .inReady, kind: .language),
        OptionSpec("font", .required("PATH"), default: .unset("the one fontconfig finds, e.g. Noto CJK"),
                   help: "a font file (.ttf, .otf, .ttc) for text DejaVu Sans cannot show, e.g. Japanese",
                   sets: \.screen.font, reload: .inReady, examples: ["/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"], kind: .path),
    ] + CameraControl.allCases.map { control in
        OptionSpec(control.key, .required(control == .torch ? "on|off" : "auto|N"), default: .unset("the camera's own"),
                   help: "the camera's \(control.rawValue) control: \(control.help); a camera without it reports an error and runs on",
                   sets: \.capture.cameraControls[control], reload: .inReady, reloadName: "camera.*", examples: [control == .torch ? "off" : "auto"],
                   kind: .cameraControl(control))
    } + ScreenText.allCases.map { text in
        OptionSpec(text.key, .required("TEXT"), default: .unset("the language's words"),
                   help: "replaces '\(text.text(in: .en))' on screen, whatever the language",
                   sets: \.screen.labels[text], reload: .inReady, reloadName: "label.*", examples: [text.text(in: .en)],
                   kind: .label)
            .unlisted(text.isShown ? nil : "\(text.key) changes nothing: the \(text == .start ? "record" : text == .photo ? "shutter" : "stop") button is a circle without words")
    } + [
        OptionSpec("high-contrast", .optional("yes|no"), default: .configured,
                   help: "opaque panels and boxes, light buttons with black titles",
                   sets: \.screen.highContrast, reload: .atRestart,
                   kind: .flag),
        OptionSpec("large-text", .optional("yes|no"), default: .configured,
                   help: "text 1.35 times as large, and buttons wide enough for it",
                   sets: \.screen.largeText, reload: .atRestart,
                   kind: .flag),
        OptionSpec("photo-button", .optional("yes|no"), default: .configured,
                   help: "a shutter button beside the record button in ready and while recording (and the command photo): a JPEG of the camera's next picture, upright, with the overlay",
                   sets: \.screen.photoButton, reload: .atRestart,
                   kind: .flag),
        OptionSpec("boomerang-button", .optional("yes|no"), default: .configured,
                   help: "a Boomerang button beside the record button in ready (and the command boomerang): after the countdown, --boomerang-seconds of pictures without sound, played forward then back, looped to at least 3 s, as an MP4",
                   sets: \.boomerang.button, reload: .atRestart,
                   kind: .flag),
        OptionSpec("boomerang-seconds", .required("S"), default: .configured, unit: "s",
                   help: "how long a boomerang captures pictures: 0.5 to 3",
                   sets: \.boomerang.seconds, reload: .inReady, kind: .boomerangSeconds),
        OptionSpec("boomerang-speed", .required("1|0.5"), default: .configured,
                   help: "0.5: a boomerang plays at half speed where the camera gives 60 fps or more (its pictures timed for 30 fps); a slower camera plays at its own rate",
                   sets: \.boomerang.speed, reload: .inReady, kind: .boomerangSpeed),
        OptionSpec("library", .optional("yes|no"), default: .configured,
                   help: "a Library button in ready (and the command openLibrary): the --output-dir's accepted takes, newest first, to play again or (a once session) to use instead of a new take",
                   sets: \.screen.library, reload: .atRestart,
                   kind: .flag),
        OptionSpec("attract-after", .required("SECONDS"), default: .configured, unit: "s",
                   help: "seconds in ready without a touch before a calm attract screen (dimmed picture, the prompt, a pulse on record); a touch wakes it; 0 = never",
                   sets: \.guest.attractAfter, reload: .inReady, kind: .secondsOrNever),
        OptionSpec("attract-slideshow", .optional("yes|no"), default: .configured,
                   help: "the attract screen plays the --output-dir's newest accepted takes (up to 10, newest first), one after another, without sound, under the prompt; needs --attract-after",
                   sets: \.guest.attractSlideshow, reload: .inReady,
                   kind: .flag),
        OptionSpec("warn-remaining", .required("SECONDS"), default: .configured, unit: "s",
                   help: "under this many seconds left before a limit, the timer counts down in red with a ring around Stop; 0 = never",
                   sets: \.limits.warnRemaining, reload: .inReady, kind: .secondsOrNever),
        OptionSpec("output-dir", .required("DIR"), default: .unset("none"),
                   help: "each take under its own name in DIR (made if missing), instead of --output; interrupted takes there are recovered at launch",
                   sets: \.storage.outputDirectory, reload: .refused, examples: ["/var/lib/kiosk-recorder"], kind: .folder),
        OptionSpec("name-template", .required("T"), default: .configured,
                   help: "take names in --output-dir: strftime fields and {n}, a counter never reused",
                   sets: \.storage.nameTemplate, reload: .inReady, kind: .nameTemplate),
        OptionSpec("photo-template", .required("T"), default: .configured,
                   help: "photo names (--photo-button), in --output-dir or beside --output: strftime fields and {n}, ending in .jpg",
                   sets: \.storage.photoTemplate, reload: .inReady, kind: .photoTemplate),
        OptionSpec("max-takes", .required("N"), default: .unset("none"),
                   help: "with --output-dir: keep at most N accepted takes, deleting the oldest",
                   sets: \.storage.maxTakes, reload: .inReady, examples: ["500"], kind: .integer(in: 1...1_000_000)),
        OptionSpec("max-age", .required("DURATION"), default: .unset("none"), unit: "s",
                   help: "with --output-dir: delete accepted takes older than DURATION (e.g. 7d, 12h, 90m, 3600s)",
                   sets: \.storage.maxAge, reload: .inReady, examples: ["30d"], kind: .duration),
        OptionSpec("keep-free", .required("BYTES"), default: .unset("none"), unit: "bytes",
                   help: "with --output-dir: delete the oldest accepted takes while the disk has less free; K, M, G suffixes",
                   sets: \.storage.keepFree, reload: .inReady, examples: ["2G"], kind: .bytes(atLeast: 0)),
        OptionSpec("idle-timeout", .required("SECONDS"), default: .configured, unit: "s",
                   help: "the finished screen left untouched this long is used or discarded (--idle-action); 0 = never",
                   sets: \.guest.idleTimeout, reload: .inReady, examples: ["60"], kind: .secondsOrNever),
        OptionSpec("trim", .optional("yes|no"), default: .configured,
                   help: "a trimmer on the review: two handles over pictures of the take (or the trim command) choose the part Use Video delivers, cut without re-encoding",
                   sets: \.guest.trim, reload: .inReady,
                   kind: .flag),
        OptionSpec("idle-action", .required("use|discard"), default: .configured,
                   help: "what an idle finished screen does: use (as Use Video) or discard (as Retake/Cancel)",
                   sets: \.guest.idleAction, reload: .inReady, kind: .choice(IdleAction.self)),
        OptionSpec("control-socket", .required("PATH"), default: .unset("none"),
                   help: "a Unix socket (mode 0660) taking stdin's commands and sending every event, for several clients",
                   sets: \.service.controlSocket, reload: .refused, examples: ["/run/kiosk-recorder/control"], kind: .socketPath),
        OptionSpec("console-settings", .required("FILE"), default: .configured,
                   help: "the settings the operator's console saves (same lines as this file), read after --config and overriding it, read again by each reload; a missing file is none; read only with --config or when given",
                   sets: \.service.consoleSettings, reload: .refused, kind: .path),
        OptionSpec("console-pairing", .required("FILE"), default: .unset("none"),
                   help: "the operator's console's password file (as console --password-file): five taps in the screen's top-left corner open a keyboard, and that password typed there shows a QR code that signs a phone in to the console once, within 2 minutes; needs --control-socket",
                   sets: \.service.consolePairing, reload: .atRestart, examples: ["/var/lib/kiosk-recorder/console-password"], kind: .path),
        OptionSpec("metrics-file", .required("PATH"), default: .unset("none"),
                   help: "the booth's figures in Prometheus' text format (takes, dropped pictures, camera, microphone, disk, hooks), replaced whole at each change and at most once a second, for node_exporter's textfile collector; PATH ends in .prom",
                   sets: \.service.metricsFile, reload: .atRestart, examples: ["/var/lib/prometheus/node-exporter/kiosk.prom"], kind: .metricsFile),
        OptionSpec("on-take", .required("COMMAND"), default: .unset("none"),
                   help: "run COMMAND (sh -c) after each accepted take, with KIOSK_TAKE_PATH and KIOSK_TAKE_DURATION set",
                   sets: \.service.onTake, reload: .inReady, examples: ["rclone copy \"$KIOSK_TAKE_PATH\" booth-s3:guestbook/"], kind: .command),
        OptionSpec("on-delete", .required("COMMAND"), default: .unset("none"),
                   help: "run COMMAND (sh -c) for each take deleteTake deleted (the operator's, or a guest's from the share page), with KIOSK_TAKE_PATH and KIOSK_SHARE_TOKEN (when it was shared) set: to delete the copies --on-take made; queued with --on-take's hooks and tried again (10 s, doubling, at most 15 min between tries) until it exits 0, across restarts",
                   sets: \.service.onDelete, reload: .inReady, examples: ["printf '%s\\n' \"$(basename \"$KIOSK_TAKE_PATH\")\" | rclone delete --files-from-raw - booth-s3:guestbook/"], kind: .command),
        OptionSpec("hook-attempts", .required("N"), default: .unset("unlimited"),
                   help: "tries of --on-take for a take before it is given up (10 s, doubling, at most 15 min between tries); 1 = a single try",
                   sets: \.service.hookAttempts, reload: .inReady, examples: ["1"], kind: .integer(in: 1...1_000_000)),
        OptionSpec("share-dir", .required("DIR"), default: .unset("none, no sharing"),
                   help: "after Use Video, write the take's share folder (video.mp4, poster.jpg, index.html) in DIR/<token>/ for a web server, and show its QR code; needs --share-url, or the booth's own Wi-Fi (/usr/share/kiosk-recorder/setup hotspot)",
                   sets: \.share.folder, reload: .inReady, examples: ["/srv/kiosk-recorder/share"], kind: .folder),
        OptionSpec("share-url", .required("TEMPLATE"), default: .unset("none; on the booth's own Wi-Fi http://10.42.0.1/s/{token}/"),
                   help: "the address of a share folder, {token} standing for its token; the QR code says it. Unset with the booth's own Wi-Fi installed (/usr/share/kiosk-recorder/setup hotspot): the booth's address there",
                   sets: \.share.urlTemplate, reload: .inReady, examples: ["http://10.42.0.1/s/{token}/"], kind: .shareURL),
        OptionSpec("share-title", .required("TEXT"), default: .unset("none"),
                   help: "the operator's title on the share page, e.g. \"Anna & Tom, 12 June\"",
                   sets: \.share.title, reload: .inReady, examples: ["Anna & Tom, 12 June"], kind: .text(maxLength: 200)),
        OptionSpec("share-seconds", .required("SECONDS"), default: .configured, unit: "s",
                   help: "how long the share screen shows before the booth moves on (Done ends it at once)",
                   sets: \.share.seconds, reload: .inReady, kind: .seconds),
        OptionSpec("share-wifi-ssid", .required("SSID"), default: .unset("none"),
                   help: "the booth's hotspot: a first QR code on the share screen joins it",
                   sets: \.share.wifiSSID, reload: .inReady, examples: ["Booth"], kind: .wifiSSID),
        OptionSpec("share-wifi-password", .required("PASSWORD"), default: .unset("none, an open network"),
                   help: "the hotspot's WPA password, 8 to 63 characters",
                   sets: \.share.wifiPassword, reload: .inReady, examples: ["guests-2026"], kind: .wifiPassword),
        OptionSpec("share-file-mode", .required("MODE"), default: .configured,
                   help: "permissions of the share files, 0644 or 0604: the web server's user reads them, only the booth writes them (folders get the matching search bits)",
                   sets: \.share.fileMode, reload: .inReady, show: OptionText.fileMode, kind: .shareFileMode),
        OptionSpec("share-max-age", .required("DURATION"), default: .configured, unit: "s",
                   help: "share folders older than DURATION are removed (e.g. 7d, 12h)",
                   sets: \.share.maxAge, reload: .inReady, show: OptionText.duration, kind: .duration),
        OptionSpec(commandLine: "config", .required("FILE"),
                   help: "read `key = value` lines (keys are these options' names, # starts a comment); flags win"),
        OptionSpec(commandLine: "play", .required("FILE"),
                   help: "play FILE with the built-in player, report on stdout, exit"),
        OptionSpec(commandLine: "loop", .none,
                   help: "with --play: play the file again and again, without a gap, until closed"),
        OptionSpec(commandLine: "fit", .required("fill|fit"), default: .value(PlayerOptions().fit.rawValue),
                   help: "with --play: fit shows the whole picture, bars beside it; fill covers the screen, its edges cropped"),
        OptionSpec(commandLine: "list-cameras", .none,
                   help: "print the cameras and their formats as JSON, exit"),
        OptionSpec(commandLine: "send", .required("COMMAND"),
                   help: "give a running booth one command (a name like state, or a JSON line) on --control-socket; print the events until its answer, exit"),
        OptionSpec(commandLine: "check", .none,
                   help: "check the camera (a frame), microphone (a second of sound), display, input, output folder and user; report, exit 0 if the booth can run, else 1"),
        OptionSpec(commandLine: "help", .none, help: "show this help (also -h), exit"),
        OptionSpec(commandLine: "version", .none, help: "show the version, exit"),
    ]

    static func spec(named name: String) -> OptionSpec? {
        if let spec = options.first(where: { $0.name == name }) { return spec }
        // An old spelling (label.useVideo) is read as the new one.
        guard let text = ScreenText.allCases.first(where: { $0.oldKey == name }) else { return nil }
        return options.first { $0.name == text.key }
    }
}
