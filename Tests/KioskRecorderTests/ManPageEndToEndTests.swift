// kiosk-recorder(1) as a user reads it: man renders docs/kiosk-recorder.1 without a warning, and
// every long option the release binary's --help lists is in what it shows.
import Foundation
import Testing
import KioskTestSupport

@Suite("the manual page")
struct ManPageEndToEndTests {
    @Test("man -l renders it without a warning; every long option of the binary's --help is in the rendered page")
    func rendersEveryOption() throws {
        let page = repositoryRoot.appendingPathComponent("docs/kiosk-recorder.1").path
        var environment = ProcessInfo.processInfo.environment
        (environment["MANWIDTH"], environment["LC_ALL"], environment["MANPAGER"]) = ("200", "C.UTF-8", "cat")
        let shown = try runProgram(["man", "--warnings", "-l", page], environment: environment)
        #expect(shown.status == 0 && shown.stderr.isEmpty, "\(shown.stderr)")
        // man may hyphenate at a line's end: the page's words joined back.
        let text = shown.stdout.replacingOccurrences(of: "‐\n", with: "").replacingOccurrences(of: "-\n", with: "-")
        #expect(text.contains("KIOSK-RECORDER(1)") && text.contains("EXIT STATUS") && text.contains("SIGNALS"))
        let help = try run(["--help"])
        let options = Set(help.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  --") else { return nil }
            return String(line.dropFirst(2).prefix { $0 != " " })
        })
        #expect(options.count > 50, "\(options.count) options in --help")
        let missing = options.filter { !text.contains($0) }.sorted()
        #expect(missing.isEmpty, "in --help but not in the manual page: \(missing)")
    }
}
