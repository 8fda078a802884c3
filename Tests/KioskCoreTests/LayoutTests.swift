// Table tests for the layout at the sizes a booth meets, from 352x288 to 4K, both ways up.
import Testing
@testable import KioskCore
import KioskContract

let layoutSizes = [
    Size(width: 352, height: 288), Size(width: 288, height: 352), Size(width: 800, height: 480), Size(width: 480, height: 800),
    Size(width: 1024, height: 600), Size(width: 1280, height: 720), Size(width: 1080, height: 1920),
    Size(width: 1920, height: 1080), Size(width: 3840, height: 2160), Size(width: 2160, height: 3840),
    Size(width: 1366, height: 768), Size(width: 1001, height: 999),
]

@Suite("Layout")
struct LayoutTests {
    let canvasRect = { (s: Size) in Rect(x: 0, y: 0, width: s.width, height: s.height) }

    @Test("panels span the width at the top and the bottom, with room between", arguments: layoutSizes)
    func panels(size: Size) {
        let l = Layout(canvas: size)
        #expect(l.topPanel == Rect(x: 0, y: 0, width: size.width, height: l.topPanel.height))
        #expect(l.bottomPanel.maxY == size.height && l.bottomPanel.width == size.width && l.bottomPanel.x == 0)
        #expect(l.content.y == l.topPanel.maxY && l.content.maxY == l.bottomPanel.y)
        #expect(l.content.height >= size.height / 3)
        #expect(l.timerLabel.isInside(l.topPanel))
        #expect(l.textHeight <= l.timerLabel.height)
    }

    @Test("buttons are inside their panel, finger-sized, and do not overlap", arguments: layoutSizes)
    func buttons(size: Size) {
        let l = Layout(canvas: size)
        for b in [Button.cancel, .start, .useVideo] {
            #expect(l.frame(of: b).isInside(l.bottomPanel), "\(b) at \(size)")
            #expect(l.frame(of: b).height >= Layout.minimumTouch, "\(b) at \(size)")
            #expect(l.frame(of: b).width >= Layout.minimumTouch, "\(b) at \(size)")
        }
        #expect(!l.leftButton.intersects(l.recordButton) && !l.rightButton.intersects(l.recordButton))
        #expect(l.middleButton.isInside(l.content))
        #expect(l.progressBar.isInside(l.bottomPanel) && !l.progressBar.intersects(l.leftButton))
        // The record circle is a centred square; the side buttons mirror each other.
        #expect(l.recordButton.width == l.recordButton.height)
        #expect(abs(l.recordButton.center.x - Double(size.width) / 2) <= 1)
        #expect(l.leftButton.x == size.width - l.rightButton.maxX && l.leftButton.size == l.rightButton.size)
    }

    @Test("sizes follow the short side, so a portrait canvas has the landscape's buttons")
    func scalesWithShortSide() {
        let landscape = Layout(canvas: Size(width: 1920, height: 1080))
        let portrait = Layout(canvas: Size(width: 1080, height: 1920))
        #expect(landscape.recordButton.size == portrait.recordButton.size)
        #expect(landscape.textHeight == portrait.textHeight)
        #expect(abs(Layout(canvas: Size(width: 3840, height: 2160)).recordButton.width - 2 * landscape.recordButton.width) <= 2)
    }

    @Test("hit testing finds a visible button at its centre and edges, nothing elsewhere", arguments: layoutSizes)
    func hitTesting(size: Size) {
        let l = Layout(canvas: size)
        let visible: [Button] = [.retake, .useVideo, .playVideo]
        for b in visible {
            let f = l.frame(of: b)
            #expect(l.button(at: f.center, among: visible) == b)
            #expect(l.button(at: Point(x: Double(f.x), y: Double(f.y)), among: visible) == b)
            #expect(l.button(at: Point(x: Double(f.maxX) - 0.5, y: Double(f.maxY) - 0.5), among: visible) == b)
        }
        #expect(l.button(at: Point(x: 1, y: 1), among: visible) == nil)
        // A hidden button in the same slot does not take the touch.
        #expect(l.button(at: l.recordButton.center, among: visible) == nil)
        #expect(l.button(at: l.leftButton.center, among: [.cancel, .start]) == .cancel)
        #expect(l.button(at: l.leftButton.center, among: [.stop]) == nil)
    }

