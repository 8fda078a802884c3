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

/// `LineBreaks.fitted` (the question's size and lines) by table, each character half its size wide.
@Suite("LineBreaks: a text fitted to a box")
struct FittedLinesTests {
    static func fitted(_ text: String, size: Int = 20, smallest: Int = 10, maxWidth: Int = 100, maxHeight: Int = 1000, maxLines: Int = .max) -> (size: Int, lines: [String]) {
        LineBreaks.fitted(text, size: size, smallest: smallest, maxWidth: maxWidth, maxHeight: maxHeight, maxLines: maxLines) { $0.count * $1 / 2 }
    }

    @Test("the largest size from the start down (a tenth at a time) at which the lines fit the count and the height; at the smallest, still too long: the last line cut at a break, with …",
          arguments: [
            ("Hi there", 1000, Int.max, 20, ["Hi there"]),
            // Four lines at 20 (10 characters a line); two at 10 (20 a line), under two lines' limit.
            ("What is your best memory of them", 1000, 2, 10, ["What is your best", "memory of them"]),
            // The same by height: two lines of 10 px are 24 px tall.
            ("What is your best memory of them", 24, Int.max, 10, ["What is your best", "memory of them"]),
            // Still three lines at the smallest: the second is cut where it fits with the ellipsis.
            ("What is your best memory of the two of them together?", 1000, 2, 10, ["What is your best", "memory of the two…"]),
            ("What is your best memory of the two of them together?", 12, 2, 10, ["What is your best…"]),
            // 30 characters: three lines down to 14 (14 a line), two at 12 (16 a line), balanced.
            ("ふたりへのメッセージをお願いします。ありがとうございました。", 1000, 2, 12, ["ふたりへのメッセージをお願いし", "ます。ありがとうございました。"]),
            // One line: at 10, 20 characters fit; cut between characters, "…" in the 20th's place.
            ("ふたりへのメッセージをお願いします。ありがとうございました。", 1000, 1, 10, ["ふたりへのメッセージをお願いします。あ…"]),
          ] as [(String, Int, Int, Int, [String])])
    func fitted(text: String, maxHeight: Int, maxLines: Int, size: Int, lines: [String]) {
        let got = Self.fitted(text, maxHeight: maxHeight, maxLines: maxLines)
        #expect(got.size == size && got.lines == lines, "\(got)")
        #expect(got.lines.allSatisfy { $0.count * got.size / 2 <= 100 }, "\(got)")
    }

    @Test("never under the smallest size, never over the start; a text that fits at once is left at the start size")
    func bounds() {
        for length in stride(from: 1, through: 200, by: 7) {
            let text = String(repeating: "word ", count: length)
            let got = Self.fitted(text, size: 26, smallest: 14, maxWidth: 300, maxHeight: 60, maxLines: 2)
            #expect(got.size >= 14 && got.size <= 26 && got.lines.count <= 2 && !got.lines.isEmpty, "\(length): \(got)")
            #expect(got.lines.allSatisfy { $0.count * got.size / 2 <= 300 }, "\(length): \(got)")
            #expect(length > 2 || got.size == 26, "\(length): \(got)")
        }
    }
}
