// The consent screen's words from the operator's file (`--consent FILE`): a text file's paragraphs
// (runs of lines, blank lines between them), or a Markdown file's headings and paragraphs, its list
// items each a paragraph of its own with a bullet, its emphasis and code marks and its links' addresses
// left out (the screen shows words, not markup). A UTF-8 byte order mark and Windows line ends go.

public enum ConsentText {
    /// A paragraph of the text, or a heading (drawn larger).
    public struct Block: Equatable, Sendable {
        public var text: String
        public var heading: Bool

        public init(_ text: String, heading: Bool = false) { (self.text, self.heading) = (text, heading) }
    }

    /// A file whose name ends in `.md` is read as Markdown.
    public static func isMarkdown(_ path: String) -> Bool { path.lowercased().hasSuffix(".md") }

    public static func blocks(of text: String, markdown: Bool) -> [Block] {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        var blocks: [Block] = [], lines: [String] = []
        func flush() {
            if !lines.isEmpty { blocks.append(Block(lines.joined(separator: " "))) }
            lines = []
        }
        for raw in body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = String(raw.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            guard !line.isEmpty else { flush(); continue }
            guard markdown else { lines.append(line); continue }
            if let heading = heading(line) {
                flush()
                if !heading.isEmpty { blocks.append(Block(heading, heading: true)) }
            } else if let item = listItem(line) {
                flush()
                lines = ["• " + plain(item)]
            } else if line.allSatisfy({ "-*_=".contains($0) }), line.count >= 3 {
                flush() // a rule, or a heading's underline
            } else {
                lines.append(plain(line.hasPrefix(">") ? String(line.dropFirst()).trimmingLeadingSpace : line))
            }
        }
        flush()
        return blocks
    }

    /// `# Title` … `###### Title`: the title without its marks.
    static func heading(_ line: String) -> String? {
        let marks = line.prefix(while: { $0 == "#" }).count
        guard (1...6).contains(marks), line.dropFirst(marks).first == " " else { return nil }
        var title = String(line.dropFirst(marks)).trimmingLeadingSpace
        while let last = title.last, last == "#" || last == " " { title.removeLast() }
        return plain(title)
    }

    /// `- item`, `* item`, `+ item`, `1. item`, `1) item`: the item's words.
    static func listItem(_ line: String) -> String? {
        if let first = line.first, "-*+".contains(first), line.dropFirst().first == " " { return String(line.dropFirst(2)) }
        let digits = line.prefix(while: \.isNumber)
        let rest = line.dropFirst(digits.count)
        guard !digits.isEmpty, digits.count <= 9, let mark = rest.first, mark == "." || mark == ")", rest.dropFirst().first == " " else { return nil }
        return String(rest.dropFirst(2))
    }

    /// The words without emphasis and code marks, a link as its words, an image as its description.
    /// A bracket that opens no link (`[your name]`, as a text's placeholder) is a word's.
    static func plain(_ line: String) -> String {
        var out = "", chars = Array(line), i = 0
        /// Whether a `[` at `j` opens a link: its `]` is followed by `(`.
        func opensLink(_ j: Int) -> Bool {
            guard j < chars.count, chars[j] == "[", let close = chars[j...].firstIndex(of: "]") else { return false }
            return close + 1 < chars.count && chars[close + 1] == "("
        }
        while i < chars.count {
            let c = chars[i]
            if c == "\\", i + 1 < chars.count { out.append(chars[i + 1]); i += 2; continue }
            if c == "!", opensLink(i + 1) { i += 1; continue }
            if c == "]", i + 1 < chars.count, chars[i + 1] == "(", let close = chars[(i + 1)...].firstIndex(of: ")") { i = close + 1; continue }
            if opensLink(i) || c == "`" { i += 1; continue }
            // `*`, `_` as emphasis: at a word's edge (a `_` inside a word, `snake_case`, stays).
            if c == "*" || c == "_" {
                let before = i > 0 ? chars[i - 1] : " ", after = i + 1 < chars.count ? chars[i + 1] : " "
                if c == "*" || !(before.isLetter || before.isNumber) || !(after.isLetter || after.isNumber) { i += 1; continue }
            }
            out.append(c)
            i += 1
        }
        return out
    }
}

extension String {
    var trimmingLeadingSpace: String { String(drop(while: \.isWhitespace)) }
}
