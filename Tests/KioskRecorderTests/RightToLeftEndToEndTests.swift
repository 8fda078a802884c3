// Right-to-left words through the binary: Arabic and Hebrew questions on a film's cards (`reel`,
// drawtext) and on the booth's screen (a `screenshot`, SDL2_ttf), and an Arabic prompt there, each
// compared with the same words drawn by an independent shaper, HarfBuzz's `hb-view`: right to left
// as a reader expects, and left to right (the drawing a comparison must tell apart). The comparison
// is the line's ink across its width (lit pixels per column, from its first lit column to its last,
// resampled to one length, each as a share of its whole ink): joined letters and their order show in
// it, the font's hinting and size little. HarfBuzz does no bidi reordering, so an Arabic question
// with a Latin word and a number in it is compared with Pango's `pango-view` (Unicode's whole bidi
// algorithm) instead, and with hb-view's drawing of the whole line right to left as the wrong one.
import Foundation
import KioskCore
import KioskTestSupport
import Testing

@Suite("right-to-left words on the film's cards and the booth's screen, against HarfBuzz's hb-view and Pango's pango-view", .serialized)
struct RightToLeftEndToEndTests {
    static let question = "ما هو الحب؟"
    static let hebrew = "מה שלומך?"
    static let mixed = "ما هو ABC 2026؟"
    static let emoji = "Rings 💍 and cheers 🎉"
    /// Debian's fonts-symbola: a face with the emoji (drawn in one colour) and Latin letters.
    static let symbola = "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// The screen's own face (Typefaces' primary), which has Arabic and Hebrew.
    static let dejaVuBold = repositoryRoot.appendingPathComponent("assets/fonts/DejaVuSans-Bold.ttf").path

    /// Lit pixels (above `threshold`) per column of the `width`-wide gray picture `gray`, from its
    /// first lit column to its last.
    static func ink(_ gray: some Collection<UInt8>, width: Int, threshold: UInt8 = 128) -> [Int] {
        var columns = [Int](repeating: 0, count: width)
        for (i, value) in gray.enumerated() where value > threshold { columns[i % width] += 1 }
        guard let first = columns.firstIndex(where: { $0 > 0 }), let last = columns.lastIndex(where: { $0 > 0 }) else { return [] }
        return Array(columns[first...last])
    }

    /// How far apart two ink profiles are: `b` resampled to `a`'s length, each divided by its whole
    /// ink, the sum of their differences (0 the same, 2 nothing in common).
    static func difference(_ a: [Int], _ b: [Int]) -> Double {
        guard !a.isEmpty, !b.isEmpty else { return 2 }
        let resampled = (0..<a.count).map { b[min(b.count - 1, $0 * b.count / a.count)] }
        let (sa, sb) = (Double(a.reduce(0, +)), Double(resampled.reduce(0, +)))
        return zip(a, resampled).reduce(0) { $0 + abs(Double($1.0) / sa - Double($1.1) / sb) }
    }

    /// `text` as hb-view draws it (white on black, `pixels` an em, in `font`: DejaVu Sans unless
    /// told), right to left or left to right: its ink profile.
    static func harfBuzz(_ text: String, pixels: Int, rightToLeft: Bool, font: String = dejaVu, in folder: URL) throws -> [Int] {
        let name = folder.appendingPathComponent("hb-\(UUID().uuidString)-\(rightToLeft ? "rtl" : "ltr")").path
        let drawn = try runProgram(["hb-view", "--font-file=\(font)", "--font-size=\(pixels)", "--foreground=FFFFFF", "--background=000000",
                                    "--direction=\(rightToLeft ? "rtl" : "ltr")", "-O", "png", "-o", name + ".png", text])
        try #require(drawn.status == 0, "hb-view: \(drawn.stderr)")
        return try profile(name + ".png")
    }

