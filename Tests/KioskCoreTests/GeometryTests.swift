// Table tests for aspect-fill / aspect-fit and the display ↔ canvas transform.
import Testing
@testable import KioskCore
import KioskContract
import KioskScreenText

@Suite("Geometry")
struct GeometryTests {
    @Test("aspect-fill crops the source to the destination's aspect, centred", arguments: [
        // source, destination, quarter turns, expected crop in source pixels
        (Size(width: 352, height: 288), Size(width: 800, height: 480), 0, Rect(x: 0, y: 38, width: 352, height: 211)),
        (Size(width: 352, height: 288), Size(width: 352, height: 288), 0, Rect(x: 0, y: 0, width: 352, height: 288)),
        (Size(width: 1280, height: 720), Size(width: 1920, height: 1080), 0, Rect(x: 0, y: 0, width: 1280, height: 720)),
        (Size(width: 640, height: 480), Size(width: 1920, height: 1080), 0, Rect(x: 0, y: 60, width: 640, height: 360)),
        (Size(width: 1280, height: 720), Size(width: 1080, height: 1920), 0, Rect(x: 437, y: 0, width: 405, height: 720)),
        // Turned a quarter: the 1280x720 frame shows as 720x1280 and fills a portrait screen nearly whole.
        (Size(width: 1280, height: 720), Size(width: 1080, height: 1920), 1, Rect(x: 0, y: 0, width: 1280, height: 720)),
        (Size(width: 1280, height: 720), Size(width: 480, height: 800), 3, Rect(x: 40, y: 0, width: 1200, height: 720)),
        (Size(width: 352, height: 288), Size(width: 1080, height: 1920), 1, Rect(x: 0, y: 45, width: 352, height: 198)),
    ])
    func aspectFill(source: Size, destination: Size, turns: Int, expected: Rect) {
        let crop = Scaling.aspectFillCrop(source: source, destination: destination, quarterTurns: turns)
        #expect(crop == expected)
        #expect(crop.isInside(Rect(x: 0, y: 0, width: source.width, height: source.height)))
        // The crop, turned, has the destination's aspect within a pixel's rounding.
        let shown = turns.isMultiple(of: 2) ? crop.size : crop.size.transposed
        let error = abs(Double(shown.width) / Double(shown.height) - Double(destination.width) / Double(destination.height))
        #expect(error < 2.0 / Double(min(shown.width, shown.height)))
        // Never letterboxed: one side of the crop is the full source side.
        #expect(crop.width == source.width || crop.height == source.height)
    }

    @Test("aspect-fit places the whole frame in the area, centred", arguments: [
        (Size(width: 1280, height: 720), Rect(x: 0, y: 0, width: 800, height: 480), 0, Rect(x: 0, y: 15, width: 800, height: 450)),
        (Size(width: 1280, height: 720), Rect(x: 0, y: 0, width: 1080, height: 1920), 0, Rect(x: 0, y: 656, width: 1080, height: 608)),
        (Size(width: 1280, height: 720), Rect(x: 0, y: 0, width: 1080, height: 1920), 1, Rect(x: 0, y: 0, width: 1080, height: 1920)),
        (Size(width: 352, height: 288), Rect(x: 10, y: 20, width: 352, height: 288), 0, Rect(x: 10, y: 20, width: 352, height: 288)),
        (Size(width: 352, height: 288), Rect(x: 0, y: 0, width: 800, height: 480), 1, Rect(x: 203, y: 0, width: 393, height: 480)),
    ])
    func aspectFit(content: Size, area: Rect, turns: Int, expected: Rect) {
        let fit = Scaling.aspectFit(content: content, in: area, quarterTurns: turns)
        #expect(fit == expected)
        #expect(fit.isInside(area))
        #expect(fit.width == area.width || fit.height == area.height)
    }

    @Test("degenerate sizes give empty rectangles, not a division by zero")
    func degenerate() {
        #expect(Scaling.aspectFillCrop(source: Size(width: 0, height: 0), destination: Size(width: 800, height: 480)).isEmpty)
        #expect(Scaling.aspectFit(content: Size(width: 640, height: 480), in: Rect(x: 0, y: 0, width: 0, height: 10)).isEmpty)
    }

