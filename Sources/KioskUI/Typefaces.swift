// Which font shows a text: DejaVu Sans Bold (ours) when it has every glyph, otherwise a face that
// has them all: the operator's `--font`, then the one fontconfig gives for the language (Noto Sans
// CJK JP for ja, SC for zh-Hans), then any installed face fontconfig finds for those characters.
// Emoji are drawn in colour where fontconfig finds a colour emoji face (Noto Color Emoji), beside the
// words in theirs (TextCache joins the runs); without one, they are characters like the others.
// A character no face has never stops the booth: the text is shown in the face with the most of its
// characters, the others left out (no missing-glyph boxes), and the launch, a reload and `check`
// name them once (Glyphs).
import CFontconfig
import CSDL2TTF
import FoundationEssentials
import KioskCore
import KioskFonts
import KioskScreenText
import KioskSystem

/// One face of a font file: a collection (.ttc) holds several (Noto Sans CJK Bold: JP, KR, SC, TC, HK).
public struct FaceSource: Hashable, Sendable, CustomStringConvertible {
    public let path: String
    public let index: Int

    public init(path: String, index: Int = 0) {
        self.path = path
        self.index = index
    }

    public var description: String { index == 0 ? path : "\(path)#\(index)" }
}

/// `--font` names a file that is not a font SDL_ttf can open.
public struct FontUnreadable: Error, Equatable, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "--font \(path): not a font file SDL_ttf can read (\(reason))" }
}

/// fontconfig's answers. Thread-safe: fontconfig locks its own configuration (2.10 on), and the
/// answers are cached here under a lock, so the UI thread asks fontconfig once per question.
public enum FontLookup {
    private static let cache = Locked<[String: FaceSource?]>([:])
    private static let initialised: Bool = FcInit() != 0

    /// The bold sans-serif face fontconfig picks for `language` (an RFC 3066 tag like ja or zh-cn),
    /// nil when fontconfig has no configuration or no fonts.
    public static func face(language: String) -> FaceSource? {
        match(key: "lang=\(language)", pattern: "sans-serif:weight=bold:lang=\(language)", covering: [])
    }

    /// The bold sans-serif face with the most of `scalars` (fontconfig ranks coverage above the
    /// family), as fontconfig ranks them for `language`.
    public static func face(covering scalars: [UInt32], language: String) -> FaceSource? {
        match(key: "chars=\(scalars.map(String.init).joined(separator: ",")) lang=\(language)",
              pattern: "sans-serif:weight=bold:lang=\(language)", covering: scalars)
    }

    /// The colour emoji face fontconfig finds (Noto Color Emoji, from Debian's
    /// fonts-noto-color-emoji), nil when it finds none in colour (Symbola's emoji are one colour).
    public static func colourEmoji() -> FaceSource? {
        match(key: "emoji", pattern: "emoji:color=true", covering: [0x1F600], colour: true)
    }

    /// Finds the language's face and reads the font files it needs into memory, so that the UI
    /// thread does not wait for the disk when it switches to them (a reload's new language). Any
    /// thread; errors are left for the screen to report.
    public static func preload(language: Language, font: String?) {
        if let font { _ = try? FontFile.named(font) }
        // Only the languages whose words DejaVu lacks glyphs for send the booth to fontconfig.
        guard [.ja, .zhHans].contains(language), let face = face(language: language.fontconfigLanguage) else { return }
        _ = try? FontFile.named(face.path)
    }

    private static func match(key: String, pattern text: String, covering scalars: [UInt32], colour: Bool = false) -> FaceSource? {
        if let known = cache.withLock({ $0[key] }) { return known }
        let found = initialised ? ask(pattern: text, covering: scalars, colour: colour) : nil
        cache.withLock { $0[key] = .some(found) }
        return found
    }

    /// fontconfig's best match for the pattern; with `colour`, only a face in colour (`FC_COLOR`).
    private static func ask(pattern text: String, covering scalars: [UInt32], colour: Bool) -> FaceSource? {
        FontMatch.best(pattern: text, covering: scalars, colour: colour).map { FaceSource(path: $0.path, index: $0.index) }
    }
}

