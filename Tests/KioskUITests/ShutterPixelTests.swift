// The shutter (`--photo-button`, issue 34) read back pixel by pixel on a landscape display, a
// portrait one and a landscape one turned portrait, in English and Japanese: beside the record
// circle in ready and beside Stop in a take, a white disc in a white ring with the picture between,
// a finger's gap from its neighbours, taking a touch through the turn; and a photo's white flash.
import Foundation
import KioskCore
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("The shutter in pixels: landscape and portrait, en and ja")
    struct ShutterPixelTests {
        /// Ready and a take, with the shutter shown.
        static func models() -> [(String, ViewModel)] {
            var m = Models.machine()
            m.photoButton = true
            let ready = m.viewModel
            _ = m.handle(.press(.start))
            _ = m.handle(.recordingStarted(outputPath: "/tmp/take.mov"))
            _ = m.handle(.tick(elapsed: 5))
            return [("ready", ready), ("recording", m.viewModel)]
        }

        @Test("ready and recording: the shutter right of the record circle (24 px from it and from the camera switch), white disc in a white ring, the rest of the screen as without it",
              arguments: ElementScreen.all)
        func shutter(_ s: ElementScreen) throws {
            let screen = try s.open()
            screen.extras.photo = true
            for (name, model) in Self.models() {
                #expect(model.buttons.contains(.photo), "\(name): \(model.buttons)")
                try screen.draw(model)
                let check = try s.check(screen, model, name)
                check.visibleButtons()
                check.hiddenButtons()
                let layout = screen.layout, shutter = layout.frame(of: .photo)
                let switcher = layout.frame(of: .switchCamera)
                #expect(shutter.x - layout.recordButtonDrawn.maxX >= Layout.buttonGap && switcher.x - shutter.maxX >= Layout.buttonGap,
                        "\(check.label): \(layout.recordButtonDrawn) \(shutter) \(switcher)")
                #expect(shutter.width >= Layout.minimumTouch && shutter.isInside(layout.bottomPanel), "\(check.label): \(shutter)")
                // A touch on it, on the display, is the shutter's, whatever the turn.
                let visible = model.buttons
                #expect(screen.press(at: screen.transform.toPhysical(shutter).center, visible: visible) == .photo, "\(check.label)")
                #expect(screen.press(at: screen.transform.toPhysical(layout.recordButton).center, visible: visible) == (name == "ready" ? .start : .stop))
            }
        }

        @Test("a photo's flash: the whole screen white at its start, the picture half showing through halfway, gone after",
              arguments: ElementScreen.all)
        func flash(_ s: ElementScreen) throws {
            let screen = try s.open()
            screen.extras.photo = true
            var model = try #require(Self.models().first).1
            model.flash = 1
            try screen.draw(model)
            let full = try s.check(screen, model, "flash 1")
            let content = screen.layout.content
            var points: [Point] = []
            for i in 1...4 {
                for j in 1...4 {
                    let x = Double(content.x) + Double(content.width * i) / 5, y = Double(content.y) + Double(content.height * j) / 5
                    points.append(Point(x: x, y: y))
                }
            }
            for p in points { full.expectColor(full.pixel(p), RGB(255, 255, 255), within: 3, "the flash") }
            model.flash = 0.5
            try screen.draw(model)
            let half = try s.check(screen, model, "flash 0.5")
            half.expectOverPicture(points, within: 14, "the half flash") { $0.under(RGBA(255, 255, 255, 128)) }
            model.flash = nil
            try screen.draw(model)
            try s.check(screen, model, "after the flash").expectOverPicture(points, within: 14, "the picture after the flash") { $0 }
        }
    }
}
