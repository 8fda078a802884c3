// Rendered text kept as textures, so a label is rasterised once, not every frame: button titles
// once per size, the timer once a second.
import CSDL2
import CSDL2TTF
import KioskCore

/// White text textures by string, pixel size and width limit; drawn tinted by colour modulation,
/// so one texture serves every colour. Entries not used in the last frame are dropped once the
/// cache holds more than `capacity` (the timer makes a new string every second).
final class TextCache {
    private struct Key: Hashable {
        let text: String
        let size: Int
        let limit: Limit
    }

    /// What a width limit does: shrink the text until it fits on one line, or wrap it.
    private enum Limit: Hashable {
        case none
        case shrinkTo(Int)
        case wrapAt(Int)
    }

    static let capacity = 48

    private let renderer: Renderer
    private let fontPath: String
    private var fonts: [Int: Font] = [:]
    private var textures: [Key: Texture] = [:]
    private var used: Set<Key> = []
    private struct FitKey: Hashable {
        let texts: [String]
        let size: Int
        let maxWidth: Int
    }
    /// Sizes found by `fittingSize`: a handful per layout, kept for the process's life.
    private var fits: [FitKey: Int] = [:]

    /// Opens the font once at `probeSize` to fail early (a missing or broken font file).
    init(renderer: Renderer, fontPath: String, probeSize: Int) throws(SDLError) {
        self.renderer = renderer
        self.fontPath = fontPath
        _ = try font(size: probeSize)
    }

    /// The font at a pixel size (an em of `size` pixels: SDL_ttf's points are pixels at 72 dpi).
    private func font(size: Int) throws(SDLError) -> Font {
        if let font = fonts[size] { return font }
        let font = try Font(path: fontPath, pointSize: Int32(max(size, 1)))
        fonts[size] = font
        return font
    }

    /// One line of text `size` pixels high, smaller if needed to fit `maxWidth`.
    func line(_ text: String, size: Int, maxWidth: Int? = nil) throws(SDLError) -> Texture {
        let key = Key(text: text, size: size, limit: maxWidth.map { .shrinkTo($0) } ?? .none)
        if let texture = cached(key) { return texture }
        var pixels = size
        if let maxWidth {
            let width = try measure(text, size: size)
            // Text scales linearly with its size; one step down is enough (plus a pixel for hinting).
            if width > maxWidth { pixels = max(size * maxWidth / max(width, 1) - 1, 6) }
        }
        return try store(key, surface: try font(size: pixels).render(text))
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
    func paragraph(_ text: String, size: Int, width: Int) throws(SDLError) -> Texture {
        let key = Key(text: text, size: size, limit: .wrapAt(width))
        if let texture = cached(key) { return texture }
        return try store(key, surface: try font(size: size).render(text, wrapWidth: width))
    }

    /// Call once a frame has been drawn: forgets what that frame did not use, when there is a lot.
    func endFrame() {
        if textures.count > TextCache.capacity {
            textures = textures.filter { used.contains($0.key) }
        }
        used.removeAll(keepingCapacity: true)
    }

    private func cached(_ key: Key) -> Texture? {
        guard let texture = textures[key] else { return nil }
        used.insert(key)
        return texture
    }

    private func store(_ key: Key, surface: Surface) throws(SDLError) -> Texture {
        let texture = try Texture(renderer: renderer, surface: surface)
        SDL_SetTextureBlendMode(texture.handle, SDL_BLENDMODE_BLEND)
        textures[key] = texture
        used.insert(key)
        return texture
    }

    /// The width of a line without rendering it (`TTF_SizeUTF8`).
    private func measure(_ text: String, size: Int) throws(SDLError) -> Int {
        var w: Int32 = 0, h: Int32 = 0
        guard TTF_SizeUTF8(try font(size: size).handle, text, &w, &h) == 0 else { throw SDLError(call: "TTF_SizeUTF8") }
        return Int(w)
    }
}
