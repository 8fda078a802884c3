// The prompt's lines by table, with each character one unit wide: balanced over the fewest lines,
// no word alone on the last line when the lines could share, and CJK text broken only where the
// basic rules allow.
import Testing
@testable import KioskScreenText

@Suite("LineBreaks: the prompt's lines")
struct LineBreaksTests {
    static func lines(_ text: String, _ maxWidth: Int) -> [String] {
        LineBreaks.balanced(text, maxWidth: maxWidth) { $0.count }
    }

    @Test("words: the fewest lines, as even as they can be; no word alone at the end when the lines could share it",
          arguments: [
            ("Leave a message for Anna & Tom", 40, ["Leave a message for Anna & Tom"]),
            // Greedy filling at 24 leaves "& Tom" alone on the second line; balanced, 15 and 14 wide.
            ("Leave a message for Anna & Tom", 24, ["Leave a message", "for Anna & Tom"]),
            ("one two three four five six", 13, ["one two three", "four five six"]),
            ("a supercalifragilistic word", 10, ["a", "supercalifragilistic", "word"]),
            ("", 10, []),
          ] as [(String, Int, [String])])
    func words(text: String, maxWidth: Int, expected: [String]) {
        #expect(Self.lines(text, maxWidth) == expected)
        for line in Self.lines(text, maxWidth) where !line.contains("supercalifragilistic") { #expect(line.count <= maxWidth) }
    }

    @Test("greedy filling would leave one word alone on the last line; balanced never does here")
    func noOrphan() {
        let text = "Record a message for the happy couple"
        let greedy = LineBreaks.greedy(LineBreaks.pieces(text), maxWidth: 33) { $0.count }
        #expect(greedy.last == "couple", "\(greedy)")
        let balanced = Self.lines(text, 33)
        #expect(balanced.count == greedy.count && balanced.last!.contains(" "), "\(balanced)")
    }

    @Test("Japanese and Chinese break between characters, never before a small kana, ー or closing punctuation, nor after an opening bracket",
          arguments: [
            // くだ|さい was the break the issue saw; here every line may end only where allowed.
            ("メッセージを録画してください。", 8),
            ("「ありがとう」と言ってください", 6),
            ("请录制一段祝福视频，谢谢！", 5),
          ] as [(String, Int)])
    func cjk(text: String, maxWidth: Int) {
        let lines = Self.lines(text, maxWidth)
        #expect(lines.joined() == text, "\(lines)")
        #expect(lines.count > 1)
        for (i, line) in lines.enumerated() {
            #expect(line.count <= maxWidth, "\(lines)")
            if i > 0 { #expect(!LineBreaks.noBreakBefore.contains(line.first!), "line \(i) starts with \(line.first!): \(lines)") }
            if i < lines.count - 1 { #expect(!LineBreaks.noBreakAfter.contains(line.last!), "line \(i) ends with \(line.last!): \(lines)") }
        }
    }

    @Test("the pieces: words keep their spaces; CJK characters are pieces of their own, with a small kana or closing mark kept on the one before")
    func pieces() {
        #expect(LineBreaks.pieces("Hello big world").map(\.text) == ["Hello", "big", "world"])
        #expect(LineBreaks.pieces("ちょっと。").map(\.text) == ["ちょっ", "と。"])
        #expect(LineBreaks.pieces("ください。").map(\.text) == ["く", "だ", "さ", "い。"])
        #expect(LineBreaks.pieces("「はい」").map(\.text) == ["「は", "い」"])
    }
}
