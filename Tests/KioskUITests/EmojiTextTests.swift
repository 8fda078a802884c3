// Colour emoji in the screen's text, read back from the real renderer: where fontconfig finds Noto
// Color Emoji (Debian's fonts-noto-color-emoji), a text's emoji keep their own colours however the
// words are tinted (black on a white card, white on a dark box), at the words' height, the width
// measured the width drawn, and a text rendered once.
import CSDL2
import Foundation
import KioskCore
import KioskScreenText
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("colour emoji in the screen's text", .enabled(if: FontLookup.colourEmoji() != nil, "needs fonts-noto-color-emoji"))
    struct EmojiTextTests {
        /// Pixels whose channels spread more than 60: a colour, not white, black or grey.
        static func saturated(_ c: (r: UInt8, g: UInt8, b: UInt8)) -> Bool {
            Int(max(c.r, c.g, c.b)) - Int(min(c.r, c.g, c.b)) > 60
        }

        /// `text` drawn at `size` in `colour` on a `background` screen, centred: the pixels and
        /// the texture's place.
        static func drawn(_ screen: Screen, _ texture: TextTexture, _ colour: RGBA, on background: RGBA) throws -> (Pixels, Rect) {
            SDL_SetRenderDrawColor(screen.rendererHandle.handle, background.r, background.g, background.b, 255)
            SDL_RenderClear(screen.rendererHandle.handle)
            let painter = Painter(renderer: screen.rendererHandle, transform: screen.transform, shapes: ShapeCache(renderer: screen.rendererHandle))
            painter.text(texture, centeredAt: Point(x: 400, y: 240), colour)
            let place = Rect(x: 400 - texture.size.width / 2, y: 240 - texture.size.height / 2, width: texture.size.width, height: texture.size.height)
            return (try screen.readPixels(), place)
        }

        @Test("a line with 💍 and 🎉 in black and in white: the emoji in colour at the words' height, the words in the tint, the measure its width, rendered once")
        func line() throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480))
            try screen.setWords(ScreenWords(language: .en), prompt: nil, font: nil)
            let text = "💍 Cheers 🎉", size = 48
            let plain = try screen.text.line("Cheers", size: size)
            let texture = try screen.text.line(text, size: size)
            #expect(texture.colour != nil && plain.colour == nil)
            // The same line height as the words alone; as wide as measured.
            #expect(texture.size.height == plain.size.height, "\(texture.size) against \(plain.size)")
            #expect(try screen.text.width(of: text, size: size) == texture.size.width)
            // Rendered once: the cache hands back the same textures.
            #expect(try screen.text.line(text, size: size).glyphs === texture.glyphs)
            for (tint, background) in [(RGBA(0, 0, 0), RGBA(255, 255, 255)), (RGBA(255, 255, 255), RGBA(0, 0, 0))] {
                let (pixels, place) = try Self.drawn(screen, texture, tint, on: background)
                var coloured: [Int] = [], rows: Set<Int> = [], tinted = 0
                for y in place.y..<place.maxY {
                    for x in place.x..<place.maxX {
                        let c = pixels.rgb(x: x, y: y)
                        if Self.saturated(c) { coloured.append(x); rows.insert(y) }
                        if c == (tint.r, tint.g, tint.b) { tinted += 1 }
                    }
                }
                // Both emoji, one at each end (the ring silver, its stone pale blue; the popper bright),
                // the words between them in the tint alone.
                let left = coloured.filter { $0 < place.x + place.width / 3 }.count, right = coloured.filter { $0 > place.maxX - place.width / 3 }.count
                let middle = coloured.filter { $0 >= place.x + place.width * 2 / 5 && $0 <= place.maxX - place.width * 2 / 5 }.count
                print("emoji in \(tint): \(left) coloured pixels left, \(right) right, \(middle) in the words; \(rows.count) rows of \(place.height); \(tinted) in the tint")
                #expect(left > 50 && right > 500 && middle == 0, "\(left) \(right) \(middle)")
                #expect(rows.count > size / 2 && rows.count <= place.height, "\(rows.count) coloured rows")
                #expect(tinted > 200, "\(tinted) pixels of the words in \(tint)")
            }
        }

        @Test("sequences drawn as one emoji: a skin tone, a ZWJ family and a flag as wide as one emoji, not as their parts; ❤ with VS16 in colour, without it in the words' face")
        func sequences() throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480))
            try screen.setWords(ScreenWords(language: .en), prompt: nil, font: nil)
            let one = try screen.text.width(of: "👍", size: 48)
            for sequence in ["👍🏽", "👨\u{200D}👩\u{200D}👧", "🇩🇪", "❤\u{FE0F}"] {
                let width = try screen.text.width(of: sequence, size: 48)
                #expect(abs(width - one) <= 2, "\(sequence.unicodeScalars.map { String($0.value, radix: 16) }): \(width) px, one emoji \(one)")
                #expect(try screen.text.line(sequence, size: 48).colour != nil)
            }
            #expect(try screen.text.line("❤", size: 48).colour == nil && screen.text.faces.hasColourEmoji("❤\u{FE0F}"))
        }

        @Test("a paragraph with emoji: wrapped as wide as asked, its lines centred, the emoji in colour")
        func paragraph() throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480))
            try screen.setWords(ScreenWords(language: .en), prompt: nil, font: nil)
            let texture = try screen.text.paragraph("Scan the code 💍 to keep your message 🎉 for later", size: 24, width: 300)
            let single = try screen.text.line("Scan", size: 24)
            #expect(texture.size.width == 300 && texture.size.height > 2 * single.size.height, "\(texture.size)")
            let (pixels, place) = try Self.drawn(screen, texture, RGBA(0, 0, 0), on: RGBA(255, 255, 255))
            var coloured = 0
            for y in place.y..<place.maxY { for x in place.x..<place.maxX where Self.saturated(pixels.rgb(x: x, y: y)) { coloured += 1 } }
            #expect(coloured > 100, "\(coloured) coloured pixels")
        }
    }
}
