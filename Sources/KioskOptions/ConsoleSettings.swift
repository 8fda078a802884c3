// The operator's console's settings (`GET` and `PUT /console/api/settings`), from the one table:
// each setting with its value as the booth reads it and where that comes from, its kind, range,
// help, default, when a change applies and its group, as the example config groups them; and a
// change, checked by the booth's own parser (the whole configuration parsed as the booth would, the
// console's file as it would be written), made into that file's text. Pure: files are read through
// the parser's reader.
import FoundationEssentials
import KioskContract
import KioskCore

public struct ConsoleSettings: Sendable {
    let parser: OptionParser
    /// The booth's own options as the console was given them (`--config FILE`).
    let arguments: [String]

    public init(parser: OptionParser, arguments: [String]) {
        self.parser = parser
        self.arguments = arguments
    }

    /// Where a setting's value comes from.
    public enum Source: String, Encodable, Sendable {
        /// Set nowhere: the table's default.
        case `default`
        /// A `--config` file's line (kiosk.conf).
        case config
        /// The console's file (`--console-settings`).
        case console
    }

    /// The settings the console offers: every setting a config file takes and the docs list.
    static var offered: [OptionSpec] { OptionParser.options.filter { $0.inConfigFile && $0.listed } }

    /// Why the console may not set `spec`, or nil: a setting that cannot change while the booth runs
    /// (a reload would be refused until a restart), and the console's file itself, belong in kiosk.conf.
    static func fixed(_ spec: OptionSpec) -> String? {
        guard spec.setting?.effect == .refused else { return nil }
        return "\(spec.name) cannot change while the booth runs: set it in the --config file and restart the booth"
    }

    /// The `--config` files of the booth's options.
    var configFiles: [String] {
        zip(arguments, arguments.dropFirst()).filter { $0.0 == "--config" }.map(\.1)
    }

    /// The booth's configuration as it would read it with the console's file holding `consoleText`
    /// (nil: as the file is now). `together: false` leaves out the rules between options.
    public func configuration(consoleText: String? = nil, together: Bool = true) throws(UsageError) -> Configuration {
        var reading = parser
        if let consoleText {
            let path = try consoleFile()
            let read = parser.readFile, exists = parser.host.fileExists
            reading = parser.with(fileExists: { $0 == path || exists($0) }, readFile: { $0 == path ? consoleText : try read($0) })
        }
        return try Self.record(reading.parse(arguments, together: together))
    }

    /// The console's file (`--console-settings`), as the booth's options name it: read without it
    /// (it cannot name itself), so that a file with a bad line in it can still be put right.
    public func consoleFile() throws(UsageError) -> String {
        try Self.record(parser.with(fileExists: { _ in false }, readFile: parser.readFile).parse(arguments, together: false)).service.consoleSettings
    }

    static func record(_ invocation: Invocation) throws(UsageError) -> Configuration {
        guard case let .record(configuration) = invocation else { throw UsageError("the booth's options start no booth") }
        return configuration
    }

