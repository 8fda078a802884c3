// What the screen really draws, read back with SDL_RenderReadPixels before present: for every mode
// and orientation, the buttons where the layout puts them, hidden ones absent, the camera picture
// aspect-filled with known bar colours at known places, the timer's text changing.
import CSDL2
import Foundation
import KioskCore
import Testing
@testable import KioskUI

/// The checks for one rendered screen.
struct ScreenCheck {
    let pixels: Pixels
    let model: ViewModel
    let transform: DisplayTransform
    let layout: Layout
    let frame: Size
    var mount = 0
    var mirror = false
    let label: String

    /// The display pixel under a canvas point (sampled at the canvas pixel's centre).
    func pixel(_ logical: Point) -> Point {
        let p = transform.toPhysical(Point(x: logical.x.rounded(.down) + 0.5, y: logical.y.rounded(.down) + 0.5))
        return Point(x: min(max(p.x.rounded(.down), 0), Double(transform.physical.width - 1)),
                     y: min(max(p.y.rounded(.down), 0), Double(transform.physical.height - 1)))
    }

    /// The camera picture expected at a display pixel, under the translucent panels where they are.
    func expectedPicture(display p: Point) -> RGB? {
        guard let bar = expectedBar(display: p, frame: frame, transform: transform, mount: mount, mirror: mirror) else { return nil }
        let c = transform.toLogical(Point(x: p.x + 0.5, y: p.y + 0.5))
        if layout.topPanel.contains(c) { return bar.under(Style.panel) }
        if model.bottomPanelBackground && layout.bottomPanel.contains(c) { return bar.under(Style.panel) }
        return bar
    }

