// Issue 31's share screen read back from the real screen: its QR codes decoded from the pixels by a
// real decoder (zbarimg, Debian's zbar-tools) in landscape and portrait, in English and Japanese, with
// large text and high contrast; each code measured pixel by pixel against libqrencode's modules (a
// whole number of pixels a module, at least 6, the quiet zone of 4 modules white); the Done button
// where Layout puts it, with its title.
import Foundation
import KioskContract
import KioskCore
import KioskScreenText
import KioskTestSupport
import Testing
@testable import KioskUI

/// One screen the share screen is drawn on.
struct ShareScreenCase: CustomTestStringConvertible, Sendable {
    let output: Size
    /// nil: the display's natural orientation.
    var orientation: Orientation?
    let language: Language
    var largeText = false
    var highContrast = false

    var testDescription: String {
        "\(output.width)x\(output.height)\(orientation.map { " turned \($0.rawValue)" } ?? "") \(language.rawValue)"
            + (largeText ? " large text" : "") + (highContrast ? " high contrast" : "")
    }

    static let landscape = Size(width: 800, height: 480), portrait = Size(width: 480, height: 800)

    /// Landscape and portrait in English and Japanese; the same with large text and high contrast;
    /// 1280x720; a landscape panel turned portrait.
    static let all: [ShareScreenCase] = [landscape, portrait].flatMap { size in
        [Language.en, .ja].flatMap { language in
            [ShareScreenCase(output: size, language: language),
             ShareScreenCase(output: size, language: language, largeText: true, highContrast: true)]
        }
    } + [ShareScreenCase(output: Size(width: 1280, height: 720), language: .de),
         ShareScreenCase(output: landscape, orientation: .portrait, language: .fr, largeText: true)]

    /// The screen in this size, orientation, language and theme, showing the test bars (the take's
    /// frozen last frame).
    func open() throws -> Screen {
        let screen = try makeScreen(size: output, orientation: orientation)
        screen.largeText = largeText
        screen.highContrast = highContrast
        try screen.setWords(ScreenWords(language: language), prompt: nil, font: nil)
        try screen.show(frame: TestFrames.bars(size: ElementScreen.frameSize))
        return screen
    }
}

extension Models {
    /// The share screen from the real machine with sharing on: a take, Use Video, then its share
    /// folder written (`url`), or still being written (nil).
    static func sharing(url: String?) -> ViewModel {
        var m = RecorderMachine(session: .once, outputPath: "/tmp/take.mov", orientation: .landscapeRight, shares: true)
        _ = m.start()
        _ = m.handle(.press(.start))
        _ = m.handle(.recordingStarted(outputPath: "/tmp/take.mov"))
        _ = m.handle(.press(.stop))
        _ = m.handle(.recordingFinished(result))
        _ = m.handle(.press(.useVideo))
        if let url { _ = m.handle(.takeShared(ShareLink(url: url, token: "q3Zk9_xYb-2LmNoPqRsTuV", folder: "/srv/share/q3Zk9_xYb-2LmNoPqRsTuV"))) }
        return m.viewModel
    }
}

extension SDLTests {
    @Suite("The share screen in pixels, its QR codes read back by zbarimg")
    struct SharePixelTests {
        /// A share address as `--share-url http://10.42.0.1/s/{token}/` makes them (a 22-character
        /// token: 128 bits), with upper and lower case that an alphanumeric-mode code would lose.
        static let url = "http://10.42.0.1/s/q3Zk9_xYb-2LmNoPqRsTuV/"
        static let wifi = WiFiPayload.make(ssid: "Booth;\"1", password: "p;a\"ss:word")

        /// What `zbarimg --raw -q` reads in the pixels, one text a code (written as a BMP file first).
        static func decode(_ pixels: Pixels, _ name: String) throws -> [String] {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-share-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent(name.map { $0.isLetter || $0.isNumber ? $0 : "-" } + ".bmp")
            try pixels.bmp.write(to: file)
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try runProgram(["zbarimg", "--raw", "-q", file.path])
            // 4: no code found (an answer, not a failure).
            #expect(run.status == 0 || run.status == 4, "zbarimg: \(run.stderr)")
            return run.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }

        @Test("the take's code decodes to its address exactly, over the frozen frame; the words 'Scan to get your video' in the language; Done at the right slot with its title",
              arguments: ShareScreenCase.all)
        func videoCode(_ s: ShareScreenCase) throws {
            let screen = try s.open()
            let model = Models.sharing(url: Self.url)
            #expect(model.mode == .sharing && model.buttons == [.done] && model.share?.url == Self.url)
            try screen.render(model)
            let pixels = try screen.snapshot()
            #expect(try Self.decode(pixels, s.testDescription) == [Self.url], "\(s.testDescription)")
            // The words under the code, black on the white card, inside it.
            let card = try screen.makeOverlay().shareCards(try #require(model.share)).0.cards[0]
            let band = Rect(x: card.frame.x, y: card.caption.y, width: card.frame.width, height: card.caption.height)
            try Self.expectWords(screen.words[.shareScan], in: screen.transform.toPhysical(band), pixels: pixels,
                                 screen: screen, s, sourceLocation: #_sourceLocation) { $0.brightness < 100 }
            try Self.expectDone(pixels, screen: screen, s)
        }

        @Test("with the booth's Wi-Fi: two codes (side by side in landscape, stacked in portrait), one the WIFI: payload with its escapes, the other the address; zbarimg reads both",
              arguments: ShareScreenCase.all)
        func wifiAndVideo(_ s: ShareScreenCase) throws {
            let screen = try s.open()
            var model = Models.sharing(url: Self.url)
            model.share?.wifi = Self.wifi
            try screen.render(model)
            let pixels = try screen.snapshot()
            let decoded = try Self.decode(pixels, s.testDescription + " wifi")
            #expect(decoded.sorted() == [Self.url, Self.wifi].sorted(), "\(s.testDescription): \(decoded)")
            #expect(Self.wifi == #"WIFI:T:WPA;S:Booth\;\"1;P:p\;a\"ss\:word;;"#)
            // The two codes, each in its card: side by side on a landscape canvas, one over the other on a portrait one.
            #expect(try Self.codes(in: screen, model: model, pixels: pixels, texts: [Self.wifi, Self.url], s).count == 2)
            let (cards, _) = try screen.makeOverlay().shareCards(try #require(model.share))
            let (first, second) = (cards.cards[0].frame, cards.cards[1].frame)
            if screen.layout.canvas.width > screen.layout.canvas.height {
                #expect(first.maxX <= second.x && first.y < second.maxY && second.y < first.maxY, "\(s.testDescription): \(first) \(second) side by side")
            } else {
                #expect(first.maxY <= second.y && first.x < second.maxX && second.x < first.maxX, "\(s.testDescription): \(first) \(second) stacked")
            }
            try Self.expectDone(pixels, screen: screen, s)
        }

        @Test("over a black picture, each code is libqrencode's modules pixel for pixel: one square of a whole number (>= 6) of pixels each, black or white, inside 4 modules of white",
              arguments: ShareScreenCase.all)
        func modules(_ s: ShareScreenCase) throws {
            let screen = try s.open()
            screen.clearPreview()
            var model = Models.sharing(url: Self.url)
            try screen.render(model)
            _ = try Self.codes(in: screen, model: model, pixels: try screen.snapshot(), texts: [Self.url], s)
            model.share?.wifi = Self.wifi
            try screen.render(model)
            _ = try Self.codes(in: screen, model: model, pixels: try screen.snapshot(), texts: [Self.wifi, Self.url], s)
        }

        @Test("while the share folder is written: no code for the take (zbarimg finds none, or only the Wi-Fi's), its card says so in dark words; then its address's code shows",
              arguments: [ShareScreenCase(output: ShareScreenCase.landscape, language: .en), ShareScreenCase(output: ShareScreenCase.portrait, language: .ja)])
        func preparing(_ s: ShareScreenCase) throws {
            let screen = try s.open()
            var model = Models.sharing(url: nil)
            #expect(model.mode == .sharing && model.share == ShareScreen(url: nil))
            try screen.render(model)
            #expect(try Self.decode(try screen.snapshot(), s.testDescription + " preparing") == [])
            model.share?.wifi = Self.wifi
            try screen.render(model)
            let pixels = try screen.snapshot()
            #expect(try Self.decode(pixels, s.testDescription + " preparing wifi") == [Self.wifi])
            // The take's card holds the words: dark ink in the middle of its white square.
            let overlay = screen.makeOverlay()
            let (cards, _) = try overlay.shareCards(try #require(model.share))
            let square = screen.transform.toPhysical(cards.cards[1].code)
            let dark = Self.count(in: pixels, square.outset(dx: -square.width / 8, dy: -square.height / 8)) { $0.brightness < 60 }
            #expect(dark > 50, "\(s.testDescription): \(dark) dark pixels of '\(screen.words[.sharePreparing])'")
            // The address comes: its code where the words were.
            model.share?.url = Self.url
            try screen.render(model)
            #expect(try Self.decode(try screen.snapshot(), s.testDescription + " shared").sorted() == [Self.url, Self.wifi].sorted())
        }

        @Test("a text too long for any QR code is a clear error; libqrencode's codes keep case and every byte (8-bit mode)")
        func encoding() throws {
            #expect(throws: QRCodeError.tooLong(bytes: 3000)) { try QRCode(String(repeating: "a", count: 3000)) }
            #expect(QRCodeError.tooLong(bytes: 3000).description.contains("too long for a QR code"))
            #expect(throws: QRCodeError.self) { try QRCode("") }
            let code = try QRCode(Self.url)
            // 42 bytes at M: version 3 (29 modules); alphanumeric mode would have had to upper-case it.
            #expect(code.size == 29 && code.sizeWithQuietZone == 37)
            // The finder pattern's corners, dark; the module just past it, light.
            #expect(code.isDark(x: 0, y: 0) && code.isDark(x: 6, y: 6) && !code.isDark(x: 7, y: 7) && code.isDark(x: code.size - 1, y: 0))
            #expect(!code.isDark(x: -1, y: 0) && !code.isDark(x: code.size, y: 0))
            #expect(try QRCode(String(repeating: "é", count: QRCodeError.capacity / 2)).size == 177)
        }

        // MARK: - Reading the pixels

        static func count(in pixels: Pixels, _ r: Rect, where test: (RGB) -> Bool) -> Int {
            var n = 0
            for y in max(r.y, 0)..<min(r.maxY, pixels.size.height) {
                for x in max(r.x, 0)..<min(r.maxX, pixels.size.width) where test(RGB(pixels.rgb(x: x, y: y))) { n += 1 }
            }
            return n
        }

        /// Finds each of `texts`' codes on screen (display pixels) and checks it against libqrencode's
        /// modules, pixel by pixel. The search is the overlay's own geometry only for where to start:
        /// the finder pattern's top-left corner is looked for from the card's top-left, and the module
        /// size is measured from the finder's first row (7 modules of black).
        static func codes(in screen: Screen, model: ViewModel, pixels: Pixels, texts: [String], _ s: ShareScreenCase,
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> [Rect] {
            let (cards, _) = try screen.makeOverlay().shareCards(try #require(model.share))
            #expect(cards.cards.count == texts.count, sourceLocation: sourceLocation)
            var found: [Rect] = []
            for (card, text) in zip(cards.cards, texts) {
                let code = try QRCode(text)
                let frame = screen.transform.toPhysical(card.frame)
                func black(_ x: Int, _ y: Int) -> Bool { pixels.rgb(x: x, y: y) == (0, 0, 0) }
                func white(_ x: Int, _ y: Int) -> Bool { pixels.rgb(x: x, y: y) == (255, 255, 255) }
                // The first black pixel row by row in the code's square, less what the card's rounded
                // corners could reach (at most 2 modules; the quiet zone is 4).
                let square = screen.transform.toPhysical(card.code).outset(dx: -2 * cards.module, dy: -2 * cards.module)
                var corner: (x: Int, y: Int)?
                search: for y in square.y..<square.maxY {
                    for x in square.x..<square.maxX where black(x, y) {
                        corner = (x, y)
                        break search
                    }
                }
                let (x0, y0) = try #require(corner, "\(s.testDescription): no black in the code's square \(square)", sourceLocation: sourceLocation)
                let run = (x0..<frame.maxX).prefix { black($0, y0) }.count
                #expect(run % 7 == 0, "\(s.testDescription): the finder's top row is \(run) px, not 7 modules", sourceLocation: sourceLocation)
                let m = run / 7
                #expect(m >= QRCode.smallestModule, "\(s.testDescription): \(m) px a module", sourceLocation: sourceLocation)
                guard m >= 1 else { continue }
                // Every pixel of the code and its quiet zone: the module's colour, exactly.
                let q = QRCode.quietZone, whole = code.sizeWithQuietZone * m
                let area = Rect(x: x0 - q * m, y: y0 - q * m, width: whole, height: whole)
                #expect(area.isInside(Rect(x: 0, y: 0, width: pixels.size.width, height: pixels.size.height)) && area.isInside(frame),
                        "\(s.testDescription): the code and its quiet zone \(area) inside the card \(frame)", sourceLocation: sourceLocation)
                var wrong = 0
                for y in max(area.y, 0)..<min(area.maxY, pixels.size.height) {
                    for x in max(area.x, 0)..<min(area.maxX, pixels.size.width) {
                        let dark = code.isDark(x: (x - x0 + q * m) / m - q, y: (y - y0 + q * m) / m - q)
                        if !(dark ? black(x, y) : white(x, y)) { wrong += 1 }
                    }
                }
                #expect(wrong == 0, "\(s.testDescription): \(wrong) pixels of '\(text)''s code (\(m) px a module) differ from libqrencode's modules",
                        sourceLocation: sourceLocation)
                found.append(area)
            }
            return found
        }

        /// Done at the right-hand slot Layout gives, in its colour (Use Video's blue; light in high
        /// contrast), its title's ink inside it and shaped as the title in its face.
        static func expectDone(_ pixels: Pixels, screen: Screen, _ s: ShareScreenCase,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
            let layout = screen.layout
            #expect(layout.frame(of: .done) == layout.rightButton)
            let frame = screen.transform.toPhysical(layout.frame(of: .done))
            let fill = s.highContrast ? RGB(Style.light) : RGB(Style.primary)
            let body = frame.outset(dx: -frame.width / 4, dy: -2)
            let filled = count(in: pixels, body) { $0.close(to: fill, within: 6) }
            let titleColour = s.highContrast ? RGB(Style.darkText) : RGB(Style.lightText)
            let ink = count(in: pixels, frame) { $0.close(to: titleColour, within: 60) }
            #expect(filled > body.width * body.height / 3, "\(s.testDescription): Done's fill \(filled) of \(body)", sourceLocation: sourceLocation)
            #expect(ink > 20, "\(s.testDescription): Done's title", sourceLocation: sourceLocation)
            // The title's shape (light on the blue; high contrast's black on light is the same words).
            guard !s.highContrast else { return }
            try expectWords(screen.words.title(of: .done), in: frame, pixels: pixels, screen: screen, s, sourceLocation: sourceLocation) {
                $0.brightness > 150
            }
        }

        /// `words` drawn inside `area` (display pixels): the box of the pixels `ink` picks is inside it,
        /// 2 px from its left and right ends, and has the proportions of the words rendered apart at
        /// 48 px in the face their language takes (another text, or a box for a missing glyph, would not).
        static func expectWords(_ words: String, in area: Rect, pixels: Pixels, screen: Screen, _ s: ShareScreenCase,
                                sourceLocation: SourceLocation, ink: (RGB) -> Bool) throws {
            var box: Rect?
            for y in max(area.y, 0)..<min(area.maxY, pixels.size.height) {
                for x in max(area.x, 0)..<min(area.maxX, pixels.size.width) where ink(RGB(pixels.rgb(x: x, y: y))) {
                    let dot = Rect(x: x, y: y, width: 1, height: 1)
                    box = box.map { Rect(x: min($0.x, x), y: min($0.y, y), width: max($0.maxX, x + 1) - min($0.x, x),
                                         height: max($0.maxY, y + 1) - min($0.y, y)) } ?? dot
                }
            }
            let found = try #require(box, "\(s.testDescription): no ink of '\(words)' in \(area)", sourceLocation: sourceLocation)
            let turned = screen.transform.quarterTurns % 2 == 1
            let (along, across) = turned ? (found.y...found.maxY, area.y...area.maxY) : (found.x...found.maxX, area.x...area.maxX)
            #expect(along.lowerBound >= across.lowerBound + 2 && along.upperBound <= across.upperBound - 2,
                    "\(s.testDescription): '\(words)' \(found) in \(area)", sourceLocation: sourceLocation)
            let face = try #require(try SDLTests.LanguageTests.expectedFace(for: words, in: s.language), sourceLocation: sourceLocation)
            let expected = try #require(SDLTests.LanguageTests.ink(in: try Font(face: face, pointSize: 48).render(words)), sourceLocation: sourceLocation)
            let aspect = turned ? Double(found.height) / Double(found.width) : Double(found.width) / Double(found.height)
            #expect(abs(aspect / (Double(expected.width) / Double(expected.height)) - 1) < 0.15,
                    "\(s.testDescription): '\(words)' ink \(found) against \(expected)", sourceLocation: sourceLocation)
        }
    }
}
