// Where the guest's words sit through the binary, read back from the booth's own screenshots over a
// plain grey camera picture (so all that is not grey is what the booth drew): a four-line question
// clear of the countdown's disc, the question in the top eighth while recording, the prompt and the
// question both in ready, and the Boomerang button's title.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("the question, the prompt and the Boomerang title on screen, end to end", .serialized)
struct QuestionLayoutEndToEndTests {
    typealias Bitmap = PromptEndToEndTests.Bitmap

    /// A question that takes four lines at 800x480 during the countdown.
    static let long = "Before you go, tell us your favourite memory of Anna and Tom, and what you wish for the two of them in the years to come?"

    /// A booth on the grey camera at 800x480 with `arguments`, ready.
    static func booth(_ folder: URL, _ name: String, _ arguments: [String]) throws -> RecorderProcess {
        let camera = try solidCamera(in: folder, colour: "gray", card: "Grey Cam")
        let r = try RecorderProcess(["--camera", camera, "--size", "640x480", "--microphone", "none", "--windowed", "800x480",
                                     "--output", folder.appendingPathComponent("\(name).mov").path] + arguments)
        try #require(r.wait(for: "ready", timeout: 20) != nil, "\(r.stderr)")
        return r
    }

    /// A screenshot once `ok` holds for it (the grey picture is up, the words drawn).
    static func shot(_ r: RecorderProcess, _ folder: URL, _ name: String, until ok: (Bitmap) -> Bool) throws -> Bitmap {
        var n = 0, last: Bitmap?
        let seen = eventually(10) {
            n += 1
            guard let s = try? PromptEndToEndTests.take(r, folder.appendingPathComponent("\(name)-\(n).bmp").path) else { return false }
            last = s
            return ok(s)
        }
        guard seen, let last else { throw PromptEndToEndTests.PromptFailure(description: "\(name): never as expected; \(r.rawLines)") }
        return last
    }

    /// The grey picture, neither the booth's dark boxes nor its white words.
    static func grey(_ b: Int) -> Bool { b > 95 && b < 170 }
    /// Whether the picture is up: the content's last rows grey from side to side (nothing is drawn there).
    static func pictureUp(_ s: Bitmap, _ l: Layout) -> Bool {
        stride(from: 100, to: 700, by: 25).allSatisfy { grey(s.brightness(x: $0, y: l.content.maxY - 3)) }
    }

    /// The runs of rows in `rows` where most of the columns `xs` are not grey (a box or a disc across them).
    static func coveredRuns(_ s: Bitmap, rows: Range<Int>, xs: [Int]) -> [Range<Int>] {
        runs(rows) { y in xs.filter { !grey(s.brightness(x: $0, y: y)) }.count * 2 > xs.count }
    }

    /// The runs of rows in `rows` with white (words) somewhere in `xs`: the lines of text.
    static func textLines(_ s: Bitmap, rows: Range<Int>, xs: Range<Int>) -> [Range<Int>] {
        runs(rows) { y in xs.contains { s.brightness(x: $0, y: y) > 225 } }
    }

    static func runs(_ rows: Range<Int>, _ holds: (Int) -> Bool) -> [Range<Int>] {
        var found: [Range<Int>] = [], start: Int?
        for y in rows {
            if holds(y) { start = start ?? y } else if let s = start { found.append(s..<y); start = nil }
        }
        if let s = start { found.append(s..<rows.upperBound) }
        return found
    }

