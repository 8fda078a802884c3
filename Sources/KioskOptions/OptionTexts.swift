// What the option table says to people: the --help text and the example config
// (kiosk/kiosk.conf.example), each option's help with its declared default; and the check that
// docs/interface.md's options table says the same names, defaults and reload rules.
import KioskCore

extension OptionSpec {
    /// The default as --help and the example config say it after the help: ` (default 30)`,
    /// ` (default 1200 s)`, ` (default: the display's own)`; empty for an option without one.
    var defaultPhrase: String {
        switch defaultValue {
        case nil: ""
        // `(default default)` would read as a slip.
        // The unit goes after a bare number only: `7d` and `160M` carry their own.
        case let .value(value): " (default \(value == "default" ? "\"default\"" : value)\(unit.map { value.isBareNumber ? " " + $0 : "" } ?? ""))"
        case let .unset(meaning): " (default: \(meaning))"
        }
    }
}

extension String {
    /// Digits, with a decimal point at most: a number without a unit of its own.
    var isBareNumber: Bool { !isEmpty && allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } }
}

extension OptionParser {
    /// `kiosk-recorder help [TOPIC]`: the --help text, or `reel`'s own; a mode's is the --help text,
    /// which covers every mode. An unknown topic names itself (exit 2).
    public static func help(topic: String?) throws(UsageError) -> String {
        guard let topic else { return helpText }
        if topic == "reel" { return ReelOptions.help }
        if topic == "console" { return ConsoleOptions.help }
        let topics = modes.map(\.name) + ["reel", "console", "config"]
        guard topics.contains(topic) else {
            let near = NearestName.suggestion(for: topic, among: topics).map { ": did you mean \($0)?" } ?? ""
            throw UsageError("help: no help on '\(topic)'\(near) (one of " + topics.joined(separator: ", ") + ")")
        }
        return helpText
    }

    /// The table's groups, each named at its first option: where --help and the example config
    /// (kiosk/kiosk.conf.example) put a heading, in the table's order.
    static let groups: KeyValuePairs<String, String> = [
        "camera": "Camera and microphone", "output": "The take and its limits", "orientation": "Screen and session",
        "video-encoder": "Encoding", "overlay": "The picture", "countdown": "The guest's countdown, words and sound",
        "language": "Languages, fonts and labels", "photo-button": "Photo, boomerang and library", "attract-after": "Between guests",
        "output-dir": "The take folder", "idle-timeout": "Review, idle and the service", "share-dir": "Sharing",
        "config": "Modes and files",
    ]

    /// The group whose first option is `name`.
    static func group(startingAt name: String) -> String? { groups.first { $0.key == name }?.value }

