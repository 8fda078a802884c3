// The framing of command lines (CommandLineSplitter).
import Testing
import KioskContract

@Suite("Command lines from stdin")
struct CommandLineSplitterTests {
    @Test("lines in any chunks, LF or CRLF; a line over the limit is reported once and the rest of it dropped")
    func split() {
        var s = CommandLineSplitter(limit: 8)
        #expect(s.feed(Array(#"{"a"}"#.utf8)) == [])
        #expect(s.feed(Array("\r\nstate\n\n".utf8)) == [.line(#"{"a"}"#), .line("state"), .line("")])
        // 20 bytes without a newline: one `overlong` at the 9th, nothing more until the newline.
        #expect(s.feed(Array(repeating: UInt8(ascii: "x"), count: 20)) == [.overlong])
        #expect(s.feed(Array(repeating: UInt8(ascii: "y"), count: 20)) == [])
        #expect(s.feed(Array("yy\nquit\n".utf8)) == [.line("quit")])
        // Exactly the limit is a line.
        #expect(s.feed(Array("12345678\n".utf8)) == [.line("12345678")])
    }
}
