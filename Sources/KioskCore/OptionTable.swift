// The options of the contract as one table: each option's name, how it takes its value, its help
// and what it sets. The parser (OptionParser.swift) and --help (OptionTexts.swift) read it.

/// How an option takes its value.
enum OptionArgument: Equatable {
    /// A flag: `--list-cameras`.
    case none
    /// `--fps N` or `--fps=N`.
    case required(String)
    /// `--windowed` or `--windowed WxH`: the next word is taken only when `accepts` says so.
    case optional(String)
}

/// One option of the contract.
struct OptionSpec: Sendable {
    let name: String
    let argument: OptionArgument
    let help: String
    /// Whether `name = value` may appear in a config file.
    let inConfigFile: Bool
    /// Sets the value; throws a message saying what was expected (the caller adds where).
    let apply: @Sendable (inout Configuration, String?) throws(ValueError) -> Void
    /// For optional arguments: whether the next command-line word is this option's value.
    var accepts: @Sendable (String) -> Bool = { _ in false }
}

extension OptionParser {
    static let options: [OptionSpec] = [
        OptionSpec(name: "camera", argument: .required("DEVICE|test|auto|exec:COMMAND"),
                   help: "V4L2 device path (default /dev/video0); test = built-in moving pattern; auto = every camera found (else test); exec:COMMAND = pictures from COMMAND's stdout (run by /bin/sh -c); repeat it for a switch button between cameras",
                   inConfigFile: true) { c, v throws(ValueError) in c.camera = try Values.camera(v!) },
        OptionSpec(name: "camera-format", argument: .required("mjpeg|i420|nv12|yuyv"),
                   help: "what an exec: camera's command writes: mjpeg (concatenated JPEGs, default) or raw frames of --size",
                   inConfigFile: true) { c, v throws(ValueError) in c.cameraFormat = try Values.cameraFormat(v!) },
        OptionSpec(name: "camera-delay", argument: .required("MS"),
                   help: "an exec: camera's known delay from sensor to pipe, 0-2000 ms: its pictures' times are moved back by it (default 0)",
                   inConfigFile: true) { c, v throws(ValueError) in c.cameraDelay = try Values.integer(v!, in: 0...2000) },
        OptionSpec(name: "microphone", argument: .required("PCM|test|none"),
                   help: "ALSA PCM name (default \"default\"); test = built-in tone; none = no audio track",
                   inConfigFile: true) { c, v throws(ValueError) in c.microphone = try Values.microphone(v!) },
        OptionSpec(name: "size", argument: .required("WxH"),
                   help: "capture size (default 352x288); the nearest supported is used",
                   inConfigFile: true) { c, v throws(ValueError) in c.size = try Values.size(v!) },
        OptionSpec(name: "fps", argument: .required("N"),
                   help: "frames per second, 1-240 (default 30)",
                   inConfigFile: true) { c, v throws(ValueError) in c.fps = try Values.integer(v!, in: 1...240) },
        OptionSpec(name: "output", argument: .required("PATH"),
                   help: "where the take goes (default output.mov in a private temporary folder); .mov or .mp4 picks the container",
                   inConfigFile: true) { c, v throws(ValueError) in c.output = try Values.output(v!) },
        OptionSpec(name: "max-duration", argument: .required("SECONDS"),
                   help: "longest take, 0 < SECONDS <= 86400 (default 1200)",
                   inConfigFile: true) { c, v throws(ValueError) in c.maxDuration = try Values.seconds(v!) },
        OptionSpec(name: "max-file-size", argument: .required("BYTES"),
                   help: "largest file, at least 64K; K, M, G suffixes (default 160M = 167772160)",
                   inConfigFile: true) { c, v throws(ValueError) in
                       c.maxFileSize = try Values.bytes(v!, atLeast: 64 * 1024) },
        OptionSpec(name: "min-free-disk", argument: .required("BYTES"),
                   help: "free space to keep on the output's disk; K, M, G suffixes (default 1M = 1048576)",
                   inConfigFile: true) { c, v throws(ValueError) in c.minFreeDisk = try Values.bytes(v!, atLeast: 0) },
        OptionSpec(name: "orientation", argument: .required("O"),
                   help: "portrait | portrait-upside-down | landscape-left | landscape-right (default: the display's own)",
                   inConfigFile: true) { c, v throws(ValueError) in c.orientation = try Values.orientation(v!) },
        OptionSpec(name: "windowed", argument: .optional("WxH"),
                   help: "a window (of WxH, default \(WindowMode.defaultSize.width)x\(WindowMode.defaultSize.height)) instead of full screen; in a config file: yes, no or WxH",
                   inConfigFile: true,
                   apply: { c, v throws(ValueError) in c.window = try Values.window(v) },
                   accepts: { Values.looksLikeSize($0) }),
        OptionSpec(name: "session", argument: .required("once|loop"),
                   help: "once (default): exit 0 after Use Video or Cancel; loop: back to ready for the next guest",
                   inConfigFile: true) { c, v throws(ValueError) in c.session = try Values.session(v!) },
        OptionSpec(name: "video-encoder", argument: .required("NAME"),
                   help: "auto (default: h264_vaapi, then h264_v4l2m2m within its limits, else libx264) or an FFmpeg H.264 encoder (libx264, h264_v4l2m2m, h264_vaapi); falls back to libx264 when it cannot open",
                   inConfigFile: true) { c, v throws(ValueError) in c.videoEncoder = try Values.word(v!) },
        OptionSpec(name: "video-preset", argument: .required("P"),
                   help: "libx264 preset: ultrafast ... veryslow (default veryfast)",
                   inConfigFile: true) { c, v throws(ValueError) in c.videoPreset = try Values.preset(v!) },
        OptionSpec(name: "video-crf", argument: .required("N"),
                   help: "constant quality 0-51, lower is better (default 23)",
                   inConfigFile: true) { c, v throws(ValueError) in c.videoCRF = try Values.integer(v!, in: 0...51) },
        OptionSpec(name: "video-bitrate", argument: .required("BITS"),
                   help: "average bits per second instead of constant quality; k and M suffixes (e.g. 4M)",
                   inConfigFile: true) { c, v throws(ValueError) in c.videoBitrate = try Values.bitrate(v!) },
        OptionSpec(name: "mirror-preview", argument: .optional("yes|no"),
                   help: "show the preview mirrored (the recording is not)",
                   inConfigFile: true,
                   apply: { c, v throws(ValueError) in c.mirrorPreview = try Values.flag(v) },
                   accepts: { ["yes", "no", "true", "false", "on", "off"].contains($0.lowercased()) }),
        OptionSpec(name: "camera-rotation", argument: .required("DEGREES"),
                   help: "how the camera is mounted: 0, 90, 180 or 270 clockwise to make its picture upright (default 0)",
                   inConfigFile: true) { c, v throws(ValueError) in c.cameraRotation = try Values.quarterTurns(v!) },
        OptionSpec(name: "file-mode", argument: .required("MODE"),
                   help: "permissions of takes and markers, octal, at least 0600 (default 0600: the recorder's user only)",
                   inConfigFile: true) { c, v throws(ValueError) in c.fileMode = try Values.fileMode(v!) },
        OptionSpec(name: "countdown", argument: .required("N"),
                   help: "seconds counted down (3-2-1, with a tick) between Start and the take, 0-10; 0 = none (default 3)",
                   inConfigFile: true) { c, v throws(ValueError) in c.countdown = try Values.integer(v!, in: 0...10) },
        OptionSpec(name: "prompt", argument: .required("TEXT"),
                   help: "words for the guest at the top of the picture in ready, e.g. \"Leave a message for Anna & Tom\"",
                   inConfigFile: true) { c, v throws(ValueError) in c.prompt = try Values.prompt(v!) },
        OptionSpec(name: "language", argument: .required("LANG"),
                   help: "the words on screen: " + Language.allCases.map(\.rawValue).joined(separator: ", ") + " (default en)",
                   inConfigFile: true) { c, v throws(ValueError) in c.language = try Values.language(v!) },
        OptionSpec(name: "font", argument: .required("PATH"),
                   help: "a font file (.ttf, .otf, .ttc) for text DejaVu Sans cannot show, e.g. Japanese; default: found through fontconfig (Noto CJK)",
                   inConfigFile: true) { c, v throws(ValueError) in c.font = try Values.path(v!) },
    ] + CameraControl.allCases.map { control in
        OptionSpec(name: control.key, argument: .required(control == .torch ? "on|off" : "auto|N"),
                   help: "the camera's \(control.rawValue) control: \(control.help); a camera without it reports an error and runs on",
                   inConfigFile: true) { c, v throws(ValueError) in c.cameraControls[control] = try Values.cameraControl(v!, control) }
    } + ScreenText.allCases.map { text in
        OptionSpec(name: text.key, argument: .required("TEXT"),
                   help: "replaces '\(text.text(in: .en))' on screen, whatever the language",
                   inConfigFile: true) { c, v throws(ValueError) in c.labels[text] = try Values.label(v!) }
    } + [
        OptionSpec(name: "high-contrast", argument: .optional("yes|no"),
                   help: "opaque panels and boxes, light buttons with black titles",
                   inConfigFile: true,
                   apply: { c, v throws(ValueError) in c.highContrast = try Values.flag(v) },
                   accepts: { ["yes", "no", "true", "false", "on", "off"].contains($0.lowercased()) }),
        OptionSpec(name: "large-text", argument: .optional("yes|no"),
                   help: "text 1.35 times as large, and buttons wide enough for it",
                   inConfigFile: true,
                   apply: { c, v throws(ValueError) in c.largeText = try Values.flag(v) },
                   accepts: { ["yes", "no", "true", "false", "on", "off"].contains($0.lowercased()) }),
        OptionSpec(name: "attract-after", argument: .required("SECONDS"),
                   help: "seconds in ready without a touch before a calm attract screen (dimmed picture, the prompt, a pulse on record); a touch wakes it; 0 = never (default)",
                   inConfigFile: true) { c, v throws(ValueError) in c.attractAfter = try Values.secondsOrNever(v!) },
        OptionSpec(name: "warn-remaining", argument: .required("SECONDS"),
                   help: "under this many seconds left before a limit, the timer counts down in red with a ring around Stop; 0 = never (default 10)",
                   inConfigFile: true) { c, v throws(ValueError) in c.warnRemaining = try Values.secondsOrNever(v!) },
        OptionSpec(name: "output-dir", argument: .required("DIR"),
                   help: "each take under its own name in DIR (made if missing), instead of --output; interrupted takes there are recovered at launch",
                   inConfigFile: true) { c, v throws(ValueError) in c.outputDirectory = try Values.folder(v!) },
        OptionSpec(name: "name-template", argument: .required("T"),
                   help: "take names in --output-dir: strftime fields and {n}, a counter never reused (default take-%Y%m%d-%H%M%S-{n}.mov)",
                   inConfigFile: true) { c, v throws(ValueError) in c.nameTemplate = try Values.nameTemplate(v!) },
        OptionSpec(name: "max-takes", argument: .required("N"),
                   help: "with --output-dir: keep at most N accepted takes, deleting the oldest",
                   inConfigFile: true) { c, v throws(ValueError) in c.maxTakes = try Values.integer(v!, in: 1...1_000_000) },
        OptionSpec(name: "max-age", argument: .required("DURATION"),
                   help: "with --output-dir: delete accepted takes older than DURATION (e.g. 7d, 12h, 90m, 3600s)",
                   inConfigFile: true) { c, v throws(ValueError) in c.maxAge = try Values.duration(v!) },
        OptionSpec(name: "keep-free", argument: .required("BYTES"),
                   help: "with --output-dir: delete the oldest accepted takes while the disk has less free; K, M, G suffixes",
                   inConfigFile: true) { c, v throws(ValueError) in c.keepFree = try Values.bytes(v!, atLeast: 0) },
        OptionSpec(name: "idle-timeout", argument: .required("SECONDS"),
                   help: "the finished screen left untouched this long is used or discarded (--idle-action); 0 = never (default)",
                   inConfigFile: true) { c, v throws(ValueError) in c.idleTimeout = try Values.secondsOrNever(v!) },
        OptionSpec(name: "idle-action", argument: .required("use|discard"),
                   help: "what an idle finished screen does: use (default, as Use Video) or discard (as Retake/Cancel)",
                   inConfigFile: true) { c, v throws(ValueError) in c.idleAction = try Values.idleAction(v!) },
        OptionSpec(name: "control-socket", argument: .required("PATH"),
                   help: "a Unix socket (mode 0660) taking stdin's commands and sending every event, for several clients",
                   inConfigFile: true) { c, v throws(ValueError) in c.controlSocket = try Values.socketPath(v!) },
        OptionSpec(name: "on-take", argument: .required("COMMAND"),
                   help: "run COMMAND (sh -c) after each accepted take, with KIOSK_TAKE_PATH and KIOSK_TAKE_DURATION set",
                   inConfigFile: true) { c, v throws(ValueError) in c.onTake = try Values.command(v!) },
        OptionSpec(name: "config", argument: .required("FILE"),
                   help: "read `key = value` lines (keys are these options' names, # starts a comment); flags win",
                   inConfigFile: false) { _, _ throws(ValueError) in },
        OptionSpec(name: "play", argument: .required("FILE"),
                   help: "play FILE with the built-in player, report on stdout, exit",
                   inConfigFile: false) { _, _ throws(ValueError) in },
        OptionSpec(name: "loop", argument: .none,
                   help: "with --play: play the file again and again, without a gap, until closed",
                   inConfigFile: false) { _, _ throws(ValueError) in },
        OptionSpec(name: "fit", argument: .required("fill|fit"),
                   help: "with --play: fit (default) shows the whole picture, bars beside it; fill covers the screen, its edges cropped",
                   inConfigFile: false) { _, _ throws(ValueError) in },
        OptionSpec(name: "list-cameras", argument: .none,
                   help: "print the cameras and their formats as JSON, exit",
                   inConfigFile: false) { _, _ throws(ValueError) in },
        OptionSpec(name: "send", argument: .required("COMMAND"),
                   help: "give a running booth one command (a name like state, or a JSON line) on --control-socket; print the events until its answer, exit",
                   inConfigFile: false) { _, _ throws(ValueError) in },

        OptionSpec(name: "check", argument: .none,
                   help: "check the camera (a frame), microphone (a second of sound), display, input, output folder and user; report, exit 0 if the booth can run, else 1",
                   inConfigFile: false) { _, _ throws(ValueError) in },
        OptionSpec(name: "help", argument: .none, help: "show this help, exit", inConfigFile: false) { _, _ throws(ValueError) in },
        OptionSpec(name: "version", argument: .none, help: "show the version, exit", inConfigFile: false) { _, _ throws(ValueError) in },
    ]

    static func spec(named name: String) -> OptionSpec? {
        if let spec = options.first(where: { $0.name == name }) { return spec }
        // An old spelling (label.useVideo) is read as the new one.
        guard let text = ScreenText.allCases.first(where: { $0.oldKey == name }) else { return nil }
        return options.first { $0.name == text.key }
    }
}
