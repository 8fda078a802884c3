// The operator's overlay over the live preview: each picture uploaded once as a static
// RGBA texture and drawn by SDL over the preview's picture, exactly where the take has it (scaled to
// cover the picture, centred), upright on the canvas and never mirrored. No pixel is blended on the
// CPU per frame: the renderer blends the texture (straight alpha, `SDL_BLENDMODE_BLEND`).
import CSDL2
import KioskCore

/// The overlay's textures: the landscape one and, when there is one, the portrait one.
final class PreviewOverlay {
    private let renderer: Renderer
    private var landscape: (picture: OverlayPicture, texture: Texture)?
    private var portrait: (picture: OverlayPicture, texture: Texture)?

    init(renderer: Renderer) { self.renderer = renderer }

    /// Uploads the pictures (`SDL_UpdateTexture`); one already up stays as it is. On a failure
    /// nothing is drawn until the next call that succeeds.
    func set(_ landscape: OverlayPicture?, portrait: OverlayPicture?) throws(SDLError) {
        do {
            self.landscape = try upload(landscape, replacing: self.landscape)
            self.portrait = try upload(portrait, replacing: self.portrait)
        } catch {
            self.landscape = nil
            self.portrait = nil
            throw error
        }
    }

    var isEmpty: Bool { landscape == nil && portrait == nil }

    private func upload(_ picture: OverlayPicture?, replacing old: (picture: OverlayPicture, texture: Texture)?)
        throws(SDLError) -> (picture: OverlayPicture, texture: Texture)? {
        guard let picture else { return nil }
        if let old, old.picture == picture { return old }
        // Linear filtering for the scaled overlay; SDL reads the hint when a texture is made.
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        let texture = try Texture(renderer: renderer, format: SDL_PIXELFORMAT_RGBA32.rawValue, access: SDL_TEXTUREACCESS_STATIC,
                                  size: picture.size)
        let bytes = Self.bled(picture)
        let result = bytes.withUnsafeBytes { SDL_UpdateTexture(texture.handle, nil, $0.baseAddress, Int32(picture.size.width * 4)) }
        guard result == 0 else { throw SDLError(call: "SDL_UpdateTexture(overlay \(picture.size))") }
        guard SDL_SetTextureBlendMode(texture.handle, SDL_BLENDMODE_BLEND) == 0 else {
            throw SDLError(call: "SDL_SetTextureBlendMode(overlay)")
        }
        return (picture, texture)
    }

    /// Draws the overlay for the interface over the preview's picture: `shown` is where the
    /// picture lies on the canvas, `upright` the take's picture size (the frame turned upright).
    /// The overlay's part that covers the take's picture is stretched over `shown` (the same
    /// shape, up to rounding) and turned with the canvas onto the display.
    func draw(over shown: Rect, upright: Size, transform: DisplayTransform) {
        let chosen = transform.usesPortraitOverlay(hasPortrait: portrait != nil) ? portrait : landscape
        guard let (picture, texture) = chosen, !shown.isEmpty else { return }
        let crop = picture.crop(covering: upright)
        guard !crop.isEmpty else { return }
        var source = SDL_Rect(x: Int32(crop.x), y: Int32(crop.y), w: Int32(crop.width), h: Int32(crop.height))
        // SDL turns the destination about its centre: the canvas shape, centred where the
        // picture's centre lands on the display.
        let centre = transform.toPhysical(shown.center)
        var destination = SDL_FRect(x: Float(centre.x - Double(shown.width) / 2), y: Float(centre.y - Double(shown.height) / 2),
                                    w: Float(shown.width), h: Float(shown.height))
        if transform.quarterTurns == 0 {
            SDL_RenderCopyF(renderer.handle, texture.handle, &source, &destination)
        } else {
            SDL_RenderCopyExF(renderer.handle, texture.handle, &source, &destination, transform.degrees, nil, SDL_FLIP_NONE)
        }
    }

    /// The picture's bytes with each fully transparent pixel next to a visible one given its
    /// visible neighbours' mean colour (its alpha stays 0): linear filtering mixes a texel's
    /// colour with its neighbours' before the blend weighs it by alpha, so a transparent pixel's
    /// colour (often black) would otherwise darken the edge of every shape.
    static func bled(_ picture: OverlayPicture) -> [UInt8] {
        let w = picture.size.width, h = picture.size.height
        var out = picture.rgba
        picture.rgba.withUnsafeBufferPointer { rgba in
            for y in 0..<h {
                for x in 0..<w where rgba[4 * (y * w + x) + 3] == 0 {
                    var r = 0, g = 0, b = 0, n = 0
                    func add(_ nx: Int, _ ny: Int) {
                        guard nx >= 0, nx < w, ny >= 0, ny < h else { return }
                        let o = 4 * (ny * w + nx)
                        guard rgba[o + 3] > 0 else { return }
                        r += Int(rgba[o])
                        g += Int(rgba[o + 1])
                        b += Int(rgba[o + 2])
                        n += 1
                    }
                    add(x - 1, y)
                    add(x + 1, y)
                    add(x, y - 1)
                    add(x, y + 1)
                    guard n > 0 else { continue }
                    let o = 4 * (y * w + x)
                    out[o] = UInt8(r / n)
                    out[o + 1] = UInt8(g / n)
                    out[o + 2] = UInt8(b / n)
                }
            }
        }
        return out
    }
}
