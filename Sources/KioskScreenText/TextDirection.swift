// Which way a piece of text runs, by its first strong character (Unicode's bidi rules P2 and P3,
// for the scripts by their blocks: Swift's Unicode properties have no bidi class), and the script a
// shaper needs to join its letters (Arabic's forms). Pure: the screen sets its font by them.

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
