// Colour emoji on the booth's screen through the binary, read back from its own screenshots over a
// plain grey camera picture (so every coloured pixel is one the booth drew): where Debian's
// fonts-noto-color-emoji is installed, a question's 💍 and 🎉 are drawn in their colours at the
// words' height, the words beside them and the prompt above them white; without it (fontconfig told
// to reject the face), the emoji are Symbola's, in one colour, as before, with no new warning.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("colour emoji on the booth's screen, end to end", .serialized)
struct ColourEmojiEndToEndTests {
    typealias Bitmap = PromptEndToEndTests.Bitmap
    typealias Shots = QuestionLayoutEndToEndTests

    static let question = "💍 Cheers 🎉"
    static let prompt = "Leave a message for Anna and Tom"
    static let noto = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    /// A colour: the channels more than 60 apart (the grey picture, the dark boxes and white words are not).
    static func coloured(_ c: (Int, Int, Int)) -> Bool { max(c.0, c.1, c.2) - min(c.0, c.1, c.2) > 60 }

    /// The ready screen of a booth on the grey camera at 800x480 with the prompt and the question,
    /// once both boxes are drawn, and the booth's stderr; `environment` for fontconfig.
    static func readyScreen(_ name: String, question: String = question, environment: [String: String] = [:]) throws -> (Bitmap, [Range<Int>], String) {
        let folder = try testFolder(name)
        let file = folder.appendingPathComponent("questions.txt")
        try (question + "\n").write(to: file, atomically: true, encoding: .utf8)
        let camera = try solidCamera(in: folder, colour: "gray", card: "Grey Cam")
        let r = try RecorderProcess(["--camera", camera, "--size", "640x480", "--microphone", "none", "--windowed", "800x480",
                                     "--questions", file.path, "--prompt", Self.prompt, "--output", folder.appendingPathComponent("take.mov").path],
                                    environment: environment)
        try #require(r.wait(for: "ready", timeout: 20) != nil, "\(r.stderr)")
        let l = Layout(canvas: Size(width: 800, height: 480))
        let middle = Array(stride(from: 370, to: 430, by: 2)), content = l.content.y..<l.content.maxY
        let shot = try Shots.shot(r, folder, "ready") { s in
            let boxes = Shots.coveredRuns(s, rows: content, xs: middle)
            return Shots.pictureUp(s, l) && boxes.count == 2 && boxes.allSatisfy { !Shots.textLines(s, rows: $0, xs: 40..<760).isEmpty }
        }
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        return (shot, Shots.coveredRuns(shot, rows: content, xs: middle), r.stderr)
    }

    /// The coloured pixels' places and the white ones' in `rows`, across the screen.
    static func pixels(_ shot: Bitmap, rows: Range<Int>) -> (coloured: [(x: Int, y: Int)], white: [(x: Int, y: Int)]) {
        var colours: [(x: Int, y: Int)] = [], white: [(x: Int, y: Int)] = []
        for y in rows {
            for x in 0..<800 {
                let c = shot.rgb(x: x, y: y)
                if coloured(c) { colours.append((x, y)) } else if min(c.0, c.1, c.2) > 225 { white.append((x, y)) }
            }
        }
        return (colours, white)
    }

