// Issue 33's preview side in pixels: the operator's overlay (opaque squares in three corners and a
// half-transparent band) over the live preview, `--preview-fit` fill and fit, on a landscape
// display, a portrait one, a landscape one turned portrait or upside down, and turned camera
// mountings, mirrored and not. Where each pixel should come from is worked out here from first
// principles (the take's upright picture, the overlay covering it, the preview covering or fitting
// the canvas), not from the code under test.
import Foundation
import KioskContract
import KioskCore
import Testing
@testable import KioskUI

/// A test overlay: squares of 40 pixels 20 in from the top-left, top-right and bottom-left
/// corners, a band of `band` across the middle (30 rows), the rest fully transparent.
struct TestOverlay {
    let picture: OverlayPicture
    let squares: [(name: String, centre: Point, colour: RGB)]

    init(size: Size, colours: [RGBA], band: RGBA) {
        let w = size.width, h = size.height
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        func fill(_ r: Rect, _ c: RGBA) {
            for y in r.y..<r.maxY {
                for x in r.x..<r.maxX {
                    let o = 4 * (y * w + x)
                    (rgba[o], rgba[o + 1], rgba[o + 2], rgba[o + 3]) = (c.r, c.g, c.b, c.a)
                }
            }
        }
        let places = [Rect(x: 20, y: 20, width: 40, height: 40), Rect(x: w - 60, y: 20, width: 40, height: 40),
                      Rect(x: 20, y: h - 60, width: 40, height: 40)]
        for (r, c) in zip(places, colours) { fill(r, c) }
        fill(Rect(x: 0, y: h / 2 - 15, width: w, height: 30), band)
        picture = OverlayPicture(size: size, rgba: rgba)
        squares = zip(["top-left", "top-right", "bottom-left"], zip(places, colours)).map { ($0, $1.0.center, RGB($1.1)) }
    }

    static let landscape = TestOverlay(size: Size(width: 320, height: 240), colours: [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255)],
                                       band: RGBA(255, 255, 255, 128))
    static let portrait = TestOverlay(size: Size(width: 240, height: 320), colours: [RGBA(255, 0, 255), RGBA(0, 255, 255), RGBA(255, 255, 0)],
                                      band: RGBA(255, 128, 0, 96))

    /// The RGBA at an overlay pixel.
    func rgba(x: Int, y: Int) -> RGBA {
        let o = 4 * (y * picture.size.width + x), b = picture.rgba
        return RGBA(b[o], b[o + 1], b[o + 2], b[o + 3])
    }
}

/// One preview with an overlay, and where its pixels come from.
struct OverlayScene {
    let transform: DisplayTransform
    let frame: Size
    let mount: Int
    let fit: PictureFit
    let overlay: TestOverlay
    let picture: RGB

    /// The take's picture as a player shows it: the frame turned by the mount, less the canvas's
    /// own turn on the display (the camera is fixed to the display).
    var upright: Size { ((mount - transform.quarterTurns) % 4 + 4) % 2 == 0 ? frame : frame.transposed }

    /// Canvas pixels per take pixel: the take covering the canvas (fill) or inside it (fit).
    var scale: Double {
        let c = transform.logical, u = upright
        let sx = Double(c.width) / Double(u.width), sy = Double(c.height) / Double(u.height)
        return fit == .fill ? max(sx, sy) : min(sx, sy)
    }

    /// Take pixels per overlay pixel: the overlay covering the take, centred.
    var overlayScale: Double {
        let u = upright, o = overlay.picture.size
        return max(Double(u.width) / Double(o.width), Double(u.height) / Double(o.height))
    }

    /// A canvas point → the take's pixel under it.
    func take(_ c: Point) -> Point {
        let canvas = transform.logical, u = upright
        return Point(x: (c.x - Double(canvas.width) / 2) / scale + Double(u.width) / 2,
                     y: (c.y - Double(canvas.height) / 2) / scale + Double(u.height) / 2)
    }

    /// A take point → the overlay's point on it.
    func overlayPoint(_ t: Point) -> Point {
        let u = upright, o = overlay.picture.size
        return Point(x: (t.x - Double(u.width) / 2) / overlayScale + Double(o.width) / 2,
                     y: (t.y - Double(u.height) / 2) / overlayScale + Double(o.height) / 2)
    }

    /// An overlay point → the display pixel that shows it.
    func display(overlay p: Point) -> Point {
        let u = upright, o = overlay.picture.size, canvas = transform.logical
        let t = Point(x: (p.x - Double(o.width) / 2) * overlayScale + Double(u.width) / 2,
                      y: (p.y - Double(o.height) / 2) * overlayScale + Double(u.height) / 2)
        let c = Point(x: (t.x - Double(u.width) / 2) * scale + Double(canvas.width) / 2,
                      y: (t.y - Double(u.height) / 2) * scale + Double(canvas.height) / 2)
        let d = transform.toPhysical(c)
        return Point(x: d.x.rounded(.down), y: d.y.rounded(.down))
    }

