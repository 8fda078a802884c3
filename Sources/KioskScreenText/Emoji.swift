// Which characters of a text are emoji to be drawn in a colour emoji face (Noto Color Emoji), and
// the text cut into runs of them and of the words around them: SDL_ttf draws one face a text, so
// the screen draws each run in its face and joins them on one line. A character here is a whole
// grapheme cluster, so a ZWJ sequence (👩‍❤️‍👨), a skin tone (👍🏽), a flag (🇩🇪) or a keycap (1️⃣)
// stays in one run. Pure: whether the colour face has a cluster's glyphs comes from the caller.

public enum Emoji {
    /// Whether `character` is shown as an emoji (Unicode's emoji presentation, UTS #51): a
    /// pictograph whose default is an emoji (💍, 🎉, a flag's letters, a skin tone), any emoji
    /// character with VS16 after it (❤️, 1️⃣), and a ZWJ or skin-tone sequence of them (❤‍🔥,
    /// ☝🏽). Not a character whose default is text (©, ™, ❤, a digit) without VS16, nor one with
    /// VS15 (☺︎): those stay with the words, in their faces.
    public static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, first.properties.isEmoji else { return false }
        if scalars.contains(where: { $0.value == textSelector }) { return false }
        if scalars.contains(where: { $0.value == emojiSelector }) { return true }
        if first.properties.isEmojiPresentation { return true }
        // A text-default pictograph joined to others or given a skin tone; not a digit, # or *.
        return first.value > 0x7F && scalars.dropFirst().contains { $0.value == joiner || $0.properties.isEmojiModifier }
    }

    /// `text` in runs, in order: the emoji characters (`isEmoji`) that the colour face has (`has`)
    /// together, and the characters between them; each run non-empty, and together the text.
    public static func runs(_ text: String, has: (Character) -> Bool) -> [(text: String, emoji: Bool)] {
        var runs: [(text: String, emoji: Bool)] = []
        for character in text {
            let emoji = isEmoji(character) && has(character)
            if let last = runs.last, last.emoji == emoji {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append((String(character), emoji))
            }
        }
        return runs
    }

    /// The characters of an emoji cluster a face must have to draw it: all but the zero-width
    /// joiner and the variation selectors, which only choose how the others are drawn (Noto Color
    /// Emoji has no glyph for VS16).
    public static func glyphs(of character: Character) -> [UInt32] {
        character.unicodeScalars.map(\.value).filter { $0 != joiner && $0 != emojiSelector && $0 != textSelector }
    }

    /// An emoji run as a colour face's shaper takes it: without variation selectors, which only
    /// chose it (Noto Color Emoji's sequences are made without them).
    public static func forShaper(_ run: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in run.unicodeScalars where scalar.value != emojiSelector && scalar.value != textSelector { kept.append(scalar) }
        return String(kept)
    }

    /// ZERO WIDTH JOINER, VARIATION SELECTOR-16 (emoji presentation) and -15 (text presentation).
    static let joiner: UInt32 = 0x200D, emojiSelector: UInt32 = 0xFE0F, textSelector: UInt32 = 0xFE0E
}
