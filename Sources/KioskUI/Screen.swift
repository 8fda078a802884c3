// The kiosk's screen: the window and renderer, the preview and the player's picture, the overlay
// turned for the interface orientation. Its input (ScreenInput.swift), its hints for a display that
// will not open (ScreenHints.swift) and its pixels read back (ScreenPixels.swift) are beside it.
// UI thread only.
import CSDL2
import FoundationEssentials
import KioskContract
import KioskCore
import KioskPairing
import KioskScreenText
import KioskSystem

/// The whole screen. Not Sendable: SDL is single-threaded, so the screen lives and dies on the
/// thread that made it (the UI thread). Worker threads hand it frames through the executable.
public final class Screen {
    /// The window size `--windowed` gets without a size (shrunk to fit a smaller desktop).
    public static let defaultWindowSize = WindowMode.defaultSize

    /// The SDL render backend in use ("opengl", "opengles2", "software", …), for the log.
    public let rendererName: String
    /// Show the preview mirrored, like a looking glass (the recording stays unmirrored).
    public var mirrorPreview: Bool
    /// `--high-contrast`: opaque panels, light buttons with black titles.
    public var highContrast = false
    /// `--large-text`: text 1.35 times as large, and buttons wide enough for it.
    public var largeText = false {
        didSet { layout = fittedLayout(for: transform.logical) }
    }
    private var textScale: Double { largeText ? 1.35 : 1 }
    /// The round buttons beside the record button the layout makes room for: the shutter right of it
    /// (`--photo-button`), the Boomerang button left of it (`--boomerang-button`).
    public var extras = ExtraButtons() {
        didSet { layout = fittedLayout(for: transform.logical) }
    }
    /// The camera's mount rotation in clockwise quarter turns (see `DisplayTransform.cameraQuarterTurns`).
    public var cameraMount: Int
    /// How the live preview covers the screen (`--preview-fit`): its edges cropped, or the whole
    /// picture with bars beside it.
    public var previewFit: PictureFit = .fill
    public private(set) var transform: DisplayTransform
    public private(set) var layout: Layout

    let rendererHandle: Renderer
    /// Ends `waitEvents` early from any thread.
    public let waker: ScreenWaker
    private let preview: Preview
    /// The operator's overlay over the live preview (`setOverlay`).
    private let overlay: PreviewOverlay
    /// The player's picture, kept apart so the camera's last frame is still there after playback.
    private var player: PlayerSurface
    /// How the player's picture covers the screen: aspect-fit (the review's) or aspect-fill
    /// (`--play --fit fill`).
    public var playbackFit: PictureFit {
        get { player.fit }
        set { player.fit = newValue }
    }
    /// The texts' fonts (DejaVu Sans Bold, `text.faces.primary`, for every text it can show).
    let text: TextCache
    /// The words on screen; `setWords` changes them.
    public private(set) var words = ScreenWords()
    /// The shapes, QR codes and trimmer pictures the overlay draws, each uploaded once.
    private var caches: DrawingCaches
    /// Fingers and the mouse held down (ScreenInput.swift), and what each is on.
    var pointers = PointerTracker()
    /// The library's grid (Overlay+Library.swift): its thumbnails, scroll and drag.
    var library: LibraryView
    /// The window's state: hidden, presented, the model last drawn.
    var window = WindowState()

