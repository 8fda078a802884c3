// The manual page made from the option table: every listed option in it, and docs/kiosk-recorder.1
// the table's page as it stands (regenerate it with `swift run kiosk-bench man-page`).
import Foundation
import Testing
@testable import KioskCore
@testable import KioskOptions

@Suite("kiosk-recorder(1) from the option table")
struct ManPageTests {
    @Test("every listed option is in the page with its argument; no unlisted (old) spelling is")
    func everyOption() {
        let page = OptionParser.manPage
        for option in OptionParser.options {
            let name = #".TP"# + "\n" + #"\fB\-\-"# + option.name.replacingOccurrences(of: "-", with: #"\-"#) + #"\fR"#
            #expect(page.contains(name) == option.listed, "--\(option.name)")
        }
    }

    @Test("roff's requests cannot come from a help text: a leading dot or quote is escaped, backslashes are \\e")
    func escaping() {
        #expect(OptionParser.escape(".hidden") == #"\&.hidden"#)
        #expect(OptionParser.escape("'quoted") == #"\&'quoted"#)
        #expect(OptionParser.escape(#"a\b-c"#) == #"a\eb\-c"#)
    }

    @Test("docs/kiosk-recorder.1 is the page the table makes now (regenerate: swift run kiosk-bench man-page > docs/kiosk-recorder.1)")
    func committedPage() throws {
        let file = OptionTextsTests.root.appendingPathComponent("docs/kiosk-recorder.1")
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(committed == OptionParser.manPage, "docs/kiosk-recorder.1 differs from the option table's page")
    }
}
