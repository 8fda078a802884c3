// Parses the command line and `--config` files into an Invocation. One table of options drives both,
// and the --help text, so the three never disagree.

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

/// A value that does not fit its option; the parser prefixes the option (and file:line).
struct ValueError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

public struct OptionParser: Sendable {
    /// How the parser reads a `--config` file (injected so tests need no files).
    public typealias ReadFile = @Sendable (String) throws -> String

    let readFile: ReadFile
    /// Told what the person should know but that is no error (an old spelling read); the recorder
    /// passes its log.
    let warn: @Sendable (String) -> Void

    public init(readFile: @escaping ReadFile, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.readFile = readFile
        self.warn = warn
    }

    // MARK: - The table

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

    /// `spec(named:)`, saying so when `name` is an old spelling.
    func lookUp(_ name: String) -> OptionSpec? {
        let spec = Self.spec(named: name)
        if let spec, spec.name != name { warn("'\(name)' is spelled '\(spec.name)' now; the old spelling still works") }
        return spec
    }

    /// The --help text, made from the table.
    public static var helpText: String {
        var lines = [
            "Usage: kiosk-recorder [options]                 the booth",
            "       kiosk-recorder play FILE [--loop] [--fit fill|fit] [options]",
            "       kiosk-recorder check [options]           try each part of the booth, report, exit",
            "       kiosk-recorder send COMMAND [options]    hand a command to a running booth (--control-socket)",
            "       kiosk-recorder list-cameras              print the cameras as JSON, exit",
            "(The modes' old spellings, --play FILE, --check, --send COMMAND and --list-cameras, work the same.)",
            "A fullscreen touchscreen video booth. Events go to stdout as JSON lines; commands come on stdin.",
            "",
        ]
        for option in options {
            let argument: String
            switch option.argument {
            case .none: argument = ""
            case let .required(placeholder): argument = " " + placeholder
            case let .optional(placeholder): argument = " [" + placeholder + "]"
            }
            let left = "  --" + option.name + argument
            let pad = left.count < 32 ? String(repeating: " ", count: 32 - left.count) : "\n" + String(repeating: " ", count: 32)
            lines.append(left + pad + option.help)
        }
        lines += [
            "",
            "Exit status: 0 after an outcome, quit or signal; 2 bad usage or configuration; 3 no display.",
            "The full contract (commands, events, signals): docs/interface.md",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Parsing

    /// One option occurrence, with where it came from for messages.
    struct Setting {
        let spec: OptionSpec
        let value: String?
        /// "--fps" on the command line, "kiosk.conf:3: fps" in a file.
        let origin: String
    }

    /// The modes as subcommands, first on the command line, with the operand each takes; each is
    /// the same as its old flag (`play FILE` is `--play FILE`).
    static let modes: [(name: String, operand: String?)] = [("play", "FILE"), ("check", nil), ("send", "COMMAND"), ("list-cameras", nil)]

    /// The command line with a leading subcommand written as its flag (`play FILE` → `--play FILE`).
    static func flagsForMode(_ arguments: [String]) throws(UsageError) -> [String] {
        guard let first = arguments.first, !first.hasPrefix("-") else { return arguments }
        guard let mode = modes.first(where: { $0.name == first }) else {
            throw UsageError("unexpected argument '\(first)' (a mode is one of " + modes.map(\.name).joined(separator: ", ")
                             + "; options start with --)")
        }
        guard mode.operand != nil else { return ["--" + mode.name] + arguments.dropFirst() }
        guard arguments.count > 1, !arguments[1].hasPrefix("--") else {
            throw UsageError("\(mode.name) needs a \(mode.operand!.lowercased()): kiosk-recorder \(mode.name) \(mode.operand!)")
        }
        return ["--" + mode.name, arguments[1]] + arguments.dropFirst(2)
    }

    /// Parses the arguments (without the program name).
    public func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        let arguments = try Self.flagsForMode(arguments)
        var settings: [Setting] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            guard word.hasPrefix("--"), word.count > 2 else {
                throw UsageError("unexpected argument '\(word)' (options start with --)")
            }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = lookUp(name) else {
                throw UsageError("unknown option '--\(name)'")
            }
            let origin = "--" + name
            switch spec.argument {
            case .none:
                if inlineValue != nil { throw UsageError("\(origin) takes no value") }
                settings.append(Setting(spec: spec, value: nil, origin: origin))
            case .required:
                if let inlineValue {
                    settings.append(Setting(spec: spec, value: inlineValue, origin: origin))
                } else {
                    // The next word is the value even when it starts with '-' (e.g. --max-duration -5),
                    // so that the message names the bad value, not a missing one.
                    guard index < arguments.count else { throw UsageError("\(origin) needs a value") }
                    settings.append(Setting(spec: spec, value: arguments[index], origin: origin))
                    index += 1
                }
            case .optional:
                var value = inlineValue
                if value == nil, index < arguments.count, spec.accepts(arguments[index]) {
                    value = arguments[index]
                    index += 1
                }
                settings.append(Setting(spec: spec, value: value, origin: origin))
            }
        }

        let names = Set(settings.map(\.spec.name))
        if names.contains("help") { return .help }
        if names.contains("version") { return .version }
        let modes = ["play", "list-cameras", "check", "send"].filter(names.contains)
        if modes.count > 1 {
            throw UsageError(modes.map { "--" + $0 }.joined(separator: " and ") + " cannot be used together")
        }

        var configuration = Configuration()
        // The config file first, so that flags win.
        // `camera` may come several times (the cameras to switch between): the file's lines make
        // one list, and the command line's `--camera`s, when there are any, replace it.
        var fileCameras: [Setting] = []
        for setting in settings where setting.spec.name == "config" {
            try applyFile(setting.value!, to: &configuration, cameras: &fileCameras)
            configuration.configFile = setting.value!
        }
        try applyCameras(fileCameras, to: &configuration)
        for setting in settings where setting.spec.inConfigFile && setting.spec.name != "camera" {
            try apply(setting, to: &configuration)
        }
        try applyCameras(settings.filter { $0.spec.name == "camera" }, to: &configuration)
        try Self.validate(configuration)
        var player = PlayerOptions(loop: names.contains("loop"))
        if let fit = settings.last(where: { $0.spec.name == "fit" }) {
            guard let value = fit.value.flatMap(PictureFit.init(rawValue:)) else {
                throw UsageError("--fit: '\(fit.value ?? "")' is not 'fill' or 'fit'")
            }
            player.fit = value
        }
        if let play = settings.last(where: { $0.spec.name == "play" }) {
            guard let file = play.value, !file.isEmpty else { throw UsageError("--play needs a file") }
            return .play(file: file, configuration, player: player)
        }
        for option in ["loop", "fit"] where names.contains(option) {
            throw UsageError("--\(option) belongs to the play mode: kiosk-recorder play FILE --\(option)\(option == "fit" ? " fill|fit" : "") (or --play FILE)")
        }
        if names.contains("list-cameras") { return .listCameras(configuration) }
        if names.contains("check") { return .check(configuration) }
        if let send = settings.last(where: { $0.spec.name == "send" }) {
            let request = try SendRequest(send.value!)
            guard let socket = configuration.controlSocket else {
                throw UsageError("--send needs --control-socket PATH (or control-socket in the --config file): the booth's socket")
            }
            return .send(request, socket: socket)
        }
        return .record(configuration)
    }

