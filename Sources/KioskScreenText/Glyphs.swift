// Characters no installed font can draw. They never stop the booth: each text is shown in the face
// that has the most of its characters, the rest left out, and the operator reads one warning that
// names the characters and where each text comes from (the questions file's line, `--prompt`, a
// label), never the whole text. Pure: which glyphs a face has comes from the caller (SDL_ttf).

/// A text the screen may show, with where it comes from, for a message: `questions.txt:7`,
/// `--prompt`, `label.done`, `--language ja`.
public struct ShownText: Equatable, Sendable {
    public let text: String
    public let origin: String
    public init(_ text: String, origin: String) { (self.text, self.origin) = (text, origin) }
}

/// A text with characters that no face has: where it comes from and which characters (each once,
/// in the text's order).
public struct UndrawableText: Equatable, Sendable {
    public let origin: String
    public let missing: [UInt32]
    public init(origin: String, missing: [UInt32]) { (self.origin, self.missing) = (origin, missing) }
}

public enum Glyphs {
    /// The face that shows `scalars`: the first of `faces` (in the order of preference) that has
    /// every one of them; where none has, the one that lacks the fewest (the earlier on a tie), with
    /// what it lacks, each once. Nil without faces.
    public static func pick<Face>(_ faces: [Face], for scalars: [UInt32],
                                  has: (Face, UInt32) -> Bool) -> (face: Face, missing: [UInt32])? {
        var best: (face: Face, missing: [UInt32])?
        for face in faces {
            var missing: [UInt32] = []
            for scalar in scalars where !missing.contains(scalar) && !has(face, scalar) { missing.append(scalar) }
            if missing.isEmpty { return (face, []) }
            if best == nil || missing.count < best!.missing.count { best = (face, missing) }
        }
        return best
    }

    /// The characters a face must have to show `text`: all but its line breaks.
    public static func scalars(of text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { $0 != 0x0A }
    }

    /// One character for a message: `U+1F48D 💍`; a noncharacter, a private-use, unassigned or
    /// invisible one by its code alone (`U+10FFFF`).
    public static func name(_ scalar: UInt32) -> String {
        let hex = String(scalar, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(4 - hex.count, 0)) + hex
        guard let character = Unicode.Scalar(scalar) else { return code }
        switch character.properties.generalCategory {
        case .unassigned, .privateUse, .surrogate, .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return code
        default:
            return character.properties.isNoncharacterCodePoint ? code : "\(code) \(Character(character))"
        }
    }

    /// What the characters that no face has are to the operator, in one line (at most `limit` texts
    /// named, then how many more), with the fix; nil when every text can be drawn.
    public static func warning(_ texts: [UndrawableText], limit: Int = 6) -> String? {
        summary(texts, limit: limit).map { $0 + "; " + fix }
    }

    /// `warning` without the fix: `no installed font can draw q.txt:3: U+1F48D 💍; …: left out on
    /// screen`. Texts of one origin (a language's words) are named once, their characters together.
    public static func summary(_ texts: [UndrawableText], limit: Int = 6) -> String? {
        let texts: [UndrawableText] = texts.reduce(into: []) { merged, text in
            guard !text.missing.isEmpty else { return }
            guard let at = merged.firstIndex(where: { $0.origin == text.origin }) else { return merged.append(text) }
            merged[at] = UndrawableText(origin: text.origin, missing: merged[at].missing + text.missing.filter { !merged[at].missing.contains($0) })
        }
        guard !texts.isEmpty else { return nil }
        var named = texts.prefix(limit).map { text in
            "\(text.origin): " + text.missing.prefix(8).map(name).joined(separator: ", ") + (text.missing.count > 8 ? ", …" : "")
        }
        if texts.count > limit { named.append("and \(texts.count - limit) more") }
        return "no installed font can draw " + named.joined(separator: "; ") + ": left out on screen"
    }

    /// The fix, in one line.
    public static let fix = "install Debian's fonts-noto-color-emoji and fonts-symbola (emoji), "
        + "fonts-noto-cjk (Chinese, Japanese, Korean), or name a font that has them with --font PATH"
}
