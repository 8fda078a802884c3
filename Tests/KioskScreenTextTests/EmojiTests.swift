// Which characters go to the colour emoji face, by table: emoji-presentation pictographs, VS16
// sequences, ZWJ and skin-tone sequences whole; text-default symbols, digits and VS15 stay with the
// words. And a text cut into runs of the two, in order, joining back into the text.
import Testing
@testable import KioskScreenText

@Suite("Emoji: which characters are drawn in the colour emoji face, and the runs a text is cut into")
struct EmojiTests {
    @Test("emoji presentation: the character (a whole grapheme cluster) is an emoji or stays with the words",
          arguments: [
            ("💍", true), ("🎉", true), ("😀", true),
            // Skin tones and ZWJ sequences: one cluster, one emoji.
            ("👍🏽", true), ("👩\u{200D}❤\u{FE0F}\u{200D}👨", true), ("👨\u{200D}👩\u{200D}👧", true),
            // A text-default pictograph in a ZWJ or skin-tone sequence is drawn as an emoji.
            ("❤\u{200D}🔥", true), ("☝🏽", true),
            // Flags (regional indicator pairs, tag sequences) and a keycap with VS16.
            ("🇩🇪", true), ("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", true), ("1\u{FE0F}\u{20E3}", true),
            // VS16 makes a text-default character an emoji; VS15 makes an emoji text.
            ("❤\u{FE0F}", true), ("❤", false), ("☺\u{FE0E}", false), ("💍\u{FE0E}", false),
            // Text-default symbols, digits and letters stay with the words.
            ("©", false), ("™", false), ("1", false), ("#", false), ("1\u{20E3}", false), ("A", false), (" ", false),
            ("録", false), ("ح", false), ("\u{10FFFF}", false),
          ] as [(Character, Bool)])
    func presentation(character: Character, emoji: Bool) {
        #expect(Emoji.isEmoji(character) == emoji, "\(character.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test("runs: the emoji the face has together, the words between them; each run non-empty, together the text")
    func runs() {
        let all: (Character) -> Bool = { _ in true }
        func cut(_ text: String, has: (Character) -> Bool = all) -> [String] {
            let runs = Emoji.runs(text, has: has)
            #expect(runs.map(\.text).joined() == text && runs.allSatisfy { !$0.text.isEmpty })
            // Runs alternate: two of a kind are never side by side.
            #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.emoji != $1.emoji })
            return runs.map { ($0.emoji ? "E:" : "T:") + $0.text }
        }
        #expect(cut("Say something for the rings 💍") == ["T:Say something for the rings ", "E:💍"])
        #expect(cut("💍🎉 Cheers to Anna and Tom 🎉") == ["E:💍🎉", "T: Cheers to Anna and Tom ", "E:🎉"])
        #expect(cut("Rings and cheers") == ["T:Rings and cheers"])
        #expect(cut("") == [])
        // A skin tone, a ZWJ family and VS16 stay in their cluster's run.
        #expect(cut("Hi 👍🏽👨\u{200D}👩\u{200D}👧 ❤\u{FE0F}!") == ["T:Hi ", "E:👍🏽👨\u{200D}👩\u{200D}👧", "T: ", "E:❤\u{FE0F}", "T:!"])
        // Text presentation and text-default symbols stay with the words.
        #expect(cut("© 2026 ❤ ☺\u{FE0E}") == ["T:© 2026 ❤ ☺\u{FE0E}"])
        // Right to left: the runs in the text's (logical) order.
        #expect(cut("مبروك 🎉 للعروسين") == ["T:مبروك ", "E:🎉", "T: للعروسين"])
        // An emoji the colour face lacks stays with the words (the words' face, or left out).
        #expect(cut("new 🫎 and old 💍", has: { $0 != "🫎" }) == ["T:new 🫎 and old ", "E:💍"])
        // A paragraph's line breaks are words.
        #expect(cut("💍\n🎉") == ["E:💍", "T:\n", "E:🎉"])
    }

    @Test("what a face must have for an emoji: not the joiner or the variation selectors; its shaper's text without the selectors")
    func glyphs() {
        #expect(Emoji.glyphs(of: "👩\u{200D}❤\u{FE0F}\u{200D}👨") == [0x1F469, 0x2764, 0x1F468])
        #expect(Emoji.glyphs(of: "1\u{FE0F}\u{20E3}") == [0x31, 0x20E3])
        #expect(Emoji.glyphs(of: "👍🏽") == [0x1F44D, 0x1F3FD])
        #expect(Emoji.forShaper("❤\u{FE0F}💍1\u{FE0F}\u{20E3}") == "❤💍1\u{20E3}")
        #expect(Emoji.forShaper("👨\u{200D}👩\u{200D}👧") == "👨\u{200D}👩\u{200D}👧")
    }
}
