// A setting's value written as the command line and the config file write it: how --help, the man
// page, the example config and docs/interface.md show each default, taken from `Configuration()`
// (the one place a default is written). A test parses each one back and gets the same value.
import KioskCore

enum OptionText {
    /// Yes or no, a number without a needless ".0", a word's raw value, a text as it is.
    static func text<Value>(_ value: Value) -> String {
        switch value {
        case let flag as Bool: flag ? "yes" : "no"
        case let number as Int: String(number)
        case let seconds as Double: seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
        case let text as String: text
        case let word as any RawRepresentable<String>: word.rawValue
        case let described as any CustomStringConvertible: described.description
        default: "\(value)"
        }
    }

    /// Whether `value` is an optional holding nothing.
    static func isNil<Value>(_ value: Value) -> Bool {
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    /// A byte count in the largest of G, M and K that divides it (160M), else in bytes.
    static func bytes(_ count: Int64) -> String {
        for (suffix, unit) in [("G", Int64(1) << 30), ("M", Int64(1) << 20), ("K", Int64(1) << 10)] where count != 0 && count % unit == 0 {
            return "\(count / unit)\(suffix)"
        }
        return String(count)
    }

    /// A file mode in octal with its leading zero (0600).
    static func fileMode(_ mode: Int) -> String {
        let octal = String(mode, radix: 8)
        return String(repeating: "0", count: max(1, 4 - octal.count)) + octal
    }

    /// A duration in the largest of days, hours and minutes that divides it (7d), else in seconds.
    static func duration(_ seconds: Double) -> String {
        for (suffix, unit) in [("d", 86400.0), ("h", 3600.0), ("min", 60.0)] where seconds > 0 && (seconds / unit).rounded() == seconds / unit {
            return "\(Int(seconds / unit))\(suffix)"
        }
        return text(seconds) + "s"
    }

    static func camera(_ choice: CameraChoice) -> String {
        switch choice {
        case let .device(path): path
        case .test: "test"
        case .auto: "auto"
        case let .exec(command): "exec:" + command
        }
    }

    static func microphone(_ choice: MicrophoneChoice) -> String {
        switch choice {
        case let .pcm(name): name
        case .test: "test"
        case .none: "none"
        }
    }

    static func window(_ mode: WindowMode) -> String {
        switch mode {
        case .fullscreen: "no"
        case .windowed(nil): "yes"
        case let .windowed(size?): "\(size.width)x\(size.height)"
        }
    }
}
