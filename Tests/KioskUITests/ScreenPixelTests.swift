// What the screen really draws, read back with SDL_RenderReadPixels before present: for every mode
// and orientation, the buttons where the layout puts them, hidden ones absent, the camera picture
// aspect-filled with known bar colours at known places, the timer's text changing.
import CSDL2
import Foundation
import KioskContract
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
            case .photo:
                // The shutter: a white disc inside a white ring, the picture between them.
                let edge = max(Double(f.width) * RecordButtonShape.outlineWidth, 2)
                let inner = Double(f.width) - 2 * edge
                let thickness = max(inner * RecordButtonShape.ringWidth, 2)
                expectColor(pixel(c), RGB(Style.ring), within: 8, "the shutter's disc")
                for (dx, dy) in [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)] {
                    expectColor(pixel(Point(x: c.x + dx * (inner / 2 - thickness / 2), y: c.y + dy * (inner / 2 - thickness / 2))),
                                RGB(Style.ring), within: 8, "the shutter's ring")
                    // Between the disc and the ring's inner dark edge.
                    let between = (inner * RecordButtonShape.shutterDiscRadius + inner / 2 - thickness - edge) / 2
                    let gap = pixel(Point(x: c.x + dx * between, y: c.y + dy * between))
                    if let picture = expectedPicture(display: gap) {
                        expectColor(gap, picture, within: 14, "the picture between the shutter's disc and ring")
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
                // The shutter may stand on part of the right button's place (its modes have none).
                if model.buttons.contains(where: { layout.frame(of: $0).outset(dx: 2, dy: 2).contains(p) }) { continue }
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
            let screen = try makeScreen(size: output)
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

        @Test("the timer's text changes the top panel's pixels, and nothing else", arguments: Orientation.allCases)
        func timerChanges(orientation: Orientation) throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480), orientation: orientation)
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
            let output = Size(width: 800, height: 480)
            let screen = try makeScreen(size: output, mirror: mirror)
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
            let screen = try makeScreen(size: Size(width: 800, height: 480), orientation: .portrait)
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
            let screen = try makeScreen(size: Size(width: 800, height: 480))
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