    @Test("a four-line question during the countdown: its box and the countdown's disc are apart, the disc under it with grey rows between (at 800x480); while recording, the question is in the top eighth (two lines at most, beside the timer, which moved to the right) and nothing is drawn over the picture",
          needsFakeCamera)
    func questionClearOfFaces() throws {
        let folder = try testFolder("question-layout")
        let file = folder.appendingPathComponent("questions.txt")
        try (Self.long + "\n").write(to: file, atomically: true, encoding: .utf8)
        let r = try Self.booth(folder, "take", ["--questions", file.path, "--countdown", "5"])
        let l = Layout(canvas: Size(width: 800, height: 480))
        _ = try Self.shot(r, folder, "ready") { Self.pictureUp($0, l) }
        r.command("start")
        try #require(r.wait(for: "countdown") != nil, "\(r.rawLines)")
        // The middle 60 columns: the question's box spans them (centred, most of the width) and so does the disc.
        let middle = Array(stride(from: 370, to: 430, by: 2)), content = l.content.y..<l.content.maxY
        let counting = try Self.shot(r, folder, "countdown") { Self.coveredRuns($0, rows: content, xs: middle).count >= 2 }
        let covered = Self.coveredRuns(counting, rows: content, xs: middle)
        print("countdown: covered rows \(covered)")
        #expect(covered.count == 2, "the question's box and the disc, apart: \(covered)")
        let (box, disc) = (covered[0], covered[covered.count - 1])
        #expect(disc.lowerBound - box.upperBound >= 8, "grey rows between the question's box and the disc: \(box) \(disc)")
        let lines = Self.textLines(counting, rows: box, xs: 40..<760)
        #expect(lines.count == 4, "the question's lines: \(lines)")
        #expect(!Self.textLines(counting, rows: disc, xs: 300..<500).isEmpty, "the countdown's number in the disc")
        // The disc's rows hold no word of the question, the question's box none of the disc, across the width.
        #expect(Self.textLines(counting, rows: disc, xs: 40..<300).isEmpty && Self.textLines(counting, rows: disc, xs: 500..<760).isEmpty)

        try #require(r.wait(for: "recordingStarted", timeout: 10) != nil, "\(r.rawLines)")
        let eighth = 480 / 8
        let recording = try Self.shot(r, folder, "recording") { s in
            Self.coveredRuns(s, rows: l.content.y..<(l.content.y + 20), xs: middle).isEmpty && !Self.textLines(s, rows: 0..<eighth, xs: 20..<600).isEmpty
        }
        let band = Self.textLines(recording, rows: 0..<l.content.y, xs: l.questionBand.x..<l.questionBand.maxX)
        print("recording: the question's lines \(band)")
        #expect((1...2).contains(band.count) && band.allSatisfy { $0.upperBound <= eighth }, "within the top eighth (\(eighth) rows): \(band)")
        #expect(Self.textLines(recording, rows: l.content.y..<l.content.maxY, xs: 40..<760).isEmpty, "no words over the picture")
        #expect(Self.coveredRuns(recording, rows: l.content.y..<l.content.maxY, xs: Array(stride(from: 40, to: 760, by: 8))).isEmpty,
                "no box over the picture")
        // The timer's red capsule at the top panel's right end, none in its middle.
        func red(_ area: Rect) -> Int {
            var n = 0
            for y in area.y..<area.maxY { for x in area.x..<area.maxX { let (r, g, b) = recording.rgb(x: x, y: y); if r > 200 && g < 110 && b < 110 { n += 1 } } }
            return n
        }
        #expect(red(l.asideTimer) > 500 && red(Rect(x: 340, y: 0, width: 120, height: l.content.y)) == 0, "the timer's capsule at the right")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
    }

    @Test("--prompt with --questions: both show in ready, the prompt's box on top and the question's under it, each with its words, a long question under a long prompt still inside the picture; the countdown shows the question alone",
          needsFakeCamera)
    func promptAndQuestion() throws {
        let folder = try testFolder("prompt-question")
        let file = folder.appendingPathComponent("questions.txt")
        try (Self.long + "\n").write(to: file, atomically: true, encoding: .utf8)
        let prompt = "Leave a message for Anna & Tom: what you say here goes into their film, so take your time"
        let r = try Self.booth(folder, "take", ["--questions", file.path, "--prompt", prompt, "--countdown", "5"])
        let l = Layout(canvas: Size(width: 800, height: 480))
        let middle = Array(stride(from: 370, to: 430, by: 2)), content = l.content.y..<l.content.maxY
        let ready = try Self.shot(r, folder, "ready") { Self.pictureUp($0, l) && Self.coveredRuns($0, rows: content, xs: middle).count == 2 }
        let boxes = Self.coveredRuns(ready, rows: content, xs: middle)
        #expect(boxes.count == 2 && boxes.allSatisfy { !Self.textLines(ready, rows: $0, xs: 40..<760).isEmpty }, "\(boxes)")
        // The long question under a long prompt still ends inside the picture, short of the buttons' panel.
        #expect(boxes.count == 2 && boxes[1].upperBound < l.content.maxY - 8, "\(boxes)")
        r.command("start")
        try #require(r.wait(for: "countdown") != nil, "\(r.rawLines)")
        let counting = try Self.shot(r, folder, "countdown") { s in
            let runs = Self.coveredRuns(s, rows: content, xs: middle)
            return runs.count == 2 && runs[0].lowerBound < boxes[1].lowerBound - 4
        }
        let runs = Self.coveredRuns(counting, rows: content, xs: middle)
        // The question's box where the prompt's was (the first), the disc under it.
        #expect(abs(runs[0].lowerBound - boxes[0].lowerBound) <= 2 && runs[0].count < boxes[0].count + boxes[1].count, "\(runs) \(boxes)")
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
    }

    @Test("--boomerang-button: the button's title is drawn under its circle (white words in Layout's boomerangLabel), from the screen text table: label.boomerang replaces it",
          needsFakeCamera)
    func boomerangTitle() throws {
        let folder = try testFolder("boomerang-title")
        let l = Layout(canvas: Size(width: 800, height: 480), boomerang: true)
        var inks: [[Int]] = []
        for (name, extra) in [("default", [String]()), ("override", ["--label.boomerang", "Loop!"]), ("none", [])] {
            let r = try Self.booth(folder, name, name == "none" ? [] : ["--boomerang-button"] + extra)
            let shot = try Self.shot(r, folder, name) { Self.pictureUp($0, l) }
            let label = l.boomerangLabel
            var gray: [UInt8] = []
            for y in label.y..<label.maxY { for x in label.x..<label.maxX { gray.append(UInt8(shot.brightness(x: x, y: y))) } }
            inks.append(RightToLeftEndToEndTests.ink(gray, width: label.width, threshold: 225))
            r.command("quit")
            #expect(r.exitStatus() == 0, "\(r.stderr)")
        }
        print("the title's ink: \(inks.map { $0.reduce(0, +) }), widths \(inks.map(\.count))")
        #expect(inks[0].reduce(0, +) > 150 && inks[0].count > l.boomerangButton.width, "'Boomerang' wider than its circle: \(inks[0])")
        #expect(inks[1].reduce(0, +) > 50 && inks[1].count < inks[0].count - 20, "'Loop!' narrower: \(inks[1]) \(inks[0])")
        #expect(inks[2].reduce(0, +) == 0, "no title without the button: \(inks[2])")
    }
}
