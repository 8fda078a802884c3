// SDL2 starts with the dummy video driver and SDL2_ttf renders a glyph from our shipped font.
import Foundation
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("SDL2 and SDL2_ttf (real libraries)")
    struct SDLSmokeTests {
        @Test("SDL initialises with the dummy video driver and TTF renders a glyph with ink and space")
        func sdlAndFont() throws {
            setenv("SDL_VIDEODRIVER", "dummy", 1)
            let sdl = try SDLContext()
            #expect(sdl.videoDriver == "dummy")
            #expect(SDLContext.version.hasPrefix("2."))

            let fontPath = assetsDirectory.appendingPathComponent("fonts/DejaVuSans-Bold.ttf").path
            let font = try Font(path: fontPath, pointSize: 48)
            let glyph = try font.render("0")
            #expect(glyph.width > 10 && glyph.height > 30)
            var inked = 0, clear = 0
            for y in 0..<glyph.height {
                for x in 0..<glyph.width {
                    let a = glyph.alpha(x: x, y: y)
                    if a == 255 { inked += 1 } else if a == 0 { clear += 1 }
                }
            }
            #expect(inked > 50, "the glyph has solid strokes")
            #expect(clear > 50, "and empty space around and inside it")
            // The middle of a "0" is its empty counter; the left edge at mid-height is the stroke.
            #expect(glyph.alpha(x: glyph.width / 2, y: glyph.height / 2) == 0)
            let midRow = (0..<glyph.width).map { glyph.alpha(x: $0, y: glyph.height / 2) }
            #expect(midRow.contains(255))
            // A wider text renders wider.
            #expect(try font.render("00:00").width > 3 * glyph.width)
        }

        @Test("a font that does not exist gives SDL_ttf's error")
        func missingFont() throws {
            setenv("SDL_VIDEODRIVER", "dummy", 1)
            let sdl = try SDLContext()
            _ = sdl
            #expect(throws: SDLError.self) { try Font(path: "/nonexistent.ttf", pointSize: 12) }
        }
    }
}
