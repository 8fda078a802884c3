// The player's controls hide themselves while a take plays untouched, as every video player's do:
// the picture is then the guest's whole screen (and the software renderer does not blend the
// panels over every frame). Any touch or key brings them back; they stay while paused.
import KioskContract

public struct ControlsVisibility: Equatable, Sendable {
    /// How long the controls stay after the last touch while playing.
    public static let holdNanoseconds: Int64 = 3_000_000_000

    /// When the guest last touched the screen (monotonic nanoseconds).
    public private(set) var lastTouch: Int64

    public init(now: Int64) { lastTouch = now }

    public mutating func touched(at now: Int64) { lastTouch = max(lastTouch, now) }

    /// Whether the controls show at `now`.
    public func visible(at now: Int64, paused: Bool) -> Bool {
        paused || now - lastTouch < Self.holdNanoseconds
    }

    /// The buttons a touch can press now: none while the controls are hidden, so the first tap on
    /// a bare picture pauses (and brings them back) rather than pressing an unseen Close.
    public func pressable(_ buttons: [Button], at now: Int64, paused: Bool) -> [Button] {
        visible(at: now, paused: paused) ? buttons : []
    }
}
