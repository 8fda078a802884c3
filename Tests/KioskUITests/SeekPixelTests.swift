// The review's progress bar on the real SDL screen in every orientation (drawn where the layout
// says, filled to the position; a finger down, dragged and up on it seeks), and `--play --fit`
// both ways.
import CSDL2
import Foundation
import KioskContract
import KioskCore
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("Seeking: the progress bar and --fit")
    struct SeekPixelTests {
        static let orientations: [Orientation] = [.landscapeRight, .landscapeLeft, .portrait, .portraitUpsideDown]

        /// A point at `fraction` along the bar, on the display.
        static func barPoint(_ screen: Screen, _ fraction: Double, dy: Double = 0) -> Point {
            let bar = screen.layout.progressBar
            return screen.transform.toPhysical(Point(x: Double(bar.x) + fraction * Double(bar.width), y: bar.center.y + dy))
        }

        @Test("the progress bar is drawn along the bottom panel, white up to the position, the track after it", arguments: orientations)
        func drawn(orientation: Orientation) throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480), orientation: orientation)
            // 3 s of 7.2: 42 % played.
            try screen.draw(Models.playing(paused: true))
            let pixels = try screen.readPixels()
            let played = pixels.color(Self.barPoint(screen, 0.2)), left = pixels.color(Self.barPoint(screen, 0.7))
            let beside = pixels.color(Self.barPoint(screen, 0.7, dy: -Double(screen.layout.progressBar.height) - 4))
            #expect(played.brightness > 240, "\(orientation): played part \(played)")
            // The track: white at alpha 90 over the dark panel.
            #expect(left.brightness > 60 && left.brightness < 120, "\(orientation): track \(left)")
            #expect(beside.brightness < 40, "\(orientation): beside the bar \(beside)")
            // Where the white ends: at 42 % of the bar, within two pixels.
            let bar = screen.layout.progressBar
            let end = (0..<bar.width).last { x in
                pixels.color(screen.transform.toPhysical(Point(x: Double(bar.x + x) + 0.5, y: bar.center.y))).brightness > 200
            } ?? 0
            #expect(abs(Double(end + 1) - 3 / 7.2 * Double(bar.width)) <= 2, "\(orientation): filled to \(end + 1) of \(bar.width)")
        }

        @Test("a finger down on the bar seeks there, dragging follows it (clamped to the ends), up seeks where it lifts; a tap beside the bar is a tap",
              arguments: orientations)
        func dragged(orientation: Orientation) throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480), orientation: orientation)
            func finger(_ type: SDL_EventType, _ p: Point) {
                var event = SDL_Event()
                event.type = type.rawValue
                event.tfinger.fingerId = 7
                event.tfinger.x = Float(p.x / 800)
                event.tfinger.y = Float(p.y / 480)
                SDL_PushEvent(&event)
            }
            finger(SDL_FINGERDOWN, Self.barPoint(screen, 0.25))
            finger(SDL_FINGERMOTION, Self.barPoint(screen, 0.75, dy: -30)) // strays above: still the bar
            finger(SDL_FINGERMOTION, Self.barPoint(screen, 1.3))
            finger(SDL_FINGERUP, Self.barPoint(screen, 0.5))
            let inputs = screen.pollEvents(visible: [.closePlayer])
            let fractions = inputs.compactMap { if case let .seek(f) = $0 { f } else { nil } }
            #expect(fractions.count == 4 && inputs.count == 4, "\(orientation): \(inputs)")
            for (got, want) in zip(fractions, [0.25, 0.75, 1, 0.5]) { #expect(abs(got - want) < 0.01, "\(orientation): \(fractions)") }
            // Without the controls (hidden) the bar takes nothing: the touch is a tap.
            finger(SDL_FINGERDOWN, Self.barPoint(screen, 0.25))
            finger(SDL_FINGERUP, Self.barPoint(screen, 0.25))
            let hidden = screen.pollEvents(visible: [])
            #expect(hidden.count == 1 && { if case .tapElsewhere = hidden[0] { true } else { false } }(), "\(orientation): \(hidden)")
            // The stdin tap on the bar, through the same geometry.
            let tapped = screen.tap(at: Self.barPoint(screen, 0.6), visible: [.closePlayer])
            if tapped.count == 1, case let .seek(fraction) = tapped[0] {
                #expect(abs(fraction - 0.6) < 0.01, "\(orientation): \(fraction)")
            } else {
                Issue.record("\(orientation): the tap command on the bar gave \(tapped), not one seek")
            }
            #expect(!screen.tap(at: Self.barPoint(screen, 0.6), visible: [.retake]).contains { if case .seek = $0 { true } else { false } })
        }

        @Test("--fit fit shows the whole picture with bars beside it; --fit fill covers the screen, cropping top and bottom")
        func fit() throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480))
            // 320x240: its left quarter blue, its top eighth red, the rest white.
            let frame = TestFrames.make(.yuv420p, size: Size(width: 320, height: 240)) { x, y in
                x < 80 ? Colour.limited(RGB(0, 0, 255)) : y < 30 ? Colour.limited(RGB(255, 0, 0)) : YUV(y: 235, u: 128, v: 128)
            }
            try screen.show(playbackFrame: frame, rotation: 0)
            screen.playbackFit = .fit
            try screen.draw(nil)
            let fitted = try screen.readPixels()
            // 640x480 at x 80…720: black bars, the blue quarter from 80 to 240, red down to y 60.
            #expect(fitted.color(Point(x: 40, y: 240)).brightness < 5, "bar: \(fitted.color(Point(x: 40, y: 240)))")
            #expect(fitted.color(Point(x: 760, y: 240)).brightness < 5)
            #expect(fitted.color(Point(x: 160, y: 240)).b > 200 && fitted.color(Point(x: 160, y: 240)).r < 60)
            #expect(fitted.color(Point(x: 500, y: 40)).r > 200 && fitted.color(Point(x: 500, y: 40)).g < 60, "top red: \(fitted.color(Point(x: 500, y: 40)))")
            screen.playbackFit = .fill
            try screen.draw(nil)
            let filled = try screen.readPixels()
            // 800x600 at y −60…540: no bars, the blue quarter from 0 to 200, the red only down to y 15.
            #expect(filled.color(Point(x: 40, y: 240)).b > 200, "no bar: \(filled.color(Point(x: 40, y: 240)))")
            #expect(filled.color(Point(x: 760, y: 240)).brightness > 200)
            #expect(filled.color(Point(x: 500, y: 5)).r > 200 && filled.color(Point(x: 500, y: 5)).g < 60)
            #expect(filled.color(Point(x: 500, y: 40)).brightness > 200, "cropped: \(filled.color(Point(x: 500, y: 40)))")
            #expect(filled.color(Point(x: 230, y: 240)).brightness > 200, "white past the blue's end at 200")
            screen.playbackFit = .fit
        }
    }
}
