// Rendered text kept as textures, so a label is rasterised once, not every frame: button titles
// once per size, the timer once a second. A text with colour emoji is drawn run by run
// (MixedLine), its emoji kept apart from its words, so that tinting the words leaves the emoji's
// colours as they are.
import CSDL2
import CSDL2TTF
import KioskCore
import KioskScreenText

/// A rendered text: its words white, drawn tinted by colour modulation, and where it has colour
/// emoji, a layer of the same size with them, drawn untinted over the words.
struct TextTexture {
    let glyphs: Texture
    let colour: Texture?
    var size: Size { glyphs.size }
}

/// White text textures by string, pixel size and width limit; drawn tinted by colour modulation,
/// so one texture serves every colour. Entries not used in the last frame are dropped once the
/// cache holds more than `capacity` (the timer makes a new string every second).
final class TextCache {
    private struct Key: Hashable {
        let text: String
        let size: Int
        let limit: Limit
    }

    private struct FontKey: Hashable {
        let face: FaceSource
        let size: Int
    }

    /// What a width limit does: shrink the text until it fits on one line, or wrap it.
    private enum Limit: Hashable {
        case none
        case shrinkTo(Int)
        case wrapAt(Int)
    }

    static let capacity = 48

    private let renderer: Renderer
    /// Which face shows each text; replaced when the language changes (every texture goes with it).
    var faces: Typefaces {
        didSet {
            textures.removeAll()
            fits.removeAll()
        }
    }
    private var fonts: [FontKey: Font] = [:]
    private var textures: [Key: TextTexture] = [:]
    private var used: Set<Key> = []
    private struct FitKey: Hashable {
        let texts: [String]
        let size: Int
        let maxWidth: Int
    }
    /// Sizes found by `fittingSize`: a handful per layout, kept for the process's life.
    private var fits: [FitKey: Int] = [:]

    /// Opens the primary font once at `probeSize` to fail early (a missing or broken font file).
    init(renderer: Renderer, faces: Typefaces, probeSize: Int) throws(SDLError) {
        self.renderer = renderer
        self.faces = faces
        _ = try font(faces.primary, size: probeSize)
    }

    /// A face at a pixel size (an em of `size` pixels: SDL_ttf's points are pixels at 72 dpi).
    private func font(_ face: FaceSource, size: Int) throws(SDLError) -> Font {
        let key = FontKey(face: face, size: max(size, 1))
        if let font = fonts[key] { return font }
        let font = try Font(face: face, pointSize: Int32(key.size))
        fonts[key] = font
        return font
    }

    /// The face for `text` and the text it can show: all of it but the characters no face has.
    private func font(for text: String, size: Int) throws(SDLError) -> (Font, String) {
        let (face, missing) = faces.face(for: text)
        return (try font(face, size: size), missing.isEmpty ? text : faces.shown(text, in: face))
    }

    /// Noto Color Emoji's one bitmap size, at which the colour face is opened (its emoji are scaled
    /// to the words' size; a colour face that scales is drawn at it too, and scaled alike).
    static let emojiSize = 109

    /// `text` laid out in runs at `size`, its words in `face` (`Typefaces.face(for:)`'s, which
    /// lacks the characters `missing`: left out).
    private func laidOut(_ text: String, face: (face: FaceSource, missing: [UInt32]), size: Int) throws(SDLError) -> MixedLine {
        let direction = TextDirection.of(text)
        let shaped = direction == .rightToLeft ? TextDirection.forShaper(text) : text
        let runs = faces.runs(of: shaped).map { run in
            (text: run.emoji || face.missing.isEmpty ? run.text : faces.kept(run.text, in: face.face), emoji: run.emoji)
        }
        let emoji = try runs.contains { $0.emoji } ? faces.emoji.map { emoji throws(SDLError) in try font(emoji, size: Self.emojiSize) } : nil
        return try MixedLine(runs, direction: direction, script: TextDirection.script(of: text), words: font(face.face, size: size), emoji: emoji)
    }

    /// One line of text `size` pixels high, smaller if needed to fit `maxWidth`.
    func line(_ text: String, size: Int, maxWidth: Int? = nil) throws(SDLError) -> TextTexture {
        let key = Key(text: text, size: size, limit: maxWidth.map { .shrinkTo($0) } ?? .none)
        if let texture = cached(key) { return texture }
        var pixels = size
        if let maxWidth {
            let width = try measure(text, size: size)
            // Text scales linearly with its size; one step down is enough (plus a pixel for hinting).
            if width > maxWidth { pixels = max(size * maxWidth / max(width, 1) - 1, 6) }
        }
        if faces.hasColourEmoji(text) {
            let line = try laidOut(text, face: faces.face(for: text), size: pixels)
            return try store(key, Self.render([line], width: line.width))
        }
        let (font, shown) = try font(for: text, size: pixels)
        return try store(key, glyphs: try font.render(shown))
    }

