// The guestbook's question as the screen draws it, at every screen size and orientation the layout
// tests use, read back over a flat grey picture: during the countdown the question's box and the
// countdown's disc apart (whole grey rows between them), while recording the question's
// words only in the top eighth and nothing over the picture.
import KioskContract
import KioskCore
import KioskScreenText
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("The question's places on screen")
    struct QuestionPlacementTests {
        static let question = "Before you go, tell us your favourite memory of Anna and Tom, and what you wish for the two of them in the years to come?"
        static let screens: [(Size, Orientation?)] = [(Size(width: 800, height: 480), nil), (Size(width: 480, height: 800), nil),
                                                      (Size(width: 800, height: 480), .portrait), (Size(width: 352, height: 288), nil),
                                                      (Size(width: 1280, height: 720), nil), (Size(width: 1024, height: 600), .portrait)]

        /// A canvas point's brightness, read through the screen's turn.
        static func brightness(_ pixels: Pixels, _ screen: Screen, _ x: Int, _ y: Int) -> Int {
            let p = screen.transform.toPhysical(Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
            let c = pixels.rgb(x: min(Int(p.x), pixels.size.width - 1), y: min(Int(p.y), pixels.size.height - 1))
            return (Int(c.r) + Int(c.g) + Int(c.b)) / 3
        }

        @Test("a four-line question over the countdown: its box, then grey rows, then the disc, down the middle; while recording its words in the top eighth only, nothing over the picture",
              arguments: 0..<screens.count)
        func placed(_ index: Int) throws {
            let (size, orientation) = Self.screens[index]
            let screen = try makeScreen(size: size, orientation: orientation)
            try screen.setWords(ScreenWords(), prompt: nil, font: nil)
            try screen.show(frame: TestFrames.make(.yuv420p, size: Size(width: 640, height: 360)) { _, _ in YUV(y: 126, u: 128, v: 128) })
            let layout = screen.layout, what = "\(size) \(orientation.map { "\($0)" } ?? "")"
            func grey(_ b: Int) -> Bool { b > 90 && b < 170 }

            var counting = Models.countdown(3)
            counting.question = (Self.question, true)
            try screen.draw(counting)
            var pixels = try screen.readPixels()
            // Row by row: covered where anything is drawn across it (the box, the disc: dark or white), else the grey picture.
            var runs: [Range<Int>] = [], start: Int?
            for y in layout.content.y..<layout.content.maxY {
                let drawn = (layout.content.x..<layout.content.maxX).filter { !grey(Self.brightness(pixels, screen, $0, y)) }.count
                if drawn >= 3 { start = start ?? y } else if let s = start { runs.append(s..<y); start = nil }
            }
            if let s = start { runs.append(s..<layout.content.maxY) }
            #expect(runs.count == 2, "\(what): the question's box and the disc apart: \(runs)")
            if runs.count == 2 { #expect(runs[1].lowerBound - runs[0].upperBound >= 4, "\(what): \(runs)") }

            var recording = Models.recording(elapsed: 12)
            recording.question = (Self.question, false)
            try screen.draw(recording)
            pixels = try screen.readPixels()
            let eighth = layout.canvas.height / 8
            var words = 0, below = 0
            for y in 0..<layout.content.maxY {
                for x in stride(from: 0, to: layout.asideTimer.x, by: 2) where Self.brightness(pixels, screen, x, y) > 225 {
                    if y < eighth { words += 1 } else { below += 1 }
                }
            }
            #expect(words > 100 && below == 0, "\(what): the question's white in the top \(eighth) rows \(words), below them \(below)")
        }
    }
}
