// The booth core's screen rules, which the booth's loop used to decide itself: which controls show
// (the player's hide while a take plays untouched: ControlsVisibility), the tap-to-focus box (only
// over the live picture, with the camera there and no attract screen) and how long the loop may
// sleep when nothing wakes it; the attract slideshow's rule sits in its room (BoothCore+Slideshow).
import KioskContract

/// The player's controls and the tap's focus box.
public struct ScreenRoom: Sendable {
    /// The player's controls: hidden while a take plays untouched (ControlsVisibility).
    public internal(set) var controls: ControlsVisibility
    /// A tap's focus box: where (canvas pixels) and when (monotonic ns); drawn for a second.
    var focusBox: (point: Point, since: Int64)?
    /// The attract screen's slideshow, on the player's surface (BoothCore+Slideshow).
    public internal(set) var slideshow = SlideshowRule(enabled: false)

    init(now: Int64) { controls = ControlsVisibility(now: now) }
}

extension BoothCore {
    /// Whether the overlay (the buttons, the timer) shows at `now`: always, except while a take plays
    /// untouched.
    public func controlsShown(at now: Int64) -> Bool {
        machine.mode != .playing || screen.controls.visible(at: now, paused: machine.playbackPaused)
    }

    /// The buttons a touch can press at `now`: none while the controls are hidden, so the first tap
    /// on a bare picture pauses (and brings them back) rather than pressing an unseen Close.
    public func pressable(at now: Int64) -> [Button] {
        controlsShown(at: now) ? machine.visibleButtons : []
    }

    /// The model to draw at `now`, nil while the controls are hidden (the picture alone).
    public func shownModel(_ facts: ViewFacts, at now: Int64) -> ViewModel? {
        controlsShown(at: now) ? viewModel(facts, at: now) : nil
    }

    /// A tap on the picture (not on a button) at `point` (canvas pixels): in ready, the countdown or
    /// a take, with the camera there and no attract screen, the focus box shows there for a second
    /// and the camera is asked to focus.
    mutating func focus(at point: Point) -> [Effect] {
        guard machine.mode.live, !attracting, machine.cameraAvailable else { return [] }
        screen.focusBox = (point, now)
        return [.camera(.focus), .screen(.redraw)]
    }

    /// How long the loop may sleep at `now` when nothing wakes it (a new frame and every inbox
    /// message do): 8 ms while something moves on its own clock (the player, the countdown, the
    /// focus box, the attract screen's pulse, the photo's flash), else 33 ms, a frame at 30 fps, for
    /// what changes slowly (the meter without a camera, the timer, idle and watchdog clocks).
    public func idleWait(at now: Int64) -> Int {
        let focusing = screen.focusBox.map { machine.mode.live && now - $0.since < Self.focusBoxLength } ?? false
        if [.playing, .countdown].contains(machine.mode) || focusing || attracting || photo.flash(at: now) != nil { return 8 }
        return 33
    }
}
