// One owner per SDL handle: the window, its renderer and the textures made by that renderer.
// Each keeps what it depends on alive (a texture its renderer, a renderer its window, a window
// SDL itself), so no handle can outlive the one it belongs to, whatever order Swift frees them in.
import CSDL2
import KioskCore

/// An `SDL_Window`, destroyed with `SDL_DestroyWindow`.
final class Window {
    let handle: OpaquePointer
    /// Keeps SDL's video subsystem up while the window exists.
    let context: SDLContext

    /// `SDL_CreateWindow`, centred.
    init(context: SDLContext, title: String, size: Size, flags: UInt32) throws(SDLError) {
        guard let window = SDL_CreateWindow(
            title, kiosk_SDL_WINDOWPOS_CENTERED(), kiosk_SDL_WINDOWPOS_CENTERED(),
            Int32(size.width), Int32(size.height), flags)
        else { throw SDLError(call: "SDL_CreateWindow") }
        handle = window
        self.context = context
    }

    deinit { SDL_DestroyWindow(handle) }

    /// `SDL_GetWindowID`: what window events carry to say which window they are about.
    var id: UInt32 { SDL_GetWindowID(handle) }

    /// The window's size in screen coordinates (`SDL_GetWindowSize`): the unit of mouse events.
    var size: Size {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(handle, &w, &h)
        return Size(width: Int(w), height: Int(h))
    }
}

/// An `SDL_Renderer` for one window, destroyed with `SDL_DestroyRenderer`.
final class Renderer {
    let handle: OpaquePointer
    let window: Window
    /// The name SDL gives the backend ("opengl", "opengles2", "software", …), for the log.
    let name: String
    /// The `SDL_PIXELFORMAT_*` its textures take natively (`SDL_RendererInfo.texture_formats`).
    let textureFormats: [UInt32]
    /// SDL's software renderer: everything drawn is drawn by the CPU.
    let isSoftware: Bool

    /// An accelerated renderer with vsync where there is one, else SDL's software renderer
    /// (also vsync'd: SDL paces its presents to the display's refresh).
    init(window: Window) throws(SDLError) {
        let vsync = UInt32(SDL_RENDERER_PRESENTVSYNC.rawValue)
        let accelerated = SDL_CreateRenderer(window.handle, -1, UInt32(SDL_RENDERER_ACCELERATED.rawValue) | vsync)
        guard let renderer = accelerated
            ?? SDL_CreateRenderer(window.handle, -1, UInt32(SDL_RENDERER_SOFTWARE.rawValue) | vsync)
        else { throw SDLError(call: "SDL_CreateRenderer") }
        handle = renderer
        self.window = window
        var info = SDL_RendererInfo()
        let known = SDL_GetRendererInfo(renderer, &info) == 0
        name = known && info.name != nil ? String(cString: info.name) : "unknown"
        isSoftware = known && info.flags & UInt32(SDL_RENDERER_SOFTWARE.rawValue) != 0
        textureFormats = known ? withUnsafeBytes(of: info.texture_formats) { Array($0.bindMemory(to: UInt32.self).prefix(Int(info.num_texture_formats))) } : []
        // Everything the overlay draws is translucent somewhere (panels, anti-aliased edges).
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    deinit { SDL_DestroyRenderer(handle) }

    /// The drawable size in pixels (`SDL_GetRendererOutputSize`); larger than the window's size in
    /// screen coordinates on a high-DPI display.
    func outputSize() throws(SDLError) -> Size {
        var w: Int32 = 0, h: Int32 = 0
        guard SDL_GetRendererOutputSize(handle, &w, &h) == 0 else { throw SDLError(call: "SDL_GetRendererOutputSize") }
        return Size(width: Int(w), height: Int(h))
    }
}

/// An `SDL_Texture`, destroyed with `SDL_DestroyTexture` (before its renderer, which it keeps).
final class Texture {
    let handle: OpaquePointer
    let renderer: Renderer
    let size: Size

    /// `SDL_CreateTexture`.
    init(renderer: Renderer, format: UInt32, access: SDL_TextureAccess, size: Size) throws(SDLError) {
        guard let texture = SDL_CreateTexture(renderer.handle, format, Int32(access.rawValue),
                                              Int32(size.width), Int32(size.height))
        else { throw SDLError(call: "SDL_CreateTexture(\(size))") }
        handle = texture
        self.renderer = renderer
        self.size = size
    }

    /// `SDL_CreateTextureFromSurface` (for rendered text).
    init(renderer: Renderer, surface: Surface) throws(SDLError) {
        guard let texture = SDL_CreateTextureFromSurface(renderer.handle, surface.pointer) else {
            throw SDLError(call: "SDL_CreateTextureFromSurface")
        }
        handle = texture
        self.renderer = renderer
        self.size = Size(width: surface.width, height: surface.height)
    }

    deinit { SDL_DestroyTexture(handle) }
}
