// Issue 14's elements, read back pixel by pixel on a landscape display, a portrait one and a
// landscape one turned portrait, each in English and Japanese: the countdown, the time left (timer
// and ring), the microphone's meter (its fill, peak line and silent state), the attract screen (veil,
// pulse, prompt), high contrast and large text. Colours are worked out from Layout, the overlay's
// style and the test bars, at places Layout gives.
import CSDL2
import Foundation
import KioskContract
import KioskCore
import KioskScreenText
import Testing
@testable import KioskUI

/// One screen the elements are drawn on.
struct ElementScreen: CustomTestStringConvertible, Sendable {
    let output: Size
    /// nil: the display's natural orientation.
    let orientation: Orientation?
    let language: Language

    var testDescription: String {
        "\(output.width)x\(output.height)\(orientation.map { " turned \($0.rawValue)" } ?? "") \(language.rawValue)"
    }

    static let all: [ElementScreen] = [(Size(width: 800, height: 480), nil), (Size(width: 480, height: 800), nil),
                                       (Size(width: 800, height: 480), Orientation.portrait)]
        .flatMap { s in [Language.en, .ja].map { ElementScreen(output: s.0, orientation: s.1, language: $0) } }

    static let frameSize = Size(width: 640, height: 360)

    var prompt: String { SDLTests.LanguageTests.prompt[language]! }

    /// The screen in this size, orientation and language, showing the test bars.
    func open() throws -> Screen {
        let screen = try makeScreen(size: output, orientation: orientation)
        try screen.setWords(ScreenWords(language: language), prompt: prompt, font: nil)
        try screen.show(frame: TestFrames.bars(size: Self.frameSize))
        return screen
    }

    func check(_ screen: Screen, _ model: ViewModel, _ what: String) throws -> ScreenCheck {
        ScreenCheck(pixels: try screen.readPixels(), model: model, transform: screen.transform, layout: screen.layout,
                    frame: Self.frameSize, label: "\(testDescription) \(what)")
    }
}

extension ScreenCheck {
    /// The test bar at a canvas point, nil near a bar's edge.
    func bar(at canvas: Point) -> RGB? {
        expectedBar(display: pixel(canvas), frame: frame, transform: transform)
    }

    /// Checks the colour at canvas points over the picture (those near a bar's edge skipped):
    /// `expected` turns the bar's colour into what must show there. Returns how many were checked.
    @discardableResult
    func expectOverPicture(_ points: [Point], within tolerance: Double, _ what: String, _ expected: (RGB) -> RGB,
                           sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var checked = 0
        for p in points {
            guard let bar = bar(at: p) else { continue }
            expectColor(pixel(p), expected(bar), within: tolerance, what, sourceLocation: sourceLocation)
            checked += 1
        }
        #expect(checked > 0, "\(label): some point of \(what) was away from the bars' edges", sourceLocation: sourceLocation)
        return checked
    }

    /// The bounding box (display pixels) of light pixels (text) inside a canvas rectangle.
    func lightInk(in r: Rect) -> Rect? {
        SDLTests.LanguageTests.ink(in: pixels, area: transform.toPhysical(r))
    }
}