    /// Whether an overlay point lies on the take (the overlay's cover cuts its edges off).
    func onTake(overlay p: Point) -> Bool {
        let u = upright, o = overlay.picture.size
        let t = Point(x: (p.x - Double(o.width) / 2) * overlayScale + Double(u.width) / 2,
                      y: (p.y - Double(o.height) / 2) * overlayScale + Double(u.height) / 2)
        return t.x >= 0 && t.x < Double(u.width) && t.y >= 0 && t.y < Double(u.height)
    }

    /// The colour expected at a display pixel: black beside a fitted picture, else the picture
    /// under the overlay's pixel there; nil within 2 display pixels of any edge (the picture's,
    /// a square's, the band's), where rounding decides.
    func expected(display p: Point) -> RGB? {
        let c = transform.toLogical(Point(x: p.x + 0.5, y: p.y + 0.5))
        let t = take(c), u = upright
        let margin = 2 / scale
        let inside = t.x > margin && t.x < Double(u.width) - margin && t.y > margin && t.y < Double(u.height) - margin
        let outside = t.x < -margin || t.x > Double(u.width) + margin || t.y < -margin || t.y > Double(u.height) + margin
        if outside { return RGB(0, 0, 0) }
        guard inside else { return nil }
        let o = overlayPoint(t), size = overlay.picture.size
        let d = 2 / (scale * overlayScale) + 0.5
        var colours: [RGBA] = []
        for (dx, dy) in [(0.0, 0.0), (-d, -d), (d, -d), (-d, d), (d, d)] {
            let x = Int((o.x + dx).rounded(.down)), y = Int((o.y + dy).rounded(.down))
            guard x >= 0, x < size.width, y >= 0, y < size.height else { return nil }
            colours.append(overlay.rgba(x: x, y: y))
        }
        guard colours.allSatisfy({ $0 == colours[0] }) else { return nil }
        return picture.under(colours[0])
    }
}

extension SDLTests {
    @Suite("The operator's overlay over the preview (issue 33)")
    struct OverlayPixelTests {
        static let frameSize = Size(width: 640, height: 480)
        /// The camera's picture: one colour, so what differs is the overlay's doing.
        static let frameColour = YUV(y: 110, u: 140, v: 120)

        struct Case: CustomTestStringConvertible, Sendable {
            let output: Size
            let orientation: Orientation?
            let mount: Int
            /// Whether the booth has a portrait overlay too.
            let portraitOverlay: Bool
            var testDescription: String {
                "\(output)\(orientation.map { " turned \($0.rawValue)" } ?? "") mount \(mount * 90)°\(portraitOverlay ? " with a portrait overlay" : "")"
            }
        }

        static let cases = [
            Case(output: Size(width: 800, height: 480), orientation: nil, mount: 0, portraitOverlay: true),
            Case(output: Size(width: 480, height: 800), orientation: nil, mount: 0, portraitOverlay: false),
            Case(output: Size(width: 480, height: 800), orientation: nil, mount: 1, portraitOverlay: true),
            Case(output: Size(width: 800, height: 480), orientation: .portrait, mount: 0, portraitOverlay: true),
            Case(output: Size(width: 800, height: 480), orientation: .landscapeLeft, mount: 0, portraitOverlay: false),
            Case(output: Size(width: 800, height: 480), orientation: nil, mount: 3, portraitOverlay: true),
        ]