    func expectColor(_ p: Point, _ expected: RGB, within tolerance: Double, _ what: String,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        let got = pixels.color(p)
        #expect(got.close(to: expected, within: tolerance),
                "\(label): \(what) at display (\(Int(p.x)),\(Int(p.y))) is \(got), expected \(expected)",
                sourceLocation: sourceLocation)
    }

    /// How many pixels of a canvas rectangle are within `tolerance` of a colour.
    func count(in r: Rect, near color: RGB, within tolerance: Double) -> Int {
        let d = transform.toPhysical(r)
        var n = 0
        for y in max(d.y, 0)..<min(d.maxY, transform.physical.height) {
            for x in max(d.x, 0)..<min(d.maxX, transform.physical.width) where RGB(pixels.rgb(x: x, y: y)).close(to: color, within: tolerance) {
                n += 1
            }
        }
        return n
    }

    // MARK: The checks

    func visibleButtons() {
        for button in model.buttons {
            let f = layout.frame(of: button)
            let c = f.center
            switch button {
            case .start, .stop:
                let d = Double(f.width)
                let red = RGB(Style.red)
                expectColor(pixel(c), red, within: 8, "\(button) centre")
                let ringRadius = d / 2 - d * RecordButtonShape.ringWidth / 2
                for (dx, dy) in [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)] {
                    expectColor(pixel(Point(x: c.x + dx * ringRadius, y: c.y + dy * ringRadius)), RGB(Style.ring), within: 8, "\(button) ring")
                }
                // 0.30 of the diameter along the diagonal: inside the disc, outside the stop square.
                let diagonal = pixel(Point(x: c.x + 0.3 * d / 2.squareRoot(), y: c.y + 0.3 * d / 2.squareRoot()))
                if button == .start {
                    expectColor(diagonal, red, within: 8, "record disc")
                } else {
                    #expect(!pixels.color(diagonal).close(to: red, within: 40), "\(label): the stop square is a square, not the disc")
                    if let picture = expectedPicture(display: diagonal) {
                        expectColor(diagonal, picture, within: 14, "the picture between the stop square and the ring")
                    }
                }
            default:
                // The fill above the title (the title sits on the button's middle).
                let fill = RGB(Style.fill(of: button))
                expectColor(pixel(Point(x: c.x, y: Double(f.y) + 0.15 * Double(f.height))), fill, within: 8, "\(button) fill")
                let ink = button == .playVideo ? RGB(Style.darkText) : RGB(Style.lightText)
                let inked = count(in: f, near: ink, within: 30)
                #expect(inked > layout.textHeight * 4, "\(label): \(button)'s title is drawn (\(inked) text pixels)")
            }
        }
    }

    func hiddenButtons() {
        let visibleSlots = Set(model.buttons.map(\.slot))
        for button in Button.allCases where !visibleSlots.contains(button.slot) {
            // The middle is taken by the camera message or the paused mark when they show.
            if button.slot == .middle && (model.message != nil || model.paused) { continue }
            let f = layout.frame(of: button)
            var checked = 0
            for p in [f.center, Point(x: f.center.x, y: Double(f.y) + 0.15 * Double(f.height)),
                      Point(x: Double(f.x) + 0.25 * Double(f.width), y: f.center.y), Point(x: Double(f.x) + 0.75 * Double(f.width), y: f.center.y)] {
                // The progress bar runs through the bottom panel while playing.
                if model.mode == .playing && layout.progressBar.outset(dx: 2, dy: 2).contains(p) { continue }
                let d = pixel(p)
                guard let picture = expectedPicture(display: d) else { continue }
                expectColor(d, picture, within: 14, "hidden \(button)'s place shows the picture")
                checked += 1
            }
            // While playing, the progress bar covers most of the centre and right places.
            if model.mode != .playing { #expect(checked > 0, "\(label): some point of hidden \(button) was checked") }
        }
    }

    /// The picture reaches every edge of the display (aspect-fill: no bars) with the right colours.
    func pictureAtEdges() {
        let w = transform.physical.width, h = transform.physical.height
        var points: [Point] = []
        for i in 0..<32 {
            let fx = Double((w - 1) * i / 31), fy = Double((h - 1) * i / 31)
            points += [Point(x: fx, y: 0), Point(x: fx, y: Double(h - 1)), Point(x: 0, y: fy), Point(x: Double(w - 1), y: fy)]
        }
        var checked = 0
        for p in points {
            guard let expected = expectedPicture(display: p) else { continue }
            expectColor(p, expected, within: 14, "the picture at the edge")
            checked += 1
        }
        #expect(checked > points.count / 2, "\(label): most edge points were away from bar boundaries")
    }

    func message(against plain: Pixels) {
        guard model.message != nil else { return }
        let area = layout.content.centered(Size(width: layout.content.width * 3 / 5, height: layout.textHeight * 2))
        #expect(count(in: area, near: RGB(255, 255, 255), within: 30) > layout.textHeight * 8, "\(label): the message's text is drawn")
        let c = pixel(layout.content.center)
        #expect(pixels.color(c) != plain.color(c) || pixels.color(c).brightness > 200, "\(label): the message covers the middle")
    }
}

extension SDLTests {
    @Suite("Screen pixels")
    struct ScreenPixelTests {
        static let frameSize = Size(width: 640, height: 360)

        @Test("every mode in every orientation: buttons where the layout says, hidden ones absent, picture aspect-filled",
              arguments: [Size(width: 800, height: 480), Size(width: 1080, height: 1920)])
        func modesAndOrientations(output: Size) throws {
            let sdl = try makeContext()
            let screen = try makeScreen(sdl, size: output)
            #expect(screen.outputSize == output)
            try screen.show(frame: TestFrames.bars(size: Self.frameSize))
            for orientation in Orientation.allCases {
                screen.setOrientation(orientation)
                for (name, model) in Models.all {
                    try screen.draw(model)
                    let pixels = try screen.readPixels()
                    let check = ScreenCheck(pixels: pixels, model: model, transform: screen.transform, layout: screen.layout,
                                            frame: Self.frameSize, label: "\(output) \(orientation.rawValue) \(name)")
                    check.visibleButtons()
                    check.hiddenButtons()
                    check.pictureAtEdges()
                    if model.message != nil {
                        var plain = model
                        plain.message = nil
                        try screen.draw(plain)
                        check.message(against: try screen.readPixels())
                    }
                }
            }
        }

