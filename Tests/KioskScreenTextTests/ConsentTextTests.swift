// The consent file's words as the consent screen shows them (ConsentText): Markdown's marks left out,
// a link as its words and an image as its description, and a bracket that opens no link kept (an
// example text's `[placeholder]`).
import Testing
@testable import KioskScreenText

@Suite("ConsentText: the consent file's words")
struct ConsentTextTests {
    static let lines: [(String, String)] = [
        ("**Before** we _record_", "Before we record"),
        ("see [our page](https://example.org/privacy) now", "see our page now"),
        ("![a camera](camera.png) here", "a camera here"),
        ("[Organiser's name] keeps it for [30 days]", "[Organiser's name] keeps it for [30 days]"),
        ("ask [contact], or read [this](x)", "ask [contact], or read this"),
        ("`code` and snake_case and \\*stars\\*", "code and snake_case and *stars*"),
        ("Hi! [x]", "Hi! [x]"),
    ]

    @Test("a line's words: emphasis, code marks and links' addresses go; a bracket that opens no link stays", arguments: lines.indices)
    func plain(index: Int) {
        let (line, words) = Self.lines[index]
        #expect(ConsentText.plain(line) == words)
    }

    @Test("a Markdown file: headings, paragraphs joined from their lines, list items with a bullet, quotes as paragraphs")
    func blocks() {
        let text = "\u{FEFF}# Before we record\r\n\r\nThis booth keeps it\r\nfor [30 days].\n\n- delete it [any time]\n\n> ask us\n"
        #expect(ConsentText.blocks(of: text, markdown: true) == [
            .init("Before we record", heading: true), .init("This booth keeps it for [30 days]."), .init("• delete it [any time]"), .init("ask us"),
        ])
    }
}
