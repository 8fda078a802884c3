// Issue 30's words on the buttons, read back from the screen's pixels in English, German, French and
// Japanese on an 800x480 panel and a 480x800 one: every side title at least `Layout.smallestTitle`
// pixels (a long one on two lines in a taller button), inside its button, and a finger's gap
// (`Layout.buttonGap`) between the buttons drawn side by side.
import CSDL2TTF
import Foundation
import KioskContract
import KioskCore
import KioskScreenText
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("Button titles and gaps in pixels: en, de, fr, ja, 800x480 and 480x800")
    struct ButtonTitlePixelTests {
        static let languages: [Language] = [.en, .de, .fr, .ja]
        static let outputs = [Size(width: 800, height: 480), Size(width: 480, height: 800)]

        /// Ready with two cameras (Cancel, Record, Switch Camera), finished (Retake, Use Video), playing (Close).
        static var screens: [(String, ViewModel, [Button])] {
            var two = RecorderMachine(session: .once, outputPath: "/tmp/take.mov", orientation: .landscapeRight, cameraCount: 2)
            _ = two.start()
            return [("ready", two.viewModel, [.cancel, .switchCamera]), ("finished", Models.finished(), [.retake, .useVideo]),
                    ("playing", Models.playing(), [.closePlayer])]
        }

        /// The size a title's ink was drawn at: its width against the same text (on one line, or as
        /// the screen breaks it on two) rendered apart at 48 px in the face that draws it, whichever
        /// of the two has the ink's proportions.
        static func drawnSize(of title: String, ink: Rect, language: Language) throws -> (size: Double, lines: Int) {
            let face = try #require(try LanguageTests.expectedFace(for: title, in: language))
            let font = try Font(face: face, pointSize: 48)
            let candidates = try [[title], Overlay.halves(of: title)].map { lines in
                // Room to spare for its longest line, so that only the line break breaks it.
                let wide = 2 * (try lines.map { try font.width(of: $0) }.max()!) + 64
                return try #require(LanguageTests.ink(in: try font.render(lines.joined(separator: "\n"), wrapWidth: wide)))
            }
            let aspect = Double(ink.width) / Double(ink.height)
            let best = candidates.indices.min { a, b in
                abs(log(Double(candidates[a].width) / Double(candidates[a].height) / aspect))
                    < abs(log(Double(candidates[b].width) / Double(candidates[b].height) / aspect))
            }!
            return (48 * Double(ink.width) / Double(candidates[best].width), best == 0 ? 1 : Overlay.halves(of: title).count)
        }

        @Test("every side title at least 14 px tall (two lines in a taller button where one would be smaller), inside its button",
              arguments: languages, outputs)
        func titles(language: Language, output: Size) throws {
            let screen = try makeScreen(size: output)
            let words = ScreenWords(language: language)
            try screen.setWords(words, prompt: nil, font: nil)
            // Over no picture (black), so that only the titles are light.
            screen.clearPreview()
            let layout = screen.layout
            var sizes: [String: Double] = [:]
            for (name, model, buttons) in Self.screens {
                try screen.render(model)
                let pixels = try screen.snapshot()
                for button in buttons {
                    let title = words.title(of: button), frame = layout.frame(of: button)
                    let ink = try #require(LanguageTests.ink(in: pixels, area: frame), "\(language) \(output) \(name): no title in \(frame)")
                    #expect(ink.x >= frame.x + 2 && ink.maxX <= frame.maxX - 2 && ink.y >= frame.y + 1 && ink.maxY <= frame.maxY - 1,
                            "\(language) \(output): '\(title)' \(ink) outside its button \(frame)")
                    let (size, lines) = try Self.drawnSize(of: title, ink: ink, language: language)
                    sizes[title] = size
                    // Measured from the ink's width, to within a pixel of it.
                    #expect(size >= Double(Layout.smallestTitle) - 0.3,
                            "\(language) \(output): '\(title)' drawn at \(size) px on \(lines) line(s) in \(frame)")
                    // Two lines only in a button laid out for them.
                    #expect(lines == 1 || layout.sideTitleLines == 2, "\(language) \(output): '\(title)' on \(lines) lines")
                }
            }
            // The long German and French titles need the two lines at 480 wide (one line drew them at
            // 10–11 px); English keeps one line in landscape.
            if [.de, .fr].contains(language) && output.width == 480 { #expect(layout.sideTitleLines == 2, "\(sizes)") }
            if language == .en && output.width == 800 { #expect(layout.sideTitleLines == 1, "\(sizes)") }
        }

        /// The runs of pixels along a row that are not `background` (within 24), as x ranges.
        static func runs(_ pixels: Pixels, y: Int, from x0: Int, to x1: Int, background: RGB) -> [ClosedRange<Int>] {
            var runs: [ClosedRange<Int>] = []
            var start: Int?
            for x in x0...x1 {
                let other = !RGB(pixels.rgb(x: x, y: y)).close(to: background, within: 24)
                if other, start == nil { start = x }
                if !other, let s = start { runs.append(s...(x - 1)); start = nil }
            }
            if let s = start { runs.append(s...x1) }
            return runs
        }

        @Test("at least 24 px between neighbouring buttons as drawn (the record circle's dark edge included), over a white picture",
              arguments: languages, outputs)
        func gaps(language: Language, output: Size) throws {
            let screen = try makeScreen(size: output)
            try screen.setWords(ScreenWords(language: language), prompt: nil, font: nil)
            try screen.show(frame: TestFrames.make(.yuv420p, size: Size(width: 640, height: 360)) { _, _ in Colour.limited(RGB(255, 255, 255)) })
            let layout = screen.layout
            for (name, model, buttons) in Self.screens where name != "playing" {
                try screen.render(model)
                let pixels = try screen.snapshot()
                // The panel over the picture, above the buttons.
                let background = RGB(pixels.rgb(x: output.width / 2, y: layout.bottomPanel.y + 1))
                let y = Int(layout.leftButton.center.y)
                let row = Self.runs(pixels, y: y, from: 0, to: output.width - 1, background: background)
                // Left button, the record circle's parts (ready) or nothing (finished), right button.
                let left = try #require(row.first, "\(language) \(output) \(name): \(row)"), right = try #require(row.last)
                #expect(left.lowerBound <= layout.leftButton.x + 2 && right.upperBound >= layout.rightButton.maxX - 3,
                        "\(language) \(output) \(name): the row \(row) against \(layout.leftButton) and \(layout.rightButton)")
                // The ends of the side buttons as drawn: the runs that reach into their frames.
                let leftEnd = row.filter { $0.lowerBound < layout.leftButton.maxX }.map(\.upperBound).max()!
                let rightStart = row.filter { $0.upperBound >= layout.rightButton.x }.map(\.lowerBound).min()!
                let middle = row.filter { $0.lowerBound > leftEnd && $0.upperBound < rightStart }
                if buttons.contains(.cancel) {
                    let circle = try #require(middle.first, "\(language) \(output): no record circle in \(row)").lowerBound...middle.last!.upperBound
                    #expect(circle.lowerBound - leftEnd - 1 >= Layout.buttonGap && rightStart - circle.upperBound - 1 >= Layout.buttonGap,
                            "\(language) \(output) \(name): \(leftEnd) | \(circle) | \(rightStart)")
                } else {
                    #expect(middle.isEmpty && rightStart - leftEnd - 1 >= Layout.buttonGap, "\(language) \(output) \(name): \(row)")
                }
                // Play Video, above the panel, clear of the side buttons by as much.
                if buttons.contains(.useVideo) {
                    #expect(layout.leftButton.y - layout.middleButton.maxY >= Layout.buttonGap)
                }
            }
        }
    }
}
