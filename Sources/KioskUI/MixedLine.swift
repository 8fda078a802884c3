// A line of words and colour emoji. SDL_ttf draws one face a text, and Noto Color Emoji has no
// letters and one bitmap size (109 px), so each run is measured and drawn in its own face, the
// emoji scaled to the words' line height, and the runs joined side by side: left to right in the
// text's order, or, in a right-to-left text, in the order its shaper lays them out (the text turned
// by `TextDirection.forShaper`, its runs reversed, each shaped right to left). One plan serves the
// measure and the drawing, so the width measured is the width drawn.
import CSDL2
import KioskCore
import KioskScreenText

struct MixedLine {
    /// One run in its face, with its width on the line in pixels.
    struct Run {
        let text: String
        let emoji: Bool
        let width: Int
    }

    /// The runs, from left to right.
    let runs: [Run]
    let words: Font
    let emoji: Font?
    let direction: TextDirection
    let script: String

    /// Lays out `runs` (the text's as `Typefaces.runs` cuts it, in its order, turned for the shaper
    /// first when it runs right to left; the words' runs without the characters their face lacks)
    /// in `words` and `emoji`, shaped in `direction` and `script` (the whole text's).
    init(_ runs: [(text: String, emoji: Bool)], direction: TextDirection, script: String, words: Font, emoji: Font?) throws(SDLError) {
        (self.words, self.emoji, self.direction, self.script) = (words, emoji, direction, script)
        let scale = emoji.map { Double(words.lineHeight) / Double(max($0.lineHeight, 1)) } ?? 1
        var laid: [Run] = []
        for run in direction == .rightToLeft ? Array(runs.reversed()) : runs where !run.text.isEmpty {
            guard run.emoji, let emoji else {
                words.shape(direction, script: script)
                laid.append(Run(text: run.text, emoji: false, width: try words.width(shaped: run.text)))
                continue
            }
            let shaped = Emoji.forShaper(run.text)
            emoji.shape(direction, script: "Zzzz")
            laid.append(Run(text: shaped, emoji: true, width: Int((Double(try emoji.width(shaped: shaped)) * scale).rounded())))
        }
        self.runs = laid
    }

    var width: Int { runs.reduce(0) { $0 + $1.width } }
    /// The words' line height: the emoji are scaled to it.
    var height: Int { words.lineHeight }

    /// Draws the line with its top-left corner at (x, y): the words white into `glyphs`, the emoji
    /// in their colours into `colour` (both ARGB8888, as large as the line at least).
    func render(glyphs: Surface, colour: Surface, x: Int, y: Int) throws(SDLError) {
        var left = x
        for run in runs {
            defer { left += run.width }
            if run.emoji, let emoji {
                emoji.shape(direction, script: "Zzzz")
                // SDL_ttf copies FreeType's colour glyphs as they are, their alpha premultiplied, onto a
                // transparent white ground: scaled premultiplied (no fringe from the ground), then
                // made straight, as SDL blends.
                let drawn = try emoji.render(shaped: run.text)
                drawn.mapPixels { $0 >> 24 == 0 ? 0 : $0 }
                let scale = Double(height) / Double(max(emoji.lineHeight, 1))
                let place = Rect(x: left, y: y, width: run.width, height: min(Int((Double(drawn.height) * scale).rounded()), height))
                try drawn.stretch(into: colour, at: place)
                colour.mapPixels(in: place, Self.straight)
            } else if run.text.contains(where: { !$0.isWhitespace }) {
                words.shape(direction, script: script)
                try words.render(shaped: run.text).copy(into: glyphs, x: left, y: y)
            }
        }
    }

    /// A premultiplied ARGB pixel with straight alpha.
    static func straight(_ pixel: UInt32) -> UInt32 {
        let a = pixel >> 24
        guard a > 0, a < 255 else { return pixel }
        func channel(_ shift: UInt32) -> UInt32 { min(255, (((pixel >> shift) & 0xFF) * 255 + a / 2) / a) << shift }
        return a << 24 | channel(16) | channel(8) | channel(0)
    }
}

extension Surface {
    /// Each ARGB8888 pixel (in `r`, else all) replaced by `change` of it, under the surface's lock.
    func mapPixels(in r: Rect? = nil, _ change: (UInt32) -> UInt32) {
        let r = r ?? Rect(x: 0, y: 0, width: width, height: height)
        guard r.x >= 0, r.y >= 0, r.maxX <= width, r.maxY <= height, let pixels = pointer.pointee.pixels else { return }
        let locked = kiosk_SDL_MUSTLOCK(pointer) != 0
        if locked { SDL_LockSurface(pointer) }
        defer { if locked { SDL_UnlockSurface(pointer) } }
        let pitch = Int(pointer.pointee.pitch)
        for y in r.y..<r.maxY {
            let row = (pixels + y * pitch).assumingMemoryBound(to: UInt32.self)
            for x in r.x..<r.maxX { row[x] = change(row[x]) }
        }
    }

    /// A new transparent ARGB8888 surface, the format SDL_ttf's blended text comes in
    /// (`SDL_CreateRGBSurfaceWithFormat` zeroes its pixels).
    convenience init(transparent size: Size) throws(SDLError) {
        guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(max(size.width, 1)), Int32(max(size.height, 1)), 32,
                                                           SDL_PIXELFORMAT_ARGB8888.rawValue)
        else { throw SDLError(call: "SDL_CreateRGBSurfaceWithFormat(\(size))") }
        self.init(owning: surface)
    }

    var size: Size { Size(width: width, height: height) }

    /// Copies the surface's pixels, alpha and all (not blended), into `target` at (x, y)
    /// (`SDL_BlitSurface`, a macro for `SDL_UpperBlit`).
    func copy(into target: Surface, x: Int, y: Int) throws(SDLError) {
        SDL_SetSurfaceBlendMode(pointer, SDL_BLENDMODE_NONE)
        var destination = SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height))
        guard SDL_UpperBlit(pointer, nil, target.pointer, &destination) == 0 else { throw SDLError(call: "SDL_BlitSurface") }
    }

    /// The surface scaled smoothly into `r` of `target` (`SDL_SoftStretchLinear`; both ARGB8888),
    /// halved first while it is over twice as large, so that every pixel of it counts (a linear
    /// filter reads two of each row and column).
    func stretch(into target: Surface, at r: Rect) throws(SDLError) {
        guard !r.isEmpty, r.x >= 0, r.y >= 0, r.maxX <= target.width, r.maxY <= target.height, width > 0, height > 0 else { return }
        var source = self
        while source.width >= 4 * r.width, source.height >= 4 * r.height {
            let half = try Surface(transparent: Size(width: source.width / 2, height: source.height / 2))
            try source.stretch(into: half, at: Rect(x: 0, y: 0, width: half.width, height: half.height))
            source = half
        }
        var destination = SDL_Rect(r)
        guard SDL_SoftStretchLinear(source.pointer, nil, target.pointer, &destination) == 0 else { throw SDLError(call: "SDL_SoftStretchLinear") }
    }
}