    /// What no single option can see: options that exclude or need each other. Also run on a
    /// configuration reloaded by SIGHUP.
    public static func validate(_ c: Configuration) throws(UsageError) {
        if c.output != nil && c.outputDirectory != nil {
            throw UsageError("--output and --output-dir cannot be used together (one file, or a folder of takes)")
        }
        if c.outputDirectory == nil {
            let retention = [("--max-takes", c.maxTakes != nil), ("--max-age", c.maxAge != nil), ("--keep-free", c.keepFree != nil)]
            if let (name, _) = retention.first(where: { $0.1 }) {
                throw UsageError("\(name) needs --output-dir (takes handed to a parent are the parent's)")
            }
        }
    }

    func apply(_ setting: Setting, to configuration: inout Configuration) throws(UsageError) {
        do {
            try setting.spec.apply(&configuration, setting.value)
        } catch {
            throw UsageError("\(setting.origin): \(error.message)")
        }
    }

    /// Applies a config file: `key = value` lines, blank lines and `#` comments.
    /// `camera` settings in order become `cameras` (none: it is kept).
    func applyCameras(_ cameras: [Setting], to configuration: inout Configuration) throws(UsageError) {
        guard !cameras.isEmpty else { return }
        var choices: [CameraChoice] = []
        for setting in cameras {
            var scratch = Configuration()
            try apply(setting, to: &scratch)
            if choices.contains(scratch.camera) { throw UsageError("\(setting.origin): '\(setting.value!)' is named twice") }
            choices.append(scratch.camera)
        }
        configuration.cameras = choices
    }