    @Test("a tap on the display finds the button under it in every orientation", arguments: Orientation.allCases)
    func tapThroughTransform(orientation: Orientation) {
        for physical in [Size(width: 800, height: 480), Size(width: 1080, height: 1920)] {
            let t = DisplayTransform(physical: physical, orientation: orientation)
            let l = Layout(canvas: t.logical)
            for b in [Button.cancel, .start] {
                let onDisplay = t.toPhysical(l.frame(of: b)).center
                #expect(l.button(at: t.toLogical(onDisplay), among: [.cancel, .start]) == b)
            }
        }
    }

    @Test("a finger's gap (24 px) between the record circle as drawn (its dark edge included) and each side button, and between Play Video and the panel's buttons, with one or two lines of title and large text",
          arguments: layoutSizes)
    func gaps(size: Size) {
        for scale in [1, 1.35] {
            for lines in [nil, 2] {
                let l = Layout(canvas: size, textScale: scale, sideTitleLines: lines)
                let what = "\(size) text ×\(scale) lines \(lines.map(String.init) ?? "auto")"
                let circle = l.recordButtonDrawn
                #expect(circle.x - l.leftButton.maxX >= Layout.buttonGap && l.rightButton.x - circle.maxX >= Layout.buttonGap,
                        "\(what): \(l.leftButton) \(circle) \(l.rightButton)")
                #expect(l.leftButton.y - l.middleButton.maxY >= Layout.buttonGap, "\(what): \(l.middleButton) above \(l.leftButton)")
                #expect(l.leftButton.width >= Layout.minimumTouch && l.leftButton.height >= Layout.minimumTouch, "\(what): \(l.leftButton)")
                #expect(l.leftButton.isInside(l.bottomPanel) && l.recordButton.isInside(l.bottomPanel), "\(what)")
                if lines == 2 {
                    // Tall enough for two lines of title (a line is about 1.2 of the text's size).
                    #expect(l.sideTitleLines == 2 && Double(l.leftButton.height) >= 2.4 * Double(l.textHeight), "\(what): \(l.leftButton)")
                }
            }
        }
    }

    @Test("known rectangles at 800x480")
    func known800x480() {
        let l = Layout(canvas: Size(width: 800, height: 480))
        #expect(l.topPanel == Rect(x: 0, y: 0, width: 800, height: 58))
        #expect(l.bottomPanel == Rect(x: 0, y: 365, width: 800, height: 115))
        #expect(l.recordButton == Rect(x: 356, y: 379, width: 87, height: 87))
        #expect(l.leftButton == Rect(x: 14, y: 392, width: 173, height: 60))
        #expect(l.rightButton == Rect(x: 613, y: 392, width: 173, height: 60))
        // Portrait: the side buttons give way to the gap beside the circle (they once came 15 px from it).
        let p = Layout(canvas: Size(width: 480, height: 800))
        #expect(p.recordButton == Rect(x: 196, y: 699, width: 87, height: 87))
        #expect(p.leftButton == Rect(x: 14, y: 712, width: 154, height: 60), "\(p.leftButton)")
        // The question's band while recording: the top panel but the timer's place at its right end.
        #expect(l.questionBand == Rect(x: 14, y: 0, width: 643, height: 58) && l.asideTimer == Rect(x: 669, y: 7, width: 117, height: 44),
                "\(l.questionBand) \(l.asideTimer)")
        // The Boomerang button halfway between Cancel and the record circle, its title under it with
        // room for "Boomerang" at 19 px.
        let b = Layout(canvas: Size(width: 800, height: 480), boomerang: true)
        #expect(b.boomerangButton == Rect(x: 243, y: 385, width: 52, height: 52) && b.boomerangLabel == Rect(x: 199, y: 437, width: 140, height: 23),
                "\(b.boomerangButton) \(b.boomerangLabel)")
    }
}

