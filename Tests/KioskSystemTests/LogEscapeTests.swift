// Names on stderr: a control character in a file's or a camera's name is written as JSON writes it,
// so that no name can break a log line in two or forge one of its own.
import Testing
import KioskSystem

@Suite("Log: names escaped on stderr")
struct LogEscapeTests {
    @Test("control characters as JSON writes them; everything else, quotes and backslashes and any language, as it is", arguments: [
        ("take 1.mov", "take 1.mov"), ("a\nkiosk-recorder: forged", #"a\nkiosk-recorder: forged"#), ("\r\t\u{8}\u{C}", #"\r\t\b\f"#),
        ("\u{1B}[31mred\u{7F}", #"\u001b[31mred\u007f"#), ("\u{0}", #"\u0000"#), (#"C:\new "path""#, #"C:\new "path""#), ("ふたり é", "ふたり é"),
    ])
    func escaped(text: String, shown: String) {
        #expect(Log.escaped(text) == shown)
    }
}