/// Which texts have characters no installed face has, without a screen: what `check` reports.
public enum TextCoverage {
    /// The texts among `texts` with characters that neither DejaVu Sans Bold (`primary`), `font`,
    /// the language's face nor any fontconfig finds has; throws when `font` cannot be read.
    public static func undrawable(_ texts: [ShownText], primary: String, language: Language, font: String?) throws -> [UndrawableText] {
        guard TTF_Init() == 0 else { throw SDLError(call: "TTF_Init") }
        // The faces are closed before SDL_ttf is (`ask` returns first).
        defer { TTF_Quit() }
        return try ask(texts, primary: primary, language: language, font: font)
    }

    private static func ask(_ texts: [ShownText], primary: String, language: Language, font: String?) throws -> [UndrawableText] {
        let faces: Typefaces
        do { faces = try Typefaces(primary: primary, language: language, font: font) } catch {
            throw font.map { FontUnreadable(path: $0, reason: error.message) } ?? error
        }
        return faces.undrawable(texts)
    }
}

/// The faces the screen may use and which one shows each text. UI thread only (SDL_ttf).
final class Typefaces {
    /// DejaVu Sans Bold: every text it can show is shown in it.
    let primary: FaceSource
    let language: Language
    /// For text the primary face lacks glyphs for, in order: `--font`'s face, fontconfig's for the
    /// language. Found when a text first needs them: a booth whose words DejaVu shows never asks
    /// fontconfig (whose caches take tens of MiB while it answers).
    private(set) lazy var fallbacks: [FaceSource] = {
        var found = configured.map { [$0] } ?? []
        if let face = FontLookup.face(language: language.fontconfigLanguage) { found.append(face) }
        return found.filter { $0 != primary }
    }()
    /// The colour emoji face (Noto Color Emoji) for the emoji in texts, each drawn beside the words
    /// in their face; found when a text first has an emoji. Nil without one: the emoji are then
    /// characters like the others (Symbola's, in one colour).
    private(set) lazy var emoji: FaceSource? = FontLookup.colourEmoji().flatMap { provides(0x1F600, in: $0) ? $0 : nil }
    /// Whether a text has emoji the colour face draws, by text.
    private var coloured: [String: Bool] = [:]
    /// `--font`'s face for the language, nil without `--font`.
    private let configured: FaceSource?
    /// Each face open at one size, to ask which glyphs it has.
    private var probes: [FaceSource: Font] = [:]
    private var chosen: [String: (face: FaceSource, missing: [UInt32])] = [:]

    /// Opens the primary face (a missing or broken font file fails here) and finds the fallbacks.
    init(primary: String, language: Language, font: String?) throws(SDLError) {
        self.primary = FaceSource(path: primary)
        self.language = language
        configured = try font.map { path throws(SDLError) in try Typefaces.face(in: path, for: language) }
        _ = try probe(self.primary)
    }

    /// The face that shows `text`'s words (all of it but the emoji the colour face draws): the first
    /// with every character of them (the primary, `--font`'s, the language's, then the one
    /// fontconfig finds for them), else the one with the most (`Glyphs.pick`), with the characters
    /// it lacks: none has them.
    func face(for text: String) -> (face: FaceSource, missing: [UInt32]) {
        if let known = chosen[text] { return known }
        let words = hasColourEmoji(text) ? runs(of: text).filter { !$0.emoji }.map { $0.text }.joined() : text
        let scalars = Glyphs.scalars(of: words)
        // The fallbacks are found only for a text the primary face cannot show.
        var choice = Glyphs.pick([primary], for: scalars) { self.provides($1, in: $0) }!
        if !choice.missing.isEmpty {
            var candidates = [primary] + fallbacks
            choice = Glyphs.pick(candidates, for: scalars) { self.provides($1, in: $0) }!
            // Any installed face fontconfig finds for the characters (a Korean prompt under
            // --language en, say, or emoji in Symbola): asked for all of them, so that a face with
            // the emoji and the words beats one with the emoji alone.
            var unique: [UInt32] = []
            for scalar in scalars where !unique.contains(scalar) { unique.append(scalar) }
            if !choice.missing.isEmpty, let extra = FontLookup.face(covering: unique, language: language.fontconfigLanguage),
               !candidates.contains(extra) {
                candidates.append(extra)
                choice = Glyphs.pick(candidates, for: scalars) { self.provides($1, in: $0) }!
            }
        }
        chosen[text] = choice
        return choice
    }