@Suite("Layout: large text")
struct LargeTextLayoutTests {
    @Test("--large-text: text 1.35 times as large, side buttons wider, nothing overlapping the record circle or leaving the canvas",
          arguments: [Size(width: 800, height: 480), Size(width: 480, height: 800), Size(width: 1920, height: 1080), Size(width: 1080, height: 1920)])
    func largeText(canvas: Size) {
        let normal = Layout(canvas: canvas), large = Layout(canvas: canvas, textScale: 1.35)
        #expect(abs(Double(large.textHeight) - Double(normal.textHeight) * 1.35) <= 1, "\(large.textHeight) vs \(normal.textHeight)")
        #expect(large.leftButton.width >= normal.leftButton.width && large.rightButton.width == large.leftButton.width)
        #expect(large.leftButton.maxX <= large.recordButton.x && large.rightButton.x >= large.recordButton.maxX)
        for r in [large.leftButton, large.rightButton, large.middleButton, large.recordButton] {
            #expect(r.x >= 0 && r.y >= 0 && r.maxX <= canvas.width && r.maxY <= canvas.height, "\(r) in \(canvas)")
        }
        #expect(large.recordButton.size == normal.recordButton.size && large.topPanel == normal.topPanel)
        if canvas.width > canvas.height {
            // The panels and the record circle are the same: only text and the text buttons grow.
            #expect(large.bottomPanel == normal.bottomPanel && large.recordButton == normal.recordButton && large.sideTitleLines == 1)
        } else {
            // Portrait: no room to widen beside the circle, so the side buttons grow taller, for
            // two lines of title, and the bottom panel with them; the circle keeps its size.
            #expect(large.sideTitleLines == 2 && normal.sideTitleLines == 1)
            #expect(Double(large.leftButton.height) >= 2.4 * Double(large.textHeight), "\(large.leftButton) for text \(large.textHeight) px")
            #expect(large.bottomPanel.height >= normal.bottomPanel.height && large.bottomPanel.maxY == canvas.height)
            for r in [large.leftButton, large.rightButton, large.recordButton] {
                #expect(r.y >= large.bottomPanel.y && r.maxY <= large.bottomPanel.maxY, "\(r) inside the bottom panel \(large.bottomPanel)")
            }
        }
    }

    /// A round button beside the record circle (the shutter, the Boomerang button): square, at least
    /// a touch and at most the circle, inside the bottom panel, a finger's gap from the circle as drawn.
    static func besideRecord(_ b: Rect, _ l: Layout, _ what: String) {
        let circle = l.recordButtonDrawn
        #expect(b.width == b.height && b.width >= Layout.minimumTouch && b.width <= l.recordButton.width, "\(what): \(b)")
        #expect(b.isInside(l.bottomPanel), "\(what): \(b) in \(l.bottomPanel)")
        #expect(max(b.x - circle.maxX, circle.x - b.maxX) >= Layout.buttonGap, "\(what): \(circle) \(b)")
    }

    @Test("the shutter (--photo-button): right of the record circle, a finger's gap (24 px) from it as drawn and from the camera switch, round, finger-sized, in the bottom panel; the side buttons keep their width",
          arguments: layoutSizes)
    func shutter(size: Size) {
        #expect(Layout(canvas: size).shutterButton.isEmpty, "no shutter without --photo-button")
        for scale in [1, 1.35] {
            for lines in [nil, 2] {
                let l = Layout(canvas: size, textScale: scale, sideTitleLines: lines, shutter: true)
                let what = "\(size) text ×\(scale) lines \(lines.map(String.init) ?? "auto")"
                let shutter = l.frame(of: .photo)
                #expect(shutter == l.shutterButton && shutter.x > l.recordButton.x, "\(what): \(shutter)")
                Self.besideRecord(shutter, l, what)
                let switcher = l.frame(of: .switchCamera)
                #expect(switcher.x - shutter.maxX >= Layout.buttonGap && switcher.maxX == l.rightButton.maxX, "\(what): \(shutter) \(switcher)")
                // A canvas 288 px wide has no room for the circle, the shutter and a finger-wide camera
                // switch side by side with their gaps (a known limit: several cameras and the shutter on
                // so small a portrait screen).
                let roomy = size.width >= 320
                #expect(!roomy || switcher.width >= Layout.minimumTouch, "\(what): \(switcher)")
                #expect(switcher.height == l.rightButton.height, "\(what): \(switcher)")
                // Cancel, Retake, Use Video, Done: as without the shutter.
                let plain = Layout(canvas: size, textScale: scale, sideTitleLines: lines)
                #expect(l.leftButton == plain.leftButton && l.rightButton == plain.rightButton && l.recordButton == plain.recordButton, "\(what)")
                // Its touch frame takes no touch meant for the circle or the right button.
                #expect(!l.hitFrame(of: .photo).intersects(l.hitFrame(of: .start)), "\(what)")
                #expect(!roomy || !l.hitFrame(of: .photo).intersects(l.hitFrame(of: .switchCamera)), "\(what)")
                #expect(l.button(at: shutter.center, among: [.cancel, .start, .switchCamera, .photo]) == .photo, "\(what)")
            }
        }
    }