    @Test("the canvas turn for each orientation on landscape and portrait panels", arguments: [
        (Size(width: 800, height: 480), Orientation.landscapeRight, 0, Size(width: 800, height: 480)),
        (Size(width: 800, height: 480), .landscapeLeft, 2, Size(width: 800, height: 480)),
        (Size(width: 800, height: 480), .portrait, 3, Size(width: 480, height: 800)),
        (Size(width: 800, height: 480), .portraitUpsideDown, 1, Size(width: 480, height: 800)),
        (Size(width: 1080, height: 1920), .portrait, 0, Size(width: 1080, height: 1920)),
        (Size(width: 1080, height: 1920), .portraitUpsideDown, 2, Size(width: 1080, height: 1920)),
        (Size(width: 1080, height: 1920), .landscapeRight, 1, Size(width: 1920, height: 1080)),
        (Size(width: 1080, height: 1920), .landscapeLeft, 3, Size(width: 1920, height: 1080)),
        (Size(width: 352, height: 288), .landscapeRight, 0, Size(width: 352, height: 288)),
    ])
    func transform(physical: Size, orientation: Orientation, turns: Int, logical: Size) {
        let t = DisplayTransform(physical: physical, orientation: orientation)
        #expect(t.quarterTurns == turns)
        #expect(t.logical == logical)
        #expect(t.degrees == Double(turns * 90))
    }

