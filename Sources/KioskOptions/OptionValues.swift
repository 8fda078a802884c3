// The values of the options: each parser reads one option's text into its value, or says what it
// expected. The option table (OptionTable.swift) names which one each option uses.
import KioskCore
import KioskContract
import KioskScreenText

/// A value that does not fit its option; the parser prefixes the option (and file:line).
struct ValueError: Error {
    let message: String
    init(_ message: String) { self.message = message }
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

    /// `auto`, or a size as `size` reads it.
    static func captureSize(_ v: String) throws(ValueError) -> CaptureSize {
        v.lowercased() == "auto" ? .auto : .exactly(try size(v))
    }

    static func size(_ v: String) throws(ValueError) -> Size {
        let parts = v.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw ValueError("'\(v)' is not a size WxH, like 1280x720")
        }
        guard (16...8192).contains(w), (16...8192).contains(h) else {
            throw ValueError("'\(v)': width and height must each be 16 to 8192")
        }
        guard w.isMultiple(of: 2), h.isMultiple(of: 2) else {
            throw ValueError("'\(v)': width and height must be even (4:2:0 video)")
        }
        return Size(width: w, height: h)
    }

    /// The share files' mode: readable by the web server's user (the others' read bit), written by
    /// the owner alone, no execute bits: 0644 or 0604. Folders get the matching search bits. Write
    /// for the group or the others would let any local user replace a guest's video or page.
    static func shareFileMode(_ v: String) throws(ValueError) -> Int {
        guard (3...4).contains(v.count), let mode = Int(v, radix: 8), mode & 0o604 == 0o604, mode & ~0o666 == 0 else {
            throw ValueError("'\(v)' is not an octal mode 0644 or 0604: the web server must read the files, and only the booth write them")
        }
        guard mode & 0o022 == 0 else {
            throw ValueError("'\(v)' gives write to \(mode & 0o002 != 0 ? "every user" : "the group"): any of them could replace a guest's video or page; the share files are 0644 or 0604")
        }
        return mode
    }

    /// A share address: an http or https URL with `{token}` (once) where the token goes, nothing a
    /// QR code or a browser would trip over (no spaces, no control characters).
    static func shareURL(_ v: String) throws(ValueError) -> String {
        let lower = v.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw ValueError("'\(v)' must be an http:// or https:// address, e.g. http://10.42.0.1/s/{token}/")
        }
        guard v.components(separatedBy: "{token}").count == 2 else {
            throw ValueError("'\(v)' must contain {token} once, where each take's token goes, e.g. http://10.42.0.1/s/{token}/")
        }
        guard !v.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }), v.utf8.count <= 500 else {
            throw ValueError("'\(v)' has a space or a control character (or is over 500 bytes)")
        }
        return v
    }

    /// A Wi-Fi network's name: 1 to 32 bytes (802.11's limit), no control characters.
    static func wifiSSID(_ v: String) throws(ValueError) -> String {
        guard (1...32).contains(v.utf8.count), !v.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValueError("'\(v)' is not a Wi-Fi name: 1 to 32 bytes, no control characters")
        }
        return v
    }

    /// A WPA passphrase: 8 to 63 printable ASCII characters.
    static func wifiPassword(_ v: String) throws(ValueError) -> String {
        guard (8...63).contains(v.utf8.count), v.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
            throw ValueError("a WPA password is 8 to 63 printable ASCII characters")
        }
        return v
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

    /// An overlay PNG this machine can decode (`HostFacts.overlayProblem` says why not).
    static func overlay(_ v: String, _ host: HostFacts) throws(ValueError) {
        if let problem = host.overlayProblem(v) { throw ValueError(problem) }
    }

    /// A take is a file: a folder named for one is pointed to `--output-dir`, which takes a folder.
    static func notAFolder(_ v: String, _ host: HostFacts) throws(ValueError) {
        guard host.isFolder(v) else { return }
        let folder = v.count > 1 && v.hasSuffix("/") ? String(v.dropLast()) : v
        throw ValueError("'\(v)' is a folder; name a file in it (like \(folder == "/" ? "" : folder)/take.mov), or use --output-dir \(folder) for a folder of takes each under its own name")
    }

    static func folder(_ v: String) throws(ValueError) -> String {
        guard !v.isEmpty, !v.contains("\0") else { throw ValueError("needs a folder path") }
        return v
    }

    static func path(_ v: String) throws(ValueError) -> String {
        guard !v.isEmpty, !v.hasSuffix("/"), !v.contains("\0") else { throw ValueError("'\(v)' is not a file path") }
        return v
    }

    /// `--metrics-file`: a path ending in .prom, the only files node_exporter's collector reads.
    static func metricsFile(_ v: String) throws(ValueError) -> String {
        let path = try path(v)
        guard path.hasSuffix(".prom") else { throw ValueError("'\(path)' must end in .prom: node_exporter's textfile collector reads only *.prom files") }
        return path
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
    static func nameTemplate(_ v: String) throws(ValueError) -> String { try fileTemplate(v, endings: [".mov", ".mp4"]) }

    /// `--photo-template`: a file name ending in .jpg or .jpeg, `{n}` at most once.
    static func photoTemplate(_ v: String) throws(ValueError) -> String { try fileTemplate(v, endings: [".jpg", ".jpeg"]) }

    /// A file-name template: no '/', not hidden, ending in one of `endings` (any case), `{n}` at
    /// most once.
    private static func fileTemplate(_ v: String, endings: [String]) throws(ValueError) -> String {
        let lower = v.lowercased()
        guard !v.isEmpty, !v.contains("/"), !v.hasPrefix("."), endings.contains(where: { lower.hasSuffix($0) }) else {
            throw ValueError("'\(v)' must be a file name (no '/', not starting with '.') ending in \(endings.joined(separator: " or "))")
        }
        guard v.components(separatedBy: "{n}").count <= 2 else { throw ValueError("'\(v)' has {n} more than once") }
        if let problem = TakeName.templateProblem(v) {
            // A control character is not printed as it is (a newline would split the message).
            throw ValueError("'\(TakeName.printable(v))' \(problem)")
        }
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

    /// Text for the screen: one paragraph, at most `maxLength` characters, no control characters;
    /// nil when empty.
    static func text(_ v: String, maxLength: Int) throws(ValueError) -> String? {
        let text = v.trimmingWhitespace
        guard text.count <= maxLength, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ValueError("must be one line of at most \(maxLength) characters")
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
        let folded = v.replacing("_", with: "-").lowercased()
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

    /// One of an enum's words, its raw value: `'x' is not 'once' or 'loop'` names them all.
    static func choice<Choice: CaseIterable & RawRepresentable<String>>(_ v: String) throws(ValueError) -> Choice {
        guard let choice = Choice(rawValue: v) else {
            let words = Choice.allCases.map { "'\($0.rawValue)'" }
            let said = words.count > 1 ? words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1] : words.joined()
            throw ValueError("'\(v)' is not \(said)")
        }
        return choice
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

    /// A window's size, or `no` (full screen); the option given bare is `OptionKind.window`'s.
    static func window(_ v: String) throws(ValueError) -> WindowMode {
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

    /// `auto`, or an encoder this machine's FFmpeg has (`HostFacts.videoEncoders`): any other name
    /// is refused with the list, not found out at the first Start.
    static func offeredEncoder(_ v: String, _ host: HostFacts) throws(ValueError) {
        guard let offered = host.videoEncoders, v != VideoEncoderName.auto.rawValue, !offered.contains(VideoEncoderName(rawValue: v)) else { return }
        let near = NearestName.suggestion(for: v, among: offered.map(\.rawValue)).map { "did you mean \($0)? " } ?? ""
        throw ValueError("'\(v)' is not an H.264 encoder of this FFmpeg (\(near)auto or one of \(offered.map(\.rawValue).joined(separator: ", ")))")
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

    /// Yes or no; the option given bare is `OptionKind.flag`'s yes.
    /// `--key`: green, blue, #RRGGBB or auto.
    static func keyColour(_ v: String) throws(ValueError) -> KeyColour {
        if let colour = KeyColour(v) { return colour }
        throw ValueError("'\(v)' is not a colour: green, blue, #RRGGBB (the backdrop's, e.g. #00B140) or auto")
    }

    /// A decimal number in `range` (`--key-similarity`, `--key-blend`).
    static func number(_ v: String, in range: ClosedRange<Double>) throws(ValueError) -> Double {
        guard let n = Double(v), n.isFinite, range.contains(n) else {
            throw ValueError("'\(v)' is not a number from \(String(printf: "%g", range.lowerBound)) to \(String(printf: "%g", range.upperBound))")
        }
        return n
    }

    /// A background this machine can decode (`HostFacts.backgroundProblem` says why not).
    static func background(_ v: String, _ host: HostFacts) throws(ValueError) {
        if let problem = host.backgroundProblem(v) { throw ValueError(problem) }
    }

    static func flag(_ v: String) throws(ValueError) -> Bool {
        switch v.lowercased() {
        case "yes", "true", "on": return true
        case "no", "false", "off": return false
        default: throw ValueError("'\(v)' is not yes or no")
        }
    }

    static func quarterTurns(_ v: String) throws(ValueError) -> Int {
        guard let degrees = Int(v), [0, 90, 180, 270].contains(degrees) else {
            throw ValueError("'\(v)' is not 0, 90, 180 or 270")
        }
        return degrees / 90
    }

    /// `--high-pass`: off, or a corner from 20 to 500 Hz (rumble, handling noise and stand thumps
    /// lie below; a voice's fundamental starts about 85 Hz).
    static func highPass(_ v: String) throws(ValueError) -> Double? {
        if v.lowercased() == "off" { return nil }
        guard let hz = Double(v), hz.isFinite, (20...500).contains(hz) else {
            throw ValueError("'\(v)' is not off or a corner from 20 to 500 Hz")
        }
        return hz
    }

    /// `--loudness`: off, or an integrated loudness from −36 to −6 LUFS (−23 broadcast, −16 the web
    /// and phones, −14 the streaming services).
    static func loudness(_ v: String) throws(ValueError) -> Double? {
        if v.lowercased() == "off" { return nil }
        guard let lufs = Double(v), lufs.isFinite, (-36 ... -6).contains(lufs) else {
            throw ValueError("'\(v)' is not off or a loudness from -36 to -6 LUFS")
        }
        return lufs
    }

}

extension Values {
    /// `--boomerang-seconds`: 0.5 to 3.
    static func boomerangSeconds(_ v: String) throws(ValueError) -> Double {
        guard let s = Double(v), s.isFinite, (0.5...3).contains(s) else {
            throw ValueError("'\(v)' is not a number of seconds from 0.5 to 3")
        }
        return s
    }

    /// `--boomerang-speed`: 1 (as captured) or 0.5 (half speed, with a camera of 60 fps or more).
    static func boomerangSpeed(_ v: String) throws(ValueError) -> Double {
        guard let s = Double(v), s == 1 || s == 0.5 else { throw ValueError("'\(v)' is not 1 or 0.5") }
        return s
    }
}
