// Where a paragraph of the guest's words breaks into lines: balanced (the fewest lines that fit,
// as even as they can be, so no word is left alone on the last line when the lines could share),
// and at the places each script allows: between words where there are spaces; in Japanese and
// Chinese between characters, but never before a small kana, a prolonged sound mark or closing
// punctuation, nor after opening punctuation (the basic line-breaking rules, kinsoku shori, without
// ICU). Pure: the width of a piece of text comes from the caller (the font's measure).

public enum LineBreaks {
    /// The pieces text may break between, each with what joins it to the one before (" " between
    /// words, "" inside CJK text). Public for a caller that measures each piece once and adds them up.
    public static func pieces(_ text: String) -> [(text: String, joiner: String)] {
        var pieces: [(text: String, joiner: String)] = []
        for (w, word) in text.split(separator: " ", omittingEmptySubsequences: true).enumerated() {
            var current = "", joiner = w == 0 ? "" : " "
            var previous: Character?
            for character in word {
                if let before = previous, isBreakable(before) || isBreakable(character),
                   !noBreakBefore.contains(character), !noBreakAfter.contains(before) {
                    pieces.append((current, joiner))
                    current = ""
                    joiner = ""
                }
                current.append(character)
                previous = character
            }
            if !current.isEmpty { pieces.append((current, joiner)) }
        }
        return pieces
    }

    /// Characters between which a line may break without a space: CJK ideographs, kana, and
    /// full-width punctuation.
    static func isBreakable(_ c: Character) -> Bool {
        guard let scalar = c.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x3000...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFFEF: return true
        default: return false
        }
    }

    /// Never at the start of a line: small kana, the prolonged sound mark, closing brackets and
    /// full stops, commas, and the like.
    static let noBreakBefore: Set<Character> = Set("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿーヽヾゝゞ々〻、。，．・：；？！）」』】〕〉》〙〗｝］”’"
                                                        + ".,:;!?)]}…‥")
    /// Never at the end of a line: opening brackets and quotes.
    static let noBreakAfter: Set<Character> = Set("（「『【〔〈《〘〖｛［“‘([{")

    /// `text` in lines no wider than `maxWidth` (by `width`), as few as greedy filling needs and as
    /// even as they can be at that count. A piece wider than `maxWidth` alone is a line of its own.
    public static func balanced<E: Error>(_ text: String, maxWidth: Int, width: (String) throws(E) -> Int) throws(E) -> [String] {
        let pieces = pieces(text)
        guard !pieces.isEmpty else { return [] }
        let count = try greedy(pieces, maxWidth: maxWidth, width: width).count
        guard count > 1 else { return try greedy(pieces, maxWidth: maxWidth, width: width) }
        // The narrowest width at which greedy filling still takes `count` lines: the lines are then
        // as even as breaking at these places allows.
        var low = 1, high = maxWidth
        while low < high {
            let mid = (low + high) / 2
            if try greedy(pieces, maxWidth: mid, width: width).count <= count { high = mid } else { low = mid + 1 }
        }
        return try greedy(pieces, maxWidth: low, width: width)
    }

    /// Fills each line with as many pieces as fit in `maxWidth`.
    static func greedy<E: Error>(_ pieces: [(text: String, joiner: String)], maxWidth: Int, width: (String) throws(E) -> Int) throws(E) -> [String] {
        var lines: [String] = [], line = ""
        for piece in pieces {
            let joined = line.isEmpty ? piece.text : line + piece.joiner + piece.text
            var fits = line.isEmpty
            if !fits { fits = try width(joined) <= maxWidth }
            if fits {
                line = joined
            } else {
                lines.append(line)
                line = piece.text
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension LineBreaks {
    /// `text` at the largest size from `size` down (a tenth at a time) to `smallest` whose balanced
    /// lines fit `maxWidth` (by `width`, which measures a piece at a size), are at most `maxLines`,
    /// and stack (a line is 1.2 of its size tall) no taller than `maxHeight`. Still too long at
    /// `smallest`: its first lines that fit, the last cut at a break with "…" after it.
    public static func fitted<E: Error>(_ text: String, size: Int, smallest: Int, maxWidth: Int, maxHeight: Int, maxLines: Int = .max,
                                        width: (String, Int) throws(E) -> Int) throws(E) -> (size: Int, lines: [String]) {
        var size = max(size, 1)
        let smallest = min(max(smallest, 1), size)
        while true {
            let at = size
            let lines = try balanced(text, maxWidth: maxWidth) { piece throws(E) in try width(piece, at) }
            let room = min(maxLines, max(maxHeight / (at * 6 / 5), 1))
            if lines.count <= room { return (at, lines) }
            if at > smallest { size = max(at * 9 / 10, smallest); continue }
            // Greedy lines up to the room; the last one's pieces dropped until it fits with "…".
            var shown = try greedy(pieces(text), maxWidth: maxWidth) { piece throws(E) in try width(piece, at) }
            shown.removeLast(shown.count - room)
            var last = pieces(shown[room - 1])
            while last.count > 1, try width(last.map { $0.joiner + $0.text }.joined() + "…", at) > maxWidth { last.removeLast() }
            shown[room - 1] = last.map { $0.joiner + $0.text }.joined() + "…"
            return (at, shown)
        }
    }
}
