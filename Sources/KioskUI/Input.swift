// SDL events → what the recorder understands: presses of visible buttons, taps elsewhere, keys,
// quit, background / foreground, display orientation. Pointers go through the orientation mapping.
import CSDL2
import KioskContract
import KioskCore

/// An input from the screen, for the executable to turn into recorder events.
public enum UIInput: Equatable, Sendable {
    /// A visible button pressed: a finger or the mouse went down and came up on it, or its key.
    case press(Button)
    /// A tap that began and ended on no button (the player pauses on it), in canvas coordinates.
    case tapElsewhere(Point)
    /// A finger dragged the library's grid (the screen scrolled it): only a redraw.
    case libraryScrolled
    /// Space while the player shows: pause or resume, like a tap on the picture.
    case togglePause
    /// A finger or the mouse on the player's progress bar (down, dragged, up): go to that
    /// fraction of the file, 0…1.
    case seek(Double)
    /// A finger or the mouse dragging a handle of the review's trimmer (`--trim`): that handle
    /// to that time of the take, in seconds (the trim's rule stops it at the take's ends and 0.5 s
    /// from the other).
    case trim(TrimHandle, seconds: Double)
    /// The window was closed (`SDL_QUIT`).
    case quit
    /// The app went to the background (`SDL_APP_WILLENTERBACKGROUND`, the window minimized or hidden).
    case background
    /// It came back (`SDL_APP_DIDENTERFOREGROUND`, the window restored or shown).
    case foreground
    /// The display turned (`SDL_DISPLAYEVENT_ORIENTATION`) or the window's aspect flipped: the
    /// orientation the interface should now have. The screen has already re-laid out for the new
    /// size; whether to rotate is the recorder's decision (only in ready mode).
    case displayOrientation(Orientation)

    /// Whether a guest's hand made it: a press or a tap (what wakes the attract screen and is spent
    /// on it), not the window's or the display's doings.
    public var isGuestTouch: Bool {
        switch self {
        case .press, .tapElsewhere, .togglePause, .seek, .trim, .libraryScrolled: true
        default: false
        }
    }
}

/// The keyboard shortcuts: each names buttons, and presses the first of them that is visible.
public enum KeyMap {
    /// Space start/stop (and pause in the player), Esc cancel/close, Enter use video, P play, R retake.
    public static func buttons(forKey key: SDL_Keycode) -> [Button] {
        switch key {
        case SDL_Keycode(SDLK_SPACE.rawValue): [.start, .stop]
        case SDL_Keycode(SDLK_ESCAPE.rawValue): [.cancel, .closePlayer]
        case SDL_Keycode(SDLK_RETURN.rawValue), SDL_Keycode(SDLK_KP_ENTER.rawValue): [.useVideo]
        case SDL_Keycode(SDLK_p.rawValue): [.playVideo]
        case SDL_Keycode(SDLK_r.rawValue): [.retake]
        case SDL_Keycode(SDLK_c.rawValue), SDL_Keycode(SDLK_TAB.rawValue): [.switchCamera]
        default: []
        }
    }

    public static func button(forKey key: SDL_Keycode, visible: [Button]) -> Button? {
        buttons(forKey: key).first { visible.contains($0) }
    }

    /// Space pauses and resumes the player (whose screen is the one with Close).
    public static func togglesPause(_ key: SDL_Keycode, visible: [Button]) -> Bool {
        key == SDL_Keycode(SDLK_SPACE.rawValue) && visible.contains(.closePlayer)
    }
}

/// SDL's display orientation → the interface orientation. SDL's "landscape" is the display turned
/// with its right side up relative to portrait: the home-button-on-the-right landscape of UIKit.
extension Orientation {
    init?(sdl: SDL_DisplayOrientation) {
        switch sdl {
        case SDL_ORIENTATION_PORTRAIT: self = .portrait
        case SDL_ORIENTATION_PORTRAIT_FLIPPED: self = .portraitUpsideDown
        case SDL_ORIENTATION_LANDSCAPE: self = .landscapeRight
        case SDL_ORIENTATION_LANDSCAPE_FLIPPED: self = .landscapeLeft
        default: return nil
        }
    }
}

/// Follows each pointer (the mouse, every finger) from down to up, so a press is a release over
/// the button the pointer went down on, and the held button can be drawn pressed.
struct PointerTracker {
    enum Pointer: Hashable {
        case mouse
        case finger(SDL_FingerID)
        /// The `tap` command's: down and up at once, at one point.
        case command
    }

    private struct Track {
        /// The button it went down on (nil: none).
        var downOn: Button?
        /// The button it is over now.
        var over: Button?
        /// It went down on the progress bar: it drags the position until it comes up.
        var scrubbing = false
        /// It went down on a trimmer's handle: it drags it until it comes up, `offset` (canvas
        /// pixels) from the handle's edge at the part kept.
        var trimming: (handle: TrimHandle, offset: Double)?
    }

    private var tracks: [Pointer: Track] = [:]

    /// The button held down by some pointer that is still over it: drawn pressed.
    var held: Button? {
        tracks.values.first { $0.downOn != nil && $0.downOn == $0.over }?.downOn
    }

    mutating func down(_ pointer: Pointer, on button: Button?, scrubbing: Bool = false) {
        tracks[pointer] = Track(downOn: scrubbing ? nil : button, over: scrubbing ? nil : button, scrubbing: scrubbing)
    }

    /// It went down on a trimmer's handle, `offset` pixels from the handle's edge at the part kept.
    mutating func down(_ pointer: Pointer, trimming handle: TrimHandle, offset: Double) {
        tracks[pointer] = Track(downOn: nil, over: nil, scrubbing: false, trimming: (handle, offset))
    }

    /// The handle the pointer drags, if it went down on one (and is still down).
    func trimming(_ pointer: Pointer) -> (handle: TrimHandle, offset: Double)? { tracks[pointer]?.trimming }

    /// Whether the pointer went down on the progress bar (and is still down).
    func scrubbing(_ pointer: Pointer) -> Bool { tracks[pointer]?.scrubbing ?? false }

    mutating func moved(_ pointer: Pointer, over button: Button?) {
        tracks[pointer]?.over = button
    }

    /// The end of a tap: a press when it came up on the button it went down on, `tapElsewhere`
    /// when it touched no button at all, nothing when it slid off (how a person cancels a press).
    mutating func up(_ pointer: Pointer, on button: Button?, at logical: Point) -> UIInput? {
        guard let track = tracks.removeValue(forKey: pointer), !track.scrubbing, track.trimming == nil else { return nil }
        switch (track.downOn, button) {
        case let (down?, up?) where down == up: return .press(up)
        case (nil, nil): return .tapElsewhere(logical)
        default: return nil
        }
    }

    /// Forgets every pointer (the window lost the pointer, the screen was re-laid out).
    mutating func reset() { tracks.removeAll() }
}