        @Test("the squares where the take has those corners, the band the blend at its alpha, bars beside a fitted picture, none when it fills; mirroring moves nothing",
              arguments: cases)
        func overlayOverPreview(_ c: Case) throws {
            let screen = try makeScreen(size: c.output, orientation: c.orientation)
            screen.cameraMount = c.mount
            try screen.show(frame: TestFrames.make(.yuv420p, size: Self.frameSize) { _, _ in Self.frameColour })
            try screen.setOverlay(TestOverlay.landscape.picture, portrait: c.portraitOverlay ? TestOverlay.portrait.picture : nil)
            let portrait = screen.orientation.isPortrait
            let overlay = portrait && c.portraitOverlay ? TestOverlay.portrait : TestOverlay.landscape
            for fit in PictureFit.allCases {
                for mirror in [false, true] {
                    screen.previewFit = fit
                    screen.mirrorPreview = mirror
                    try screen.draw(nil)
                    let pixels = try screen.readPixels()
                    let scene = OverlayScene(transform: screen.transform, frame: Self.frameSize, mount: c.mount, fit: fit,
                                             overlay: overlay, picture: Colour.rgb(limited: Self.frameColour))
                    let label = "\(c.testDescription) \(fit.rawValue)\(mirror ? " mirrored" : "")"
                    // The squares at their centres.
                    var squaresSeen = 0
                    for square in overlay.squares where scene.onTake(overlay: square.centre) {
                        let p = scene.display(overlay: square.centre)
                        guard p.x >= 0, p.y >= 0, p.x < Double(c.output.width), p.y < Double(c.output.height) else { continue }
                        let got = pixels.color(p)
                        #expect(got.close(to: square.colour, within: 3),
                                "\(label): the \(square.name) square at (\(Int(p.x)),\(Int(p.y))) is \(got), expected \(square.colour)")
                        squaresSeen += 1
                    }
                    // Squares the overlay's cover cuts off are nowhere.
                    for square in overlay.squares where !scene.onTake(overlay: square.centre) {
                        let seen = (0..<c.output.height).reduce(0) { n, y in
                            n + (0..<c.output.width).filter { RGB(pixels.rgb(x: $0, y: y)).close(to: square.colour, within: 10) }.count
                        }
                        #expect(seen == 0, "\(label): the \(square.name) square lies beyond the take, yet \(seen) pixels show it")
                    }
                    if fit == .fit && overlay.picture.size.isPortrait == scene.upright.isPortrait {
                        #expect(squaresSeen == 3, "\(label): a fitted picture shows the whole overlay")
                    }
                    // Every pixel on a grid: the picture, the overlay over it, the bars.
                    var checked = 0, bars = 0, band = 0
                    for y in stride(from: 0, to: c.output.height, by: 5) {
                        for x in stride(from: 0, to: c.output.width, by: 7) {
                            let p = Point(x: Double(x), y: Double(y))
                            guard let expected = scene.expected(display: p) else { continue }
                            let got = pixels.color(p)
                            #expect(got.close(to: expected, within: 6), "\(label): (\(x),\(y)) is \(got), expected \(expected)")
                            checked += 1
                            if expected == RGB(0, 0, 0) { bars += 1 }
                            if expected != scene.picture && expected != RGB(0, 0, 0) && !overlay.squares.contains(where: { $0.colour == expected }) {
                                band += 1
                            }
                        }
                    }
                    #expect(checked > c.output.width * c.output.height / 35 / 2, "\(label): \(checked) pixels checked")
                    #expect(band > 20, "\(label): the band checked at \(band) pixels")
                    let canvas = screen.transform.logical, u = scene.upright
                    let sameShape = canvas.width * u.height == canvas.height * u.width
                    if fit == .fit && !sameShape {
                        #expect(bars > 500, "\(label): bars beside the fitted picture (\(bars) pixels)")
                    } else {
                        #expect(bars == 0, "\(label): no bars (\(bars) pixels)")
                    }
                }
            }
        }

        @Test("shown over the live picture (ready, countdown, recording) and the review's frozen frame (the take's last picture); none once removed")
        func onlyOverTheLivePreview() throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480))
            try screen.show(frame: TestFrames.make(.yuv420p, size: Self.frameSize) { _, _ in Self.frameColour })
            try screen.setOverlay(TestOverlay.landscape.picture, portrait: nil)
            screen.previewFit = .fit
            let scene = OverlayScene(transform: screen.transform, frame: Self.frameSize, mount: 0, fit: .fit,
                                     overlay: .landscape, picture: Colour.rgb(limited: Self.frameColour))
            // The band's middle, a quarter of the way in: clear of the buttons and panels.
            let bandPoint = scene.display(overlay: Point(x: 80, y: 120))
            let blended = Colour.rgb(limited: Self.frameColour).under(RGBA(255, 255, 255, 128))
            for (name, model) in [("ready", Models.ready), ("countdown", Models.countdown(3)), ("recording", Models.recording())] {
                try screen.draw(model)
                let got = try screen.readPixels().color(bandPoint)
                #expect(got.close(to: blended, within: 6), "\(name): the band at \(bandPoint) is \(got), expected \(blended)")
            }
            // The review's frozen frame is the take's last picture: the file has the overlay there too.
            try screen.draw(Models.finished())
            let frozen = try screen.readPixels().color(bandPoint)
            #expect(frozen.close(to: blended, within: 6), "finished: the band over the frozen frame at \(bandPoint) is \(frozen), expected \(blended)")
            try screen.setOverlay(nil, portrait: nil)
            try screen.draw(Models.ready)
            let removed = try screen.readPixels().color(bandPoint)
            #expect(removed.close(to: scene.picture, within: 6), "no overlay: the picture alone at \(bandPoint) is \(removed)")
        }
    }
}