    /// The settings a file's text sets, in its order (an old spelling under its name now); lines
    /// that are no setting are left out (the parser says what is wrong with them).
    static func keys(in text: String) -> [(key: String, value: String)] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.compactMap { line in
            guard let (key, value) = try? ConfigLine.parse(String(line), location: ""), let spec = OptionParser.spec(named: key) else { return nil }
            return (spec.name, value)
        }
    }

    /// A text, or JSON's null (not left out) when there is none.
    struct Nullable: Encodable {
        let text: String?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let text { try container.encode(text) } else { try container.encodeNil() }
        }
    }

    /// One setting as the console shows it.
    struct Entry: Encodable {
        let name: String
        let value: Nullable
        let source: Source
        let group: String
        /// flag, integer, choice or text.
        let type: String
        let min: Int?
        let max: Int?
        let choices: [String]?
        /// The value's placeholder, as --help writes it (`N`, `yes|no`).
        let argument: String
        let unit: String?
        let help: String
        /// The default as the command line writes it, or what happens when it is not set.
        let `default`: String?
        let defaultIsValue: Bool
        /// When a change is in force: `ready` (at once in ready, else when the booth is back in
        /// ready: the next take) or `restart`.
        let applies: String
        /// Why the console does not set it; nil: it does.
        let fixed: String?
    }

    /// `GET api/settings`: every setting offered, with its value as the booth would read it now and
    /// where it comes from; `consoleText` in place of the console's file when given.
    /// `reloaded` and `message`: a change's reload, whether the booth took it and why not.
    public func listing(consoleText: String? = nil, reloaded: Bool? = nil, message: String? = nil) throws(UsageError) -> String {
        let configuration = try configuration(consoleText: consoleText, together: false)
        let file = configuration.service.consoleSettings
        var fromConfig: Set<String> = []
        for path in configFiles { fromConfig.formUnion(Self.keys(in: (try? parser.readFile(path)) ?? "").map(\.key)) }
        let console = consoleText ?? (parser.host.fileExists(file) ? (try? parser.readFile(file)) ?? "" : "")
        let fromConsole = Set(Self.keys(in: console).map(\.key))
        var group = ""
        let entries = Self.offered.map { spec in
            group = OptionParser.group(startingAt: spec.name) ?? group
            var type = "text", min: Int?, max: Int?, choices: [String]?
            switch spec.shape {
            case .flag: type = "flag"
            case let .integer(range): (type, min, max) = ("integer", range.lowerBound, range.upperBound)
            case let .choice(words): (type, choices) = ("choice", words)
            case .text: break
            }
            let argument = switch spec.argument {
            case .none: ""
            case let .required(placeholder), let .optional(placeholder): placeholder
            }
            let shown: (String?, Bool) = switch spec.defaultValue {
            case let .value(value)?: (value, true)
            case let .unset(meaning)?: (meaning, false)
            case nil: (nil, false)
            }
            return Entry(name: spec.name, value: Nullable(text: spec.current?(configuration)),
                         source: fromConsole.contains(spec.name) ? .console : fromConfig.contains(spec.name) ? .config : .default,
                         group: group, type: type, min: min, max: max, choices: choices, argument: argument, unit: spec.unit,
                         help: spec.help, default: shown.0, defaultIsValue: shown.1,
                         applies: spec.setting?.effect == .inReady ? "ready" : "restart", fixed: Self.fixed(spec))
        }
        struct Listing: Encodable {
            let config: [String]
            let consoleFile: String
            let reloaded: Bool?
            let message: String?
            let settings: [Entry]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let listing = Listing(config: configFiles, consoleFile: file, reloaded: reloaded, message: message, settings: entries)
        guard let data = try? encoder.encode(listing) else { preconditionFailure("strings and numbers always encode") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The head of the console's file.
    static let header = """
        # Written by the operator's console (kiosk-recorder console). The booth reads this file after its
        # --config file: a setting here wins over the same one there. Change the booth's own settings there.
        """

    /// The console's file after `changes` (a setting's name and its new value, nil: the console's
    /// line for it removed, so kiosk.conf's or the default counts again) to the file's text `current`
    /// (nil: none yet), checked as the booth would read it; or the parser's message.
    public func changed(_ changes: [(name: String, value: String?)], current: String?) throws(UsageError) -> String {
        var lines = Self.keys(in: current ?? "").filter { line in OptionParser.spec(named: line.key).map { Self.fixed($0) == nil } ?? false }
        for (name, value) in changes {
            guard let spec = Self.offered.first(where: { $0.name == name }) else {
                let near = NearestName.suggestion(for: name, among: Self.offered.map(\.name)).map { ": did you mean \($0)?" } ?? ""
                throw UsageError("'\(name.excerpt())' is no setting\(near)")
            }
            if let fixed = Self.fixed(spec) { throw UsageError(fixed) }
            guard let value else {
                lines.removeAll { $0.key == name }
                continue
            }
            // One line a setting; a value a line cannot hold is said here, not written.
            let line = "\(name) = \(ExampleConfig.quoted(value))"
            guard !value.contains(where: \.isNewline), let read = try? ConfigLine.parse(line, location: ""), read.1 == value else {
                throw UsageError("\(name): '\(value.excerpt())' cannot be written on one line of a config file")
            }
            if let index = lines.firstIndex(where: { $0.key == name }) { lines[index].value = value } else { lines.append((name, value)) }
        }
        let text = ([Self.header] + lines.map { "\($0.key) = \(ExampleConfig.quoted($0.value))" }).joined(separator: "\n") + "\n"
        _ = try configuration(consoleText: text)
        return text
    }
}

extension OptionParser {
    /// This parser with another view of which files are there and how they read.
    func with(fileExists: @escaping @Sendable (String) -> Bool, readFile: @escaping ReadFile) -> OptionParser {
        var host = host
        host.fileExists = fileExists
        return OptionParser(readFile: readFile, host: host, warn: warn)
    }
}
