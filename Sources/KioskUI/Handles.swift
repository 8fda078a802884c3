// One owner per SDL handle: the window, its renderer and the textures made by that renderer.
// Each keeps what it depends on alive (a texture its renderer, a renderer its window, a window
// SDL itself), so no handle can outlive the one it belongs to, whatever order Swift frees them in.
import CSDL2
import KioskCore
import KioskSystem

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
        var accelerated = SDL_CreateRenderer(window.handle, -1, UInt32(SDL_RENDERER_ACCELERATED.rawValue) | vsync)
        if accelerated == nil {
            Log.info("display: no accelerated renderer (\(String(cString: SDL_GetError()))); using SDL's software renderer")
        }
        // An "accelerated" OpenGL renderer whose GL is Mesa's CPU rasteriser (llvmpipe: a machine
        // or a VM without a GPU driver, Xvfb) costs four times SDL's own software renderer:
        // bench/preview-cost measured 58 % of a core against 13.5 % at 720p30. Unless someone chose
        // the renderer (SDL_RENDER_DRIVER), the software one is taken instead.
        if let gl = accelerated, SDL_GetHint(SDL_HINT_RENDER_DRIVER) == nil, let software = Renderer.softwareGL(gl) {
            Log.info("display: OpenGL here is \(software), a CPU rasteriser; using SDL's software renderer, which costs less (SDL_RENDER_DRIVER=opengl keeps OpenGL)")
            // (Mesa stays loaded: unloading SDL's GL library does not unmap it, 44 MiB of LLVM in RSS;
            // SDL_RENDER_DRIVER=software avoids loading it at all.)
            SDL_DestroyRenderer(gl)
            accelerated = nil
        }
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

    /// The GL renderer's name (`glGetString(GL_RENDERER)`) when `renderer` draws with OpenGL on a
    /// CPU rasteriser (llvmpipe, softpipe, swrast); nil for a GPU, or a renderer that is no OpenGL.
    private static func softwareGL(_ renderer: OpaquePointer) -> String? {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0, let name = info.name, String(cString: name).hasPrefix("opengl"),
              let address = SDL_GL_GetProcAddress("glGetString") else { return nil }
        typealias GetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
        let glGetString = unsafeBitCast(address, to: GetString.self)
        // GL_RENDERER; the renderer's context is current on this thread right after its creation.
        guard let text = glGetString(0x1F01) else { return nil }
        let rendererName = String(cString: text)
        let lower = rendererName.lowercased()
        return ["llvmpipe", "softpipe", "swrast", "software rasterizer"].contains(where: lower.contains) ? rendererName : nil
    }

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
