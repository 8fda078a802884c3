// Owns one TTF_Font from SDL2_ttf and renders text to ARGB surfaces for the overlay.
import CSDL2
import CSDL2TTF

/// A font at one pixel size (`TTF_OpenFont`), closed with `TTF_CloseFont`.
/// Needs an `SDLContext` alive (TTF_Init); use on the UI thread only.
public final class Font {
    let handle: OpaquePointer
    public let pointSize: Int32

    public init(path: String, pointSize: Int32) throws(SDLError) {
        guard let font = TTF_OpenFont(path, pointSize) else { throw SDLError(call: "TTF_OpenFont(\(path))") }
        handle = font
        self.pointSize = pointSize
    }

    deinit { TTF_CloseFont(handle) }

    /// Renders anti-aliased text (`TTF_RenderUTF8_Blended`) into a new ARGB8888 surface.
    public func render(_ text: String, red: UInt8 = 255, green: UInt8 = 255, blue: UInt8 = 255) throws(SDLError) -> Surface {
        let color = SDL_Color(r: red, g: green, b: blue, a: 255)
        guard let surface = TTF_RenderUTF8_Blended(handle, text, color) else {
            throw SDLError(call: "TTF_RenderUTF8_Blended")
        }
        return Surface(owning: surface)
    }

    /// Renders text wrapped at `width` pixels, lines centred (`TTF_RenderUTF8_Blended_Wrapped`).
    public func render(_ text: String, wrapWidth width: Int) throws(SDLError) -> Surface {
        TTF_SetFontWrappedAlign(handle, TTF_WRAPPED_ALIGN_CENTER)
        let white = SDL_Color(r: 255, g: 255, b: 255, a: 255)
        guard let surface = TTF_RenderUTF8_Blended_Wrapped(handle, text, white, UInt32(max(width, 1))) else {
            throw SDLError(call: "TTF_RenderUTF8_Blended_Wrapped")
        }
        return Surface(owning: surface)
    }
}

/// Owns an `SDL_Surface`, freed with `SDL_FreeSurface`.
public final class Surface {
    let pointer: UnsafeMutablePointer<SDL_Surface>

    init(owning pointer: UnsafeMutablePointer<SDL_Surface>) { self.pointer = pointer }
    deinit { SDL_FreeSurface(pointer) }

    public var width: Int { Int(pointer.pointee.w) }
    public var height: Int { Int(pointer.pointee.h) }

    /// The alpha (0…255) of the pixel at (x, y), read through the surface's own pixel format.
    public func alpha(x: Int, y: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the surface")
        let locked = kiosk_SDL_MUSTLOCK(pointer) != 0
        if locked { SDL_LockSurface(pointer) }
        defer { if locked { SDL_UnlockSurface(pointer) } }
        let surface = pointer.pointee
        let bytesPerPixel = Int(surface.format.pointee.BytesPerPixel)
        let row = surface.pixels.advanced(by: y * Int(surface.pitch) + x * bytesPerPixel)
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(start: row, count: bytesPerPixel)) }
        var r: UInt8 = 0, g: UInt8 = 0, b: UInt8 = 0, a: UInt8 = 0
        SDL_GetRGBA(value, surface.format, &r, &g, &b, &a)
        return a
    }
}
