// Draws shapes and text given in canvas coordinates onto the display, turned by the
// DisplayTransform: shapes are mapped with `toPhysical` (a canvas rectangle is a display rectangle
// at any quarter turn, and the masks are symmetric or rasterised already turned), text textures
// are turned by the transform's angle about their mapped centre. Nothing is drawn into an
// intermediate canvas-sized texture, so nothing full-screen is blended or rotated per frame.
import CSDL2
import KioskCore

/// A colour with straight (not premultiplied) alpha, as SDL's vertex colours take it.
struct RGBA: Equatable, Hashable {
    var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Towards white by `amount` (0…1): pressed feedback on dark buttons.
    func lighter(_ amount: Double) -> RGBA {
        func up(_ c: UInt8) -> UInt8 { UInt8((Double(c) + (255 - Double(c)) * amount).rounded()) }
        return RGBA(up(r), up(g), up(b), a)
    }

    /// Towards black by `amount` (0…1): pressed feedback on light and coloured buttons.
    func darker(_ amount: Double) -> RGBA {
        func down(_ c: UInt8) -> UInt8 { UInt8((Double(c) * (1 - amount)).rounded()) }
        return RGBA(down(r), down(g), down(b), a)
    }
}

/// Draws on the display what is described on the canvas. Lives for one frame's drawing.
struct Painter {
    let renderer: Renderer
    let transform: DisplayTransform
    let shapes: ShapeCache

    /// A canvas rectangle from fractional edges, each rounded to a whole pixel.
    static func snapped(x: Double, y: Double, width: Double, height: Double) -> Rect {
        let x0 = Int(x.rounded()), y0 = Int(y.rounded())
        return Rect(x: x0, y: y0, width: Int((x + width).rounded()) - x0, height: Int((y + height).rounded()) - y0)
    }

    /// A square of `diameter` centred in `frame`, its size of the same parity as the frame's so it
    /// sits exactly in the middle (shapes drawn inside one another stay concentric).
    static func centred(diameter: Double, in frame: Rect) -> Rect {
        var d = Int(diameter.rounded())
        if (frame.width - d) % 2 != 0 { d -= 1 }
        return frame.centered(Size(width: d, height: d))
    }

    /// Translucent rectangles at least this large (display pixels) go through a veil texture on
    /// the software renderer (see `fillPhysical`).
    static let veilArea = 16 * 1024

    /// A solid rectangle (`SDL_RenderFillRect`).
    func fill(_ r: Rect, _ color: RGBA) {
        fillPhysical(transform.toPhysical(r), color)
    }

    /// A disc filling a canvas square.
    func fillCircle(_ square: Rect, _ color: RGBA) throws(SDLError) {
        let p = transform.toPhysical(square)
        try copy(.disc(diameter: p.width), to: p, color)
    }

    /// A ring whose outside fills a canvas square.
    func ring(_ square: Rect, thickness: Double, _ color: RGBA) throws(SDLError) {
        let p = transform.toPhysical(square)
        try copy(.ring(diameter: p.width, eighths: Int((thickness * 8).rounded())), to: p, color)
    }

    /// The part `fraction` (0…1) of a ring whose outside fills a canvas square, clockwise from the
    /// canvas's up (whatever way the canvas is turned onto the display).
    func arc(_ square: Rect, thickness: Double, fraction: Double, _ color: RGBA) throws(SDLError) {
        let sweep = Int((min(max(fraction, 0), 1) * 360).rounded())
        guard sweep > 0 else { return }
        let p = transform.toPhysical(square)
        let c = transform.toPhysical(square.center), top = transform.toPhysical(Point(x: square.center.x, y: Double(square.y)))
        let start = Int((atan2(top.x - c.x, -(top.y - c.y)) * 180 / .pi).rounded())
        try copy(.arc(diameter: p.width, eighths: Int((thickness * 8).rounded()), start: start, sweep: sweep), to: p, color)
    }

