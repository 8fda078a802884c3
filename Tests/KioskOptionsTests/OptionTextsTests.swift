// What the option table says to people, against the files that say it: kiosk/kiosk.conf.example
// and docs/interface.md's options table.
import Foundation
import Testing
@testable import KioskCore
@testable import KioskOptions

@Suite("Option texts")
struct OptionTextsTests {
    @Test("every row's default reads as it is written: a unit after a bare number only, never after one with its own (7d, 160M)")
    func defaultPhrases() {
        let expected: [String: String] = [
            "share-max-age": " (default 7d)", "max-file-size": " (default 160M)", "min-free-disk": " (default 1M)",
            "max-duration": " (default 1200 s)", "camera-delay": " (default 0 ms)", "countdown": " (default 3 s)",
            "share-seconds": " (default 60 s)", "boomerang-seconds": " (default 1 s)",
        ]
        for (name, phrase) in expected {
            #expect(OptionParser.options.first { $0.name == name }?.defaultPhrase == phrase, "\(name)")
        }
        for spec in OptionParser.options where spec.listed {
            guard case let .value(value) = spec.defaultValue, let unit = spec.unit else { continue }
            let phrase = spec.defaultPhrase
            #expect(phrase.hasSuffix(value.isBareNumber ? " \(unit))" : "\(value))"), "\(spec.name): \(phrase)")
        }
        #expect(!OptionParser.manPage.contains("(default 7d s)") && !OptionParser.manPage.contains("M bytes)"))
    }

    /// The repository, above Tests/KioskCoreTests.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("--help and the example config are cut into the same groups, in the table's order: each group named at an option of the table, headed in both (but for the modes, which no config file takes)")
    func groups() {
        let names = OptionParser.options.map(\.name)
        let starts = OptionParser.groups.map { names.firstIndex(of: $0.key) }
        #expect(!starts.contains(nil), "a group starts at an option the table does not have: \(OptionParser.groups)")
        #expect(starts.compactMap { $0 } == starts.compactMap { $0 }.sorted(), "the groups are out of the table's order")
        let help = OptionParser.helpText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let config = ExampleConfig.text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let inHelp = help.compactMap { line in OptionParser.groups.first { $0.value + ":" == line }?.value }
        let inConfig = config.compactMap { line in OptionParser.groups.first { ExampleConfig.heading($0.value) == line }?.value }
        #expect(inHelp == OptionParser.groups.map(\.value), "\(inHelp)")
        #expect(inConfig == OptionParser.groups.map(\.value).filter { $0 != "Modes and files" }, "\(inConfig)")
        // Each heading comes just before its first option's lines.
        for (name, title) in OptionParser.groups {
            let at = help.firstIndex(of: title + ":")
            #expect(at.map { help[$0 + 1].hasPrefix("  --\(name) ") || help[$0 + 1] == "  --\(name)" } == true, "\(title) is not before --\(name)")
        }
        #expect(help.allSatisfy { $0.count <= 100 }, "--help wider than 100 columns")
    }