    /// `text` as Pango lays it out (`pango-view`: the whole of Unicode's bidi algorithm, then
    /// HarfBuzz's shaping), white on black in `family` at `pixels`: its ink profile.
    static func pango(_ text: String, pixels: Int, family: String = "DejaVu Sans Bold", in folder: URL) throws -> [Int] {
        let name = folder.appendingPathComponent("pango-\(UUID().uuidString)").path
        let drawn = try runProgram(["pango-view", "-q", "--pixels", "--font=\(family) \(pixels)px", "--foreground=#FFFFFF",
                                    "--background=#000000", "-o", name + ".png", "--text=\(text)"])
        try #require(drawn.status == 0, "pango-view: \(drawn.stderr)")
        return try profile(name + ".png")
    }

    /// The ink profile of a picture of one line (at most 1600x200), read through ffmpeg.
    static func profile(_ png: String) throws -> [Int] {
        let gray = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", png, "-vf", "pad=1600:200:0:0:black", "-pix_fmt", "gray",
                                   "-f", "rawvideo", png + ".gray"])
        try #require(gray.status == 0, "\(gray.stderr)")
        return ink(try Data(contentsOf: URL(fileURLWithPath: png + ".gray")), width: 1600)
    }

    /// The two differences of `drawn` from hb-view's drawings of `text`: right to left and left to right.
    static func compare(_ drawn: [Int], _ text: String, pixels: Int, font: String = dejaVu, in folder: URL) throws -> (rtl: Double, ltr: Double) {
        (difference(drawn, try harfBuzz(text, pixels: pixels, rightToLeft: true, font: font, in: folder)),
         difference(drawn, try harfBuzz(text, pixels: pixels, rightToLeft: false, font: font, in: folder)))
    }

    @Test("a film's card: an Arabic and a Hebrew question right to left as hb-view draws them (the Arabic joined), not as it draws the words left to right; a long one wraps inside the frame; a Latin word and a number in Arabic as Pango lays them out; emoji drawn, not boxes")
    func card() throws {
        let folder = try testFolder("rtl-card")
        let takes = folder.appendingPathComponent("takes").path
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        let long = "ما هو أجمل شيء حدث لكما منذ أن التقيتما لأول مرة في تلك المدينة الجميلة على شاطئ البحر؟"
        let questions = [Self.question, Self.hebrew, long, Self.mixed, Self.emoji]
        for (k, question) in questions.enumerated() {
            try ReelHostileEndToEndTests.take(takes + "/\(k).mp4", title: question)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(k))], ofItemAtPath: takes + "/\(k).mp4")
        }
        let output = folder.appendingPathComponent("film.mp4").path
        let r = try RecorderProcess(["reel", takes, "--output", output, "--size", "640x360", "--title", "Anna & Tom"])
        #expect(r.exitStatus(timeout: 60) == 0, "\(r.stderr)")
        // Each question's card, its middle picture: 2 s of card after the title's 3 s and each 10-picture take.
        let raw = folder.appendingPathComponent("cards.gray").path
        let select = questions.indices.map { "eq(n\\,\(90 + $0 * 70 + 30))" }.joined(separator: "+")
        let run = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", output, "-vf", "select='\(select)'", "-fps_mode", "passthrough",
                                  "-pix_fmt", "gray", "-f", "rawvideo", raw])
        try #require(run.status == 0, "\(run.stderr)")
        let cards = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let picture = 640 * 360
        try #require(cards.count == questions.count * picture, "\(cards.count) bytes")

        // A twelfth of the height: 30 px, in DejaVu Sans (fontconfig's face for Arabic and Hebrew).
        for (k, words) in [Self.question, Self.hebrew].enumerated() {
            let (rtl, ltr) = try Self.compare(Self.ink(cards[(k * picture)..<((k + 1) * picture)], width: 640), words, pixels: 30, in: folder)
            print("reel card '\(words)': ink \(String(format: "%.3f", rtl)) from hb-view right to left, \(String(format: "%.3f", ltr)) from left to right")
            #expect(rtl < 0.3 && ltr > 0.6, "'\(words)': right to left \(rtl), left to right \(ltr)")
        }

        // The long question: several lines, every one inside the frame (85 % of its width, centred).
        let longCard = cards[(2 * picture)..<(3 * picture)]
        var rows = [Int](repeating: 0, count: 360)
        for (i, value) in longCard.enumerated() where value > 128 { rows[i / 640] += 1 }
        let lines = zip(rows, [0] + rows).filter { $0.0 > 0 && $0.1 == 0 }.count
        var columns = [Int](repeating: 0, count: 640)
        for (i, value) in longCard.enumerated() where value > 128 { columns[i % 640] += 1 }
        let first = columns.firstIndex { $0 > 0 } ?? 0, last = columns.lastIndex { $0 > 0 } ?? 639
        print("reel card, long Arabic question: \(lines) lines, ink from x \(first) to \(last) of 640")
        #expect(lines >= 2 && first >= 640 * 5 / 100 && last < 640 * 95 / 100, "\(lines) lines, ink from \(first) to \(last)")

        // The Latin word and the number in Arabic: as Pango lays them out, not turned with the line.
        let mixedCard = Self.ink(cards[(3 * picture)..<(4 * picture)], width: 640)
        let laidOut = Self.difference(mixedCard, try Self.pango(Self.mixed, pixels: 30, family: "DejaVu Sans", in: folder))
        let turned = Self.difference(mixedCard, try Self.harfBuzz(Self.mixed, pixels: 30, rightToLeft: true, in: folder))
        print("reel card '\(Self.mixed)': ink \(String(format: "%.3f", laidOut)) from pango-view, \(String(format: "%.3f", turned)) from hb-view right to left")
        #expect(laidOut < 0.3 && turned > 2 * laidOut, "from pango-view \(laidOut), from hb-view right to left \(turned)")

        // Emoji: drawn (in fonts-symbola, the face fontconfig finds with every character), not as
        // the empty boxes of a face without them.
        // Its words' band (rows 140..<220) against ffmpeg's own drawtext of them in each face.
        let band = Array(cards[(4 * picture + 140 * 640)..<(4 * picture + 220 * 640)])
        let apart = { (expected: [UInt8]) in Double(zip(band, expected).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(band.count) }
        let drawn = apart(try ReelHostileEndToEndTests.reference(Self.emoji, fontFile: Self.symbola, in: folder))
        let boxes = apart(try ReelHostileEndToEndTests.reference(Self.emoji, in: folder))
        print("reel card '\(Self.emoji)': \(String(format: "%.2f", drawn)) from drawtext's drawing in Symbola, \(String(format: "%.2f", boxes)) from Noto Sans CJK's (boxes)")
        #expect(drawn < 3 && boxes > 2 * drawn, "from Symbola's drawing \(drawn), from the boxes \(boxes)")
    }

    /// The upper half of the ready screen's picture, its whole width (800x480, gray): where the
    /// prompt and the question are drawn, and nothing else in ready without a microphone's meter.
    static func top(of shot: PromptEndToEndTests.Bitmap, _ layout: Layout) -> (gray: [UInt8], width: Int) {
        let area = layout.content
        var gray: [UInt8] = []
        for y in area.y..<(area.y + area.height / 2) { for x in area.x..<area.maxX { gray.append(UInt8(shot.brightness(x: x, y: y))) } }
        return (gray, area.width)
    }

    /// The ink of `words` on the ready screen of a booth on `camera` (800x480), as the guestbook's
    /// one question or as the `--prompt`.
    static func screenInk(_ name: String, _ words: String, prompt: Bool, camera: String, layout: Layout, in folder: URL) throws -> [Int] {
        var arguments = ["--camera", camera, "--size", "640x480", "--microphone", "none", "--windowed", "800x480", "--countdown", "0",
                         "--output", folder.appendingPathComponent("\(name).mov").path]
        if prompt {
            arguments += ["--prompt", words]
        } else {
            let file = folder.appendingPathComponent("\(name).txt")
            try (words + "\n").write(to: file, atomically: true, encoding: .utf8)
            arguments += ["--questions", file.path]
        }
        let r = try RecorderProcess(arguments)
        try #require(r.wait(for: "ready", timeout: 20) != nil, "\(r.stderr)")
        // Screenshots until the words are on it (a frame or two after ready at most).
        var drawn: [Int] = [], n = 0
        #expect(eventually(10) {
            n += 1
            guard let shot = try? PromptEndToEndTests.take(r, folder.appendingPathComponent("\(name)-\(n).bmp").path) else { return false }
            let (gray, width) = top(of: shot, layout)
            drawn = ink(gray, width: width)
            return drawn.reduce(0, +) > 200
        }, "\(name): no words on the screen")
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        return drawn
    }

    /// A test's folder, a camera whose pictures are black in it, and the 800x480 screen's layout.
    /// Black: only what the booth draws is lit (the test pattern's bars and flashes are as bright as
    /// the words, and would show through a crop a few rows off).
    static func darkScreen(_ name: String) throws -> (folder: URL, camera: String, layout: Layout) {
        let folder = try testFolder(name)
        return (folder, try solidCamera(in: folder, colour: "black", card: "Dark Cam"), Layout(canvas: Size(width: 800, height: 480)))
    }

    @Test("the booth's screen, over a black camera picture: an Arabic and a Hebrew question, and an Arabic --prompt, each right to left as hb-view draws it in the screen's face (the Arabic joined), not as it draws the words left to right",
          needsFakeCamera)
    func screen() throws {
        let (folder, camera, layout) = try Self.darkScreen("rtl-screen")
        // Questions are drawn large in ready, twice the text's size (one line is far from the half
        // of the picture that would make them smaller); the prompt a quarter larger than the text.
        let cases: [(name: String, words: String, pixels: Int, prompt: Bool)] = [
            ("question", Self.question, layout.textHeight * 2, false), ("hebrew", Self.hebrew, layout.textHeight * 2, false),
            ("prompt", Self.question, layout.textHeight * 5 / 4, true),
        ]
        for shown in cases {
            let drawn = try Self.screenInk(shown.name, shown.words, prompt: shown.prompt, camera: camera, layout: layout, in: folder)
            let (rtl, ltr) = try Self.compare(drawn, shown.words, pixels: shown.pixels, font: Self.dejaVuBold, in: folder)
            print("screen \(shown.name) '\(shown.words)': ink \(String(format: "%.3f", rtl)) from hb-view right to left, \(String(format: "%.3f", ltr)) from left to right")
            #expect(rtl < 0.3 && ltr > 0.6, "\(shown.name): right to left \(rtl), left to right \(ltr)")
        }
    }

    @Test("the booth's screen: an Arabic question with a Latin word and a number in it, as Pango lays it out (the Latin and the number reading left to right in their places), not as HarfBuzz alone lays the whole line out right to left",
          needsFakeCamera)
    func screenMixed() throws {
        let (folder, camera, layout) = try Self.darkScreen("rtl-screen-mixed")
        let words = Self.mixed, pixels = layout.textHeight * 2
        let drawn = try Self.screenInk("mixed", words, prompt: false, camera: camera, layout: layout, in: folder)
        let laidOut = Self.difference(drawn, try Self.pango(words, pixels: pixels, in: folder))
        let turned = Self.difference(drawn, try Self.harfBuzz(words, pixels: pixels, rightToLeft: true, font: Self.dejaVuBold, in: folder))
        print("screen mixed '\(words)': ink \(String(format: "%.3f", laidOut)) from pango-view, \(String(format: "%.3f", turned)) from hb-view right to left")
        #expect(laidOut < 0.3 && turned > 2 * laidOut, "from pango-view \(laidOut), from hb-view right to left \(turned)")
    }
}