extension SDLTests {
    @Suite("Issue 14's elements in pixels: landscape and portrait, en and ja")
    struct ElementPixelTests {
        @Test("the countdown: a large white number centred on a dark disc in the middle of the picture, only Cancel (in the language) shows; 3 → 2 changes nothing outside the disc",
              arguments: ElementScreen.all)
        func countdown(_ s: ElementScreen) throws {
            let screen = try s.open()
            let three = Models.countdown(3), two = Models.countdown(2)
            #expect(three.countdown == 3 && three.buttons == [.cancel] && three.mode == .countdown)
            try screen.draw(three)
            let check = try s.check(screen, three, "countdown 3")
            // (No hidden-button check: the disc covers the middle, where Play Video would be.)
            check.visibleButtons()
            let content = screen.layout.content
            let d = Double(min(content.width, content.height)) / 2
            let c = content.center
            // The disc: the picture under the message's dark veil, left and right of the digit.
            check.expectOverPicture([Point(x: c.x - 0.4 * d, y: c.y), Point(x: c.x + 0.4 * d, y: c.y),
                                     Point(x: c.x - 0.38 * d, y: c.y + 0.1 * d), Point(x: c.x + 0.38 * d, y: c.y - 0.1 * d)],
                                    within: 14, "the countdown's disc") { $0.under(Style.messageBackground) }
            // Outside the disc, the plain picture.
            check.expectOverPicture([Point(x: c.x - 0.6 * d, y: c.y), Point(x: c.x + 0.6 * d, y: c.y),
                                     Point(x: c.x, y: c.y - 0.56 * d), Point(x: c.x, y: c.y + 0.56 * d)],
                                    within: 14, "the picture around the disc") { $0 }
            // The digit: white, centred on the disc, more than a third of its height. (Looked for in
            // the square inside the disc: the dimmed bars there are no lighter than 85.)
            let disc = content.centered(Size(width: Int(d), height: Int(d)))
            let ink = try #require(check.lightInk(in: content.centered(Size(width: Int(0.7 * d), height: Int(0.7 * d)))),
                                   "\(check.label): no digit")
            let centre = screen.transform.toPhysical(c)
            #expect(abs(ink.center.x - centre.x) < d / 8 && abs(ink.center.y - centre.y) < d / 8, "\(check.label): digit \(ink) off the disc's centre \(centre)")
            #expect(Double(max(ink.width, ink.height)) > 0.35 * d, "\(check.label): digit \(ink) is large (disc \(Int(d)))")
            try screen.draw(two)
            let b = try screen.readPixels()
            let box = screen.transform.toPhysical(disc)
            var inside = 0, outside = 0
            for y in 0..<s.output.height {
                for x in 0..<s.output.width where check.pixels.rgb(x: x, y: y) != b.rgb(x: x, y: y) {
                    if box.contains(Point(x: Double(x), y: Double(y))) { inside += 1 } else { outside += 1 }
                }
            }
            #expect(inside > Int(d) * 2, "\(check.label): 3 → 2 changes the digit (\(inside) pixels)")
            #expect(outside == 0, "\(check.label): and nothing outside the disc (\(outside) pixels)")
        }

