// The kinds of value an option takes: a row of the table (OptionTable.swift) names one, e.g.
// `.integer(in: 1...240)`, `.bytes(atLeast:)`, `.choice(SessionMode.self)`, `.flag`, and each kind
// has one parser (OptionValues.swift). A kind that may be given without a value (`--windowed`,
// `--trim`) says what the option then means; every other kind is always handed its text.
import KioskCore
import KioskContract
import KioskScreenText

/// What a value looks like to a form (the console's settings): yes or no, a whole number in a
/// range, one of some words, or text the kind's parser reads.
public enum ValueShape: Equatable, Sendable {
    case flag
    case integer(ClosedRange<Int>)
    case choice([String])
    case text
}

/// How an option reads its value.
struct OptionKind<Value: Sendable>: Sendable {
    /// The value of the option given bare (`--windowed`, `--trim`, `trim = yes` in a file); nil: a
    /// value is required (the parser never gives such an option none).
    let bare: Value?
    /// What the value looks like to a form.
    let shape: ValueShape
    /// Reads a value given as text, or says what it expected.
    let read: @Sendable (String) throws(ValueError) -> Value

    init(bare: Value? = nil, shape: ValueShape = .text, _ read: @escaping @Sendable (String) throws(ValueError) -> Value) {
        self.bare = bare
        self.shape = shape
        self.read = read
    }

    /// Whether the option may come without a value (its argument is `OptionArgument.optional`).
    var takesBare: Bool { bare != nil }

    /// The value of an occurrence: its text read, or the bare value.
    func value(_ text: String?) throws(ValueError) -> Value {
        if let text { return try read(text) }
        guard let bare else { throw ValueError("needs a value") }
        return bare
    }

    /// The same kind for a field that is nil while the option is not given (`--max-takes`).
    var orNil: OptionKind<Value?> {
        let read = read
        return OptionKind<Value?>(bare: bare.map { Optional.some($0) }, shape: shape) { v throws(ValueError) in try read(v) }
    }
}

extension OptionKind where Value == Bool {
    /// `yes` or `no` (and true/false, on/off); bare: yes.
    static var flag: Self { Self(bare: true, shape: .flag) { v throws(ValueError) in try Values.flag(v) } }
}

extension OptionKind where Value == Bool {
    /// `on` or `off` (and yes/no), always given.
    static var onOff: Self { Self(shape: .flag) { v throws(ValueError) in try Values.flag(v) } }
}

extension OptionKind where Value == KeyColour {
    static var keyColour: Self { Self { v throws(ValueError) in try Values.keyColour(v) } }
}

extension OptionKind where Value == Int {
    /// A whole number in `range`.
    static func integer(in range: ClosedRange<Int>) -> Self {
        Self(shape: .integer(range)) { v throws(ValueError) in try Values.integer(v, in: range) }
    }
    /// An octal mode for the takes' files (0600 to 0666).
    static var fileMode: Self { Self { v throws(ValueError) in try Values.fileMode(v) } }
    /// An octal mode for the share files (0644 or 0604).
    static var shareFileMode: Self { Self { v throws(ValueError) in try Values.shareFileMode(v) } }
    /// 0, 90, 180 or 270 degrees, as quarter turns.
    static var quarterTurns: Self { Self { v throws(ValueError) in try Values.quarterTurns(v) } }
    /// Bits per second, with k and M suffixes.
    static var bitrate: Self { Self { v throws(ValueError) in try Values.bitrate(v) } }
}

extension OptionKind where Value == Int64 {
    /// A byte count with K, M, G suffixes, at least `minimum`.
    static func bytes(atLeast minimum: Int64) -> Self { Self { v throws(ValueError) in try Values.bytes(v, atLeast: minimum) } }
}

extension OptionKind where Value == Double {
    /// Seconds above 0 and at most a day (`Values.time`'s units).
    static var seconds: Self { Self { v throws(ValueError) in try Values.seconds(v) } }
    /// Seconds from 0 (never) to a day.
    static var secondsOrNever: Self { Self { v throws(ValueError) in try Values.secondsOrNever(v) } }
    /// A duration above zero, at most ten years (7d, 12h, 90m, 3600s).
    static var duration: Self { Self { v throws(ValueError) in try Values.duration(v) } }
    /// `--boomerang-seconds`: 0.5 to 3.
    static var boomerangSeconds: Self { Self { v throws(ValueError) in try Values.boomerangSeconds(v) } }
    /// A decimal number in `range`.
    static func number(in range: ClosedRange<Double>) -> Self { Self { v throws(ValueError) in try Values.number(v, in: range) } }
    /// `--boomerang-speed`: 1 or 0.5.
    static var boomerangSpeed: Self { Self { v throws(ValueError) in try Values.boomerangSpeed(v) } }
}

extension OptionKind where Value == Double? {
    /// `--high-pass`: off, or a corner in Hz.
    static var highPass: Self { Self { v throws(ValueError) in try Values.highPass(v) } }
    /// `--loudness`: off, or LUFS.
    static var loudness: Self { Self { v throws(ValueError) in try Values.loudness(v) } }
}

