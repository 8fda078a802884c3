// What the option table says to people: the --help text, each option's help with its declared default.

extension OptionSpec {
    /// The default as --help and the example config say it after the help: ` (default 30)`,
    /// ` (default 1200 s)`, ` (default: the display's own)`; empty for an option without one.
    var defaultPhrase: String {
        switch defaultValue {
        case nil: ""
        // `(default default)` would read as a slip.
        case let .value(value): " (default \(value == "default" ? "\"default\"" : value)\(unit.map { " " + $0 } ?? ""))"
        case let .unset(meaning): " (default: \(meaning))"
        }
    }
}

extension OptionParser {
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
            lines.append(left + pad + option.help + option.defaultPhrase)
        }
        lines += [
            "",
            "Exit status: 0 after an outcome, quit or signal; 2 bad usage or configuration; 3 no display.",
            "The full contract (commands, events, signals): docs/interface.md",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
