// The words on screen in each language: the face that draws each text has every glyph of it (a
// Japanese face for ja, a Simplified Chinese one for zh-Hans), and the pixels are that text in that
// face, inside its button or box, landscape and portrait.
import CSDL2TTF
import Foundation
import KioskContract
import KioskCore
import KioskScreenText
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("Languages")
    struct LanguageTests {
        /// The family each language's non-Latin text must be drawn in; Latin text stays in DejaVu.
        static func family(for text: String, in language: Language) -> String {
            let cjk = text.unicodeScalars.contains { $0.value >= 0x2E80 }
            guard cjk else { return "DejaVu Sans" }
            switch language {
            case .zhHans: return "Noto Sans CJK SC"
            default: return "Noto Sans CJK JP"
            }
        }

        static let prompt: [Language: String] = [
            .en: "Leave a message for Anna & Tom", .ja: "アンナとトムへのメッセージをどうぞ", .zhHans: "给安娜和汤姆留言吧",
            .de: "Eine Nachricht für Anna & Tom", .fr: "Un message pour Anna & Tom", .es: "Un mensaje para Anna y Tom",
        ]

        @Test("every code point of every text the screen can show passes TTF_GlyphIsProvided32 in the face drawing it",
              arguments: Language.allCases)
        func glyphs(language: Language) throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480))
            let words = ScreenWords(language: language)
            try screen.setWords(words, prompt: Self.prompt[language], font: nil)
            for text in words.all(prompt: Self.prompt[language]) {
                let (face, family) = try #require(screen.face(for: text), "\(language): '\(text)'")
                #expect(family == Self.family(for: text, in: language), "\(language): '\(text)' in \(family)")
                let font = try Font(face: face, pointSize: 16)
                for scalar in text.unicodeScalars {
                    #expect(TTF_GlyphIsProvided32(font.handle, scalar.value) != 0, "\(language): U+\(String(scalar.value, radix: 16)) of '\(text)' in \(family)")
                }
            }
        }

        @Test("a prompt in a script neither DejaVu nor the language's face covers (Korean under en) gets a face fontconfig finds for its characters, every glyph in it")
        func promptInAnotherScript() throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480))
            let prompt = "안녕하세요, 여러분"
            try screen.setWords(ScreenWords(language: .en), prompt: prompt, font: nil)
            let (face, family) = try #require(screen.face(for: prompt))
            #expect(family.hasPrefix("Noto Sans CJK"), "\(family)")
            let font = try Font(face: face, pointSize: 16)
            #expect(prompt.unicodeScalars.allSatisfy { TTF_GlyphIsProvided32(font.handle, $0.value) != 0 })
            // The buttons stay in DejaVu.
            #expect(screen.face(for: ScreenWords(language: .en).title(of: .start))?.family == "DejaVu Sans")
        }

        @Test("the titles, messages and prompt on screen are their language's words in their face, inside their shapes",
              arguments: Language.allCases, [Size(width: 800, height: 480), Size(width: 480, height: 800)])
        func pixels(language: Language, output: Size) throws {
            let screen = try makeScreen(size: output)
            let words = ScreenWords(language: language)
            let prompt = try #require(Self.prompt[language])
            try screen.setWords(words, prompt: prompt, font: nil)
            let layout = screen.layout
            var ready = Models.ready
            ready.prompt = prompt
            var silent = Models.recording(elapsed: 6)
            silent.message = .microphoneSilent
            // Over no picture (black), so that only the overlay has light pixels.
            screen.clearPreview()
            let checks: [(ViewModel, [(String, Rect)])] = [
                (ready, [(words[.cancel], layout.frame(of: .cancel)), (prompt, Self.topBand(layout))]),
                (Models.finished(), [(words[.retake], layout.frame(of: .retake)), (words[.useVideo], layout.frame(of: .useVideo))]),
                (Models.cameraUnavailable, [(words[.cameraUnavailable], Self.middleBand(layout))]),
                (silent, [(words[.microphoneSilent], Self.middleBand(layout))]),
                (Models.playing(paused: false), [(words[.closePlayer], layout.frame(of: .closePlayer))]),
            ]
            for (model, texts) in checks {
                try screen.render(model)
                let pixels = try screen.snapshot()
                for (text, area) in texts {
                    let ink = try #require(Self.ink(in: pixels, area: area), "\(language) \(output): no text for '\(text)' in \(area)")
                    // Inside its shape: no light pixel within 2 px of the area's left and right ends.
                    #expect(ink.x >= area.x + 2 && ink.maxX <= area.maxX - 2, "\(language) \(output): '\(text)' \(ink) outside \(area)")
                    // The shape of the ink is the text's in its face (a box for a missing glyph, or
                    // another face, would not keep the proportions): rendered apart at 48 px.
                    let face = try #require(try Self.expectedFace(for: text, in: language))
                    let font = try Font(face: face, pointSize: 48), wrap = Self.wrap(text, words: words, layout: layout, prompt: text == prompt)
                    // The prompt's lines are balanced (LineBreaks) before SDL_ttf stacks them. A side
                    // title may be on two lines where the layout gives its buttons two (issue 30: the
                    // halves Overlay breaks it into), so either shape is the title's.
                    let side = Button.allCases.contains { [.left, .right].contains($0.slot) && words.title(of: $0) == text }
                    let shapes = text == prompt
                        ? [try LineBreaks.balanced(text, maxWidth: wrap) { piece throws(SDLError) in try font.render(piece).width }.joined(separator: "\n")]
                        : side && layout.sideTitleLines == 2 ? [text, Overlay.halves(of: text).joined(separator: "\n")] : [text]
                    let aspect = Double(ink.width) / Double(ink.height)
                    let candidates = try shapes.map { shown in
                        // Room to spare for its longest line, and no more: the surface is as wide as the wrap.
                        let lines = try shown.split(separator: "\n").map { try font.width(of: String($0)) }
                        return try #require(Self.ink(in: try font.render(shown, wrapWidth: min(wrap, 2 * lines.max()! + 64))))
                    }
                    let expected = try #require(candidates.min { a, b in
                        abs(aspect * Double(a.height) / Double(a.width) - 1) < abs(aspect * Double(b.height) / Double(b.width) - 1)
                    })
                    let expectedAspect = Double(expected.width) / Double(expected.height)
                    #expect(abs(aspect / expectedAspect - 1) < 0.15,
                            "\(language) \(output): '\(text)' ink \(ink.width)x\(ink.height) against \(expected.width)x\(expected.height) in \(face)")
                }
            }
        }

        /// The reference's wrap width at 48 px: the overlay's for paragraphs (the prompt and messages,
        /// 4/5 of the picture less the box's padding), scaled; none for titles.
        static func wrap(_ text: String, words: ScreenWords, layout: Layout, prompt: Bool) -> Int {
            guard !Button.allCases.contains(where: { words.title(of: $0) == text }) else { return 100_000 }
            let t = layout.textHeight
            // The prompt is 5/4 of the text size with 3/4 of it as padding; a message is the text
            // size with as much padding.
            let (size, padding) = prompt ? (t * 5 / 4, t * 3 / 4) : (t, t)
            return (layout.content.width * 4 / 5 - 2 * padding) * 48 / size
        }

        /// The face a text must be drawn in, found apart from the screen's choice: DejaVu Sans Bold
        /// for Latin text, fontconfig's bold sans-serif for the language otherwise (its family checked).
        static func expectedFace(for text: String, in language: Language) throws -> FaceSource? {
            let family = family(for: text, in: language)
            guard family != "DejaVu Sans" else { return FaceSource(path: fontPath) }
            let face = try #require(FontLookup.face(language: language.fontconfigLanguage))
            let font = try Font(face: face, pointSize: 16)
            let name = TTF_FontFaceFamilyName(font.handle).map { String(cString: $0) }
            #expect(name == family, "fontconfig's face for \(language): \(name ?? "none")")
            return face
        }

        /// Where the prompt is: the top of the picture.
        static func topBand(_ layout: Layout) -> Rect {
            Rect(x: layout.content.x, y: layout.content.y, width: layout.content.width, height: layout.content.height / 3)
        }

        /// Where messages are: the middle of the picture.
        static func middleBand(_ layout: Layout) -> Rect {
            Rect(x: layout.content.x, y: layout.content.y + layout.content.height / 4, width: layout.content.width,
                 height: layout.content.height / 2)
        }

        /// The bounding box of light pixels (text) in `area` of the screen.
        static func ink(in pixels: Pixels, area: Rect) -> Rect? {
            var box: (Int, Int, Int, Int)?
            for y in max(area.y, 0)..<min(area.maxY, pixels.size.height) {
                for x in max(area.x, 0)..<min(area.maxX, pixels.size.width) where RGB(pixels.rgb(x: x, y: y)).brightness > 150 {
                    box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
                }
            }
            return box.map { Rect(x: $0.0, y: $0.1, width: $0.2 - $0.0 + 1, height: $0.3 - $0.1 + 1) }
        }

        /// The bounding box of a rendering's opaque pixels.
        static func ink(in surface: Surface) -> Rect? {
            var box: (Int, Int, Int, Int)?
            let alpha = surface.alphaPlane(), width = surface.width
            for y in 0..<surface.height {
                for x in 0..<width where alpha[y * width + x] > 110 {
                    box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
                }
            }
            return box.map { Rect(x: $0.0, y: $0.1, width: $0.2 - $0.0 + 1, height: $0.3 - $0.1 + 1) }
        }
    }
}
