// Smooth shapes as alpha masks: each disc, ring or triangle is rasterised once, with exact
// anti-aliasing from its signed distance, into a white texture that is drawn tinted. Why not
// triangle fans through SDL_RenderGeometry: SDL's software renderer (what a kiosk without a GPU
// gets, and what the tests use) truncates every vertex to a whole pixel (SW_QueueGeometry), so
// sub-pixel edge feathering is lost there and circles come out faceted. Masks look the same on
// every renderer and cost one copy per shape per frame.
import CSDL2
import FoundationEssentials
import KioskCore

/// A shape's alpha mask, in display pixels. Hashable: the cache key.
enum Mask: Hashable {
    /// A disc filling a `diameter` square.
    case disc(diameter: Int)
    /// A ring whose outside fills a `diameter` square, `thickness` pixels wide (in 1/8 pixels).
    case ring(diameter: Int, eighths: Int)
    /// A convex polygon in a `width` x `height` box, corners in 1/8 pixels from the box's top-left.
    case polygon(width: Int, height: Int, corners: [Int])
    /// Part of a ring: `sweep` degrees clockwise from `start` degrees (0: up, 90: right).
    case arc(diameter: Int, eighths: Int, start: Int, sweep: Int)

    var size: Size {
        switch self {
        case let .disc(d), let .ring(d, _), let .arc(d, _, _, _): Size(width: d, height: d)
        case let .polygon(w, h, _): Size(width: w, height: h)
        }
    }

