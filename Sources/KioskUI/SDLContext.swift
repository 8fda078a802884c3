// Owns SDL's global initialisation (video, events, audio as asked) and SDL_ttf's.
import CSDL2
import CSDL2TTF
import Glibc

/// SDL initialised for the lifetime of the object (`SDL_InitSubSystem` / `SDL_QuitSubSystem`).
/// SDL is not thread-safe: create and use it on the UI thread only.
public final class SDLContext {
    public let subsystems: UInt32

    /// Initialises the video and events subsystems, plus audio when asked, and SDL_ttf.
    public init(audio: Bool = false) throws(SDLError) {
        // SIGINT and SIGTERM are the booth's (its signal watcher's, with sigwait), never SDL's
        // handler, which would turn them into an SDL_QUIT the booth takes for a closed window.
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        // Wayland needs XDG_RUNTIME_DIR: without it (a system service, `check` as root) libwayland
        // writes "error: XDG_RUNTIME_DIR is invalid or not set" raw to stderr as SDL tries it, and
        // fails. SDL's other drivers are then tried in its own order; SDL_VIDEODRIVER still wins.
        var runtime = stat()
        if getenv("SDL_VIDEODRIVER") == nil, getenv("XDG_RUNTIME_DIR").map({ stat($0, &runtime) != 0 || runtime.st_mode & S_IFMT != S_IFDIR }) ?? true {
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11,KMSDRM,offscreen")
        }
        var flags = UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS)
        if audio { flags |= UInt32(SDL_INIT_AUDIO) }
        guard SDL_InitSubSystem(flags) == 0 else { throw SDLError(call: "SDL_InitSubSystem") }
        guard TTF_Init() == 0 else {
            SDL_QuitSubSystem(flags)
            throw SDLError(call: "TTF_Init")
        }
        subsystems = flags
    }

    deinit {
        TTF_Quit()
        SDL_QuitSubSystem(subsystems)
    }

    /// The video driver SDL chose (`SDL_GetCurrentVideoDriver`), e.g. "x11", "KMSDRM", "dummy".
    public var videoDriver: String {
        SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
    }

    /// The linked SDL version (`SDL_GetVersion`), e.g. "2.26.5".
    public static var version: String {
        var v = SDL_version()
        SDL_GetVersion(&v)
        return "\(v.major).\(v.minor).\(v.patch)"
    }
}
