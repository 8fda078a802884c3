// The kiosk's screen: the window and renderer, the preview, the overlay turned for the interface
// orientation, input mapped back through the same turn, screenshots. UI thread only.
import CSDL2
import Foundation
import KioskCore
import KioskSystem

/// The whole screen. Not Sendable: SDL is single-threaded, so the screen lives and dies on the
/// thread that made it (the UI thread). Worker threads hand it frames through the executable.
public final class Screen {
    /// What to tell a person when no display can be opened (printed with the `SDLError`, exit 3).
    public static let noDisplayHint = """
        kiosk-recorder needs a display. On a desktop, start it inside the graphical session (DISPLAY or \
        WAYLAND_DISPLAY set); on a bare device SDL's KMSDRM driver needs /dev/dri (the video and render \
        groups) and no other program holding the screen. SDL_VIDEODRIVER=x11, wayland or KMSDRM picks the \
        driver. Without any display, run it under Xvfb: xvfb-run -s '-screen 0 1280x720x24' kiosk-recorder \
        --windowed (SDL_VIDEODRIVER=dummy draws to nowhere, for tests).
        """

    /// The hint for a display that would not open, made specific for KMSDRM (asked for with
    /// `SDL_VIDEODRIVER=KMSDRM`, or named in SDL's error): what it needs and what usually stands in
    /// its way. `devices`: the `card*` nodes in /dev/dri.
    public static func noDisplayHint(error: String, requestedDriver: String?, devices: [String]) -> String {
        guard error.localizedCaseInsensitiveContains("kmsdrm") || requestedDriver?.lowercased() == "kmsdrm" else { return noDisplayHint }
        guard !devices.isEmpty else {
            return "KMSDRM could not open the screen: there is no /dev/dri/card*, so the GPU's KMS driver is not loaded "
                + "(on a Raspberry Pi: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt)."
        }
        return "KMSDRM could not open the screen. It must be DRM master of \(devices.joined(separator: " or ")): nothing else "
            + "may hold the screen. A desktop session or display manager does (systemctl status display-manager): stop it "
            + "(sudo systemctl stop display-manager), boot to the console (sudo systemctl set-default multi-user.target), or run "
            + "the booth inside that desktop (SDL_VIDEODRIVER=x11 or wayland). The booth's user needs the video group (render "
            + "for the GPU). With several cards (a Raspberry Pi 5 with a DSI panel) pick the panel's with "
            + "SDL_KMSDRM_DEVICE_INDEX=N (N as in /dev/dri/cardN)."
    }

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
        didSet { layout = Layout(canvas: transform.logical, textScale: textScale) }
    }
    private var textScale: Double { largeText ? 1.35 : 1 }
    /// The camera's mount rotation in clockwise quarter turns (see `DisplayTransform.cameraQuarterTurns`).
    public var cameraMount: Int
    public private(set) var transform: DisplayTransform
    public private(set) var layout: Layout

    let rendererHandle: Renderer
    /// Ends `waitEvents` early from any thread.
    public let waker: ScreenWaker
    private let preview: Preview
    /// The player's picture, kept apart so the camera's last frame is still there after playback.
    private let playback: Preview
    private var playbackRotation = 0.0
    private var playing = false
    /// How the player's picture covers the screen: aspect-fit (the review's) or aspect-fill
    /// (`--play --fit fill`).
    public var playbackFit: PictureFit = .fit
    let text: TextCache
    /// DejaVu Sans Bold: the face of every text it can show.
    private let fontPath: String
    /// The words on screen; `setWords` changes them.
    public private(set) var words = ScreenWords()
    private let shapes: ShapeCache
    private var pointers = PointerTracker()
    private var hidden = false
    /// Set by the first present: a window manager may hide and show a window while it first maps
    /// it, which is not the app going to the background.
    private var presentedOnce = false
    private var lastModel: ViewModel?

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
        playback = Preview(renderer: rendererHandle)
        shapes = ShapeCache(renderer: rendererHandle)
        self.fontPath = fontPath
        text = try TextCache(renderer: rendererHandle, faces: Typefaces(primary: fontPath, language: .en, font: nil),
                             probeSize: layout.textHeight)
        self.mirrorPreview = mirrorPreview
        self.cameraMount = cameraMount
        // A touch kiosk shows no pointer; a development window keeps it.
        if case .fullscreen = mode { SDL_ShowCursor(SDL_DISABLE) }
    }

    /// Puts `words` (and the operator's prompt) on screen from the next draw on, once a face is
    /// found for every text that can show (`ScreenWords.all`): DejaVu Sans Bold, `font`, the
    /// language's face from fontconfig, or one fontconfig finds for the characters. Throws
    /// `MissingGlyphs` (nothing changed) when some text has a character no face has; `SDLError`
    /// when `font` cannot be read.
    public func setWords(_ words: ScreenWords, prompt: String?, font: String?) throws {
        let (faces, families) = try typefaces(words, prompt: prompt, font: font)
        text.faces = faces
        self.words = words
        let used = families.keys.sorted().map { "\($0) (\(families[$0]!) texts)" }.joined(separator: ", ")
        Log.info("text: \(words.language.rawValue) (\(words.language.nativeName)), in \(used)")
    }

    /// What `setWords` would throw, without changing the screen (a reload's new words, checked
    /// before they are accepted).
    public func checkWords(_ words: ScreenWords, prompt: String?, font: String?) throws {
        _ = try typefaces(words, prompt: prompt, font: font)
    }

    /// The faces for `words` and how many texts each family shows.
    private func typefaces(_ words: ScreenWords, prompt: String?, font: String?) throws -> (Typefaces, [String: Int]) {
        let faces: Typefaces
        do { faces = try Typefaces(primary: fontPath, language: words.language, font: font) } catch {
            throw font.map { FontUnreadable(path: $0, reason: error.message) } ?? error
        }
        var families: [String: Int] = [:]
        for shown in words.all(prompt: prompt) {
            let face = try faces.face(for: shown).get()
            families[faces.familyName(of: face), default: 0] += 1
        }
        return (faces, families)
    }

    /// The face that shows `text` on screen now, with its family name: for tests and `--check`.
    public func face(for shown: String) -> (face: FaceSource, family: String)? {
        guard let face = try? text.faces.face(for: shown).get() else { return nil }
        return (face, text.faces.familyName(of: face))
    }

    /// The display's size in pixels (`SDL_GetRendererOutputSize`).
    public var outputSize: Size { transform.physical }
    public var orientation: Orientation { transform.orientation }

    /// Lays the canvas out for `orientation` now; the next `draw` shows it.
    public func setOrientation(_ orientation: Orientation) {
        relayout(physical: transform.physical, orientation: orientation)
    }

    private func relayout(physical: Size, orientation: Orientation) {
        let next = DisplayTransform(physical: physical, orientation: orientation)
        guard next != transform else { return }
        transform = next
        layout = Layout(canvas: next.logical, textScale: textScale)
        // A finger that went down on the old layout means nothing on the new one.
        pointers.reset()
    }

    // MARK: - Picture

    /// Puts a frame on screen from the next `draw` on; it stays there (frozen) until the next one.
    public func show(frame: VideoFrame) throws(SDLError) { try preview.upload(frame) }

    /// Removes the picture (black behind the overlay), e.g. while the camera is missing.
    public func clearPreview() { preview.clear() }

    /// Playback begins: black until its first picture; the camera's picture is kept aside.
    public func beginPlayback() {
        playback.clear()
        playing = true
    }

    /// Puts a picture of the player on screen from the next `draw` on: aspect-fit, turned
    /// clockwise by `rotation` degrees (SDL's angle, −av_display_rotation_get of the file).
    public func show(playbackFrame frame: VideoFrame, rotation: Double) throws(SDLError) {
        playing = true
        playbackRotation = rotation
        try playback.upload(frame)
    }

    /// The same for a player's picture taken without a copy (see `PlaybackPicture`).
    public func show(playbackPicture picture: some PlaybackPicture, rotation: Double) throws(SDLError) {
        playing = true
        playbackRotation = rotation
        try playback.upload(picture)
    }

    /// Whether player pictures in 4:2:0 go up as YUV planes (see `Preview.yuvUploads`); tests
    /// set it to drive that path on the software renderer.
    public internal(set) var playbackYUVUploads: Bool {
        get { playback.yuvUploads }
        set { playback.yuvUploads = newValue }
    }

    /// Playback is over: the camera's picture (the frozen last frame) is back.
    public func endPlayback() {
        playing = false
        playback.clear()
    }

    /// The size of the player's picture on screen, nil when there is none.
    public var playbackFrameSize: Size? { playing ? playback.frameSize : nil }

    /// The size of the frame on screen, nil when there is none.
    public var previewSize: Size? { preview.frameSize }

    /// Draws the picture and the overlay for `model` into the back buffer (not yet visible).
    /// nil: the picture alone, without any overlay.
    public func draw(_ model: ViewModel?) throws(SDLError) {
        lastModel = model
        // The software renderer clears by writing every pixel: not when the picture is about to
        // cover them all anyway (the preview always does on a landscape display, a 16:9 movie on
        // a 16:9 display). GPU renderers always clear (cheap there, and tiled GPUs want it).
        // (Not in the frame where the window's size changed before the layout followed.)
        let covered = rendererHandle.isSoftware && (try? rendererHandle.outputSize()) == transform.physical && (playing
            ? playbackFit == .fit && playback.fittedCoversDisplay(transform: transform, degrees: playbackRotation)
            : preview.coversDisplay(transform: transform, mount: cameraMount, mirror: mirrorPreview))
        if !covered {
            SDL_SetRenderDrawColor(rendererHandle.handle, 0, 0, 0, 255)
            SDL_RenderClear(rendererHandle.handle)
        }
        if playing {
            playback.drawFitted(transform: transform, degrees: playbackRotation, fill: playbackFit == .fill)
        } else {
            preview.draw(transform: transform, mount: cameraMount, mirror: mirrorPreview)
        }
        guard let model else { return }
        let overlay = Overlay(painter: Painter(renderer: rendererHandle, transform: transform, shapes: shapes), layout: layout, text: text,
                              words: words, highContrast: highContrast)
        defer {
            text.endFrame()
            shapes.endFrame()
        }
        try overlay.draw(model, held: pointers.held)
    }

    /// Shows what was drawn (`SDL_RenderPresent`, waits for vsync).
    public func present() {
        SDL_RenderPresent(rendererHandle.handle)
        presentedOnce = true
    }

    /// `draw` then `present`.
    public func render(_ model: ViewModel?) throws(SDLError) {
        try draw(model)
        present()
    }

    // MARK: - Input

    /// The inputs waiting now (`SDL_PollEvent`), without blocking.
    public func pollEvents(visible: [Button]) -> [UIInput] {
        var inputs: [UIInput] = []
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 { translate(event, visible: visible, into: &inputs) }
        return inputs
    }

    /// Waits up to `timeoutMs` for a first event or a `waker.wake()`, then takes all waiting.
    /// Where SDL's wait sleeps in the kernel (X11, Wayland) it is `SDL_WaitEventTimeout`, woken by
    /// the waker's user event. Elsewhere SDL's wait would poll every millisecond: the thread sleeps
    /// on the waker instead, at most `Screen.pollingWaitMs` (how late a touch may be seen), and
    /// then takes SDL's events.
    public func waitEvents(timeoutMs: Int, visible: [Button]) -> [UIInput] {
        defer { waker.rearm() }
        guard waker.eventType != nil else {
            waker.sleep(milliseconds: min(timeoutMs, Screen.pollingWaitMs))
            return pollEvents(visible: visible)
        }
        var inputs: [UIInput] = []
        var event = SDL_Event()
        if SDL_WaitEventTimeout(&event, Int32(clamping: max(timeoutMs, 0))) != 0 {
            translate(event, visible: visible, into: &inputs)
            inputs += pollEvents(visible: visible)
        }
        return inputs
    }

    /// The longest sleep between two looks at SDL's events on a driver that cannot wake the UI
    /// thread for them (KMSDRM's touches and keys are read when SDL is asked).
    public static let pollingWaitMs = 8

    /// The visible button under a point on the display (the stdin `tap` command, a touch).
    public func press(at physical: Point, visible: [Button]) -> Button? {
        layout.button(at: transform.toLogical(physical), among: visible)
    }

    /// Where a point on the display falls along the player's progress bar (0…1), when the bar
    /// shows (Close is visible: the playing mode with its controls) and the point is on it.
    public func progressFraction(at physical: Point, visible: [Button]) -> Double? {
        guard visible.contains(.closePlayer) else { return nil }
        let logical = transform.toLogical(physical)
        guard layout.button(at: logical, among: visible) == nil else { return nil }
        return layout.progressFraction(at: logical)
    }

    private func translate(_ event: SDL_Event, visible: [Button], into inputs: inout [UIInput]) {
        let output = transform.physical
        func onDisplay(fingerX x: Float, y: Float) -> Point {
            Point(x: Double(x) * Double(output.width), y: Double(y) * Double(output.height))
        }
        // Mouse positions are in window coordinates: scale them to pixels for high-DPI displays.
        func onDisplay(mouseX x: Int32, y: Int32) -> Point {
            let window = rendererHandle.window.size
            let sx = window.width > 0 ? Double(output.width) / Double(window.width) : 1
            let sy = window.height > 0 ? Double(output.height) / Double(window.height) : 1
            return Point(x: (Double(x) + 0.5) * sx, y: (Double(y) + 0.5) * sy)
        }
        func button(at p: Point) -> Button? { press(at: p, visible: visible) }
        // SDL also sends every touch as a mouse event from SDL_TOUCH_MOUSEID: taken once, as a touch.
        let touchMouse = kiosk_SDL_TOUCH_MOUSEID()

        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            inputs.append(.quit)
        case SDL_APP_WILLENTERBACKGROUND:
            inputs.append(.background)
        case SDL_APP_DIDENTERFOREGROUND:
            inputs.append(.foreground)
        case SDL_KEYDOWN:
            guard event.key.repeat == 0 else { return }
            if let b = KeyMap.button(forKey: event.key.keysym.sym, visible: visible) {
                inputs.append(.press(b))
            } else if KeyMap.togglesPause(event.key.keysym.sym, visible: visible) {
                inputs.append(.togglePause)
            }
        case SDL_MOUSEBUTTONDOWN:
            guard event.button.which != touchMouse, event.button.button == UInt8(SDL_BUTTON_LEFT) else { return }
            pointerDown(.mouse, at: onDisplay(mouseX: event.button.x, y: event.button.y), visible: visible, into: &inputs)
        case SDL_MOUSEMOTION:
            guard event.motion.which != touchMouse else { return }
            pointerMoved(.mouse, to: onDisplay(mouseX: event.motion.x, y: event.motion.y), visible: visible, into: &inputs)
        case SDL_MOUSEBUTTONUP:
            guard event.button.which != touchMouse, event.button.button == UInt8(SDL_BUTTON_LEFT) else { return }
            pointerUp(.mouse, at: onDisplay(mouseX: event.button.x, y: event.button.y), visible: visible, into: &inputs)
        case SDL_FINGERDOWN:
            pointerDown(.finger(event.tfinger.fingerId), at: onDisplay(fingerX: event.tfinger.x, y: event.tfinger.y), visible: visible,
                        into: &inputs)
        case SDL_FINGERMOTION:
            pointerMoved(.finger(event.tfinger.fingerId), to: onDisplay(fingerX: event.tfinger.x, y: event.tfinger.y), visible: visible,
                         into: &inputs)
        case SDL_FINGERUP:
            pointerUp(.finger(event.tfinger.fingerId), at: onDisplay(fingerX: event.tfinger.x, y: event.tfinger.y), visible: visible,
                      into: &inputs)
        case SDL_DISPLAYEVENT:
            guard event.display.event == UInt8(SDL_DISPLAYEVENT_ORIENTATION.rawValue),
                  Int32(event.display.display) == SDL_GetWindowDisplayIndex(rendererHandle.window.handle),
                  let turned = Orientation(sdl: SDL_DisplayOrientation(UInt32(bitPattern: event.display.data1)))
            else { return }
            inputs.append(.displayOrientation(turned))
        case SDL_WINDOWEVENT:
            guard event.window.windowID == rendererHandle.window.id else { return }
            translateWindowEvent(SDL_WindowEventID(UInt32(event.window.event)), into: &inputs)
        default:
            break
        }
    }

    /// A pointer down: on the progress bar it starts a drag (a seek at once), else it may press.
    private func pointerDown(_ pointer: PointerTracker.Pointer, at p: Point, visible: [Button], into inputs: inout [UIInput]) {
        if let fraction = progressFraction(at: p, visible: visible) {
            pointers.down(pointer, on: nil, scrubbing: true)
            inputs.append(.seek(fraction))
        } else {
            pointers.down(pointer, on: press(at: p, visible: visible))
        }
    }

    /// A drag on the progress bar follows the pointer along it (clamped to its ends).
    private func pointerMoved(_ pointer: PointerTracker.Pointer, to p: Point, visible: [Button], into inputs: inout [UIInput]) {
        if pointers.scrubbing(pointer) {
            inputs.append(.seek(barFraction(at: p)))
        } else {
            pointers.moved(pointer, over: press(at: p, visible: visible))
        }
    }

    private func pointerUp(_ pointer: PointerTracker.Pointer, at p: Point, visible: [Button], into inputs: inout [UIInput]) {
        if pointers.scrubbing(pointer) { inputs.append(.seek(barFraction(at: p))) }
        if let input = pointers.up(pointer, on: press(at: p, visible: visible), at: transform.toLogical(p)) { inputs.append(input) }
    }

    /// Where along the bar a dragging pointer is, wherever it strayed (above, below, past its ends).
    private func barFraction(at physical: Point) -> Double {
        let bar = layout.progressBar, x = transform.toLogical(physical).x
        return bar.width > 0 ? min(max((x - Double(bar.x)) / Double(bar.width), 0), 1) : 0
    }

    private func translateWindowEvent(_ id: SDL_WindowEventID, into inputs: inout [UIInput]) {
        switch id {
        case SDL_WINDOWEVENT_SIZE_CHANGED:
            guard let output = try? rendererHandle.outputSize(), output != transform.physical, output.width > 0, output.height > 0
            else { return }
            let flipped = output.isPortrait != transform.physical.isPortrait
            // Re-laid out at once for the new size, in the orientation it has; turning it to the
            // new aspect's natural orientation is the recorder's call (allowed only in ready).
            relayout(physical: output, orientation: transform.orientation)
            if flipped { inputs.append(.displayOrientation(.natural(for: output))) }
        case SDL_WINDOWEVENT_MINIMIZED, SDL_WINDOWEVENT_HIDDEN:
            if !hidden && presentedOnce {
                hidden = true
                pointers.reset()
                inputs.append(.background)
            }
        case SDL_WINDOWEVENT_RESTORED, SDL_WINDOWEVENT_SHOWN, SDL_WINDOWEVENT_MAXIMIZED:
            if hidden {
                hidden = false
                inputs.append(.foreground)
            }
        case SDL_WINDOWEVENT_LEAVE:
            // The mouse left the window: whatever it held is let go without a press.
            pointers.reset()
        default:
            break
        }
    }

    // MARK: - Pixels

    /// What is drawn now in the back buffer (`SDL_RenderReadPixels` as XRGB8888). Call after
    /// `draw` and before `present`: after a present the back buffer's content is undefined.
    public func readPixels() throws(SDLError) -> Pixels {
        let size = transform.physical
        var words = [UInt32](repeating: 0, count: size.width * size.height)
        let result = words.withUnsafeMutableBytes { buffer in
            SDL_RenderReadPixels(rendererHandle.handle, nil, SDL_PIXELFORMAT_RGB888.rawValue, buffer.baseAddress, Int32(size.width * 4))
        }
        guard result == 0 else { throw SDLError(call: "SDL_RenderReadPixels") }
        return Pixels(size: size, words: words)
    }

    /// The screen as it is now, read back: the last view model is drawn again first, since the back
    /// buffer holds nothing reliable after a present.
    public func snapshot() throws(SDLError) -> Pixels {
        try draw(lastModel)
        return try readPixels()
    }

    /// Writes the current screen to a BMP file.
    public func screenshot(to path: String) throws {
        try snapshot().bmp.write(to: URL(fileURLWithPath: path))
    }
}

