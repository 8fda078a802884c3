// Interface orientations (the iOS names) and the transform between the physical display and the
// logical canvas the UI is laid out on.
import KioskContract

extension Orientation {
    /// Clockwise quarter turns of this interface from a portrait device held upright: landscape-right
    /// (home button on the right) is the device turned a quarter counter-clockwise, so the interface
    /// is turned one quarter clockwise relative to the device.
    public var quarterTurnsFromPortrait: Int {
        switch self {
        case .portrait: 0
        case .landscapeRight: 1
        case .portraitUpsideDown: 2
        case .landscapeLeft: 3
        }
    }

    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }

    /// The orientation a display of this size shows unrotated: a landscape (or square) panel is
    /// landscape-right, like a monitor; a portrait panel is portrait, like a phone.
    public static func natural(for display: Size) -> Orientation {
        display.isPortrait ? .portrait : .landscapeRight
    }

    /// Parses the command-line spelling ("portrait", "landscape-left", …).
    public init?(argument: String) { self.init(rawValue: argument) }
}

/// How the logical canvas (laid out for the interface orientation) sits on the physical display.
/// The canvas is drawn turned `quarterTurns` × 90° clockwise; touches map back the other way.
public struct DisplayTransform: Equatable, Sendable {
    /// The display's (or window's) size in pixels as the video driver reports it.
    public let physical: Size
    public let orientation: Orientation
    /// Clockwise quarter turns from the canvas to the display (0…3).
    public let quarterTurns: Int

    public init(physical: Size, orientation: Orientation) {
        self.physical = physical
        self.orientation = orientation
        let natural = Orientation.natural(for: physical)
        let turns = orientation.quarterTurnsFromPortrait - natural.quarterTurnsFromPortrait
        self.quarterTurns = ((turns % 4) + 4) % 4
    }

    /// The canvas size: the display's, swapped when the canvas is turned a quarter.
    public var logical: Size { quarterTurns.isMultiple(of: 2) ? physical : physical.transposed }

    /// The clockwise angle in degrees to draw the canvas with (SDL_RenderCopyEx's convention).
    public var degrees: Double { Double(quarterTurns * 90) }

    /// A point on the canvas → the same point on the display.
    public func toPhysical(_ p: Point) -> Point {
        let w = Double(logical.width), h = Double(logical.height)
        switch quarterTurns {
        case 1: return Point(x: h - p.y, y: p.x)
        case 2: return Point(x: w - p.x, y: h - p.y)
        case 3: return Point(x: p.y, y: w - p.x)
        default: return p
        }
    }

    /// A point on the display (a touch, a click) → the point on the canvas under it.
    public func toLogical(_ p: Point) -> Point {
        let w = Double(logical.width), h = Double(logical.height)
        switch quarterTurns {
        case 1: return Point(x: p.y, y: h - p.x)
        case 2: return Point(x: w - p.x, y: h - p.y)
        case 3: return Point(x: w - p.y, y: p.x)
        default: return p
        }
    }

    /// A rectangle on the canvas → the rectangle it covers on the display.
    public func toPhysical(_ r: Rect) -> Rect {
        let a = toPhysical(Point(x: Double(r.x), y: Double(r.y)))
        let b = toPhysical(Point(x: Double(r.maxX), y: Double(r.maxY)))
        let x0 = Int(min(a.x, b.x)), y0 = Int(min(a.y, b.y))
        let x1 = Int(max(a.x, b.x)), y1 = Int(max(a.y, b.y))
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// How a camera frame must be turned (clockwise quarter turns) to look upright on the canvas.
    /// The camera is fixed to the display (as on a phone or a booth panel), so when the panel is
    /// mounted turned, the world arrives turned the other way: the frame is turned back by the
    /// canvas's own turn, plus the camera's configured mount rotation. The same turn goes into the
    /// recording's display matrix, so a player shows the take as the guest saw it.
    public func cameraQuarterTurns(mount: Int = 0) -> Int {
        (((mount - quarterTurns) % 4) + 4) % 4
    }
}