    /// A triangle (the play mark), its corners anywhere on the canvas.
    func fillTriangle(_ a: Point, _ b: Point, _ c: Point, _ color: RGBA) throws(SDLError) {
        let points: [Point] = [a, b, c].map { transform.toPhysical($0) }
        let xs = points.map(\.x), ys = points.map(\.y)
        let x0 = xs.min()!.rounded(.down), y0 = ys.min()!.rounded(.down)
        let x1 = xs.max()!.rounded(.up), y1 = ys.max()!.rounded(.up)
        var corners: [Int] = []
        for p in points { corners += [Int(((p.x - x0) * 8).rounded()), Int(((p.y - y0) * 8).rounded())] }
        let box = Rect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
        try copy(.polygon(width: box.width, height: box.height, corners: corners), to: box, color)
    }

    /// A rectangle with round corners (a capsule when the radius is half its short side): the
    /// four corners copied from a disc mask (one small texture per radius and colour serves every
    /// size, so a progress bar that grows every frame makes no new texture), the edges between them
    /// and the inside as fills. Fills rather than the mask's middle row stretched: SDL's software
    /// renderer blends a stretched texture in its generic per-pixel loop, and fills as memory.
    func fillRounded(_ r: Rect, radius: Double, _ color: RGBA) throws(SDLError) {
        let p = transform.toPhysical(r)
        guard !p.isEmpty else { return }
        let k = max(min(Int(radius), (min(p.width, p.height) - 1) / 2), 0)
        guard k > 0 else { return fillPhysical(p, color) }
        let texture = try shapes.texture(.disc(diameter: 2 * k + 1), color)
        SDL_SetTextureAlphaMod(texture.handle, color.a)
        let w = p.width, h = p.height
        // (source x, y, w, h) → (destination x, y, w, h), in disc-mask and display pixels.
        let corners: [(Rect, Rect)] = [
            (Rect(x: 0, y: 0, width: k, height: k), Rect(x: p.x, y: p.y, width: k, height: k)),
            (Rect(x: k + 1, y: 0, width: k, height: k), Rect(x: p.maxX - k, y: p.y, width: k, height: k)),
            (Rect(x: 0, y: k + 1, width: k, height: k), Rect(x: p.x, y: p.maxY - k, width: k, height: k)),
            (Rect(x: k + 1, y: k + 1, width: k, height: k), Rect(x: p.maxX - k, y: p.maxY - k, width: k, height: k)),
        ]
        for (source, destination) in corners {
            var s = SDL_Rect(source), d = SDL_Rect(destination)
            SDL_RenderCopy(renderer.handle, texture.handle, &s, &d)
        }
        // The rest in three disjoint fills (the band between the corners, top to bottom, and the
        // two sides between them): the disc's middle row and column are wholly covered (each
        // pixel's centre lies half a pixel or more inside the circle), so the edges are plain fill.
        fillPhysical(Rect(x: p.x + k, y: p.y, width: w - 2 * k, height: h), color)
        fillPhysical(Rect(x: p.x, y: p.y + k, width: k, height: h - 2 * k), color)
        fillPhysical(Rect(x: p.maxX - k, y: p.y + k, width: k, height: h - 2 * k), color)
    }

    /// Text centred on a canvas point, turned with the canvas, its words in `color` and its emoji
    /// in their own colours (at `color`'s alpha). The top-left corner is put on a whole canvas pixel
    /// so the glyphs land on whole display pixels (crisp at any turn).
    func text(_ texture: TextTexture, centeredAt c: Point, _ color: RGBA) {
        let w = Double(texture.size.width), h = Double(texture.size.height)
        let left = (c.x - w / 2).rounded(), top = (c.y - h / 2).rounded()
        let centre = transform.toPhysical(Point(x: left + w / 2, y: top + h / 2))
        var destination = SDL_FRect(x: Float(centre.x - w / 2), y: Float(centre.y - h / 2), w: Float(w), h: Float(h))
        func draw(_ layer: Texture, _ color: RGBA) {
            tint(layer, color)
            if transform.quarterTurns == 0 {
                SDL_RenderCopyF(renderer.handle, layer.handle, nil, &destination)
            } else {
                SDL_RenderCopyExF(renderer.handle, layer.handle, nil, &destination, transform.degrees, nil, SDL_FLIP_NONE)
            }
        }
        draw(texture.glyphs, color)
        if let colour = texture.colour { draw(colour, RGBA(255, 255, 255, color.a)) }
    }