/// A copy of the screen's pixels, row by row, XRGB8888.
public struct Pixels: Sendable {
    public let size: Size
    public let words: [UInt32]

    public init(size: Size, words: [UInt32]) {
        self.size = size
        self.words = words
    }

    /// The colour at (x, y) on the display.
    public func rgb(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let word = words[y * size.width + x]
        return (UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word))
    }

    /// The pixels as a 24-bit BMP file (bottom-up rows, BGR, each row padded to 4 bytes). Pure
    /// Swift, so a worker thread can make it without touching SDL.
    public var bmp: Data {
        let rowBytes = (size.width * 3 + 3) & ~3
        let imageBytes = rowBytes * size.height
        var data = Data(capacity: 54 + imageBytes)
        func u16(_ v: Int) { data.append(contentsOf: [UInt8(v & 0xff), UInt8((v >> 8) & 0xff)]) }
        func u32(_ v: Int) { u16(v & 0xffff); u16((v >> 16) & 0xffff) }
        data.append(contentsOf: Array("BM".utf8))
        u32(54 + imageBytes); u32(0); u32(54)                  // BITMAPFILEHEADER
        u32(40); u32(size.width); u32(size.height); u16(1); u16(24) // BITMAPINFOHEADER
        u32(0); u32(imageBytes); u32(2835); u32(2835); u32(0); u32(0)
        var row = [UInt8](repeating: 0, count: rowBytes)
        for y in stride(from: size.height - 1, through: 0, by: -1) {
            for x in 0..<size.width {
                let word = words[y * size.width + x]
                row[3 * x] = UInt8(truncatingIfNeeded: word)
                row[3 * x + 1] = UInt8(truncatingIfNeeded: word >> 8)
                row[3 * x + 2] = UInt8(truncatingIfNeeded: word >> 16)
            }
            data.append(contentsOf: row)
        }
        return data
    }
}