        @Test("time nearly up: the timer red on a white capsule, the stop square red, and a red ring around Stop that covers the part of the warning time left, clockwise from the canvas's top",
              arguments: ElementScreen.all)
        func timeLeft(_ s: ElementScreen) throws {
            let screen = try s.open()
            for fraction in [0.5, 0.25] {
                var model = Models.recording(elapsed: 5)
                model.remainingFraction = fraction
                try screen.draw(model)
                let check = try s.check(screen, model, "time left \(fraction)")
                let red = RGB(Style.red), white = RGB(255, 255, 255)
                let label = screen.layout.timerLabel
                #expect(check.count(in: label, near: red, within: 40) > 10, "\(check.label): the timer's text is red")
                #expect(check.count(in: label, near: white, within: 20) > 40, "\(check.label): on a white capsule")
                #expect(check.count(in: label, near: red, within: 40) < check.count(in: label, near: white, within: 20),
                        "\(check.label): red text on white, not white on red")
                let frame = screen.layout.recordButton
                let d = Double(min(frame.width, frame.height))
                let c = frame.center, r = d / 2 - max(d * RecordButtonShape.ringWidth, 2) / 2
                check.expectColor(check.pixel(c), red, within: 8, "the stop square")
                // Points on the ring: up to the fraction (clockwise from up) red, after it white.
                for degrees in stride(from: 20.0, to: 360, by: 40) where abs(degrees - 360 * fraction) > 8 {
                    let a = degrees * .pi / 180
                    let p = check.pixel(Point(x: c.x + r * sin(a), y: c.y - r * cos(a)))
                    check.expectColor(p, degrees < 360 * fraction ? red : white, within: 40, "the ring at \(Int(degrees))°")
                }
            }
        }

        @Test("the record and stop rings have a dark edge outside and inside the white ring, so they show over a white or yellow picture: darker there than the picture under it, all round",
              arguments: ElementScreen.all)
        func ringEdge(_ s: ElementScreen) throws {
            let screen = try s.open()
            for model in [Models.ready, Models.recording(elapsed: 5)] {
                try screen.draw(model)
                let check = try s.check(screen, model, "\(model.mode) ring edge")
                let frame = screen.layout.recordButton
                let d = Double(min(frame.width, frame.height)), c = frame.center
                let thickness = max(d * RecordButtonShape.ringWidth, 2), edge = max(d * RecordButtonShape.outlineWidth, 2)
                func luma(_ c: RGB) -> Double { 0.299 * c.r + 0.587 * c.g + 0.114 * c.b }
                var darker = 0, looked = 0
                for degrees in stride(from: 10.0, to: 360, by: 20) {
                    let a = degrees * .pi / 180
                    for r in [d / 2 + edge / 2, d / 2 - thickness - edge / 2] {
                        let p = Point(x: c.x + r * sin(a), y: c.y - r * cos(a))
                        // The picture under that point (none near a bar's edge).
                        guard let bar = check.bar(at: p) else { continue }
                        looked += 1
                        let shown = check.pixels.color(check.pixel(p))
                        if luma(shown) < luma(bar) - 40 || luma(shown) < 60 { darker += 1 }
                    }
                }
                #expect(looked > 10 && darker == looked, "\(check.label): \(darker) of \(looked) points at the ring's edges darker than the picture")
            }
        }

        @Test("the microphone's meter along the left of the picture: green, yellow from −12, red from −3, filled from −60 up, the 1.5 s peak a white line; the silent take's track grey and empty",
              arguments: ElementScreen.all)
        func meter(_ s: ElementScreen) throws {
            let screen = try s.open()
            let content = screen.layout.content, t = screen.layout.textHeight
            let width = max(t / 2, 6), height = content.height * 3 / 5
            let track = Rect(x: content.x + t / 2, y: content.y + (content.height - height) / 2, width: width, height: height)
            let x = track.center.x
            /// The canvas y `dB` up the track (−60 at the bottom, 0 at the top).
            func y(_ dB: Double) -> Double { Double(track.maxY) - Double(height) * (dB + 60) / 60 }
            func at(_ dB: Double, dy: Double = 0) -> Point { Point(x: x, y: y(dB) + dy) }
            /// Points every 2 px down the track from `top` to `bottom` (canvas y), clear of its round ends.
            func along(from top: Double, to bottom: Double) -> [Point] {
                stride(from: max(top, Double(track.y + width)), through: min(bottom, Double(track.maxY - width)), by: 2).map { Point(x: x, y: $0) }
            }
            let green = RGB(Style.meterGreen), yellow = RGB(Style.meterYellow), red = RGB(Style.red), white = RGB(255, 255, 255)
            for (now, peak, fill) in [(-30.0, -6.0, green), (-9.0, -4.5, yellow), (-2.0, -1.0, red)] {
                var model = Models.ready
                model.microphoneLevel = (now, peak)
                try screen.draw(model)
                let check = try s.check(screen, model, "meter \(now) peak \(peak)")
                // Filled from the bottom to the level, in one colour.
                for p in along(from: y(now) + 2, to: Double(track.maxY)) {
                    check.expectColor(check.pixel(p), fill, within: 12, "the bar under \(now) dB")
                }
                // Empty between the level and the peak: the picture under the track's dark veil.
                let between = along(from: y(peak) + 4, to: y(now) - 3)
                if !between.isEmpty {
                    check.expectOverPicture(between, within: 14, "the empty track between the level and the peak") { $0.under(Style.messageBackground) }
                }
                // The peak: a 2-pixel white line; empty above it.
                check.expectColor(check.pixel(at(peak, dy: 0.5)), white, within: 12, "the peak line")
                let above = along(from: Double(track.y), to: y(peak) - 3)
                if !above.isEmpty {
                    check.expectOverPicture(above, within: 14, "the track above the peak line") { $0.under(Style.messageBackground) }
                }
            }
            // A silent take: the level under −60 for 3 s. The track turns opaque grey, nothing in it.
            var silent = Models.recording(elapsed: 6)
            silent.microphoneLevel = (-100, -100)
            silent.microphoneSilent = true
            silent.message = .microphoneSilent
            try screen.draw(silent)
            let check = try s.check(screen, silent, "meter silent")
            for p in along(from: Double(track.y), to: Double(track.maxY)) {
                check.expectColor(check.pixel(p), RGB(Style.secondary), within: 6, "the silent track")
            }
            // While sound is heard the same level shows the dark veil over the picture instead.
            silent.microphoneSilent = false
            silent.message = nil
            try screen.draw(silent)
            try s.check(screen, silent, "meter quiet").expectOverPicture(along(from: Double(track.y), to: Double(track.maxY)), within: 14, "the empty track") {
                $0.under(Style.messageBackground)
            }
        }

        @Test("the attract screen: the picture dimmed everywhere, the record button and Cancel drawn over it, a translucent ring pulsing out of the record button, the prompt at the top; none of it once awake",
              arguments: ElementScreen.all)
        func attract(_ s: ElementScreen) throws {
            let screen = try s.open()
            let layout = screen.layout, content = layout.content
            var model = Models.ready
            model.prompt = s.prompt
            model.attract = 0.5
            try screen.draw(model)
            let check = try s.check(screen, model, "attract")
            check.visibleButtons()
            let veil = Style.attractVeil
            // The picture in the lower part of the content (clear of the prompt and the meter).
            let open = [0.3, 0.5, 0.7, 0.9].flatMap { fx in
                [0.6, 0.75].map { fy in Point(x: Double(content.x) + fx * Double(content.width), y: Double(content.y) + fy * Double(content.height)) }
            }
            check.expectOverPicture(open, within: 12, "the dimmed picture") { $0.under(veil) }
            // Under the panels, dimmed as well.
            let top = layout.topPanel
            check.expectOverPicture([Point(x: Double(top.x) + 8, y: Double(top.y) + 3), Point(x: Double(top.maxX) - 8, y: Double(top.y) + 3)],
                                    within: 12, "the top panel") { $0.under(veil).under(Style.panel) }
            // The pulse, half way out: a ring of 1.225 times the button's diameter, white at 100/255.
            let frame = layout.frame(of: .start)
            let D = Double(min(frame.width, frame.height)), d = D * 1.225
            let r = Double(Painter.centred(diameter: d, in: frame).width) / 2 - max(d * 0.05, 2) / 2
            let c = frame.center
            let pulse = [Point(x: c.x - r, y: c.y), Point(x: c.x + r, y: c.y)]
            check.expectOverPicture(pulse, within: 16, "the pulse") { $0.under(veil).under(Style.panel).under(RGBA(255, 255, 255, 100)) }
            // The prompt: light text centred in the top third of the picture.
            let band = Rect(x: content.x, y: content.y, width: content.width, height: content.height / 3)
            let ink = try #require(check.lightInk(in: band), "\(check.label): no prompt")
            let middle = screen.transform.toPhysical(band.center)
            let turned = screen.transform.toPhysical(Point(x: Double(band.x), y: Double(band.y)))
            #expect(abs((s.orientation == nil ? ink.center.x - middle.x : ink.center.y - middle.y)) < Double(layout.textHeight),
                    "\(check.label): prompt \(ink) centred across the picture (\(middle))")
            #expect(s.orientation == nil ? ink.y - Int(turned.y) < layout.textHeight * 2 : true, "\(check.label): prompt \(ink) at the top")
            #expect(Double(ink.width * ink.height) > Double(layout.textHeight * layout.textHeight) * 4, "\(check.label): prompt \(ink) is a line of text")

            // Awake (the same ready screen without the attract phase): no veil, no pulse.
            model.attract = nil
            try screen.draw(model)
            let awake = try s.check(screen, model, "awake")
            awake.expectOverPicture(open, within: 12, "the picture, awake") { $0 }
            awake.expectOverPicture(pulse, within: 12, "no pulse, awake") { $0.under(Style.panel) }
        }

        @Test("--high-contrast: opaque black panels over any picture, light side buttons with black titles, Use Video yellow",
              arguments: ElementScreen.all)
        func highContrast(_ s: ElementScreen) throws {
            let screen = try s.open()
            screen.highContrast = true
            try screen.draw(Models.ready)
            let check = try s.check(screen, Models.ready, "high contrast")
            // The top panel over the picture is black, not a translucent grey.
            let top = screen.layout.topPanel
            for fx in [0.05, 0.95] {
                check.expectColor(check.pixel(Point(x: Double(top.x) + fx * Double(top.width), y: Double(top.y) + 4)), RGB(0, 0, 0), within: 2, "the top panel")
            }
            let cancel = screen.layout.frame(of: .cancel)
            #expect(check.count(in: cancel, near: RGB(255, 255, 255), within: 10) > cancel.width * cancel.height / 2, "\(check.label): Cancel is light")
            #expect(check.count(in: cancel, near: RGB(0, 0, 0), within: 40) > 50, "\(check.label): with a black title")
            let finishedModel = Models.finished()
            try screen.draw(finishedModel)
            let finished = try s.check(screen, finishedModel, "high contrast finished")
            let use = screen.layout.frame(of: .useVideo), retake = screen.layout.frame(of: .retake)
            #expect(finished.count(in: use, near: RGB(Style.highContrastPrimary), within: 10) > use.width * use.height / 2, "\(finished.label): Use Video is yellow")
            #expect(finished.count(in: use, near: RGB(0, 0, 0), within: 40) > 50, "\(finished.label): with a black title")
            #expect(finished.count(in: retake, near: RGB(255, 255, 255), within: 10) > retake.width * retake.height / 2, "\(finished.label): Retake is light")
            // The bottom panel (finished shows it) is black too.
            let bottom = screen.layout.bottomPanel
            finished.expectColor(finished.pixel(Point(x: bottom.center.x, y: Double(bottom.y) + 3)), RGB(0, 0, 0), within: 2, "the bottom panel")
        }

        @Test("--large-text: the timer 1.35 times as tall; the side titles taller, inside their buttons: the buttons wider in landscape; in portrait (no room beside the circle) taller, a title of two words on two lines",
              arguments: ElementScreen.all)
        func largeText(_ s: ElementScreen) throws {
            let screen = try s.open()
            // Over no picture, so that only the titles and the timer are light (and the ring).
            screen.clearPreview()
            func measure() throws -> (layout: Layout, timer: Rect, cancel: Rect, use: Rect) {
                try screen.draw(Models.ready)
                let ready = try s.check(screen, Models.ready, "ready")
                try screen.draw(Models.finished())
                let finished = try s.check(screen, Models.finished(), "finished")
                let layout = screen.layout
                return (layout, try #require(ready.lightInk(in: layout.timerLabel)),
                        try #require(ready.lightInk(in: layout.frame(of: .cancel))),
                        try #require(finished.lightInk(in: layout.frame(of: .useVideo))))
            }
            let normal = try measure()
            screen.largeText = true
            let large = try measure()
            screen.largeText = false
            func height(_ r: Rect) -> Int { s.orientation == nil ? r.height : r.width }
            let timer = Double(height(large.timer)) / Double(height(normal.timer))
            #expect(timer > 1.25 && timer < 1.45, "\(s.testDescription): the timer \(height(normal.timer)) → \(height(large.timer)) px tall")
            // The side titles share the size the longest of them (Switch Camera) allows in the
            // button's room. In landscape the buttons grow wider; a portrait canvas has no room
            // beside the record circle, so there they grow taller and a title of two words (the
            // English ones) goes on two lines. Japanese titles have no space to break at: they keep
            // at least their size.
            let landscape = s.orientation == nil && !s.output.isPortrait
            let grew = large.layout.leftButton.width > normal.layout.leftButton.width
            #expect(grew == landscape, "\(s.testDescription): the side buttons grow wider only in landscape")
            #expect((large.layout.leftButton.height > normal.layout.leftButton.height) == !landscape,
                    "\(s.testDescription): and taller only in portrait")
            for (what, a, b, button) in [("Cancel's title", normal.cancel, large.cancel, Button.cancel), ("Use Video's title", normal.use, large.use, .useVideo)] {
                let ratio = Double(height(b)) / Double(height(a))
                // (Where the normal size is on two lines already, issue 30's rule for words too
                // long for one line at 480 wide, the large size only has to be no smaller.)
                let wrapping = !landscape && s.language == .en && normal.layout.sideTitleLines == 1
                #expect(landscape || wrapping ? ratio > 1.2 : ratio >= 1, "\(s.testDescription): \(what) \(height(a)) → \(height(b)) px tall (\(ratio))")
                let frame = screen.transform.toPhysical(large.layout.frame(of: button)).outset(dx: -2, dy: -2)
                #expect(b.x >= frame.x && b.maxX <= frame.maxX && b.y >= frame.y && b.maxY <= frame.maxY,
                        "\(s.testDescription): \(what) \(b) inside its button \(frame)")
            }
            if !landscape && s.language == .en {
                // "Use" over "Video": two lines of ink, about twice as tall as Cancel's one.
                let lines = Double(height(large.use)) / Double(height(large.cancel))
                #expect(lines > 1.7, "\(s.testDescription): Use Video's title \(height(large.use)) px tall, Cancel's \(height(large.cancel))")
            }
        }
    }
}
