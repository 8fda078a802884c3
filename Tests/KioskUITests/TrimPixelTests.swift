// Issue 34's trimmer in pixels, on a landscape display, a portrait one and a landscape one turned
// portrait: the band above the bottom panel, the yellow handles at the trim's times (at least 48 px to
// touch), the part kept framed and the rest dimmed, the times above the handles; a moved handle
// moves on screen. Places come from TrimmerLayout, colours from the overlay's style.
import CSDL2
import Foundation
import KioskContract
import KioskCore
import Testing
@testable import KioskUI

/// Pictures for the trimmer's band as a take's would be: colour bars, 160x120, each its own
/// brightness (`shade`), so neighbours differ.
func trimBars(count: Int = 12) -> [RGBPicture] {
    let colours: [(UInt8, UInt8, UInt8)] = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0), (255, 0, 255), (255, 0, 0), (0, 0, 255), (0, 0, 0)]
    return (0..<count).map { i in
        let size = Size(width: 160, height: 120), shade = 1 - Double(i) / Double(2 * count)
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let c = colours[x * colours.count / size.width]
                let o = (y * size.width + x) * 3
                pixels[o] = UInt8(Double(c.0) * shade)
                pixels[o + 1] = UInt8(Double(c.1) * shade)
                pixels[o + 2] = UInt8(Double(c.2) * shade)
            }
        }
        return RGBPicture(pixels: pixels, size: size, pitch: size.width * 3)
    }
}

extension SDLTests {
    @Suite("Issue 34's trimmer in pixels: landscape and portrait")
    struct TrimPixelTests {
        static let screens = ElementScreen.all.filter { $0.language == .en }

        @Test("the trimmer on the finished screen: yellow handles at 1.0 s and 4.0 s of a 6 s take, 48 px or more to touch, the part kept darker than the picture and the part left out darker still, the times in light text above; the end moved to 5.0 s moves its handle", arguments: screens)
        func trimmer(_ s: ElementScreen) throws {
            let screen = try s.open()
            var model = Models.finished()
            for end in [4.0, 5.0] {
                model.trimmer = TrimmerView(duration: 6, range: TrimRange(start: 1, end: end))
                try screen.draw(model)
                let check = try s.check(screen, model, "trim to \(end)")
                let trimmer = TrimmerLayout(layout: screen.layout, duration: 6, range: TrimRange(start: 1, end: end))
                let yellow = RGB(Style.trimFrame)
                for handle in TrimHandle.allCases {
                    let frame = handle == .start ? trimmer.startHandle : trimmer.endHandle
                    // Beside the grip line, halfway up.
                    let p = Point(x: Double(frame.x) + Double(frame.width) / 5, y: frame.center.y)
                    check.expectColor(check.pixel(p), yellow, within: 12, "the \(handle) handle")
                    let hit = trimmer.hitFrame(of: handle)
                    #expect(hit.width >= 48 && hit.height >= 48, "\(check.label): the \(handle) handle takes a touch in \(hit)")
                    #expect(trimmer.handle(at: frame.center) == handle)
                }
                #expect(abs(trimmer.x(of: end) - Double(trimmer.endHandle.x)) <= 1)
                // Inside and outside the part kept, along the band's middle line.
                let y = trimmer.strip.center.y
                func luma(_ p: Point) -> Double { let c = check.pixels.color(check.pixel(p)); return 0.299 * c.r + 0.587 * c.g + 0.114 * c.b }
                let kept = luma(Point(x: trimmer.x(of: 2.5) + 3, y: y)), outside = luma(Point(x: trimmer.x(of: 0.5) + 3, y: y))
                let after = luma(Point(x: trimmer.x(of: 5.6), y: y))
                #expect(kept < 60 && outside < kept && (end > 5.5 || after < kept), "\(check.label): kept \(kept), before \(outside), after \(after)")
                for box in [trimmer.startLabel, trimmer.endLabel] {
                    #expect(check.count(in: box, near: RGB(255, 255, 255), within: 40) > 20, "\(check.label): a time in \(box)")
                    #expect(box.maxY <= trimmer.strip.y && box.y >= screen.layout.topPanel.maxY, "\(check.label): \(box) above the band")
                }
                #expect(!trimmer.strip.intersects(screen.layout.middleButton) && trimmer.strip.maxY <= screen.layout.bottomPanel.y,
                        "\(check.label): the band clears Play Video and the bottom panel")
            }
            // The take's pictures in the band, each filling its box (its middle: the bars' green one among
            // them); none once cleared.
            try screen.setTrimPictures(trimBars())
            try screen.draw(model)
            let check = try s.check(screen, model, "pictures")
            let trimmer = TrimmerLayout(layout: screen.layout, duration: 6, range: TrimRange(start: 1, end: 5))
            let boxes = trimmer.thumbnails(count: 12)
            let keptBox = try #require(boxes.first { Double($0.x) > trimmer.x(of: 2) && Double($0.maxX) < trimmer.x(of: 4.5) })
            func green(_ c: ScreenCheck) -> Int {
                let d = c.transform.toPhysical(keptBox)
                var n = 0
                for y in d.y..<d.maxY { for x in d.x..<d.maxX { let p = RGB(c.pixels.rgb(x: x, y: y)); if p.g > 150 && p.r < 90 && p.b < 90 { n += 1 } } }
                return n
            }
            #expect(green(check) > keptBox.height * 3, "\(check.label): the picture's green bar in \(keptBox): \(green(check)) pixels")
            try screen.setTrimPictures([])
            try screen.draw(model)
            let cleared = try s.check(screen, model, "pictures cleared")
            #expect(green(cleared) == 0, "\(check.label): no picture once cleared")
        }
    }
}

