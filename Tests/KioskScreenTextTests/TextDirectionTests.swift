// Which way a text runs and the script its letters are shaped by, by table: its first strong
// character decides, whatever neutral characters (digits, punctuation, emoji) come before it.
import Testing
@testable import KioskScreenText

@Suite("TextDirection: a text's direction and script by its first strong character")
struct TextDirectionTests {
    @Test("direction and HarfBuzz script tag",
          arguments: [
            ("ما هو الحب؟", TextDirection.rightToLeft, "Arab"),
            ("מה שלומך?", .rightToLeft, "Hebr"),
            // Neutral characters first: the first letter decides.
            ("2026: ما هو الحب؟", .rightToLeft, "Arab"),
            ("«שלום»", .rightToLeft, "Hebr"),
            // A Latin word first makes the whole text left to right.
            ("Anna: ما هو الحب؟", .leftToRight, "Zzzz"),
            ("Leave a message for Anna & Tom", .leftToRight, "Zzzz"),
            ("ふたりへのメッセージを", .leftToRight, "Zzzz"),
            // Syriac is right to left; HarfBuzz is left to guess its script.
            ("ܫܠܡܐ", .rightToLeft, "Zzzz"),
            // Nothing strong: left to right.
            ("12:30 🎉", .leftToRight, "Zzzz"),
            ("", .leftToRight, "Zzzz"),
          ] as [(String, TextDirection, String)])
    func direction(text: String, direction: TextDirection, script: String) {
        #expect(TextDirection.of(text) == direction, "\(text)")
        #expect(TextDirection.script(of: text) == script, "\(text)")
    }

    @Test("Arabic's own digits and marks are not strong; its letters are")
    func neutrals() {
        // ARABIC-INDIC DIGIT TWO, ARABIC FATHA, then ALEF.
        #expect(!TextDirection.isRightToLeft("\u{0662}"))
        #expect(!TextDirection.isRightToLeft("\u{064E}"))
        #expect(TextDirection.isRightToLeft("\u{0627}"))
        #expect(TextDirection.of("\u{0662}\u{0662} abc") == .leftToRight)
    }

    @Test("for a shaper that lays a whole line out one way: a right-to-left text's Latin words and numbers turned, brackets in them mirrored; anything else as given",
          arguments: [
            ("ما هو الحب؟", "ما هو الحب؟"),
            ("ما هو ABC 2026?", "ما هو 6202 CBA?"),
            ("ما أمنيتك لعام ٢٠٢٧؟", "ما أمنيتك لعام ٧٢٠٢؟"),
            // A number after Arabic is a run of its own; after a Latin word, part of its run.
            ("ما 2026 ABC", "ما 6202 CBA"),
            ("ما هو ABC 2026? (f(x)) ٢٠٢٧", "ما هو ((x)f) ?6202 CBA ٧٢٠٢"),
            ("כמה? 1,000 או 50%", "כמה? 000,1 או %05"),
            // Spaces and punctuation at a run's ends stay right to left; the brackets its own.
            ("מה (f(x)) שלום", "מה ((x)f) שלום"),
            ("שלום Anna & Tom!", "שלום moT & annA!"),
            // Each line of a paragraph on its own.
            ("שלום AB\nCD שלום", "שלום BA\nDC שלום"),
            // A letter with its mark stays one.
            ("שלום E\u{301}e\u{301}", "שלום e\u{301}E\u{301}"),
            ("Anna & Tom: ما هو الحب؟", "Anna & Tom: ما هو الحب؟"),
          ] as [(String, String)])
    func forShaper(text: String, expected: String) {
        #expect(TextDirection.forShaper(text) == expected)
    }
}