        @Test("the countdown: a large number on a dark disc in the middle of the picture; 3 and 2 differ only inside the disc; only Cancel shows",
              arguments: [Orientation.landscapeRight, .portrait])
        func countdown(orientation: Orientation) throws {
            let sdl = try makeContext()
            let screen = try makeScreen(sdl, size: Size(width: 800, height: 480), orientation: orientation)
            try screen.show(frame: TestFrames.bars(size: Self.frameSize))
            let three = Models.countdown(3), two = Models.countdown(2)
            #expect(three.countdown == 3 && three.buttons == [.cancel] && three.mode == .countdown)
            try screen.draw(three)
            let a = try screen.readPixels()
            let check = ScreenCheck(pixels: a, model: three, transform: screen.transform, layout: screen.layout,
                                    frame: Self.frameSize, label: "countdown \(orientation.rawValue)")
            // (No hidden-button check: the disc covers the middle, where Play Video would be.)
            check.visibleButtons()
            // The disc: half the picture's shorter side, centred; the digit in white inside it.
            let content = screen.layout.content
            let d = min(content.width, content.height) / 2
            let disc = content.centered(Size(width: d, height: d))
            #expect(check.count(in: disc, near: RGB(255, 255, 255), within: 30) > d * d / 40, "the digit is drawn large")
            try screen.draw(two)
            let b = try screen.readPixels()
            let box = screen.transform.toPhysical(disc)
            var inside = 0, outside = 0
            for y in 0..<480 {
                for x in 0..<800 where a.rgb(x: x, y: y) != b.rgb(x: x, y: y) {
                    if box.contains(Point(x: Double(x), y: Double(y))) { inside += 1 } else { outside += 1 }
                }
            }
            #expect(inside > d * 2, "3 → 2 changes the digit (\(inside) pixels)")
            #expect(outside == 0, "and nothing outside the disc (\(outside) pixels)")
        }

        @Test("time nearly up: the timer red on white, and a red ring around Stop that covers the part of the warning time left, clockwise from the top",
              arguments: [Orientation.landscapeRight, .portrait])
        func timeLeft(orientation: Orientation) throws {
            let sdl = try makeContext()
            let screen = try makeScreen(sdl, size: Size(width: 800, height: 480), orientation: orientation)
            try screen.show(frame: TestFrames.bars(size: Self.frameSize))
            var model = Models.recording(elapsed: 5)
            model.remainingFraction = 0.5
            try screen.draw(model)
            let pixels = try screen.readPixels()
            let check = ScreenCheck(pixels: pixels, model: model, transform: screen.transform, layout: screen.layout,
                                    frame: Self.frameSize, label: "time left \(orientation.rawValue)")
            let red = RGB(255, 59, 48), white = RGB(255, 255, 255)
            #expect(check.count(in: screen.layout.timerLabel, near: red, within: 40) > 10, "the timer's text is red")
            #expect(check.count(in: screen.layout.timerLabel, near: white, within: 20) > 40, "on a white capsule")
            // Points on the ring: the first half (clockwise from up) red, the second white.
            let frame = screen.layout.recordButton
            let d = Double(min(frame.width, frame.height))
            let c = frame.center, r = d / 2 - max(d * 0.08, 2) / 2
            for (degrees, expected) in [(45.0, red), (135.0, red), (225.0, white), (315.0, white)] {
                let a = degrees * .pi / 180
                let p = check.pixel(Point(x: c.x + r * sin(a), y: c.y - r * cos(a)))
                check.expectColor(p, expected, within: 40, "the ring at \(Int(degrees))°")
            }
        }