    @Test("touches map to the canvas and back, corners to corners", arguments: Orientation.allCases)
    func touchMapping(orientation: Orientation) {
        for physical in [Size(width: 800, height: 480), Size(width: 1080, height: 1920), Size(width: 352, height: 288)] {
            let t = DisplayTransform(physical: physical, orientation: orientation)
            for p in [Point(x: 0, y: 0), Point(x: 10, y: 20), Point(x: 123.5, y: 77.25), Point(x: Double(physical.width), y: Double(physical.height))] {
                let back = t.toPhysical(t.toLogical(p))
                #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
                let l = t.toLogical(p)
                #expect(l.x >= 0 && l.x <= Double(t.logical.width) && l.y >= 0 && l.y <= Double(t.logical.height))
            }
            // The canvas's top-left corner lands on the display corner the turn says.
            let corner = t.toPhysical(Point(x: 0, y: 0))
            let w = Double(physical.width), h = Double(physical.height)
            let expected = [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: w, y: h), Point(x: 0, y: h)][t.quarterTurns]
            #expect(corner == expected)
            // A canvas rectangle covers the display rectangle its corners map to.
            let r = Rect(x: 10, y: 20, width: 30, height: 40)
            let pr = t.toPhysical(r)
            #expect(pr.size == (t.quarterTurns.isMultiple(of: 2) ? r.size : r.size.transposed))
            #expect(t.toLogical(pr.center) == r.center)
        }
    }

    @Test("a tap at the portrait canvas's top left is at the landscape display's bottom left")
    func portraitOnLandscape() {
        // portrait on a landscape panel: the canvas is drawn a quarter counter-clockwise.
        let t = DisplayTransform(physical: Size(width: 800, height: 480), orientation: .portrait)
        #expect(t.toPhysical(Point(x: 0, y: 0)) == Point(x: 0, y: 480))
        #expect(t.toLogical(Point(x: 0, y: 480)) == Point(x: 0, y: 0))
        #expect(t.toLogical(Point(x: 800, y: 0)) == Point(x: 480, y: 800))
    }

    @Test("the camera frame turns back against the canvas, plus its mount")
    func cameraTurns() {
        let landscape = Size(width: 800, height: 480)
        #expect(DisplayTransform(physical: landscape, orientation: .landscapeRight).cameraQuarterTurns() == 0)
        #expect(DisplayTransform(physical: landscape, orientation: .portrait).cameraQuarterTurns() == 1)
        #expect(DisplayTransform(physical: landscape, orientation: .portraitUpsideDown).cameraQuarterTurns() == 3)
        #expect(DisplayTransform(physical: landscape, orientation: .landscapeLeft).cameraQuarterTurns() == 2)
        #expect(DisplayTransform(physical: landscape, orientation: .landscapeRight).cameraQuarterTurns(mount: 1) == 1)
        #expect(DisplayTransform(physical: landscape, orientation: .portrait).cameraQuarterTurns(mount: 3) == 0)
    }

    @Test("the preview's picture on the canvas: the frame turned upright, covering it or inside it, centred")
    func previewRect() {
        let landscape = DisplayTransform(physical: Size(width: 800, height: 480), orientation: .landscapeRight)
        let frame = Size(width: 640, height: 480)
        #expect(landscape.uprightPicture(frame: frame, mount: 0) == frame)
        #expect(landscape.previewRect(frame: frame, mount: 0, fit: .fill) == Rect(x: 0, y: -60, width: 800, height: 600))
        #expect(landscape.previewRect(frame: frame, mount: 0, fit: .fit) == Rect(x: 80, y: 0, width: 640, height: 480))
        // A camera mounted a quarter turn: a portrait picture on the landscape canvas.
        #expect(landscape.uprightPicture(frame: frame, mount: 1) == Size(width: 480, height: 640))
        #expect(landscape.previewRect(frame: frame, mount: 1, fit: .fit) == Rect(x: 220, y: 0, width: 360, height: 480))
        // The landscape panel turned portrait: the camera's picture turns back, portrait on a portrait canvas.
        let turned = DisplayTransform(physical: Size(width: 800, height: 480), orientation: .portrait)
        #expect(turned.uprightPicture(frame: frame, mount: 0) == Size(width: 480, height: 640))
        #expect(turned.previewRect(frame: frame, mount: 0, fit: .fit) == Rect(x: 0, y: 80, width: 480, height: 640))
        #expect(turned.usesPortraitOverlay(hasPortrait: true) && !turned.usesPortraitOverlay(hasPortrait: false))
        #expect(!landscape.usesPortraitOverlay(hasPortrait: true))
    }

    @Test("the overlay's part over a take: the overlay covering it, centred")
    func overlayCrop() {
        let overlay = OverlayPicture(size: Size(width: 320, height: 240), rgba: [UInt8](repeating: 0, count: 320 * 240 * 4))
        #expect(overlay.crop(covering: Size(width: 640, height: 480)) == Rect(x: 0, y: 0, width: 320, height: 240))
        #expect(overlay.crop(covering: Size(width: 1280, height: 720)) == Rect(x: 0, y: 30, width: 320, height: 180))
        #expect(overlay.crop(covering: Size(width: 480, height: 640)) == Rect(x: 70, y: 0, width: 180, height: 240))
    }

    @Test("the timer text", arguments: [
        (0.0, "00:00"), (0.99, "00:00"), (7, "00:07"), (59.999, "00:59"), (60, "01:00"), (754, "12:34"),
        (3599, "59:59"), (3600, "1:00:00"), (3723, "1:02:03"), (36000, "10:00:00"), (-4, "00:00"), (.nan, "00:00"),
        (.infinity, "00:00"),
    ])
    func timer(seconds: Double, text: String) {
        #expect(TimerText.format(seconds: seconds) == text)
    }

    @Test("position / duration")
    func playbackTimer() {
        #expect(TimerText.playback(position: 3.5, duration: 3723) == "00:03 / 1:02:03")
    }
}

@Suite("Player controls")
struct ControlsVisibilityTests {
    @Test("controls show for 3 s after a touch while playing, always while paused")
    func autoHide() {
        var c = ControlsVisibility(now: 10_000_000_000)
        #expect(c.visible(at: 12_900_000_000, paused: false))
        #expect(!c.visible(at: 13_000_000_000, paused: false))
        #expect(c.visible(at: 20_000_000_000, paused: true))
        #expect(c.pressable([.closePlayer], at: 20_000_000_000, paused: false) == [])
        c.touched(at: 20_000_000_000)
        #expect(c.pressable([.closePlayer], at: 21_000_000_000, paused: false) == [.closePlayer])
        c.touched(at: 5)
        #expect(c.lastTouch == 20_000_000_000, "an older touch does not move it back")
    }
}