    /// Opens the window (`SDL_CreateWindow`: fullscreen at the desktop's mode, or a window) and
    /// its renderer. `orientation` nil: the display's natural one.
    public init(context: SDLContext, window mode: WindowMode, orientation: Orientation?, fontPath: String,
                mirrorPreview: Bool = false, cameraMount: Int = 0, title: String = "Kiosk Recorder") throws(SDLError) {
        // A kiosk that minimised itself whenever something else took focus would also stop the
        // recording (minimised = background): keep it up.
        SDL_SetHint(SDL_HINT_VIDEO_MINIMIZE_ON_FOCUS_LOSS, "0")
        // On X11 the software renderer's window surface would otherwise be shown through an OpenGL
        // texture ("framebuffer acceleration"): on a machine without a GPU that loads Mesa's
        // llvmpipe (55 MiB of LLVM in RSS) and costs a GL upload per present. X11's own shared-memory
        // framebuffer shows it directly. (Wayland and KMSDRM have no framebuffer of their own: they
        // keep SDL's default.) Only when nobody set the hint.
        if context.videoDriver == "x11", SDL_GetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION) == nil {
            SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
        }
        // On the console (KMSDRM) the GPU is reached through EGL and OpenGL ES: ask for SDL's
        // opengles2 renderer rather than whatever it would try first (desktop OpenGL is not there
        // on a Pi). Presenting waits for the display's refresh (vsync); nothing else on the UI
        // thread waits.
        if context.videoDriver == "KMSDRM" { SDL_SetHint(SDL_HINT_RENDER_DRIVER, "opengles2") }
        var desktop = SDL_DisplayMode()
        let hasDesktop = SDL_GetDesktopDisplayMode(0, &desktop) == 0 && desktop.w > 0 && desktop.h > 0
        let size: Size, flags: UInt32
        let highDPI = SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        switch mode {
        case .fullscreen:
            size = hasDesktop ? Size(width: Int(desktop.w), height: Int(desktop.h)) : Screen.defaultWindowSize
            flags = SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue | highDPI
        case let .windowed(asked):
            var s = asked ?? Screen.defaultWindowSize
            if asked == nil && hasDesktop {
                s = Size(width: min(s.width, Int(desktop.w)), height: min(s.height, Int(desktop.h)))
            }
            size = s
            flags = SDL_WINDOW_RESIZABLE.rawValue | highDPI
        }
        let window = try Window(context: context, title: title, size: size, flags: flags)
        waker = ScreenWaker(videoDriver: context.videoDriver)
        rendererHandle = try Renderer(window: window)
        rendererName = rendererHandle.name
        let output = try rendererHandle.outputSize()
        transform = DisplayTransform(physical: output, orientation: orientation ?? .natural(for: output))
        layout = Layout(canvas: transform.logical)
        preview = Preview(renderer: rendererHandle)
        overlay = PreviewOverlay(renderer: rendererHandle)
        player = PlayerSurface(picture: Preview(renderer: rendererHandle))
        caches = DrawingCaches(shapes: ShapeCache(renderer: rendererHandle), codes: QRCodeCache(renderer: rendererHandle))
        library = LibraryView(textures: LibraryTextures(renderer: rendererHandle))
        text = try TextCache(renderer: rendererHandle, faces: Typefaces(primary: fontPath, language: .en, font: nil),
                             probeSize: layout.textHeight)
        self.mirrorPreview = mirrorPreview
        self.cameraMount = cameraMount
        // A touch kiosk shows no pointer; a development window keeps it.
        if case .fullscreen = mode { SDL_ShowCursor(SDL_DISABLE) }
    }

    /// Puts `words` on screen from the next draw on, each of `texts` (every text that can show:
    /// `Configuration.shownTexts`) in the face that has its characters: DejaVu Sans Bold, `font`,
    /// the language's face from fontconfig, or one fontconfig finds for them; where none has them
    /// all, the one with the most, the others left out. Emoji are drawn in colour beside the words
    /// where fontconfig finds a colour face for them (Noto Color Emoji). Returns the texts with
    /// characters no face has, for the one warning (`Glyphs.warning`). Throws `FontUnreadable` or
    /// `SDLError` (nothing changed) when `font` cannot be read.
    @discardableResult
    public func setWords(_ words: ScreenWords, texts: [ShownText], font: String?) throws -> [UndrawableText] {
        let (faces, families, undrawable) = try typefaces(words, texts: texts, font: font)
        text.faces = faces
        self.words = words
        layout = fittedLayout(for: transform.logical)
        let used = families.keys.sorted().map { "\($0) (\(families[$0]!) texts)" }.joined(separator: ", ")
        Log.info("text: \(words.language.rawValue) (\(words.language.nativeName)), in \(used)")
        return undrawable
    }

    /// `setWords` for `words` and a prompt, each text named by where it comes from in the words.
    @discardableResult
    public func setWords(_ words: ScreenWords, prompt: String?, font: String?) throws -> [UndrawableText] {
        try setWords(words, texts: words.shownTexts(prompt: prompt), font: font)
    }

    /// What `setWords` would throw, without changing the screen (a reload's new words, checked
    /// before they are accepted).
    public func checkWords(_ words: ScreenWords, texts: [ShownText], font: String?) throws {
        _ = try typefaces(words, texts: texts, font: font)
    }

    /// The faces for `texts`, how many texts each family shows, and the texts with characters no
    /// face has.
    private func typefaces(_ words: ScreenWords, texts: [ShownText], font: String?) throws -> (Typefaces, [String: Int], [UndrawableText]) {
        let faces: Typefaces
        do { faces = try Typefaces(primary: text.faces.primary.path, language: words.language, font: font) } catch {
            throw font.map { FontUnreadable(path: $0, reason: error.message) } ?? error
        }
        var families: [String: Int] = [:]
        for shown in texts {
            families[faces.familyName(of: faces.face(for: shown.text).face), default: 0] += 1
            if faces.hasColourEmoji(shown.text), let emoji = faces.emoji { families[faces.familyName(of: emoji), default: 0] += 1 }
        }
        return (faces, families, faces.undrawable(texts))
    }

    /// The face that shows all of `text` on screen now, with its family name (nil: no face has
    /// every character of it): for tests and `--check`.
    public func face(for shown: String) -> (face: FaceSource, family: String)? {
        let (face, missing) = text.faces.face(for: shown)
        return missing.isEmpty ? (face, text.faces.familyName(of: face)) : nil
    }

    /// The display's size in pixels (`SDL_GetRendererOutputSize`).
    public var outputSize: Size { transform.physical }
    public var orientation: Orientation { transform.orientation }

    /// Lays the canvas out for `orientation` now; the next `draw` shows it.
    public func setOrientation(_ orientation: Orientation) {
        relayout(physical: transform.physical, orientation: orientation)
    }

    /// The layout of `canvas` for the screen's text size and words: the side buttons tall enough
    /// for two lines of title where one line would draw the titles smaller than
    /// `Layout.smallestTitle` (German and French on a 480-wide panel).
    private func fittedLayout(for canvas: Size) -> Layout {
        let base = Layout(canvas: canvas, textScale: textScale, shutter: extras.photo, boomerang: extras.boomerang)
        guard base.sideTitleLines == 1,
              let one = try? text.fittingSize(Overlay.sideTitles(words), size: base.textHeight, maxWidth: Overlay.sideTitleRoom(base)),
              one < Layout.smallestTitle else { return base }
        return Layout(canvas: canvas, textScale: textScale, sideTitleLines: 2, shutter: extras.photo, boomerang: extras.boomerang)
    }

    func relayout(physical: Size, orientation: Orientation) {
        let next = DisplayTransform(physical: physical, orientation: orientation)
        guard next != transform else { return }
        transform = next
        layout = fittedLayout(for: next.logical)
        // A finger that went down on the old layout means nothing on the new one.
        pointers.reset()
    }

    // MARK: - Picture

    /// Puts a frame on screen from the next `draw` on; it stays there (frozen) until the next one.
    public func show(frame: VideoFrame) throws(SDLError) {
        try preview.upload(frame, placement: PreviewPlacement(transform: transform, mount: cameraMount, mirror: mirrorPreview, fit: previewFit))
    }

    /// Removes the picture (black behind the overlay), e.g. while the camera is missing.
    public func clearPreview() { preview.clear() }

    /// The review trimmer's pictures (`--trim`), decoded on a worker: uploaded now (RGB24 textures,
    /// `SDL_UpdateTexture`), shown in its band from the next frame; none clears them.
    public func setTrimPictures(_ pictures: [RGBPicture]) throws(SDLError) {
        var textures: [Texture] = []
        for picture in pictures {
            let texture = try Texture(renderer: rendererHandle, format: SDL_PIXELFORMAT_RGB24.rawValue, access: SDL_TEXTUREACCESS_STATIC,
                                      size: picture.size)
            let result = picture.pixels.withUnsafeBytes { SDL_UpdateTexture(texture.handle, nil, $0.baseAddress, Int32(picture.pitch)) }
            guard result == 0 else { throw SDLError(call: "SDL_UpdateTexture(trimmer picture \(picture.size))") }
            textures.append(texture)
        }
        caches.trimPictures = textures
    }

    /// The operator's overlay (`--overlay`, `--overlay-portrait`; nil: none), drawn over the
    /// preview's picture (live, or frozen after a take) from the next `draw` on, exactly where the
    /// take has it: scaled to cover the picture, centred, upright for the guest, never mirrored.
    /// The portrait one shows while the interface is portrait, else the landscape one. Each is
    /// uploaded once, as a texture; the player shows the file, which has it already.
    /// On a failure (a picture larger than the renderer's textures may be) no overlay shows.
    public func setOverlay(_ picture: OverlayPicture?, portrait: OverlayPicture?) throws(SDLError) {
        try overlay.set(picture, portrait: portrait)
    }

    /// Playback begins: black until its first picture; the camera's picture is kept aside.
    public func beginPlayback() {
        player.picture.clear()
        player.playing = true
    }

    /// Puts a picture of the player on screen from the next `draw` on: aspect-fit, turned
    /// clockwise by `rotation` degrees (SDL's angle, −av_display_rotation_get of the file).
    public func show(playbackFrame frame: VideoFrame, rotation: Double) throws(SDLError) {
        player.playing = true
        player.rotation = rotation
        try player.picture.upload(frame)
    }

    /// The same for a player's picture taken without a copy (see `PlaybackPicture`).
    public func show(playbackPicture picture: some PlaybackPicture, rotation: Double) throws(SDLError) {
        player.playing = true
        player.rotation = rotation
        try player.picture.upload(picture)
    }

    /// Whether player pictures in 4:2:0 go up as YUV planes (see `Preview.yuvUploads`); tests
    /// set it to drive that path on the software renderer.
    public internal(set) var playbackYUVUploads: Bool {
        get { player.picture.yuvUploads }
        set { player.picture.yuvUploads = newValue }
    }

    /// Playback is over: the camera's picture (the frozen last frame) is back.
    public func endPlayback() {
        player.playing = false
        player.picture.clear()
    }

    /// The size of the player's picture on screen, nil when there is none.
    public var playbackFrameSize: Size? { player.playing ? player.picture.frameSize : nil }

    /// The size of the frame on screen, nil when there is none.
    public var previewSize: Size? { preview.frameSize }

    /// The frame on screen was stretched onto the display once, at its upload (see `Preview`; tests).
    var previewStretched: Bool { preview.isStretched }

    /// Draws the picture and the overlay for `model` into the back buffer (not yet visible).
    /// nil: the picture alone (with the operator's overlay over it, as the take has it), without
    /// the controls.
    public func draw(_ model: ViewModel?) throws(SDLError) {
        window.lastModel = model
        // The software renderer clears by writing every pixel: not when the picture is about to
        // cover them all anyway (the preview always does on a landscape display, a 16:9 movie on
        // a 16:9 display). GPU renderers always clear (cheap there, and tiled GPUs want it).
        // (Not in the frame where the window's size changed before the layout followed.)
        let covered = rendererHandle.isSoftware && (try? rendererHandle.outputSize()) == transform.physical && (player.playing
            ? player.fit == .fit && player.picture.fittedCoversDisplay(transform: transform, degrees: player.rotation)
            : preview.coversDisplay(transform: transform, mount: cameraMount, mirror: mirrorPreview, fit: previewFit))
        if !covered {
            SDL_SetRenderDrawColor(rendererHandle.handle, 0, 0, 0, 255)
            SDL_RenderClear(rendererHandle.handle)
        }
        if player.playing {
            player.picture.drawFitted(transform: transform, degrees: player.rotation, fill: player.fit == .fill)
        } else {
            preview.draw(transform: transform, mount: cameraMount, mirror: mirrorPreview, fit: previewFit)
            // Over the live picture and over the review's frozen frame (the take's last picture, which
            // the file has with the overlay); the player's pictures are the file's own, overlay and all.
            if let frame = preview.frameSize, !overlay.isEmpty {
                overlay.draw(over: transform.previewRect(frame: frame, mount: cameraMount, fit: previewFit),
                             upright: transform.uprightPicture(frame: frame, mount: cameraMount), transform: transform)
            }
        }
        guard let model else { return }
        let overlay = makeOverlay()
        defer {
            text.endFrame()
            caches.shapes.endFrame()
            caches.codes.endFrame()
        }
        try overlay.draw(model, held: pointers.held)
        if let pairing = window.pairing { try overlay.drawPairing(pairing) }
    }

    /// Pairing's keyboard or code over everything else from the next draw on (nil: none).
    public func showPairing(_ view: PairingView?) { window.pairing = view }

    /// The canvas the overlay is drawn on (the display turned to the interface's orientation).
    public var canvasSize: Size { layout.canvas }

    /// The overlay for the next frame, as `draw` uses it (tests ask it for its geometry: the share cards).
    func makeOverlay() -> Overlay {
        Overlay(painter: Painter(renderer: rendererHandle, transform: transform, shapes: caches.shapes), layout: layout, text: text,
                codes: caches.codes, words: words, highContrast: highContrast, trimPictures: caches.trimPictures,
                library: library.textures, libraryScroll: library.scroll)
    }

    /// Shows what was drawn (`SDL_RenderPresent`, waits for vsync).
    public func present() {
        SDL_RenderPresent(rendererHandle.handle)
        window.presentedOnce = true
    }

    /// `draw` then `present`.
    public func render(_ model: ViewModel?) throws(SDLError) {
        try draw(model)
        present()
    }
}

/// The player's side of the screen: its picture (a preview of its own), how it is turned, whether it
/// shows, and how it covers the screen.
struct PlayerSurface {
    let picture: Preview
    var rotation = 0.0
    var playing = false
    var fit: PictureFit = .fit
}

/// What the overlay draws from that is made once and kept: the shapes' and the QR codes' textures,
/// and the review trimmer's pictures of the take (`--trim`), uploaded once a take.
struct DrawingCaches {
    let shapes: ShapeCache
    let codes: QRCodeCache
    var trimPictures: [Texture] = []
}

/// The window as the app knows it.
struct WindowState {
    /// The window is minimised or hidden (the app is in the background).
    var hidden = false
    /// Set by the first present: a window manager may hide and show a window while it first maps
    /// it, which is not the app going to the background.
    var presentedOnce = false
    /// The model last drawn: a snapshot draws it again (ScreenPixels.swift).
    var lastModel: ViewModel?
    /// Pairing's screen over the model (`showPairing`), drawn again by a snapshot too.
    var pairing: PairingView?
}