    /// The --help text, made from the table.
    public static var helpText: String {
        var lines = [
            "Usage: kiosk-recorder [options]                 the booth",
            "       kiosk-recorder play FILE [--loop] [--fit fill|fit] [options]",
            "       kiosk-recorder check [options]           try each part of the booth, report, exit",
            "       kiosk-recorder send COMMAND [options]    hand a command to a running booth (--control-socket)",
            "       kiosk-recorder list-cameras              print the cameras as JSON, exit",
            "       kiosk-recorder reel DIR [--output FILE] [--title TEXT] [--size WxH] [--json] [--force]",
            "                           [--reel-background #RRGGBB] [--reel-text #RRGGBB] [--language LANG]",
            "                                                the hosts' film of the takes in DIR",
            "       kiosk-recorder config get KEY [options]  print a setting as the booth reads it",
            "       kiosk-recorder console [--config FILE] [--listen unix:PATH|HOST:PORT] [--password-file PATH]",
            "                                                the operator's console (help console)",
            "       kiosk-recorder help [MODE]               this help; help reel: the film's options",
            "(The modes' old spellings, --play FILE, --check, --send COMMAND and --list-cameras, work the same.)",
            "A fullscreen touchscreen video booth. Events go to stdout as JSON lines; commands come on stdin.",
            "",
        ]
        for option in options where option.listed {
            if let group = group(startingAt: option.name) { lines += (lines.last == "" ? [] : [""]) + [group + ":"] }
            let argument: String
            switch option.argument {
            case .none: argument = ""
            case let .required(placeholder): argument = " " + placeholder
            case let .optional(placeholder): argument = " [" + placeholder + "]"
            }
            let left = "  --" + option.name + argument
            let indent = String(repeating: " ", count: 32)
            let pad = left.count < 32 ? String(repeating: " ", count: 32 - left.count) : "\n" + indent
            // At most 100 columns: the text wrapped beside the option, each further line indented.
            let text = ExampleConfig.wrapped(option.help + option.defaultPhrase, width: 100 - 32, keepingKeys: false)
            lines.append(left + pad + text.joined(separator: "\n" + indent))
        }
        lines += [
            "",
            "Exit status: 0 after an outcome, quit or signal; 1 a file play cannot play, a problem check found,",
            "a booth send cannot reach or that refused or did not answer send's command, or a booth that could",
            "not start (its assets, a temporary folder, threads); 2 bad usage or configuration; 3 no display.",
            "The full contract (commands, events, signals): /usr/share/doc/kiosk-recorder/interface.md",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}

/// kiosk/kiosk.conf.example, made from the table: every setting with its help and default, its line
/// commented out but for the example's own choices. A test compares the checked-in file with it.
enum ExampleConfig {
    /// The example's own choices, set (not commented out): a booth running on its own. kiosk/install
    /// installs the example as the service's config and switches on a few of its lines as well
    /// (`output-dir`, `keep-free`, `idle-timeout`), so their example values are part of that.
    static let chosen: KeyValuePairs<String, String> = ["camera": "auto", "session": "loop"]

    static let header = """
        # KioskRecorder configuration: one `key = value` per line; keys are the command-line options
        # without the leading --; a flag on the command line wins over this file. Values in double quotes
        # keep spaces and '#'. Every key is listed with its help and default; uncomment to change.
        # The booth's service reads /etc/kiosk-recorder/kiosk.conf (systemctl reload kiosk-recorder applies
        # a change). Reference: man kiosk-recorder, /usr/share/doc/kiosk-recorder/interface.md.
        """

    /// The file's text from `options` (a test may pass a changed copy of the table).
    static func text(_ options: [OptionSpec] = OptionParser.options) -> String {
        var lines = header.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for spec in options where spec.inConfigFile && spec.listed {
            if let group = OptionParser.group(startingAt: spec.name) { lines += ["", heading(group)] }
            lines.append("")
            lines += wrapped(spec.help + spec.defaultPhrase, width: 100).map { "# " + $0 }
            if let value = chosen.first(where: { $0.key == spec.name })?.value {
                lines.append("\(spec.name) = \(quoted(value))")
            }
            var values = spec.examples
            if values.isEmpty, case let .value(value) = spec.defaultValue { values = [value] }
            lines += values.map { "# \(spec.name) = \(quoted($0))" }
        }
        return (lines + guestbook).joined(separator: "\n") + "\n"
    }

    /// `# --- title ---…`, 97 columns wide: how a group of settings and each block after them is headed.
    static func heading(_ title: String) -> String {
        let start = "# --- " + title + " "
        return start + String(repeating: "-", count: max(3, 97 - start.count))
    }

    /// The blocks after the settings: the lines that go together for one kind of booth.
    static let guestbook = [
        "",
        heading("A video guestbook"),
        "# Uncomment these lines together: a question for each guest from the file (one a line), the",
        "# rumble and stand thumps taken out of the sound as it is recorded, and every take handed over at",
        "# one even loudness, whoever spoke and however near.",
        "# questions = /etc/kiosk-recorder/questions.txt",
        "# question-order = shuffle",
        "# high-pass = 80",
        "# loudness = -16",
    ]

    /// A value as a config line must write it: in double quotes when it holds a '#' (unquoted, a
    /// ' #' starts a comment) or spaces at its ends, which would be trimmed (`ConfigLine.parse`).
    static func quoted(_ value: String) -> String {
        value.contains("#") || value.trimmingWhitespace != value ? "\"\(value)\"" : value
    }

    /// `text` in lines of about `width` characters, broken at spaces. A line never starts with
    /// `word = ` (`test = built-in pattern`): it would read as a setting commented out, so no line
    /// breaks before such a word or its `=`, even where that makes the line a word longer.
    /// `keepingKeys: false` (--help, which has no settings to uncomment) breaks anywhere between words.
    static func wrapped(_ text: String, width: Int, keepingKeys: Bool = true) -> [String] {
        let words = text.split(separator: " ").map(String.init)
        var lines: [[String]] = [[]]
        for (index, word) in words.enumerated() {
            let length = lines[lines.count - 1].reduce(0) { $0 + $1.count + 1 } + word.count
            let keyLike = keepingKeys && (word == "=" || words.dropFirst(index + 1).first == "=")
            if length > width, !lines[lines.count - 1].isEmpty, !keyLike { lines.append([]) }
            lines[lines.count - 1].append(word)
        }
        return lines.map { $0.joined(separator: " ") }
    }
}

extension ReloadEffect {
    /// How docs/interface.md's options table says it, in its `reload` column.
    var words: String {
        switch self {
        case .inReady: "in ready"
        case .atRestart: "at restart"
        case .refused: "refused"
        }
    }
}

/// docs/interface.md's options table against the option table.
enum OptionDocs {
    /// Where the options table of `docs` (rows `| `--name` | value | default | reload | checked |`,
    /// a row may name several options) and `options` differ: an option only in one of them, a
    /// default, a reload rule. Empty when they agree. A default cell agrees when, its backquotes
    /// dropped, it starts with the declared default (a value or what happens when unset; `—` for
    /// none), followed by its end or an explanation (` (167772160)`, `; …`, `: …`).
    static func differences(_ options: [OptionSpec], docs: String) -> [String] {
        var rows: [String: (defaultCell: String, reload: String)] = [:]
        for line in docs.split(separator: "\n") where line.hasPrefix("| `--") {
            let cells = self.cells(String(line))
            guard cells.count >= 4 else { continue }
            let names = cells[0].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            for name in names where name.hasPrefix("--") {
                rows[String(name.dropFirst(2))] = (cells[2].replacing("`", with: ""), cells[3])
            }
        }
        var differences: [String] = []
        for spec in options where spec.listed {
            guard let row = rows.removeValue(forKey: spec.name) else {
                differences.append("--\(spec.name) is not in the docs' options table")
                continue
            }
            let shown = switch spec.defaultValue {
            case nil: "—"
            case let .value(value): value
            case let .unset(meaning): meaning
            }
            let rest = row.defaultCell.hasPrefix(shown) ? row.defaultCell.dropFirst(shown.count) : nil
            if rest.map({ rest in !(rest.isEmpty || [" ", ";", ",", ":"].contains { rest.hasPrefix($0) }) }) ?? true {
                differences.append("--\(spec.name): the table's default is '\(shown)', the docs say '\(row.defaultCell)'")
            }
            let reload = spec.setting?.effect.words ?? "—"
            if row.reload != reload {
                differences.append("--\(spec.name): the table's reload rule is '\(reload)', the docs say '\(row.reload)'")
            }
        }
        differences += rows.keys.sorted().map { "--\($0) is in the docs' options table but not in the option table" }
        return differences
    }

    /// A Markdown table row's cells, trimmed; `\|` is a `|` inside a cell.
    static func cells(_ row: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var previous: Character = " "
        for character in row.dropFirst() {
            if character == "|", previous != "\\" {
                cells.append(cell.trimmingWhitespace)
                cell = ""
            } else {
                cell.append(character)
            }
            previous = character
        }
        return cells
    }
}