    /// Whether `text` has emoji that the colour face draws (none without the face).
    func hasColourEmoji(_ text: String) -> Bool {
        if let known = coloured[text] { return known }
        // Only a text with an emoji asks fontconfig for the colour face.
        let found = text.contains(where: Emoji.isEmoji) && emoji.map { face in text.contains { draws($0, in: face) } } == true
        coloured[text] = found
        return found
    }

    /// `text` in runs of words and of the emoji the colour face draws (`Emoji.runs`); one run of
    /// words without the face.
    func runs(of text: String) -> [(text: String, emoji: Bool)] {
        guard let emoji else { return text.isEmpty ? [] : [(text, false)] }
        return Emoji.runs(text) { self.draws($0, in: emoji) }
    }

    /// Whether `face` draws `character` as an emoji: it is one, and the face has its glyphs.
    private func draws(_ character: Character, in face: FaceSource) -> Bool {
        Emoji.isEmoji(character) && Emoji.glyphs(of: character).allSatisfy { provides($0, in: face) }
    }

    /// The texts among `texts` with characters no face has, each with those characters.
    func undrawable(_ texts: [ShownText]) -> [UndrawableText] {
        texts.compactMap { shown in
            let missing = face(for: shown.text).missing
            return missing.isEmpty ? nil : UndrawableText(origin: shown.origin, missing: missing)
        }
    }

    /// `text` without the characters `face` lacks: no box is drawn for them (a space where none
    /// is left: SDL_ttf draws no empty text).
    func shown(_ text: String, in face: FaceSource) -> String {
        let left = kept(text, in: face)
        return left.unicodeScalars.contains(where: { $0.value != 0x0A }) ? left : " "
    }

    /// `text` without the characters `face` lacks, empty when none is left.
    func kept(_ text: String, in face: FaceSource) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where scalar.value == 0x0A || provides(scalar.value, in: face) { kept.append(scalar) }
        return String(kept)
    }

    /// The family name of a face ("Noto Sans CJK JP"), for the log and tests.
    func familyName(of face: FaceSource) -> String {
        guard let font = try? probe(face), let name = TTF_FontFaceFamilyName(font.handle) else { return face.description }
        return String(cString: name)
    }

    /// Whether `face` has a glyph for `scalar` (`TTF_GlyphIsProvided32`).
    func provides(_ scalar: UInt32, in face: FaceSource) -> Bool {
        guard let font = try? probe(face) else { return false }
        return TTF_GlyphIsProvided32(font.handle, scalar) != 0
    }

    private func probe(_ face: FaceSource) throws(SDLError) -> Font {
        if let font = probes[face] { return font }
        let font = try Font(face: face, pointSize: 16)
        probes[face] = font
        return font
    }

    /// The face of `path` for `language`: in a collection the one whose family ends in the
    /// language's region (JP for ja, SC for zh-Hans), else its first.
    static func face(in path: String, for language: Language) throws(SDLError) -> FaceSource {
        let first = try Font(face: FaceSource(path: path), pointSize: 16)
        let count = max(TTF_FontFaces(first.handle), 1)
        let region = switch language {
        case .ja: " JP"
        case .zhHans: " SC"
        default: ""
        }
        guard count > 1, !region.isEmpty else { return FaceSource(path: path) }
        for index in 0..<Int(count) {
            let face = FaceSource(path: path, index: index)
            guard let font = try? Font(face: face, pointSize: 16), let name = TTF_FontFaceFamilyName(font.handle) else { continue }
            if String(cString: name).hasSuffix(region) { return face }
        }
        return FaceSource(path: path)
    }
}