    func applyFile(_ path: String, to configuration: inout Configuration, cameras: inout [Setting]) throws(UsageError) {
        let text: String
        do {
            text = try readFile(path)
        } catch let error as ConfigFileError {
            throw UsageError("--config: \(error)")
        } catch {
            throw UsageError("--config: cannot read '\(path)': \(error)")
        }
        // Lines end in LF, CRLF (a file saved on Windows) or CR. "\r\n" is one Character in Swift,
        // so splitting on "\n" alone would read a CRLF file as a single line.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for (offset, rawLine) in lines.enumerated() {
            let location = "\(path):\(offset + 1)"
            guard let (key, value) = try ConfigLine.parse(String(rawLine), location: location) else { continue }
            guard let spec = lookUp(key) else {
                throw UsageError("\(location): unknown key '\(key.excerpt())'")
            }
            guard spec.inConfigFile else {
                throw UsageError("\(location): '\(key)' is a command-line option only, not a config key")
            }
            let fileValue: String?
            if case .optional = spec.argument, ["yes", "true", "on"].contains(value.lowercased()) {
                fileValue = nil
            } else {
                fileValue = value
            }
            let setting = Setting(spec: spec, value: fileValue, origin: "\(location): \(key)")
            if key == "camera" { cameras.append(setting) } else { try apply(setting, to: &configuration) }
        }
    }
}

/// One line of a config file.
enum ConfigLine {
    /// nil for blank and comment lines; the key and value otherwise. A value may be in double
    /// quotes (to keep spaces or a '#'); otherwise a ' #' starts a trailing comment.
    static func parse(_ line: String, location: String) throws(UsageError) -> (String, String)? {
        let trimmed = line.trimmingWhitespace
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        guard let eq = trimmed.firstIndex(of: "=") else {
            throw UsageError("\(location): expected 'key = value', got '\(trimmed.excerpt())'")
        }
        let key = String(trimmed[..<eq]).trimmingWhitespace
        var value = String(trimmed[trimmed.index(after: eq)...]).trimmingWhitespace
        guard !key.isEmpty else { throw UsageError("\(location): missing key before '='") }
        if value.hasPrefix("\"") {
            let body = value.dropFirst()
            guard let close = body.firstIndex(of: "\"") else {
                throw UsageError("\(location): \(key): unterminated quote")
            }
            let rest = String(body[body.index(after: close)...]).trimmingWhitespace
            guard rest.isEmpty || rest.hasPrefix("#") else {
                throw UsageError("\(location): \(key): unexpected text after the closing quote")
            }
            value = String(body[..<close])
        } else if let hash = value.range(of: " #") ?? value.range(of: "\t#") {
            value = String(value[..<hash.lowerBound]).trimmingWhitespace
        }
        return (key, value)
    }
}

extension String {
    var trimmingWhitespace: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}