extension SDLTests {
    @Suite("Issue 34's trimmer: dragging its handles")
    struct TrimInputTests {
        @Test("a finger down on a handle and moved drags it: the times follow the finger from where it took hold, through the orientation; up ends it without a press or a tap; a finger down elsewhere on the band does nothing",
              arguments: [(Size(width: 800, height: 480), Orientation?.none), (Size(width: 800, height: 480), Orientation.portrait)])
        func drag(output: Size, orientation: Orientation?) throws {
            let screen = try makeScreen(size: output, orientation: orientation)
            var model = Models.finished()
            model.trimmer = TrimmerView(duration: 6, range: TrimRange(start: 1, end: 4))
            try screen.draw(model)
            let trimmer = TrimmerLayout(layout: screen.layout, duration: 6, range: TrimRange(start: 1, end: 4))
            let visible = model.buttons
            for (handle, frame, to) in [(TrimHandle.start, trimmer.startHandle, 2.0), (.end, trimmer.endHandle, 5.0)] {
                // Taken a little off the handle's middle: the time follows the finger's movement.
                let down = Point(x: frame.center.x + 3, y: frame.center.y + 5)
                let moved = Point(x: down.x + trimmer.x(of: to) - trimmer.x(of: handle == .start ? 1 : 4), y: down.y - 30)
                pushFinger(SDL_FINGERDOWN, at: screen.transform.toPhysical(down), on: output)
                pushFinger(SDL_FINGERMOTION, at: screen.transform.toPhysical(moved), on: output)
                pushFinger(SDL_FINGERUP, at: screen.transform.toPhysical(moved), on: output)
                let inputs = screen.pollEvents(visible: visible)
                guard case let .trim(dragged, seconds)? = inputs.first, inputs.count == 1 else {
                    Issue.record("\(handle): \(inputs)")
                    continue
                }
                #expect(dragged == handle && abs(seconds - to) < 0.05, "\(handle) to \(seconds)")
            }
            let empty = Point(x: trimmer.x(of: 2.5), y: trimmer.strip.center.y)
            pushFinger(SDL_FINGERDOWN, at: screen.transform.toPhysical(empty), on: output)
            pushFinger(SDL_FINGERUP, at: screen.transform.toPhysical(empty), on: output)
            #expect(screen.pollEvents(visible: visible).allSatisfy { if case .trim = $0 { false } else { true } })
        }
    }
}