    /// Signed distance from a point (box coordinates) to the shape's edge: negative inside.
    func distance(x: Double, y: Double) -> Double {
        switch self {
        case let .disc(d):
            let r = Double(d) / 2
            return ((x - r) * (x - r) + (y - r) * (y - r)).squareRoot() - r
        case let .ring(d, eighths):
            let r = Double(d) / 2, t = Double(eighths) / 8
            return abs(((x - r) * (x - r) + (y - r) * (y - r)).squareRoot() - (r - t / 2)) - t / 2
        case let .arc(d, eighths, start, sweep):
            let ring = Mask.ring(diameter: d, eighths: eighths).distance(x: x, y: y)
            let r = Double(d) / 2
            // Clockwise from up, in degrees, measured from where the arc starts.
            var angle = atan2(x - r, -(y - r)) * 180 / .pi - Double(start)
            angle = angle.truncatingRemainder(dividingBy: 360)
            if angle < 0 { angle += 360 }
            return angle <= Double(sweep) ? ring : max(ring, 1)
        case let .polygon(_, _, corners):
            let points: [(Double, Double)] = stride(from: 0, to: corners.count - 1, by: 2).map { (i: Int) -> (Double, Double) in
                (Double(corners[i]) / 8, Double(corners[i + 1]) / 8)
            }
            let n = points.count
            guard n >= 3 else { return 1 }
            // The signed area tells the winding; each edge's outward normal follows from it.
            let area = (0..<n).reduce(0.0) { a, i in
                let (x0, y0) = points[i], (x1, y1) = points[(i + 1) % n]
                return a + x0 * y1 - x1 * y0
            }
            let sign = area > 0 ? 1.0 : -1.0
            var distance = -Double.infinity
            for i in 0..<n {
                let (x0, y0) = points[i], (x1, y1) = points[(i + 1) % n]
                let length = max(((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot(), 1e-9)
                // The edge's inward normal; the distance outside is along its opposite.
                let nx = sign * -(y1 - y0) / length, ny = sign * (x1 - x0) / length
                distance = max(distance, -((x - x0) * nx + (y - y0) * ny))
            }
            return distance
        }
    }

    /// Coverage of each pixel (0…255), sampled at pixel centres: a one-pixel linear ramp across the
    /// edge, the usual signed-distance anti-aliasing.
    func alpha() -> [UInt8] {
        let s = size
        var out = [UInt8](repeating: 0, count: s.width * s.height)
        for y in 0..<s.height {
            for x in 0..<s.width {
                let coverage = min(max(0.5 - distance(x: Double(x) + 0.5, y: Double(y) + 0.5), 0), 1)
                out[y * s.width + x] = UInt8((coverage * 255).rounded())
            }
        }
        return out
    }
}

/// Shape textures by shape and colour, with the text cache's policy: what the last frame did not
/// use is dropped once there are more than `capacity` (the layout changes size, the message goes).
/// The colour is in the texture's pixels, not a colour modulation: SDL's software renderer blends
/// a modulated texture in its generic per-pixel C loop, and a plain per-pixel-alpha one in its
/// SIMD blitter (a 720p ready screen's buttons: about 0.5 % of a core less at 30 fps).
final class ShapeCache {
    static let capacity = 32
    private struct Key: Hashable {
        let mask: Mask
        let rgb: UInt32
    }
    private let renderer: Renderer
    private var textures: [Key: Texture] = [:]
    private var used: Set<Key> = []
    private var veils: [RGBA: Texture] = [:]
    private var usedVeils: Set<RGBA> = []

    init(renderer: Renderer) { self.renderer = renderer }

    /// The shape in `color` (its alpha is the caller's: a texture alpha modulation).
    func texture(_ mask: Mask, _ color: RGBA) throws(SDLError) -> Texture {
        let key = Key(mask: mask, rgb: UInt32(color.r) << 16 | UInt32(color.g) << 8 | UInt32(color.b))
        used.insert(key)
        if let texture = textures[key] { return texture }
        let size = mask.size
        guard let raw = SDL_CreateRGBSurfaceWithFormat(0, Int32(size.width), Int32(size.height), 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
        else { throw SDLError(call: "SDL_CreateRGBSurfaceWithFormat(\(size))") }
        let surface = Surface(owning: raw)
        // The colour everywhere, the shape in the alpha channel. A new plain surface needs no locking.
        let alpha = mask.alpha()
        let pitch = Int(raw.pointee.pitch)
        for y in 0..<size.height {
            let row = (raw.pointee.pixels + y * pitch).assumingMemoryBound(to: UInt32.self)
            for x in 0..<size.width { row[x] = UInt32(alpha[y * size.width + x]) << 24 | key.rgb }
        }
        let texture = try Texture(renderer: renderer, surface: surface)
        SDL_SetTextureBlendMode(texture.handle, SDL_BLENDMODE_BLEND)
        // Copied pixel for pixel, or stretched from a one-pixel line (see Painter.fillRounded):
        // never blended with a neighbour.
        SDL_SetTextureScaleMode(texture.handle, SDL_ScaleModeNearest)
        textures[key] = texture
        return texture
    }

    /// An opaque texture of `color` (its alpha ignored) at least `size`, blended at the colour's
    /// alpha: a translucent rectangle is a copy of its top-left corner. One per colour, made again
    /// larger when a larger rectangle asks.
    func veil(_ color: RGBA, covering size: Size) throws(SDLError) -> Texture {
        usedVeils.insert(color)
        if let texture = veils[color], texture.size.width >= size.width, texture.size.height >= size.height { return texture }
        let old = veils[color]?.size ?? Size(width: 0, height: 0)
        let grown = Size(width: max(size.width, old.width), height: max(size.height, old.height))
        let texture = try Texture(renderer: renderer, format: SDL_PIXELFORMAT_RGB888.rawValue, access: SDL_TEXTUREACCESS_STATIC, size: grown)
        let pixel = UInt32(color.r) << 16 | UInt32(color.g) << 8 | UInt32(color.b)
        let pixels = [UInt32](repeating: pixel, count: grown.width * grown.height)
        guard SDL_UpdateTexture(texture.handle, nil, pixels, Int32(grown.width * 4)) == 0 else {
            throw SDLError(call: "SDL_UpdateTexture(veil \(grown))")
        }
        SDL_SetTextureBlendMode(texture.handle, SDL_BLENDMODE_BLEND)
        SDL_SetTextureAlphaMod(texture.handle, color.a)
        veils[color] = texture
        return texture
    }

    func endFrame() {
        if textures.count > ShapeCache.capacity { textures = textures.filter { used.contains($0.key) } }
        used.removeAll(keepingCapacity: true)
        // Veils can be display-sized: only those of the colours in use stay past a few.
        if veils.count > 4 { veils = veils.filter { usedVeils.contains($0.key) } }
        usedVeils.removeAll(keepingCapacity: true)
    }
}