/// Value parsers: each returns the value or says what it expected.
enum Values {
    static func camera(_ v: String) throws(ValueError) -> CameraChoice {
        switch v {
        case "test": return .test
        case "auto": return .auto
        case _ where v.hasPrefix("exec:"):
            let command = String(v.dropFirst(5)).trimmingWhitespace
            guard !command.isEmpty else { throw ValueError("'\(v)': exec: needs a command, e.g. exec:rpicam-vid -t 0 --codec mjpeg -o -") }
            guard !command.contains(where: { $0 == "\n" || $0 == "\0" }) else { throw ValueError("'exec:': the command must be one line") }
            return .exec(command)
        default:
            guard v.hasPrefix("/"), v.count > 1 else {
                throw ValueError("'\(v)' is not a device path like /dev/video0, 'test', 'auto' or exec:COMMAND")
            }
            return .device(v)
        }
    }

    static func cameraFormat(_ v: String) throws(ValueError) -> CameraPipeFormat {
        guard let format = CameraPipeFormat(rawValue: v.lowercased()) else {
            throw ValueError("'\(v)' is not one of " + CameraPipeFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return format
    }

    static func microphone(_ v: String) throws(ValueError) -> MicrophoneChoice {
        switch v {
        case "test": return .test
        case "none": return .none
        default:
            guard !v.isEmpty, !v.contains(where: { $0 == " " || $0 == "\t" }) else {
                throw ValueError("'\(v)' is not an ALSA PCM name (like default or hw:1,0), 'test' or 'none'")
            }
            return .pcm(v)
        }
    }

    static func looksLikeSize(_ v: String) -> Bool { (try? size(v)) != nil }

    static func size(_ v: String) throws(ValueError) -> Size {
        let parts = v.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw ValueError("'\(v)' is not a size like 1280x720")
        }
        guard (16...8192).contains(w), (16...8192).contains(h) else {
            throw ValueError("'\(v)': width and height must each be 16 to 8192")
        }
        guard w.isMultiple(of: 2), h.isMultiple(of: 2) else {
            throw ValueError("'\(v)': width and height must be even (4:2:0 video)")
        }
        return Size(width: w, height: h)
    }

    /// An octal mode for the take's files: read and write for the owner (the recorder must write
    /// them), no execute bits, nothing beyond 0666.
    static func fileMode(_ v: String) throws(ValueError) -> Int {
        guard (3...4).contains(v.count), let mode = Int(v, radix: 8), mode & 0o600 == 0o600, mode & ~0o666 == 0 else {
            throw ValueError("'\(v)' is not an octal mode from 0600 to 0666 without execute bits (e.g. 0640)")
        }
        return mode
    }

    static func integer(_ v: String, in range: ClosedRange<Int>) throws(ValueError) -> Int {
        guard let n = Int(v), range.contains(n) else {
            throw ValueError("'\(v)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    static func output(_ v: String) throws(ValueError) -> String {
        let lower = v.lowercased()
        guard !v.isEmpty, lower.hasSuffix(".mov") || lower.hasSuffix(".mp4"), !v.hasSuffix("/.mov"), !v.hasSuffix("/.mp4") else {
            throw ValueError("'\(v)' must be a file name ending in .mov or .mp4")
        }
        return v
    }

    static func folder(_ v: String) throws(ValueError) -> String {
        guard !v.isEmpty, !v.contains("\0") else { throw ValueError("needs a folder path") }
        return v
    }

    static func path(_ v: String) throws(ValueError) -> String {
        guard !v.isEmpty, !v.hasSuffix("/"), !v.contains("\0") else { throw ValueError("'\(v)' is not a file path") }
        return v
    }

    /// A file path that fits a Unix socket's address (`sun_path`: 108 bytes with its NUL).
    static func socketPath(_ v: String) throws(ValueError) -> String {
        let path = try path(v)
        guard path.utf8.count <= 107 else {
            throw ValueError("'\(v)' is \(path.utf8.count) bytes long; a Unix socket's path may have at most 107")
        }
        return path
    }

    static func command(_ v: String) throws(ValueError) -> String {
        guard !v.trimmingWhitespace.isEmpty else { throw ValueError("needs a command") }
        return v
    }

    /// A take-name template: a file name (no '/') ending in .mov or .mp4, with strftime fields and
    /// at most one {n}.
    static func nameTemplate(_ v: String) throws(ValueError) -> String {
        let lower = v.lowercased()
        guard !v.isEmpty, !v.contains("/"), !v.hasPrefix("."), lower.hasSuffix(".mov") || lower.hasSuffix(".mp4") else {
            throw ValueError("'\(v)' must be a file name (no '/', not starting with '.') ending in .mov or .mp4")
        }
        guard v.components(separatedBy: "{n}").count <= 2 else { throw ValueError("'\(v)' has {n} more than once") }
        return v
    }

    /// A time in seconds: a number of seconds, or a number with its unit, `ms`, `s`, `min` (or
    /// `m`), `h` or `d` (90s, 1.5min, 12h, 7d). Every time setting reads this way (`--camera-delay`,
    /// a bare number of milliseconds, is the one exception). Nil when it is not one.
    static func time(_ v: String) -> Double? {
        let lower = v.lowercased()
        // `ms` before `s`, which it ends with.
        let units: [(String, Double)] = [("ms", 0.001), ("min", 60), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        let (number, unit) = units.first { lower.hasSuffix($0.0) }.map { (lower.dropLast($0.0.count), $0.1) } ?? (Substring(lower), 1)
        guard let n = Double(number), n.isFinite else { return nil }
        return n * unit
    }

    /// What a time setting accepts, for its messages.
    static let timeHint = "(seconds, or with a unit: 500ms, 90s, 2min, 12h, 7d)"

    /// 7d, 12h, 90m, 3600s or plain seconds; above zero, at most ten years.
    static func duration(_ v: String) throws(ValueError) -> Double {
        guard let s = time(v), s > 0, s <= 10 * 365 * 86400 else {
            throw ValueError("'\(v)' is not a duration like 7d, 12h, 90m or 3600s")
        }
        return s
    }

    /// Text for the screen: one paragraph, at most 200 characters, no control characters.
    static func prompt(_ v: String) throws(ValueError) -> String? {
        let text = v.trimmingWhitespace
        guard text.count <= 200, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValueError("must be one line of at most 200 characters")
        }
        return text.isEmpty ? nil : text
    }

    /// A label on screen: one line of 1 to 80 characters, no control characters.
    static func label(_ v: String) throws(ValueError) -> String {
        let text = v.trimmingWhitespace
        guard !text.isEmpty, text.count <= 80, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValueError("must be one line of 1 to 80 characters")
        }
        return text
    }

    /// `auto` or a whole number (a control's units are the camera's); the torch is on or off.
    static func cameraControl(_ v: String, _ control: CameraControl) throws(ValueError) -> CameraControlValue {
        if control == .torch {
            switch v.lowercased() {
            case "on", "yes", "true": return .value(1)
            case "off", "no", "false": return .value(0)
            default: throw ValueError("'\(v)' is not on or off")
            }
        }
        if v.lowercased() == "auto" { return .auto }
        guard let n = Int32(v) else { throw ValueError("'\(v)' is not auto or a whole number") }
        return .value(Int(n))
    }

    static func language(_ v: String) throws(ValueError) -> Language {
        // Accept the usual spellings of the same tag (zh-hans, zh_Hans).
        let folded = v.replacingOccurrences(of: "_", with: "-").lowercased()
        guard let language = Language.allCases.first(where: { $0.rawValue.lowercased() == folded }) else {
            throw ValueError("'\(v)' is not a language of the booth (one of \(Language.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return language
    }

    /// 0 (never) to 86400 seconds: `--idle-timeout`, `--attract-after`, `--warn-remaining`.
    static func secondsOrNever(_ v: String) throws(ValueError) -> Double {
        guard let s = time(v), s >= 0, s <= 86400 else {
            throw ValueError("'\(v)' is not a number of seconds from 0 (never) to 86400 \(timeHint)")
        }
        return s
    }

    static func idleAction(_ v: String) throws(ValueError) -> IdleAction {
        guard let a = IdleAction(rawValue: v) else { throw ValueError("'\(v)' is not 'use' or 'discard'") }
        return a
    }

    static func seconds(_ v: String) throws(ValueError) -> Double {
        guard let s = time(v), s > 0, s <= 86400 else {
            throw ValueError("'\(v)' is not a number of seconds above 0 and at most 86400 \(timeHint)")
        }
        return s
    }

    static func bytes(_ v: String, atLeast minimum: Int64) throws(ValueError) -> Int64 {
        let multipliers: [(String, Double)] = [
            ("kib", 1024), ("mib", 1_048_576), ("gib", 1_073_741_824),
            ("k", 1024), ("m", 1_048_576), ("g", 1_073_741_824),
        ]
        let lower = v.lowercased()
        var number = Substring(lower)
        var multiplier = 1.0
        for (suffix, m) in multipliers where lower.hasSuffix(suffix) {
            number = lower.dropLast(suffix.count)
            multiplier = m
            break
        }
        guard let n = Double(number), n.isFinite, n >= 0, n * multiplier < 9.0e18 else {
            throw ValueError("'\(v)' is not a byte count like 1048576, 512K, 160M or 2G")
        }
        let bytes = Int64((n * multiplier).rounded(.down))
        guard bytes >= minimum else {
            throw ValueError("'\(v)' is below the minimum of \(minimum) bytes")
        }
        return bytes
    }

    static func orientation(_ v: String) throws(ValueError) -> Orientation {
        guard let o = Orientation(argument: v) else {
            let valid = Orientation.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValueError("'\(v)' is not an orientation (one of \(valid))")
        }
        return o
    }

    static func window(_ v: String?) throws(ValueError) -> WindowMode {
        guard let v else { return .windowed(nil) }
        switch v.lowercased() {
        case "no", "false", "off": return .fullscreen
        default: return .windowed(try size(v))
        }
    }

    static func word(_ v: String) throws(ValueError) -> String {
        guard !v.isEmpty, v.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw ValueError("'\(v)' is not an FFmpeg encoder name like libx264 or h264_v4l2m2m")
        }
        return v
    }

    static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    static func preset(_ v: String) throws(ValueError) -> String {
        guard presets.contains(v) else { throw ValueError("'\(v)' is not a preset (one of \(presets.joined(separator: ", ")))") }
        return v
    }

    static func bitrate(_ v: String) throws(ValueError) -> Int {
        let lower = v.lowercased()
        let (number, multiplier): (Substring, Double) =
            lower.hasSuffix("k") ? (lower.dropLast(), 1000) : lower.hasSuffix("m") ? (lower.dropLast(), 1_000_000) : (Substring(lower), 1)
        guard let n = Double(number), n.isFinite, n * multiplier >= 10_000, n * multiplier <= 200_000_000 else {
            throw ValueError("'\(v)' is not a bit rate from 10k to 200M bits per second")
        }
        return Int(n * multiplier)
    }

    static func flag(_ v: String?) throws(ValueError) -> Bool {
        switch v?.lowercased() {
        case nil, "yes", "true", "on": return true
        case "no", "false", "off": return false
        default: throw ValueError("'\(v!)' is not yes or no")
        }
    }

    static func quarterTurns(_ v: String) throws(ValueError) -> Int {
        guard let degrees = Int(v), [0, 90, 180, 270].contains(degrees) else {
            throw ValueError("'\(v)' is not 0, 90, 180 or 270")
        }
        return degrees / 90
    }

    static func session(_ v: String) throws(ValueError) -> SessionMode {
        guard let s = SessionMode(rawValue: v) else { throw ValueError("'\(v)' is not 'once' or 'loop'") }
        return s
    }
}
