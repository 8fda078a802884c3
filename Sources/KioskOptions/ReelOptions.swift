// `kiosk-recorder reel DIR [--output FILE] [--title TEXT] [--size WxH] [--reel-background COLOUR]
// [--reel-text COLOUR] [--language LANG] [--json] [--force]`: the hosts' film of every take the booth kept in DIR. Its command line, read here (pure); the film is
// made by KioskMedia's Reel.
import KioskCore
import KioskScreenText

/// What `reel` was asked for.
public struct ReelOptions: Equatable, Sendable {
    /// The booth's folder of takes (`--output-dir`).
    public var folder: String
    /// Where the film goes; `reel.mp4` in the current folder by default.
    public var output = "reel.mp4"
    /// The title card's words; nil: the date of the first take.
    public var title: String?
    /// Every picture's size, bars where the aspect differs.
    public var size = Size(width: 1280, height: 720)
    /// The cards' background and words, `0xRRGGBB` (`--reel-background`, `--reel-text`: the brand's).
    public var background: UInt32 = 0x000000
    public var text: UInt32 = 0xFFFFFF
    /// The language the title card's date is written in (`--language`, the booth's own tags).
    public var language = Language.en
    /// `reelProgress` and `reelFinished` lines on stdout instead of a progress bar.
    public var json = false
    /// Replace a file already at `output` (never one of the takes).
    public var force = false

    public init(folder: String) { self.folder = folder }

    public static let usage = "kiosk-recorder reel DIR [--output FILE] [--title TEXT] [--size WxH] [--reel-background #RRGGBB] [--reel-text #RRGGBB] [--language LANG] [--json] [--force]"

    /// `#RRGGBB` as `0xRRGGBB`, or nil.
    public static func colour(_ text: String) -> UInt32? {
        guard text.count == 7, text.hasPrefix("#"), text.dropFirst().allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(text.dropFirst(), radix: 16)
    }

    /// `reel --help` and `kiosk-recorder help reel`.
    public static let help = """
        Usage: kiosk-recorder reel DIR [--output FILE] [--title TEXT] [--size WxH]
                 [--reel-background #RRGGBB] [--reel-text #RRGGBB] [--language LANG] [--json] [--force]
        The hosts' film of every take the booth kept in DIR, oldest first: a title card, then each take
        after a card with its question (or its time), at one size with black bars, its sound at -16 LUFS.
        Each card fades in from black and out to black over half a second; the takes are left as they are.
          --output FILE   the film, ending in .mp4 (default reel.mp4); an existing file only with --force
          --title TEXT    the title card's words, the first take's date under them (default: the date alone)
          --size WxH      every picture's size, even, 160x120 to 3840x2160 (default 1280x720)
          --reel-background #RRGGBB   the cards' background (default #000000)
          --reel-text #RRGGBB         the cards' words (default #FFFFFF)
          --language LANG the date written in en, ja, zh-Hans, de, fr or es (default en)
          --json          reelProgress and reelFinished lines on stdout instead of a progress bar
          --force         replace the file at --output (never a take)
        Exit status: 0 the film is made; 1 no takes, none readable, a folder this user may not read, or
        the film not finished; 2 a bad option.

        """

    /// Whether `arguments` ask for the help (`--help` or `-h` anywhere).
    public static func asksForHelp(_ arguments: [String]) -> Bool { arguments.contains("--help") || arguments.contains("-h") }

    /// Reads `reel`'s arguments (after the word `reel`). A bad one names itself.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ReelOptions {
        var folder: String?
        var options = ReelOptions(folder: "")
        var index = 0
        func value(_ name: String) throws(UsageError) -> String {
            guard index < arguments.count else { throw UsageError("reel: \(name) needs a value (\(usage))") }
            defer { index += 1 }
            return arguments[index]
        }
        /// The option's value: after its `=`, or the next word.
        func given(_ name: String, _ inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            return try value(name)
        }
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            var name = word, inline: String?
            if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq])
                inline = String(word[word.index(after: eq)...])
            }
            switch name {
            case "--output":
                let path = try given(name, inline)
                guard path.lowercased().hasSuffix(".mp4"), !path.hasSuffix("/.mp4") else {
                    throw UsageError("reel: --output '\(path)' must be a file name ending in .mp4")
                }
                options.output = path
            case "--title":
                let title = try given(name, inline)
                guard !title.trimmingWhitespace.isEmpty, !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    throw UsageError("reel: --title '\(title)' must be words on one line")
                }
                options.title = title
            case "--size":
                let text = try given(name, inline)
                let parts = text.split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, (160...3840).contains(parts[0]), (120...2160).contains(parts[1]), parts[0] % 2 == 0, parts[1] % 2 == 0 else {
                    throw UsageError("reel: --size '\(text)' is not an even WxH from 160x120 to 3840x2160")
                }
                options.size = Size(width: parts[0], height: parts[1])
            case "--reel-background", "--reel-text":
                let text = try given(name, inline)
                guard let colour = colour(text) else { throw UsageError("reel: \(name) '\(text)' is not a colour #RRGGBB (such as #1B2A4A)") }
                if name == "--reel-background" { options.background = colour } else { options.text = colour }
            case "--language":
                let text = try given(name, inline)
                do { options.language = try Values.language(text) } catch { throw UsageError("reel: --language \(error.message)") }
            case "--json", "--force":
                guard inline == nil else { throw UsageError("reel: \(name) takes no value") }
                if name == "--json" { options.json = true } else { options.force = true }
            default:
                if word.hasPrefix("-") {
                    let near = NearestName.suggestion(for: String(name.drop { $0 == "-" }), among: ["output", "title", "size", "reel-background", "reel-text", "language", "json", "force"])
                        .map { ": did you mean --\($0)?" } ?? ""
                    throw UsageError("reel: unknown option '\(name)'\(near) (\(usage))")
                }
                guard folder == nil else { throw UsageError("reel: one folder only, '\(word)' is a second (\(usage))") }
                folder = word
            }
        }
        guard let folder, !folder.isEmpty else { throw UsageError("reel needs the booth's folder of takes: \(usage)") }
        options.folder = folder
        return options
    }
}