    /// A picture scaled into a canvas rectangle, turned with the canvas (the library's thumbnails).
    func picture(_ texture: Texture, in r: Rect) {
        let centre = transform.toPhysical(r.center)
        let w = Double(r.width), h = Double(r.height)
        var destination = SDL_FRect(x: Float(centre.x - w / 2), y: Float(centre.y - h / 2), w: Float(w), h: Float(h))
        if transform.quarterTurns == 0 {
            SDL_RenderCopyF(renderer.handle, texture.handle, nil, &destination)
        } else {
            SDL_RenderCopyExF(renderer.handle, texture.handle, nil, &destination, transform.degrees, nil, SDL_FLIP_NONE)
        }
    }

    /// A picture filling a canvas rectangle, turned with the canvas, its middle cropped to the
    /// rectangle's shape (aspect-fill): the trimmer's pictures of the take.
    func picture(_ texture: Texture, filling r: Rect) {
        guard !r.isEmpty, texture.size.width > 0, texture.size.height > 0 else { return }
        let scale = max(Double(r.width) / Double(texture.size.width), Double(r.height) / Double(texture.size.height))
        let cw = min(Double(r.width) / scale, Double(texture.size.width)), ch = min(Double(r.height) / scale, Double(texture.size.height))
        var source = SDL_Rect(x: Int32((Double(texture.size.width) - cw) / 2), y: Int32((Double(texture.size.height) - ch) / 2),
                              w: Int32(cw.rounded()), h: Int32(ch.rounded()))
        let centre = transform.toPhysical(r.center)
        var destination = SDL_FRect(x: Float(centre.x - Double(r.width) / 2), y: Float(centre.y - Double(r.height) / 2),
                                    w: Float(r.width), h: Float(r.height))
        SDL_RenderCopyExF(renderer.handle, texture.handle, &source, &destination, transform.degrees, nil, SDL_FLIP_NONE)
    }

    /// A picture copied 1:1 onto a canvas square of its size (`SDL_RenderCopy`), not turned with
    /// the canvas: a QR code reads the same at any quarter turn, and an unturned copy is never
    /// resampled.
    func image(_ texture: Texture, at square: Rect) {
        var d = SDL_Rect(transform.toPhysical(square))
        SDL_RenderCopy(renderer.handle, texture.handle, nil, &d)
    }

    // MARK: - Plumbing

    private func fillPhysical(_ p: Rect, _ color: RGBA) {
        guard !p.isEmpty else { return }
        var r = SDL_Rect(p)
        if color.a < 255, renderer.isSoftware, p.width * p.height >= Painter.veilArea,
           let veil = try? shapes.veil(color, covering: p.size) {
            // SDL's software renderer blends a filled rectangle one pixel at a time
            // (SDL_BlendFillRect); a copy from an opaque texture of the colour at the colour's
            // alpha takes its SIMD surface-alpha blit instead, about 3x faster for the panels.
            var source = SDL_Rect(x: 0, y: 0, w: r.w, h: r.h)
            SDL_RenderCopy(renderer.handle, veil.handle, &source, &r)
            return
        }
        SDL_SetRenderDrawColor(renderer.handle, color.r, color.g, color.b, color.a)
        SDL_RenderFillRect(renderer.handle, &r)
    }

    /// A shape drawn 1:1 at a display rectangle of its own size, in `color`.
    private func copy(_ mask: Mask, to p: Rect, _ color: RGBA) throws(SDLError) {
        guard !p.isEmpty else { return }
        let texture = try shapes.texture(mask, color)
        SDL_SetTextureAlphaMod(texture.handle, color.a)
        var d = SDL_Rect(p)
        SDL_RenderCopy(renderer.handle, texture.handle, nil, &d)
    }

    private func tint(_ texture: Texture, _ color: RGBA) {
        SDL_SetTextureColorMod(texture.handle, color.r, color.g, color.b)
        SDL_SetTextureAlphaMod(texture.handle, color.a)
    }
}

extension SDL_Rect {
    init(_ r: Rect) { self.init(x: Int32(r.x), y: Int32(r.y), w: Int32(r.width), h: Int32(r.height)) }
}
