// The screen's input: SDL's events (touches, clicks, keys, the window and the display turning) as
// the booth's inputs, each point taken back through the turn the overlay is drawn with. UI thread only.
import CSDL2
import KioskContract
import KioskCore

extension Screen {
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

    /// The `tap` command at a point on the display: what a finger put down and lifted there gives
    /// (a press of the button under it, a seek on the progress bar, nothing on a trimmer's handle,
    /// `tapElsewhere` on the picture or the library's grid), through the same routing as a touch.
    public func tap(at physical: Point, visible: [Button]) -> [UIInput] {
        var inputs: [UIInput] = []
        pointerDown(.command, at: physical, visible: visible, into: &inputs)
        pointerUp(.command, at: physical, visible: visible, into: &inputs)
        // A seek is said on the way down and again on the way up: once is the tap's.
        if inputs.count == 2, case .seek = inputs[0], case .seek = inputs[1] { inputs.removeLast() }
        return inputs
    }

    /// The visible button under a point on the display (a touch).
    func press(at physical: Point, visible: [Button]) -> Button? {
        layout.button(at: transform.toLogical(physical), among: visible)
    }

    /// Where a point on the display falls along the player's progress bar (0…1), when the bar
    /// shows (Close is visible: the playing mode with its controls) and the point is on it.
    func progressFraction(at physical: Point, visible: [Button]) -> Double? {
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
        libraryDragBegins(pointer, at: p, visible: visible)
        let logical = transform.toLogical(p)
        if let trimmer = shownTrimmer, layout.button(at: logical, among: visible) == nil, let handle = trimmer.handle(at: logical) {
            // Held where it was taken: the handle does not jump to the finger.
            let edge = trimmer.x(of: handle == .start ? trimmer.range.start : trimmer.range.end)
            pointers.down(pointer, trimming: handle, offset: edge - logical.x)
        } else if let fraction = progressFraction(at: p, visible: visible) {
            pointers.down(pointer, on: nil, scrubbing: true)
            inputs.append(.seek(fraction))
        } else {
            pointers.down(pointer, on: press(at: p, visible: visible))
        }
    }

    /// A drag on the progress bar follows the pointer along it (clamped to its ends).
    private func pointerMoved(_ pointer: PointerTracker.Pointer, to p: Point, visible: [Button], into inputs: inout [UIInput]) {
        if libraryDragMoves(pointer, to: p) { inputs.append(.libraryScrolled) }
        if let (handle, offset) = pointers.trimming(pointer), let trimmer = shownTrimmer {
            inputs.append(.trim(handle, seconds: trimmer.seconds(atX: transform.toLogical(p).x + offset)))
        } else if pointers.scrubbing(pointer) {
            inputs.append(.seek(barFraction(at: p)))
        } else {
            pointers.moved(pointer, over: press(at: p, visible: visible))
        }
    }

    private func pointerUp(_ pointer: PointerTracker.Pointer, at p: Point, visible: [Button], into inputs: inout [UIInput]) {
        if pointers.scrubbing(pointer) { inputs.append(.seek(barFraction(at: p))) }
        // A drag that scrolled the library is not a tap on the take it ended on.
        if libraryDragEnds(pointer) {
            _ = pointers.up(pointer, on: nil, at: transform.toLogical(p))
            return
        }
        if let input = pointers.up(pointer, on: press(at: p, visible: visible), at: transform.toLogical(p)) { inputs.append(input) }
    }

    /// The trimmer as last drawn (`--trim`, the finished screen), for its handles' touches.
    var shownTrimmer: TrimmerLayout? {
        window.lastModel?.trimmer.map { TrimmerLayout(layout: layout, duration: $0.duration, range: $0.range) }
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
            if !window.hidden && window.presentedOnce {
                window.hidden = true
                pointers.reset()
                inputs.append(.background)
            }
        case SDL_WINDOWEVENT_RESTORED, SDL_WINDOWEVENT_SHOWN, SDL_WINDOWEVENT_MAXIMIZED:
            if window.hidden {
                window.hidden = false
                inputs.append(.foreground)
            }
        case SDL_WINDOWEVENT_LEAVE:
            // The mouse left the window: whatever it held is let go without a press.
            pointers.reset()
        default:
            break
        }
    }
}