extension OptionKind where Value == String {
    /// A file path (not a folder's, ending in '/').
    static var path: Self { Self { v throws(ValueError) in try Values.path(v) } }
    /// A folder's path.
    static var folder: Self { Self { v throws(ValueError) in try Values.folder(v) } }
    /// A path a Unix socket's address can hold.
    static var socketPath: Self { Self { v throws(ValueError) in try Values.socketPath(v) } }
    /// A take's file, ending in .mov or .mp4.
    static var output: Self { Self { v throws(ValueError) in try Values.output(v) } }
    /// A metrics file, ending in .prom.
    static var metricsFile: Self { Self { v throws(ValueError) in try Values.metricsFile(v) } }
    /// A shell command.
    static var command: Self { Self { v throws(ValueError) in try Values.command(v) } }
    /// A take's name template (.mov or .mp4).
    static var nameTemplate: Self { Self { v throws(ValueError) in try Values.nameTemplate(v) } }
    /// A photo's name template (.jpg or .jpeg).
    static var photoTemplate: Self { Self { v throws(ValueError) in try Values.photoTemplate(v) } }
    /// A share address with `{token}`.
    static var shareURL: Self { Self { v throws(ValueError) in try Values.shareURL(v) } }
    /// A Wi-Fi network's name.
    static var wifiSSID: Self { Self { v throws(ValueError) in try Values.wifiSSID(v) } }
    /// A WPA passphrase.
    static var wifiPassword: Self { Self { v throws(ValueError) in try Values.wifiPassword(v) } }
    /// A libx264 preset.
    static var preset: Self { Self { v throws(ValueError) in try Values.preset(v) } }
    /// A label on screen: one line of 1 to 80 characters.
    static var label: Self { Self { v throws(ValueError) in try Values.label(v) } }
}

extension OptionKind where Value == String? {
    /// Words for the screen: one line of at most `maxLength` characters; empty: none.
    static func text(maxLength: Int) -> Self { Self { v throws(ValueError) in try Values.text(v, maxLength: maxLength) } }
}

extension OptionKind where Value: CaseIterable & RawRepresentable<String> {
    /// One of an enum's words, spelled as its raw value (`once` or `loop`).
    static func choice(_: Value.Type) -> Self {
        Self(shape: .choice(Value.allCases.map(\.rawValue))) { v throws(ValueError) in try Values.choice(v) }
    }
}

extension OptionKind where Value == [CameraChoice] {
    /// One camera: each occurrence names one (`OptionParser.applyCameras` joins them).
    static var camera: Self { Self { v throws(ValueError) in [try Values.camera(v)] } }
}

extension OptionKind where Value == CameraPipeFormat {
    static var cameraFormat: Self { Self { v throws(ValueError) in try Values.cameraFormat(v) } }
}

extension OptionKind where Value == MicrophoneChoice {
    static var microphone: Self { Self { v throws(ValueError) in try Values.microphone(v) } }
}

extension OptionKind where Value == CaptureSize {
    /// `auto` or WxH.
    static var captureSize: Self { Self { v throws(ValueError) in try Values.captureSize(v) } }
}

extension OptionKind where Value == WindowMode {
    /// WxH, or no; bare: a window of the default size.
    static var window: Self { Self(bare: .windowed(nil)) { v throws(ValueError) in try Values.window(v) } }
}

extension OptionKind where Value == Orientation {
    static var orientation: Self { Self { v throws(ValueError) in try Values.orientation(v) } }
}

extension OptionKind where Value == Language {
    static var language: Self { Self { v throws(ValueError) in try Values.language(v) } }
}

extension OptionKind where Value == VideoEncoderName {
    /// An FFmpeg encoder's name (the machine's check says whether it has it).
    static var encoder: Self { Self { v throws(ValueError) in VideoEncoderName(rawValue: try Values.word(v)) } }
}

extension OptionKind where Value == ConsentFile {
    /// The consent screen's text: its path now, its text and version read by the parser (`readConsent`).
    static var consentFile: Self { Self { v throws(ValueError) in ConsentFile(path: try Values.path(v)) } }
}

extension OptionKind where Value == [ConsentChoice] {
    /// A consent screen's switch, or several with commas (`share,film`; `none`: none); each occurrence adds to those before it.
    static var consentChoices: Self {
        Self { v throws(ValueError) in
            var choices: [ConsentChoice] = []
            if v.trimmingWhitespace == "none" { return [] }
            for word in v.split(separator: ",", omittingEmptySubsequences: false) { choices.append(try Values.choice(String(word).trimmingWhitespace)) }
            return choices
        }
    }
}

extension OptionKind where Value == QuestionList {
    /// The guestbook's file: its path now, its questions read by the parser (`readQuestions`).
    static var questionFile: Self { Self { v throws(ValueError) in QuestionList(path: try Values.path(v)) } }
}

extension OptionKind where Value == CameraControlValue {
    /// `auto` or a whole number; the torch on or off.
    static func cameraControl(_ control: CameraControl) -> Self { Self { v throws(ValueError) in try Values.cameraControl(v, control) } }
}