    /// The largest size up to `size` at which every one of `texts` fits `maxWidth` on one line:
    /// labels that belong together (the side buttons) get one size, not each its own.
    func fittingSize(_ texts: [String], size: Int, maxWidth: Int) throws(SDLError) -> Int {
        let key = FitKey(texts: texts, size: size, maxWidth: maxWidth)
        if let known = fits[key] { return known }
        var fitting = size
        for text in texts {
            let width = try measure(text, size: size)
            if width > maxWidth { fitting = min(fitting, max(size * maxWidth / max(width, 1) - 1, 6)) }
        }
        fits[key] = fitting
        return fitting
    }

    /// Text wrapped at `width` pixels, lines centred.
    func paragraph(_ text: String, size: Int, width: Int) throws(SDLError) -> TextTexture {
        let key = Key(text: text, size: size, limit: .wrapAt(width))
        if let texture = cached(key) { return texture }
        if faces.hasColourEmoji(text) { return try store(key, mixedParagraph(text, size: size, width: width)) }
        let (font, shown) = try font(for: text, size: size)
        return try store(key, glyphs: try font.render(shown, wrapWidth: width))
    }

    /// A paragraph with colour emoji, as SDL_ttf wraps one: broken at its line breaks and where
    /// `LineBreaks` finds (its wrapping cannot measure the runs), the lines centred in a surface
    /// `width` wide (wider for a piece that does not fit), its words in the paragraph's one face.
    private func mixedParagraph(_ text: String, size: Int, width: Int) throws(SDLError) -> (glyphs: Surface, colour: Surface) {
        let face = faces.face(for: text)
        var lines: [MixedLine] = []
        for part in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let broken = try LineBreaks.balanced(String(part), maxWidth: width) { piece throws(SDLError) in
                try laidOut(piece, face: face, size: size).width
            }
            for line in broken.isEmpty ? [""] : broken { lines.append(try laidOut(line, face: face, size: size)) }
        }
        return try Self.render(lines, width: width)
    }

    /// `lines` (one face's, at least one) drawn one under the other (a line skip apart), each
    /// centred in `width` (or the widest line): the words white in one surface, the emoji in another.
    private static func render(_ lines: [MixedLine], width: Int) throws(SDLError) -> (glyphs: Surface, colour: Surface) {
        let skip = lines[0].words.lineSkip
        let size = Size(width: max(width, lines.map(\.width).max() ?? 0), height: skip * (lines.count - 1) + lines[0].height)
        let glyphs = try Surface(transparent: size), colour = try Surface(transparent: size)
        for (i, line) in lines.enumerated() {
            try line.render(glyphs: glyphs, colour: colour, x: (size.width - line.width) / 2, y: i * skip)
        }
        return (glyphs, colour)
    }

    /// Call once a frame has been drawn: forgets what that frame did not use, when there is a lot.
    func endFrame() {
        if textures.count > TextCache.capacity {
            textures = textures.filter { used.contains($0.key) }
        }
        used.removeAll(keepingCapacity: true)
    }

    private func cached(_ key: Key) -> TextTexture? {
        guard let texture = textures[key] else { return nil }
        used.insert(key)
        return texture
    }

    private func store(_ key: Key, glyphs: Surface, colour: Surface? = nil) throws(SDLError) -> TextTexture {
        func upload(_ surface: Surface) throws(SDLError) -> Texture {
            let texture = try Texture(renderer: renderer, surface: surface)
            SDL_SetTextureBlendMode(texture.handle, SDL_BLENDMODE_BLEND)
            return texture
        }
        let texture = TextTexture(glyphs: try upload(glyphs), colour: try colour.map(upload))
        textures[key] = texture
        used.insert(key)
        return texture
    }

    private func store(_ key: Key, _ surfaces: (glyphs: Surface, colour: Surface)) throws(SDLError) -> TextTexture {
        try store(key, glyphs: surfaces.glyphs, colour: surfaces.colour)
    }

    /// The width of `text` on one line at `size`, in pixels, without rendering it (`TTF_SizeUTF8`).
    func width(of text: String, size: Int) throws(SDLError) -> Int { try measure(text, size: size) }

    private func measure(_ text: String, size: Int) throws(SDLError) -> Int {
        if faces.hasColourEmoji(text) { return try laidOut(text, face: faces.face(for: text), size: size).width }
        let (font, shown) = try font(for: text, size: size)
        return try font.width(of: shown)
    }
}