        @Test("the microphone's meter: a bar along the left of the picture, yellow near the top for −6 dBFS with the peak line above; empty at −100")
        func meter() throws {
            let sdl = try makeContext()
            let screen = try makeScreen(sdl, size: Size(width: 800, height: 480))
            try screen.show(frame: TestFrames.bars(size: Self.frameSize))
            var loud = Models.ready
            loud.microphoneLevel = (-6, -2)
            var quiet = Models.ready
            quiet.microphoneLevel = (-100, -100)
            let area = screen.layout.content, t = screen.layout.textHeight
            let strip = Rect(x: area.x + t / 2, y: area.y, width: max(t / 2, 6), height: area.height)
            try screen.draw(loud)
            let a = try screen.readPixels()
            let ca = ScreenCheck(pixels: a, model: loud, transform: screen.transform, layout: screen.layout, frame: Self.frameSize, label: "meter loud")
            #expect(ca.count(in: strip, near: RGB(255, 214, 10), within: 12) > t * 6, "the bar is yellow at −6 dBFS")
            try screen.draw(quiet)
            let b = try screen.readPixels()
            let cb = ScreenCheck(pixels: b, model: quiet, transform: screen.transform, layout: screen.layout, frame: Self.frameSize, label: "meter quiet")
            #expect(cb.count(in: strip, near: RGB(255, 214, 10), within: 12) == 0 && cb.count(in: strip, near: RGB(48, 209, 88), within: 12) == 0,
                    "empty at −100")
        }

        @Test("--high-contrast: opaque black panels over any picture, light side buttons with black titles, Use Video yellow")
        func highContrast() throws {
            let sdl = try makeContext()
            let screen = try makeScreen(sdl, size: Size(width: 800, height: 480))
            try screen.show(frame: TestFrames.bars(size: Self.frameSize))
            screen.highContrast = true
            try screen.draw(Models.ready)
            let ready = try screen.readPixels()
            let check = ScreenCheck(pixels: ready, model: Models.ready, transform: screen.transform, layout: screen.layout,
                                    frame: Self.frameSize, label: "high contrast")
            // The top panel over the white bar (left) is black, not a translucent grey.
            let top = screen.layout.topPanel
            check.expectColor(check.pixel(Point(x: Double(top.x) + 20, y: Double(top.y) + 4)), RGB(0, 0, 0), within: 2, "the top panel")
            let cancel = screen.layout.frame(of: .cancel)
            #expect(check.count(in: cancel, near: RGB(255, 255, 255), within: 10) > cancel.width * cancel.height / 2, "Cancel is light")
            #expect(check.count(in: cancel, near: RGB(0, 0, 0), within: 40) > 50, "with a black title")
            try screen.draw(Models.finished())
            let finished = try screen.readPixels()
            let use = screen.layout.frame(of: .useVideo)
            let fcheck = ScreenCheck(pixels: finished, model: Models.finished(), transform: screen.transform, layout: screen.layout,
                                     frame: Self.frameSize, label: "high contrast finished")
            #expect(fcheck.count(in: use, near: RGB(255, 214, 10), within: 10) > use.width * use.height / 2, "Use Video is yellow")
            screen.highContrast = false
        }

        @Test("the timer's text changes the top panel's pixels, and nothing else", arguments: Orientation.allCases)
        func timerChanges(orientation: Orientation) throws {
            let sdl = try makeContext()
            let screen = try makeScreen(sdl, size: Size(width: 800, height: 480), orientation: orientation)
            try screen.show(frame: TestFrames.bars(size: Self.frameSize))
            try screen.draw(Models.recording(elapsed: 5))
            let five = try screen.readPixels()
            try screen.draw(Models.recording(elapsed: 6))
            let six = try screen.readPixels()
            #expect(Models.recording(elapsed: 5).timer == "00:05")
            let label = screen.transform.toPhysical(screen.layout.timerLabel)
            var inside = 0, outside = 0
            for y in 0..<480 {
                for x in 0..<800 where five.rgb(x: x, y: y) != six.rgb(x: x, y: y) {
                    if label.contains(Point(x: Double(x), y: Double(y))) { inside += 1 } else { outside += 1 }
                }
            }
            #expect(inside > 20, "00:05 → 00:06 changes the timer's pixels (\(inside))")
            #expect(outside == 0, "and nothing outside the timer's label")
        }

