// The tap's focus box in every orientation: a yellow square around the tapped point, 1.5 times its
// size at the tap, shrinking onto it by a quarter of its second, fading in its last quarter.
import Foundation
import KioskContract
import KioskCore
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("Focus box")
    struct FocusBoxTests {
        @Test("yellow edges at 1.5x, then 1x the box's side around the point; faded near the end; gone without it",
              arguments: Orientation.allCases)
        func animation(orientation: Orientation) throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480), orientation: orientation)
            screen.clearPreview()
            let layout = screen.layout
            let side = Double(min(layout.content.width, layout.content.height)) * 0.22
            let center = Point(x: Double(layout.content.x) + Double(layout.content.width) * 0.3,
                               y: Double(layout.content.y) + Double(layout.content.height) * 0.45)
            /// The colour just inside the box's left edge, halfway down, on the display.
            func leftEdge(scale: Double, progress: Double?) throws -> RGB {
                var model = Models.ready
                model.focusBox = progress.map { (center, $0) }
                try screen.render(model)
                let pixels = try screen.snapshot()
                let logical = Point(x: (center.x - side * scale / 2).rounded() + 1, y: center.y)
                return pixels.color(screen.transform.toPhysical(logical))
            }
            let yellow = RGB(Style.meterYellow)
            #expect(try leftEdge(scale: 1.5, progress: 0).close(to: yellow, within: 8), "at the tap")
            #expect(try leftEdge(scale: 1, progress: 0.5).close(to: yellow, within: 8), "held")
            #expect(try leftEdge(scale: 1.5, progress: 0.5).brightness < 20, "no edge at 1.5x once it shrank")
            let faded = try leftEdge(scale: 1, progress: 0.9)
            #expect(faded.brightness > 15 && faded.distance(to: yellow) > 60, "fading: \(faded)")
            #expect(try leftEdge(scale: 1, progress: nil).brightness < 20, "gone")
        }

        @Test("Switch Camera: a grey pill with its title at the right in ready, in every orientation; the new camera's name under the top panel",
              arguments: Orientation.allCases)
        func switchButton(orientation: Orientation) throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480), orientation: orientation)
            screen.clearPreview()
            var m = RecorderMachine(session: .once, outputPath: "/tmp/take.mov", orientation: orientation, cameraCount: 2)
            _ = m.start()
            var model = m.viewModel
            #expect(model.buttons == [.cancel, .start, .switchCamera])
            model.cameraName = "Right Cam"
            try screen.render(model)
            let pixels = try screen.snapshot()
            let frame = screen.layout.frame(of: .switchCamera)
            // The pill's fill near its left end, and white title pixels across its middle.
            let fill = pixels.color(screen.transform.toPhysical(Point(x: Double(frame.x) + Double(frame.height) * 0.6, y: frame.center.y - Double(frame.height) / 3)))
            #expect(fill.close(to: RGB(Style.secondary), within: 6), "\(fill)")
            var white = 0
            for x in stride(from: frame.x + 1, to: frame.maxX - 1, by: 1) {
                for y in stride(from: frame.y + 1, to: frame.maxY - 1, by: 2) where pixels.color(screen.transform.toPhysical(Point(x: Double(x), y: Double(y)))).brightness > 200 { white += 1 }
            }
            #expect(white > 60, "title pixels: \(white)")
            // The name's box: light text on a dark box at the top of the picture.
            var light = 0
            let content = screen.layout.content
            for x in stride(from: content.x + 1, to: content.maxX - 1, by: 2) {
                for y in stride(from: content.y + 1, to: content.y + screen.layout.textHeight * 2, by: 2)
                where pixels.color(screen.transform.toPhysical(Point(x: Double(x), y: Double(y)))).brightness > 200 { light += 1 }
            }
            #expect(light > 30, "name pixels: \(light)")
        }
    }
}
