// The rule for characters no font has, by table: the face with every character wins in the order
// of preference, else the one lacking the fewest; the warning names each text's origin and its
// characters once, on one line, with the fix.
import Testing
@testable import KioskScreenText

@Suite("Glyphs: characters no font has never stop the booth")
struct GlyphsTests {
    /// Faces as the sets of characters they have.
    static let latin = Set("Rings and cheers ".unicodeScalars.map(\.value))
    static let symbola = latin.union([0x1F48D, 0x1F389])
    static let emojiOnly: Set<UInt32> = [0x1F48D, 0x1F389]

    static func pick(_ faces: [String: Set<UInt32>], order: [String], _ text: String) -> (String, [UInt32])? {
        Glyphs.pick(order, for: Glyphs.scalars(of: text)) { faces[$0]!.contains($1) }.map { ($0.face, $0.missing) }
    }

    @Test("the first face with every character wins; else the one lacking the fewest, the earlier on a tie; what it lacks once each")
    func pick() {
        let faces = ["dejavu": Self.latin, "emoji": Self.emojiOnly, "symbola": Self.symbola]
        #expect(Self.pick(faces, order: ["dejavu", "symbola"], "Rings and cheers")! == ("dejavu", []))
        #expect(Self.pick(faces, order: ["dejavu", "emoji", "symbola"], "Rings 💍 and cheers 🎉")! == ("symbola", []))
        // The colour emoji face has the emoji but not the words: the words' face shows the text.
        #expect(Self.pick(faces, order: ["dejavu", "emoji"], "Rings 💍 and cheers 🎉💍")! == ("dejavu", [0x1F48D, 0x1F389]))
        // A noncharacter no face has: left out of the best face's text.
        #expect(Self.pick(faces, order: ["dejavu", "symbola"], "Rings \u{10FFFF}")! == ("dejavu", [0x10FFFF]))
        #expect(Self.pick(faces, order: [], "Rings") == nil)
        // A paragraph's line breaks are no glyph.
        #expect(Self.pick(faces, order: ["dejavu"], "Rings\ncheers")! == ("dejavu", []))
    }

    @Test("a character named by its code and itself; an invisible or a noncharacter by its code alone")
    func names() {
        #expect(Glyphs.name(0x1F48D) == "U+1F48D 💍")
        #expect(Glyphs.name(0x10FFFF) == "U+10FFFF")
        #expect(Glyphs.name(0xE000) == "U+E000")
        #expect(Glyphs.name(0x200B) == "U+200B")
        #expect(Glyphs.name(0x41) == "U+0041 A")
    }

    @Test("one line naming each origin once with its characters, at most six origins, then the fix; nothing when all can be drawn")
    func warning() throws {
        #expect(Glyphs.warning([]) == nil && Glyphs.warning([UndrawableText(origin: "q.txt:1", missing: [])]) == nil)
        let line = try #require(Glyphs.warning([
            UndrawableText(origin: "q.txt:1", missing: [0x1F48D]),
            UndrawableText(origin: "q.txt:2", missing: [0x1F389]),
            UndrawableText(origin: "q.txt:5", missing: [0x10FFFF]),
        ]))
        #expect(line == "no installed font can draw q.txt:1: U+1F48D 💍; q.txt:2: U+1F389 🎉; q.txt:5: U+10FFFF: left out on screen; " + Glyphs.fix)
        #expect(!line.contains("\n") && line.contains("fonts-noto-color-emoji and fonts-symbola"))
        // A language's words are named once, their characters together.
        let words = try #require(Glyphs.summary([UndrawableText(origin: "--language ja", missing: [0x9332, 0x753B]),
                                                 UndrawableText(origin: "--language ja", missing: [0x753B, 0x518D])]))
        #expect(words == "no installed font can draw --language ja: U+9332 録, U+753B 画, U+518D 再: left out on screen")
        let many = try #require(Glyphs.summary((1...9).map { UndrawableText(origin: "q.txt:\($0)", missing: [0x10FFFF]) }))
        #expect(many.hasSuffix("q.txt:6: U+10FFFF; and 3 more: left out on screen") && !many.contains("q.txt:7"), "\(many)")
    }
}