    @Test("fonts-noto-color-emoji installed: the question's 💍 and 🎉 in colour, at its left and right end, about the words' height (not Noto's 128 px); the words between them and the prompt's white, no colour in them",
          .enabled(if: FileManager.default.fileExists(atPath: noto), "needs fonts-noto-color-emoji"), needsFakeCamera)
    func inColour() throws {
        let (shot, boxes, stderr) = try Self.readyScreen("colour-emoji")
        try #require(boxes.count == 2, "\(boxes)")
        let (prompt, question) = (Self.pixels(shot, rows: boxes[0]), Self.pixels(shot, rows: boxes[1]))
        #expect(prompt.coloured.isEmpty && prompt.white.count > 300, "the prompt: \(prompt.coloured.count) coloured, \(prompt.white.count) white pixels")
        // The emoji: coloured pixels at each end of the question's line (the ring is silver, its
        // stone pale blue; the popper is bright).
        let xs = question.coloured.map(\.x)
        let ring = question.coloured.filter { $0.x < 400 }, popper = question.coloured.filter { $0.x >= 400 }
        print("question: \(ring.count) coloured pixels left, \(popper.count) right, \(question.white.count) white; x \(xs.min() ?? 0)...\(xs.max() ?? 0)")
        #expect(ring.count > 50 && popper.count > 500, "coloured pixels: \(ring.count) left, \(popper.count) right")
        guard let ringEnd = ring.map(\.x).max(), let popperStart = popper.map(\.x).min(), ringEnd < popperStart else {
            Issue.record("no two emoji apart: \(ring.count) \(popper.count)")
            return
        }
        // The word between them: white, and no colour in its columns.
        let word = question.white.filter { $0.x > ringEnd && $0.x < popperStart }
        #expect(word.count > 200, "the word's white pixels between the emoji: \(word.count)")
        // About the words' height: each emoji's rows within 0.8 to 2 times the word's ("Cheers":
        // capitals and ascenders, no descender), and far from Noto's 128-pixel bitmaps.
        let wordRows = (word.map(\.y).max() ?? 0) - (word.map(\.y).min() ?? 0) + 1
        for emoji in [ring, popper] {
            let rows = emoji.map(\.y).max()! - emoji.map(\.y).min()! + 1
            let columns = emoji.map(\.x).max()! - emoji.map(\.x).min()! + 1
            print("an emoji \(columns)x\(rows) px beside a word \(wordRows) px high")
            #expect(Double(rows) >= 0.8 * Double(wordRows) && Double(rows) <= 2 * Double(wordRows) && rows < 100 && columns < 100,
                    "an emoji \(columns)x\(rows) beside a word \(wordRows) rows high")
        }
        #expect(stderr.contains("Noto Color Emoji"), "the log names the colour face: \(stderr)")
        #expect(!stderr.contains("no installed font can draw"), "\(stderr)")
    }

    @Test("a right-to-left question, 💍 مبروك 🎉: its first emoji (the ring) at the right end, its last (the popper) at the left, the Arabic white between them",
          .enabled(if: FileManager.default.fileExists(atPath: noto), "needs fonts-noto-color-emoji"), needsFakeCamera)
    func rightToLeft() throws {
        let (shot, boxes, _) = try Self.readyScreen("colour-emoji-rtl", question: "💍 مبروك 🎉")
        try #require(boxes.count == 2, "\(boxes)")
        let question = Self.pixels(shot, rows: boxes[1])
        let xs = question.coloured.map(\.x).sorted()
        try #require(xs.count > 500, "\(xs.count) coloured pixels")
        // Apart in two: the emoji either side of the words, where the widest gap between coloured columns is.
        let gap = zip(xs, xs.dropFirst()).max { $0.1 - $0.0 < $1.1 - $1.0 }!
        let (left, right) = (xs.filter { $0 <= gap.0 }.count, xs.filter { $0 >= gap.1 }.count)
        let words = question.white.filter { $0.x > gap.0 && $0.x < gap.1 }.count
        print("right to left: \(left) coloured pixels left of \(gap.0), \(right) right of \(gap.1), \(words) white between")
        // The popper is the brighter: over twice the ring's coloured pixels (1572 against 311 left to right).
        #expect(left > 2 * right && right > 50 && words > 200, "\(left) left, \(right) right, \(words) white between")
    }

    @Test("fontconfig without Noto Color Emoji: the emoji drawn as before (Symbola's, one colour: white), no colour anywhere, no warning",
          needsFakeCamera)
    func withoutColourFace() throws {
        let folder = try testFolder("colour-emoji-none")
        let config = folder.appendingPathComponent("fonts.conf")
        try """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <fontconfig>
              <include ignore_missing="no">/etc/fonts/fonts.conf</include>
              <selectfont><rejectfont><glob>*/NotoColorEmoji*</glob></rejectfont></selectfont>
            </fontconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        let (shot, boxes, stderr) = try Self.readyScreen("colour-emoji-none-booth", environment: ["FONTCONFIG_FILE": config.path])
        try #require(boxes.count == 2, "\(boxes)")
        let question = Self.pixels(shot, rows: boxes[1])
        print("question without the colour face: \(question.coloured.count) coloured, \(question.white.count) white pixels")
        #expect(question.coloured.isEmpty && question.white.count > 300, "\(question.coloured.count) coloured, \(question.white.count) white")
        // The question in Symbola, as before the colour face: the log names the faces the texts are in.
        #expect(stderr.contains("Symbola (1 texts)") && !stderr.contains("Noto Color Emoji") && !stderr.contains("no installed font can draw"), "\(stderr)")
    }
}