    @Test("the Boomerang button (--boomerang-button): left of the record circle, a finger's gap (24 px) from it as drawn and from Cancel, round, finger-sized, in the bottom panel; with the shutter too, each on its side",
          arguments: layoutSizes)
    func boomerang(size: Size) {
        #expect(Layout(canvas: size).boomerangButton.isEmpty, "no Boomerang button without --boomerang-button")
        #expect(Layout(canvas: size).frame(of: .cancel) == Layout(canvas: size).leftButton, "Cancel as wide as Retake without it")
        for scale in [1, 1.35] {
            for (lines, shutter) in [(nil, false), (2, false), (nil, true)] as [(Int?, Bool)] {
                let l = Layout(canvas: size, textScale: scale, sideTitleLines: lines, shutter: shutter, boomerang: true)
                let what = "\(size) text ×\(scale) lines \(lines.map(String.init) ?? "auto") shutter \(shutter)"
                let button = l.frame(of: .boomerang)
                #expect(button == l.boomerangButton && button.maxX < l.recordButton.x, "\(what): \(button)")
                Self.besideRecord(button, l, what)
                let cancel = l.frame(of: .cancel)
                #expect(button.x - cancel.maxX >= Layout.buttonGap && cancel.x == l.leftButton.x, "\(what): \(cancel) \(button)")
                #expect(size.width < 320 || cancel.width >= Layout.minimumTouch, "\(what): \(cancel)")
                // Retake, Use Video, Done and the record circle: as without it.
                let plain = Layout(canvas: size, textScale: scale, sideTitleLines: lines, shutter: shutter)
                #expect(l.leftButton == plain.leftButton && l.rightButton == plain.rightButton && l.recordButton == plain.recordButton, "\(what)")
                #expect(!l.hitFrame(of: .boomerang).intersects(l.hitFrame(of: .start)), "\(what)")
                #expect(size.width < 320 || !l.hitFrame(of: .boomerang).intersects(l.hitFrame(of: .cancel)), "\(what)")
                #expect(!shutter || !l.hitFrame(of: .boomerang).intersects(l.hitFrame(of: .photo)), "\(what)")
                #expect(l.button(at: button.center, among: [.cancel, .start, .boomerang, .photo]) == .boomerang, "\(what)")
                // Its title: under the circle, centred on it, in the panel, clear of Cancel and the
                // record circle as drawn; a touch on it is a touch on the button.
                let label = l.boomerangLabel
                #expect(label.y == button.maxY && abs(label.center.x - button.center.x) <= 1 && label.isInside(l.bottomPanel), "\(what): \(label)")
                #expect(label.height >= 12 || size.width < 320, "\(what): \(label)")
                #expect(!label.intersects(cancel) && !label.intersects(l.recordButtonDrawn), "\(what): \(label) \(cancel)")
                #expect(l.button(at: label.center, among: [.cancel, .start, .boomerang, .photo]) == .boomerang, "\(what)")
            }
        }
    }

    @Test("the countdown's disc: half the picture's short side in its middle; below a question's box as tall as it may be (half the picture, with its padding), a gap under it and still in the picture",
          arguments: layoutSizes)
    func countdownDisc(size: Size) {
        let l = Layout(canvas: size), content = l.content
        let middle = l.countdownDisc()
        #expect(middle.width == min(content.width, content.height) / 2 && middle == content.centered(middle.size), "\(middle)")
        let padding = l.textHeight * 3 / 4, gap = max(l.textHeight / 2, 4)
        for top in [content.y + padding + l.textHeight, content.y + content.height / 4, content.y + content.height / 2 + 2 * padding] {
            let disc = l.countdownDisc(below: top)
            #expect(disc.y >= top + gap && disc.isInside(content) && disc.width == disc.height, "\(size) below \(top): \(disc)")
            #expect(disc.width >= min(content.width, content.height) / 4, "\(size) below \(top): \(disc)")
            #expect(disc.width == middle.width || disc.maxY == content.maxY - gap, "\(size): as large as room allows")
        }
    }

    @Test("while recording, the question's band: the top panel left of the timer, within the top eighth of the screen, tall enough for two lines of 14 px where the screen is 288 or more; the timer at the panel's right end",
          arguments: layoutSizes)
    func questionBand(size: Size) {
        for scale in [1, 1.35] {
            let l = Layout(canvas: size, textScale: scale)
            let band = l.questionBand, timer = l.asideTimer
            #expect(band.maxY <= size.height / 8 && band.isInside(l.topPanel) && band.maxY <= l.content.y, "\(size): \(band)")
            #expect(!band.intersects(timer) && timer.isInside(l.topPanel) && timer.maxX == l.timerLabel.maxX, "\(band) \(timer)")
            #expect(band.height >= 2 * Layout.smallestTitle * 6 / 5 || size.shortSide < 288, "\(size): \(band)")
            #expect(band.width >= size.width / 2, "\(size): \(band)")
        }
    }
}
