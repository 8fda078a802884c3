// Which way a piece of text runs, by its first strong character (Unicode's bidi rules P2 and P3,
// for the scripts by their blocks: Swift's Unicode properties have no bidi class), the script a
// shaper needs to join its letters (Arabic's forms), and a right-to-left text turned for a shaper
// that lays a whole line out one way, its Latin words and numbers reading left to right. Pure: the
// screen sets its font, and turns its texts, by them.

public enum TextDirection: Equatable, Sendable {
    case leftToRight, rightToLeft

    /// The direction of `text`'s first strong character: right to left for Hebrew, Arabic and the
    /// other right-to-left blocks, left to right for any other letter; left to right when it has none
    /// (digits, punctuation, emoji).
    public static func of(_ text: some StringProtocol) -> TextDirection {
        for scalar in text.unicodeScalars {
            if isRightToLeft(scalar) { return .rightToLeft }
            if isLetter(scalar) { return .leftToRight }
        }
        return .leftToRight
    }

    /// ISO 15924's tag for the script of `text`'s first strong character, as HarfBuzz reads it
    /// (hb_script_from_string): "Arab", "Hebr", or "Zzzz" (unknown: HarfBuzz's own default).
    public static func script(of text: some StringProtocol) -> String {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0590...0x05FF, 0xFB1D...0xFB4F: if isLetter(scalar) { return "Hebr" }
            case 0x0600...0x06FF, 0x0750...0x077F, 0x0870...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: if isLetter(scalar) { return "Arab" }
            default: if isLetter(scalar) { return "Zzzz" }
            }
        }
        return "Zzzz"
    }

    /// `text` in the order a shaper that lays out a whole line one way needs it (SDL2_ttf's HarfBuzz
    /// does no bidi reordering): in a right-to-left text, each run that Unicode's bidi algorithm
    /// (UAX #9, for one right-to-left paragraph without explicit embeddings) lays out left to right
    /// is reversed, so that laid out right to left it reads left to right in its place: "ما هو ABC
    /// 2026؟" as "ما هو 6202 CBA؟". Such runs are Latin words with the spaces and punctuation between
    /// them and the numbers after them, numbers with their separators ("1,000", "50%"), and the
    /// closing brackets of ones opened in them. Brackets in a run are swapped for their mirror
    /// images, which the shaper mirrors back. A left-to-right text as given; each line on its own.
    public static func forShaper(_ text: String) -> String {
        guard of(text) == .rightToLeft else { return text }
        var characters = Array(text)
        for line in lines(characters) {
            for run in leftToRightRuns(Array(characters[line])) {
                let range = (line.lowerBound + run.lowerBound)...(line.lowerBound + run.upperBound)
                characters.replaceSubrange(range, with: characters[range].reversed().map { mirrors[$0] ?? $0 })
            }
        }
        return String(characters)
    }

    /// The ranges of `characters` between line ends.
    private static func lines(_ characters: [Character]) -> [Range<Int>] {
        var lines: [Range<Int>] = [], start = 0
        for (i, character) in characters.enumerated() where character.isNewline {
            lines.append(start..<i)
            start = i + 1
        }
        return lines + [start..<characters.count]
    }

    /// One line's characters as the bidi algorithm sees them: strong either way, a number (laid out
    /// left to right, but acting as right to left on what is around it), or neutral.
    private enum Kind { case right, left, number, neutral }

    /// The runs of one line of a right-to-left paragraph laid out left to right (level 2), as closed
    /// ranges: UAX #9's W2-W7 (numbers, their separators and terminators; a number after a Latin
    /// letter is left to right), N1-N2 (neutrals between two left-to-right characters are left to
    /// right; others right to left, the paragraph's), and N0 only for closing brackets.
    private static func leftToRightRuns(_ line: [Character]) -> [ClosedRange<Int>] {
        var kinds: [Kind] = line.map { character in
            let scalar = character.unicodeScalars.first!
            if isRightToLeft(scalar) { return .right }
            if isLetter(scalar) { return .left }
            return scalar.properties.generalCategory == .decimalNumber ? .number : .neutral
        }
        // W4-W5: one separator between two digits, and terminators ("%", "°", currency) beside one, are the number's.
        for i in kinds.indices where kinds[i] == .neutral {
            let before = i > 0 ? kinds[i - 1] : nil, after = i + 1 < kinds.count ? kinds[i + 1] : nil
            if separators.contains(line[i]), before == .number, after == .number { kinds[i] = .number }
        }
        for i in kinds.indices where kinds[i] == .neutral && isTerminator(line[i]) {
            var j = i
            while j < kinds.count, kinds[j] == .neutral, isTerminator(line[j]) { j += 1 }
            if (i > 0 && kinds[i - 1] == .number) || (j < kinds.count && kinds[j] == .number) { kinds[i] = .number }
        }
        // W7: a European number whose last strong character before it is a Latin letter is left to
        // right (Arabic-Indic digits stay numbers).
        var last: Kind = .right
        for i in kinds.indices {
            switch kinds[i] {
            case .right, .left: last = kinds[i]
            case .number where last == .left && !(0x0660...0x066C).contains(line[i].unicodeScalars.first!.value): kinds[i] = .left
            default: break
            }
        }
        // N1-N2: neutrals between two left-to-right characters are; the others take the paragraph's.
        var leftToRight = kinds.map { $0 == .left || $0 == .number }
        var i = 0
        while i < kinds.count {
            guard kinds[i] == .neutral else { i += 1; continue }
            var j = i
            while j < kinds.count, kinds[j] == .neutral { j += 1 }
            let between = i > 0 && j < kinds.count && kinds[i - 1] == .left && kinds[j] == .left
            for k in i..<j { leftToRight[k] = between }
            i = j
        }
        // The runs; closing brackets right after one, whose openers are in it, belong to it.
        var runs: [ClosedRange<Int>] = []
        i = 0
        while i < line.count {
            guard leftToRight[i] else { i += 1; continue }
            var end = i
            while end + 1 < line.count, leftToRight[end + 1] { end += 1 }
            var open = line[i...end].reduce(0) { $0 + (opening.contains($1) ? 1 : closing.contains($1) ? -1 : 0) }
            while open > 0, end + 1 < line.count, closing.contains(line[end + 1]) { end += 1; open -= 1 }
            runs.append(i...end)
            i = end + 1
        }
        return runs
    }

    /// Common and European separators (bidi classes CS and ES): kept inside a number.
    private static let separators: Set<Character> = [",", ".", ":", "/", "+", "-", "\u{00A0}", "\u{066B}", "\u{066C}"]

    /// European terminators (bidi class ET): percent and per-mille signs, degrees, currency, "#".
    private static func isTerminator(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        return "#%°‰‱٪".unicodeScalars.contains(scalar) || scalar.properties.generalCategory == .currencySymbol
    }

    private static let opening: Set<Character> = ["(", "[", "{", "<", "«", "‹"]
    private static let closing: Set<Character> = [")", "]", "}", ">", "»", "›"]
    private static let mirrors: [Character: Character] = ["(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{",
                                                          "<": ">", ">": "<", "«": "»", "»": "«", "‹": "›", "›": "‹"]

    /// The blocks whose letters are strong right to left (bidi classes R and AL): Hebrew, Arabic,
    /// Syriac, Thaana, NKo, Samaritan, Mandaic, their presentation forms, and the historic scripts of
    /// the supplementary planes' right-to-left areas.
    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
            // Marks and digits there are not strong; letters are.
            return isLetter(scalar)
        default: return false
        }
    }

    /// A letter: alphabetic and no combining mark (Arabic's vowel marks are alphabetic, but take
    /// the direction of the letter they sit on).
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: false
        default: scalar.properties.isAlphabetic
        }
    }
}
