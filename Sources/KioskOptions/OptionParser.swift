// Parses the command line and `--config` files into an Invocation: the syntax of both (words,
// `--opt=value`, `key = value` lines, the modes as subcommands). Which options there are and what
// their values may be are the table's (OptionTable.swift) and the value parsers' (OptionValues.swift).
import KioskContract
import KioskCore
import KioskScreenText

public struct OptionParser: Sendable {
    /// How the parser reads a `--config` file (injected so tests need no files).
    public typealias ReadFile = @Sendable (String) throws -> String

    let readFile: ReadFile
    /// What values are checked against on this machine (the table's `check`s).
    let host: HostFacts
    /// Told what the person should know but that is no error (an old spelling read); the recorder
    /// passes its log.
    let warn: @Sendable (String) -> Void

    public init(readFile: @escaping ReadFile, host: HostFacts = HostFacts(), warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.readFile = readFile
        self.host = host
        self.warn = warn
    }

    /// `spec(named:)`, saying so when `name` is an old spelling.
    func lookUp(_ name: String) -> OptionSpec? {
        let spec = Self.spec(named: name)
        if let spec, spec.name != name { warn("'\(name)' is spelled '\(spec.name)' now; the old spelling still works") }
        return spec
    }

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
            // (`reel` and `console` are commands of their own, taken before the parser: main.swift.)
            let names = modes.map(\.name) + ["reel", "console"]
            let near = NearestName.suggestion(for: first, among: names).map { ": did you mean \($0)?" } ?? ""
            throw UsageError("unexpected argument '\(first)'\(near) (a mode is one of " + names.joined(separator: ", ")
                             + "; options start with --)")
        }
        guard mode.operand != nil else { return ["--" + mode.name] + arguments.dropFirst() }
        guard arguments.count > 1, !arguments[1].hasPrefix("--") else {
            throw UsageError("\(mode.name) needs a \(mode.operand!.lowercased()): kiosk-recorder \(mode.name) \(mode.operand!)")
        }
        return ["--" + mode.name, arguments[1]] + arguments.dropFirst(2)
    }

    /// Parses the arguments (without the program name). `together: false` leaves out the rules
    /// between options (`validate`): each value is still read and checked by its own (`config get`
    /// asks what one setting reads as, in a file the booth may not run with yet).
    public func parse(_ arguments: [String], together: Bool = true) throws(UsageError) -> Invocation {
        let arguments = try Self.flagsForMode(arguments)
        var settings: [Setting] = []
        var index = 0
        while index < arguments.count {
            // -h, the short spelling most programs take, is the one short option.
            let word = arguments[index] == "-h" ? "--help" : arguments[index]
            index += 1
            guard word.hasPrefix("--"), word.count > 2 else {
                // `-fps 30`: one dash short of an option.
                let near = word.hasPrefix("-") && Self.spec(named: String(word.dropFirst())) != nil ? ": did you mean -\(word)?" : ""
                throw UsageError("unexpected argument '\(word)' (options start with --\(near))")
            }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let spec = lookUp(name) else {
                throw UsageError("unknown option '--\(name.excerpt())'" + NearestName.hint(for: name, among: Self.options.map(\.name), prefix: "--"))
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
                // The next word is the value unless it is an option, so that a bad one
                // (`--windowed 800x480x`) is named as this option's, not as a stray argument.
                if value == nil, index < arguments.count, !arguments[index].hasPrefix("-") {
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
        try applyConsoleSettings(settings, to: &configuration)
        for setting in settings where setting.spec.inConfigFile && setting.spec.name != "camera" {
            try apply(setting, to: &configuration)
        }
        try applyCameras(settings.filter { $0.spec.name == "camera" }, to: &configuration)
        try readQuestions(into: &configuration)
        try readConsent(into: &configuration)
        // On the booth's own Wi-Fi the share site is the booth's address there.
        if configuration.share.folder != nil, configuration.share.urlTemplate == nil, host.hotspot {
            configuration.share.urlTemplate = ShareAddress.hotspotTemplate
        }
        if together { try Self.validate(configuration) }
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
            guard let socket = configuration.service.controlSocket else {
                throw UsageError("--send needs --control-socket PATH (or control-socket in the --config file): the booth's socket")
            }
            return .send(request, socket: socket)
        }
        return .record(configuration)
    }

    /// What no single option can see: options that exclude or need each other. Also run on a
    /// configuration reloaded by SIGHUP.
    public static func validate(_ c: Configuration) throws(UsageError) {
        if !c.guest.consentChoices.isEmpty && c.guest.consent == nil {
            throw UsageError("--consent-choice needs --consent, the text the guest agrees to")
        }
        let storage = c.storage
        if storage.output != nil && storage.outputDirectory != nil {
            throw UsageError("--output and --output-dir cannot be used together (one file, or a folder of takes)")
        }
        if storage.outputDirectory == nil {
            let retention = [("--max-takes", storage.maxTakes != nil), ("--max-age", storage.maxAge != nil),
                             ("--keep-free", storage.keepFree != nil)]
            if let (name, _) = retention.first(where: { $0.1 }) {
                throw UsageError("\(name) needs --output-dir (takes handed to a parent are the parent's)")
            }
            if c.screen.library { throw UsageError("--library needs --output-dir (the library is that folder's accepted takes)") }
            if c.guest.attractSlideshow {
                throw UsageError("--attract-slideshow needs --output-dir (the slideshow plays that folder's accepted takes)")
            }
        }
        if c.guest.attractSlideshow && c.guest.attractAfter == 0 {
            throw UsageError("--attract-slideshow needs --attract-after SECONDS (the slideshow plays on the attract screen)")
        }
        let share = c.share
        if share.folder != nil && share.urlTemplate == nil {
            throw UsageError("--share-dir needs --share-url, the address the QR code gives (e.g. http://10.42.0.1/s/{token}/), or the booth's own Wi-Fi (/usr/share/kiosk-recorder/setup hotspot), whose address it then is")
        }
        if share.folder == nil {
            let satellites = [("--share-url", share.urlTemplate != nil), ("--share-title", share.title != nil),
                              ("--share-wifi-ssid", share.wifiSSID != nil), ("--share-wifi-password", share.wifiPassword != nil)]
            if let (name, _) = satellites.first(where: { $0.1 }) { throw UsageError("\(name) needs --share-dir (sharing is off without it)") }
        }
        if c.video.overlayPortrait != nil && c.video.overlay == nil {
            throw UsageError("--overlay-portrait needs --overlay, the overlay of a landscape take")
        }
        if c.video.key != nil && c.video.background == nil {
            throw UsageError("--key needs --background, the picture the guest is keyed in front of")
        }
        if c.service.consolePairing != nil && c.service.controlSocket == nil {
            throw UsageError("--console-pairing needs --control-socket (the code goes beside it, where the console reads it)")
        }
        if share.wifiPassword != nil && share.wifiSSID == nil {
            throw UsageError("--share-wifi-password needs --share-wifi-ssid, the network it opens")
        }
    }

    func apply(_ setting: Setting, to configuration: inout Configuration) throws(UsageError) {
        do {
            if let check = setting.spec.check, let value = setting.value { try check(host, value) }
            try setting.spec.apply(&configuration, setting.value)
            if let warning = setting.spec.unlistedWarning { warn("\(setting.origin): \(warning)") }
        } catch {
            throw UsageError("\(setting.origin): \(error.message)")
        }
    }

    /// `camera` settings in order become `capture.cameras` (none: it is kept).
    func applyCameras(_ cameras: [Setting], to configuration: inout Configuration) throws(UsageError) {
        guard !cameras.isEmpty else { return }
        var choices: [CameraChoice] = []
        for setting in cameras {
            var scratch = Configuration()
            try apply(setting, to: &scratch)
            if choices.contains(scratch.capture.camera) { throw UsageError("\(setting.origin): '\(setting.value!)' is named twice") }
            choices.append(scratch.capture.camera)
        }
        configuration.capture.cameras = choices
    }

    /// `--questions FILE`: its questions, read now (at launch, and again by each reload). A file that
    /// cannot be read, or has no question in it, is a bad option.
    func readQuestions(into configuration: inout Configuration) throws(UsageError) {
        guard let path = configuration.guest.questions?.path else { return }
        let text: String
        do {
            text = try readFile(path)
        } catch let error as ConfigFileError {
            throw UsageError("--questions: \(error)")
        } catch {
            throw UsageError("--questions: cannot read '\(path)': \(error)")
        }
        let questions = Questions.numbered(text)
        guard !questions.isEmpty else {
            throw UsageError("--questions: '\(path)' has no question in it (one a line; blank lines and lines starting with # are skipped)")
        }
        // As long as the prompt may be: a longer one would cover the ready screen, its buttons too.
        if let long = questions.first(where: { $0.text.count > Self.questionMaxLength }) {
            throw UsageError("--questions: '\(path)':\(long.line): a question of \(long.text.count) characters; each may have at most \(Self.questionMaxLength), as the prompt")
        }
        configuration.guest.questions = QuestionList(path: path, lines: questions.map(\.text), lineNumbers: questions.map(\.line))
    }
    /// The longest question, in characters: the prompt's length.
    static let questionMaxLength = 200

    /// `--consent FILE`: its text, read now (at launch, and again by each reload), and its version,
    /// the SHA-256 of its bytes (`HostFacts.digest`). A file that cannot be read (or is not UTF-8), or
    /// has nothing to show, is a bad option.
    func readConsent(into configuration: inout Configuration) throws(UsageError) {
        guard let path = configuration.guest.consent?.path else { return }
        let text: String
        do {
            text = try readFile(path)
        } catch let error as ConfigFileError {
            throw UsageError("--consent: \(error)")
        } catch {
            throw UsageError("--consent: cannot read '\(path)': \(error)")
        }
        guard !ConsentText.blocks(of: text, markdown: ConsentText.isMarkdown(path)).isEmpty else {
            throw UsageError("--consent: '\(path)' has no text in it")
        }
        configuration.guest.consent = ConsentFile(path: path, text: text, version: host.digest(Array(text.utf8)))
    }

    /// `--console-settings FILE`, the operator's console's own file: read after the `--config` files,
    /// so that its lines win over theirs, and before the command line's flags, which win over both.
    /// Read only with a `--config` file or the option given, and only when it is there
    /// (`HostFacts.fileExists`): a booth whose console never saved has none.
    func applyConsoleSettings(_ settings: [Setting], to configuration: inout Configuration) throws(UsageError) {
        let given = settings.last { $0.spec.name == "console-settings" }
        guard given != nil || settings.contains(where: { $0.spec.name == "config" }) else { return }
        if let given { try apply(given, to: &configuration) }
        let path = configuration.service.consoleSettings
        guard host.fileExists(path) else { return }
        var cameras: [Setting] = []
        try applyFile(path, to: &configuration, cameras: &cameras, option: "--console-settings")
        try applyCameras(cameras, to: &configuration)
    }

    /// Applies a config file (`--config`, or `--console-settings`'s, which may not name itself):
    /// `key = value` lines, blank lines and `#` comments.
    func applyFile(_ path: String, to configuration: inout Configuration, cameras: inout [Setting],
                   option: String = "--config") throws(UsageError) {
        let text: String
        do {
            text = try readFile(path)
        } catch let error as ConfigFileError {
            throw UsageError("\(option): \(error)")
        } catch {
            throw UsageError("\(option): cannot read '\(path)': \(error)")
        }
        // Lines end in LF, CRLF (a file saved on Windows) or CR. "\r\n" is one Character in Swift,
        // so splitting on "\n" alone would read a CRLF file as a single line.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for (offset, rawLine) in lines.enumerated() {
            let location = "\(path):\(offset + 1)"
            guard let (key, value) = try ConfigLine.parse(String(rawLine), location: location) else { continue }
            guard let spec = lookUp(key) else {
                let keys = Self.options.filter(\.inConfigFile).map(\.name)
                throw UsageError("\(location): unknown key '\(key.excerpt())'" + NearestName.hint(for: key, among: keys))
            }
            guard spec.inConfigFile else {
                throw UsageError("\(location): '\(key)' is a command-line option only, not a config key")
            }
            if option != "--config", spec.name == "console-settings" {
                throw UsageError("\(location): '\(key)' belongs in the --config file, not in the file it names")
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

/// What an option's value is checked against on the machine the recorder runs on, beyond its
/// syntax: the recorder passes the real facts; the default checks nothing, for tests of the syntax.
public struct HostFacts: Sendable {
    /// Whether a path names a folder (`--output` naming one is pointed to `--output-dir`).
    public var isFolder: @Sendable (String) -> Bool
    /// The names `--video-encoder` takes besides `auto`: the H.264 encoders the FFmpeg libraries
    /// offer (and the test-only ones when they are enabled). Nil: any name.
    public var videoEncoders: [VideoEncoderName]?
    /// Why a file cannot be an overlay (`--overlay`), or nil when it can: the recorder decodes it
    /// (KioskMedia's `OverlayFiles`). The default finds nothing wrong.
    public var overlayProblem: @Sendable (String) -> String?
    /// Why a file cannot be a background (`--background`), or nil when it can (KioskMedia's
    /// `BackgroundPicture` decodes it). The default finds nothing wrong.
    public var backgroundProblem: @Sendable (String) -> String?
    /// The booth's own Wi-Fi is installed (`setup hotspot`): `--share-url` defaults to
    /// its address (`ShareAddress.hotspotTemplate`).
    public var hotspot: Bool
    /// Whether something is at a path (`--console-settings`' file is read only then). The default:
    /// nothing is, for tests of the syntax.
    public var fileExists: @Sendable (String) -> Bool
    /// The SHA-256 of a consent text's bytes, lowercase hex (`--consent`'s version): the recorder
    /// passes FFmpeg's (KioskMedia's `SHA256`). The default says none, for tests of the syntax.
    public var digest: @Sendable ([UInt8]) -> String = { _ in "" }

    public init(isFolder: @escaping @Sendable (String) -> Bool = { _ in false }, videoEncoders: [VideoEncoderName]? = nil,
                overlayProblem: @escaping @Sendable (String) -> String? = { _ in nil }, hotspot: Bool = false,
                fileExists: @escaping @Sendable (String) -> Bool = { _ in false },
                backgroundProblem: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.backgroundProblem = backgroundProblem
        self.fileExists = fileExists
        self.isFolder = isFolder
        self.videoEncoders = videoEncoders
        self.overlayProblem = overlayProblem
        self.hotspot = hotspot
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
        } else if let hash = value.firstRange(of: " #") ?? value.firstRange(of: "\t#") {
            value = String(value[..<hash.lowerBound]).trimmingWhitespace
        }
        return (key, value)
    }
}