        @Test("the picture stays fixed to the display in every orientation, turned by the camera's mount and mirrored when asked",
              arguments: [(0, false), (0, true), (1, false), (3, true)])
        func mountAndMirror(mount: Int, mirror: Bool) throws {
            let sdl = try makeContext()
            let output = Size(width: 800, height: 480)
            let screen = try makeScreen(sdl, size: output, mirror: mirror)
            screen.cameraMount = mount
            try screen.show(frame: TestFrames.bars(size: Self.frameSize))
            for orientation in Orientation.allCases {
                screen.setOrientation(orientation)
                try screen.draw(nil)
                let pixels = try screen.readPixels()
                var checked = 0
                for y in stride(from: 0, to: output.height, by: 23) {
                    for x in stride(from: 0, to: output.width, by: 17) {
                        let p = Point(x: Double(x), y: Double(y))
                        guard let expected = expectedBar(display: p, frame: Self.frameSize, transform: screen.transform,
                                                         mount: mount, mirror: mirror) else { continue }
                        let got = pixels.color(p)
                        #expect(got.close(to: expected, within: 14),
                                "mount \(mount) mirror \(mirror) \(orientation.rawValue): (\(x),\(y)) is \(got), expected \(expected)")
                        checked += 1
                    }
                }
                #expect(checked > 500)
            }
        }

        @Test("turned onto a landscape panel, a portrait canvas has its bottom panel along the display's right edge")
        func portraitOnLandscapePanel() throws {
            let sdl = try makeContext()
            let screen = try makeScreen(sdl, size: Size(width: 800, height: 480), orientation: .portrait)
            #expect(screen.layout.canvas == Size(width: 480, height: 800))
            try screen.draw(Models.ready)
            let pixels = try screen.readPixels()
            // Worked out by hand: portrait is landscape-right turned a quarter counter-clockwise,
            // so the canvas's bottom edge lies on the display's right edge, its left on the bottom.
            let disc = screen.transform.toPhysical(screen.layout.recordButton.center)
            #expect(disc.x > 600 && abs(disc.y - 240) < 2)
            #expect(pixels.color(disc).close(to: RGB(Style.red), within: 8))
            let cancel = screen.transform.toPhysical(screen.layout.leftButton.center)
            #expect(cancel.x > 600 && cancel.y > 300, "Cancel (canvas bottom-left) is at the display's bottom right")
        }

        @Test("a button held down is drawn pressed until it is released")
        func pressedFeedback() throws {
            let sdl = try makeContext()
            let screen = try makeScreen(sdl, size: Size(width: 800, height: 480))
            let frame = screen.layout.frame(of: .cancel)
            let sample = screen.transform.toPhysical(Point(x: frame.center.x, y: Double(frame.y) + 0.15 * Double(frame.height)))
            let centre = screen.transform.toPhysical(frame.center)
            try screen.draw(Models.ready)
            #expect(try screen.readPixels().color(sample).close(to: RGB(Style.secondary), within: 8))
            pushMouse(SDL_MOUSEBUTTONDOWN, at: centre)
            #expect(screen.pollEvents(visible: Models.ready.buttons).isEmpty)
            try screen.draw(Models.ready)
            #expect(try screen.readPixels().color(sample).close(to: RGB(Style.pressed(Style.secondary)), within: 8))
            pushMouse(SDL_MOUSEBUTTONUP, at: centre)
            #expect(screen.pollEvents(visible: Models.ready.buttons) == [.press(.cancel)])
            try screen.draw(Models.ready)
            #expect(try screen.readPixels().color(sample).close(to: RGB(Style.secondary), within: 8))
        }
    }
}
