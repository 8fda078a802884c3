// `--language`, `--font` and `label.*` through the binary: the faces it picks (its log), the words
// in its own screenshots, a language no installed font can show refused at launch and on reload.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("languages end to end", .serialized)
struct LanguageEndToEndTests {
    typealias Shots = PromptEndToEndTests

    /// fontconfig with no fonts at all: a machine without fonts-noto-cjk, as far as the booth can tell.
    static func noFonts(_ folder: URL) throws -> [String: String] {
        let conf = folder.appendingPathComponent("fonts.conf")
        try """
            <?xml version="1.0"?>
            <fontconfig><dir>\(folder.path)/none</dir><cachedir>\(folder.path)/cache</cachedir></fontconfig>
            """.write(to: conf, atomically: true, encoding: .utf8)
        return ["FONTCONFIG_FILE": conf.path]
    }

    /// The near-white pixels of the left button's title (Cancel in ready) in a screenshot.
    static func leftTitle(_ r: RecorderProcess, _ path: String) throws -> Int {
        try Shots.shot(r, path).measure(Layout(canvas: Size(width: 800, height: 480)).leftButton).white
    }

    /// `leftTitle` of screenshots taken until one's satisfies `drawn` (the booth draws on its own
    /// time), at most 5 s of them; the last one's.
    static func leftTitle(_ r: RecorderProcess, _ path: String, until drawn: (Int) -> Bool) throws -> Int {
        var white = 0, shots = 0, failure: (any Error)?
        _ = eventually(5) {
            shots += 1
            do { white = try leftTitle(r, shots == 1 ? path : path + ".\(shots).bmp") } catch { failure = error; return true }
            return drawn(white)
        }
        if let failure { throw failure }
        return white
    }

    @Test("ja and zh-Hans: the titles drawn in Noto Sans CJK JP and SC (the booth's log), other words than English on the buttons; de in DejaVu")
    func faces() throws {
        let folder = try testFolder("language-faces")
        var titles: [String: Int] = [:]
        for (language, family) in [("en", "DejaVu Sans"), ("ja", "Noto Sans CJK JP"), ("zh-Hans", "Noto Sans CJK SC"), ("de", "DejaVu Sans")] {
            let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("\(language).mov").path, "--language", language])
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            // stderr is read on its own thread: wait for the line rather than trust it is in.
            #expect(r.waitForLog("text: \(language) ") && r.stderr.contains(family), "\(language): \(r.stderr)")
            // Only the timers' digits stay in DejaVu: every table text is in the language's face.
            if language != "en" && language != "de" { #expect(r.said("DejaVu Sans (1 texts)"), "\(language): \(r.stderr)") }
            titles[language] = try Self.leftTitle(r, folder.appendingPathComponent("\(language).bmp").path) { $0 > 50 }
            r.command("quit")
            #expect(r.exitStatus() == 0)
        }
        let en = Double(try #require(titles["en"]))
        #expect(en > 50, "\(titles)")
        for language in ["ja", "zh-Hans", "de"] {
            let count = Double(try #require(titles[language]))
            #expect(count > 50 && abs(count / en - 1) > 0.1, "Cancel's title in \(language): \(titles)")
        }
    }

    @Test("no installed font with Japanese glyphs: --language ja starts, with one warning naming the language, its characters and the fix; a --font that is not a font exits 2")
    func missingFont() throws {
        let folder = try testFolder("language-missing")
        for (arguments, named) in [(["--language", "ja"], "--language ja: U+9332 録, U+753B 画"), (["--prompt", "ようこそ"], "--prompt: U+3088 よ")] {
            let r = try RecorderProcess(booth + arguments + ["--output", folder.appendingPathComponent("t.mov").path],
                                        environment: try Self.noFonts(folder))
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            // stderr and stdout have a writer thread each: the warning, said before ready, may be
            // read after it (ci54's wide pass).
            _ = r.waitForOutput(timeout: 10) { r.stderr.contains("no installed font can draw") }
            let warnings = r.stderr.split(separator: "\n").filter { $0.contains("no installed font can draw") }
            #expect(warnings.count == 1 && warnings[0].contains(named) && warnings[0].contains("fonts-noto-cjk"), "\(r.stderr)")
            r.command("quit")
            #expect(r.exitStatus() == 0)
        }
        let notFont = folder.appendingPathComponent("not-a-font.ttf")
        try Data("hello".utf8).write(to: notFont)
        let bad = try run(booth + ["--language", "ja", "--font", notFont.path])
        #expect(bad.status == 2 && bad.stderr.contains("--font \(notFont.path)"), "\(bad.stderr)")
        // Named on the command line, the font is used even where fontconfig has none.
        let named = try RecorderProcess(booth + ["--language", "ja", "--font", "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
                                                 "--output", folder.appendingPathComponent("t.mov").path],
                                        environment: try Self.noFonts(folder))
        try #require(named.wait(for: "ready") != nil, "\(named.stderr)")
        #expect(named.waitForLog("Noto Sans CJK JP"), "\(named.stderr)")
        named.command("quit")
        #expect(named.exitStatus() == 0)
    }

    @Test("label.cancel from the config on the button; SIGHUP to language ja changes the words; to a label no font can show: accepted with one warning naming the label, its characters left out")
    func labelsAndReload() throws {
        let (plain, _, plainFolder) = try configuredBooth("language-label-plain", "")
        let cancel = try Self.leftTitle(plain, plainFolder.appendingPathComponent("plain.bmp").path) { $0 > 50 }
        plain.command("quit")
        #expect(plain.exitStatus() == 0)

        let (r, rewrite, folder) = try configuredBooth("language-label", "label.cancel = \"No, thanks — not now\"\n")
        let labelled = try Self.leftTitle(r, folder.appendingPathComponent("label.bmp").path) {
            $0 > 50 && abs(Double($0) / Double(cancel) - 1) > 0.2
        }
        #expect(labelled > 50 && abs(Double(labelled) / Double(cancel) - 1) > 0.2, "Cancel \(cancel), the label \(labelled)")
        try rewrite("language = ja\n")
        r.kill(SIGHUP)
        #expect(r.waitForLog("text: ja"), "\(r.stderr)")
        #expect(r.waitForLog("are in force"), "\(r.stderr)")
        let japanese = try Self.leftTitle(r, folder.appendingPathComponent("ja.bmp").path) {
            $0 > 50 && abs(Double($0) / Double(labelled) - 1) > 0.1 && abs(Double($0) / Double(cancel) - 1) > 0.1
        }
        #expect(japanese > 50 && abs(Double(japanese) / Double(labelled) - 1) > 0.1 && abs(Double(japanese) / Double(cancel) - 1) > 0.1,
                "キャンセル \(japanese), the label \(labelled), Cancel \(cancel)")
        // A label in a script no face here has (Linear B): accepted, named once, its characters left out.
        try rewrite("language = ja\nlabel.cancel = \"\u{10000}\u{10001}\"\n")
        r.kill(SIGHUP)
        #expect(r.waitForLog("reload: warning: no installed font can draw label.cancel: U+10000 \u{10000}, U+10001 \u{10001}"), "\(r.stderr)")
        let after = try Self.leftTitle(r, folder.appendingPathComponent("after.bmp").path) { $0 < japanese / 4 }
        #expect(after < japanese / 4, "the label left out: \(after), before \(japanese)")
        #expect(!r.events.contains { if case .error = $0 { true } else { false } }, "\(r.events)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