    @Test("kiosk/kiosk.conf.example is the text made from the option table (KIOSK_REGENERATE=1 writes it anew)")
    func exampleConfigIsTheTables() throws {
        let url = Self.root.appendingPathComponent("kiosk/kiosk.conf.example")
        let made = ExampleConfig.text()
        if ProcessInfo.processInfo.environment["KIOSK_REGENERATE"] == "1" {
            try made.write(to: url, atomically: true, encoding: .utf8)
        }
        let file = try String(contentsOf: url, encoding: .utf8)
        #expect(file == made, """
            kiosk/kiosk.conf.example is not what the option table makes; write it anew and read the diff:
            KIOSK_REGENERATE=1 swift test --skip-build --filter KioskCoreTests.OptionTextsTests
            """)
    }

    @Test("every setting is in the example with its help and a value; its commented lines, uncommented, parse")
    func exampleParses() throws {
        let text = ExampleConfig.text()
        var keys: Set<String> = []
        var lines: [String] = []
        for line in text.split(separator: "\n").map(String.init) {
            // A value line: `key = value`, or commented out `# key = value`.
            let body = line.hasPrefix("# ") ? String(line.dropFirst(2)) : line
            guard let eq = body.range(of: " = "), !body[..<eq.lowerBound].contains(" ") else { continue }
            let key = String(body[..<eq.lowerBound])
            #expect(OptionParser.spec(named: key)?.inConfigFile == true, "'\(line)' reads as a setting and is none")
            keys.insert(key)
            lines.append(body)
        }
        #expect(keys == Set(OptionParser.options.filter { $0.inConfigFile && $0.listed }.map(\.name)))
        let comments = text.replacingOccurrences(of: "\n# ", with: " ")
        for spec in OptionParser.options where spec.inConfigFile && spec.listed {
            #expect(comments.contains(spec.help + spec.defaultPhrase), "\(spec.name)")
        }
        // output and output-dir exclude each other, and retention needs the folder: one at a time.
        for left in [["output"], ["output-dir", "max-takes", "max-age", "keep-free"]] {
            let file = lines.filter { line in !left.contains { line.hasPrefix($0 + " = ") } }.joined(separator: "\n")
            // (--questions and --consent read their files as they parse: the example's are there.)
            #expect(throws: Never.self) {
                try record(["--config", "/k.conf"], files: ["/k.conf": file, "/etc/kiosk-recorder/questions.txt": "What do you wish them?\n",
                                                            "/etc/kiosk-recorder/consent.md": "# Before we record\n\nYou choose.\n"])
            }
        }
    }

    @Test("a value with '#' or spaces at its ends is quoted, so that it reads back whole")
    func quoting() throws {
        for value in ["plain words", "take #1.mov", " padded "] {
            let line = "prompt = \(ExampleConfig.quoted(value))"
            let c = try record(["--config", "/k.conf"], files: ["/k.conf": line])
            #expect(c.screen.prompt == value.trimmingWhitespace, "\(line)")
        }
    }

    @Test("a wrapped help line never starts with 'word = ', which would read as a setting")
    func wrapping() {
        let text = "a camera: test = built-in moving pattern; auto = every camera found"
        for width in 10...60 {
            let lines = ExampleConfig.wrapped(text, width: width)
            #expect(lines.joined(separator: " ") == text)
            #expect(!lines.contains { $0.hasPrefix("= ") || $0.hasPrefix("test =") || $0.hasPrefix("auto =") }, "\(width): \(lines)")
        }
    }

    @Test("a default changed in a copy of the table is the example's value")
    func changedCopy() throws {
        var options = OptionParser.options
        let fps = try #require(options.firstIndex { $0.name == "fps" })
        options[fps].defaultValue = .value("25")
        let text = ExampleConfig.text(options)
        #expect(text.contains("\n# fps = 25\n") && text.contains("(default 25)\n"))
        #expect(text != ExampleConfig.text())
    }

    /// docs/interface.md.
    static var interface: String {
        get throws { try String(contentsOf: root.appendingPathComponent("docs/interface.md"), encoding: .utf8) }
    }

    @Test("docs/interface.md's options table has every option, and each default and reload rule, of the option table")
    func docsAgree() throws {
        #expect(OptionDocs.differences(OptionParser.options, docs: try Self.interface) == [])
    }

    @Test("a default, a reload rule or a name changed in a copy of the table makes the docs check fail, naming it")
    func docsCheckSeesAChange() throws {
        let docs = try Self.interface
        var options = OptionParser.options
        let fps = try #require(options.firstIndex { $0.name == "fps" })
        options[fps].defaultValue = .value("25")
        #expect(OptionDocs.differences(options, docs: docs) == ["--fps: the table's default is '25', the docs say '30'"])

        options = OptionParser.options
        options[fps].setting = ReloadSetting("fps", .inReady, \.capture.fps)
        #expect(OptionDocs.differences(options, docs: docs) == ["--fps: the table's reload rule is 'in ready', the docs say 'at restart'"])

        // A default that only starts like the documented one is another default.
        options = OptionParser.options
        let mode = try #require(options.firstIndex { $0.name == "file-mode" })
        options[mode].defaultValue = .value("06")
        #expect(OptionDocs.differences(options, docs: docs) == ["--file-mode: the table's default is '06', the docs say '0600'"])

        options = OptionParser.options
        options.removeAll { $0.name == "fps" }
        #expect(OptionDocs.differences(options, docs: docs) == ["--fps is in the docs' options table but not in the option table"])
        #expect(OptionDocs.differences(OptionParser.options, docs: docs.replacingOccurrences(of: "| `--fps` |", with: "| `--frames` |"))
                == ["--fps is not in the docs' options table", "--frames is in the docs' options table but not in the option table"])
    }

    @Test("a table row's cells: '\\|' stays inside its cell")
    func cells() {
        #expect(OptionDocs.cells("| `--a` | `x` \\| `y` | `1` | in ready | text |") == ["`--a`", "`x` \\| `y`", "`1`", "in ready", "text"])
    }
}
