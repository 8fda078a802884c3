// Plain geometry values shared by layout, input mapping and drawing: pixels are Int, touches Double.

/// A size in pixels.
public struct Size: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The same size turned a quarter: width and height swapped.
    public var transposed: Size { Size(width: height, height: width) }
    public var shortSide: Int { min(width, height) }
    public var isPortrait: Bool { height > width }
    /// "WxH", the form the command line and the config file use.
    public var description: String { "\(width)x\(height)" }
}

/// A point in pixels; fractional because touches arrive normalised and are scaled.
public struct Point: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        (self.x, self.y) = (x, y)
    }
}

/// An axis-aligned rectangle in whole pixels (the form SDL_Rect takes).
public struct Rect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public init(origin x: Int, _ y: Int, size: Size) {
        self.init(x: x, y: y, width: size.width, height: size.height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var size: Size { Size(width: width, height: height) }
    public var center: Point { Point(x: Double(x) + Double(width) / 2, y: Double(y) + Double(height) / 2) }
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether the point lies inside (left and top edges in, right and bottom edges out).
    public func contains(_ p: Point) -> Bool {
        p.x >= Double(x) && p.x < Double(maxX) && p.y >= Double(y) && p.y < Double(maxY)
    }

    /// Whether this rectangle lies wholly inside `other`.
    public func isInside(_ other: Rect) -> Bool {
        x >= other.x && y >= other.y && maxX <= other.maxX && maxY <= other.maxY
    }

    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// Grown by `dx` on the left and right and `dy` at the top and bottom (negative shrinks).
    public func outset(dx: Int, dy: Int) -> Rect {
        Rect(x: x - dx, y: y - dy, width: width + 2 * dx, height: height + 2 * dy)
    }

    /// A rectangle of `size` centred on this one's centre (rounded down to whole pixels).
    public func centered(_ size: Size) -> Rect {
        Rect(x: x + (width - size.width) / 2, y: y + (height - size.height) / 2,
             width: size.width, height: size.height)
    }

    public var description: String { "(\(x),\(y) \(width)x\(height))" }
}

/// Scaling of content into an area, ffplay's `calculate_display_rect` and its fill twin.
public enum Scaling {
    /// The part of a `source` frame to show so that, turned by `quarterTurns` clockwise, it fills
    /// `destination` exactly: the edges that do not fit are cropped, nothing is letterboxed.
    /// The result is in the source's own (unturned) pixel coordinates and centred.
    public static func aspectFillCrop(source: Size, destination: Size, quarterTurns: Int = 0) -> Rect {
        let shown = quarterTurns.isMultiple(of: 2) ? source : source.transposed
        guard shown.width > 0, shown.height > 0, destination.width > 0, destination.height > 0 else {
            return Rect(x: 0, y: 0, width: 0, height: 0)
        }
        // Compare aspect ratios in integers: shown.w / shown.h against dest.w / dest.h.
        var crop = shown
        if shown.width * destination.height > destination.width * shown.height {
            // Source wider than the destination: keep the full height, crop the sides.
            crop.width = roundedDivision(shown.height * destination.width, destination.height)
        } else {
            // Source taller (or equal): keep the full width, crop top and bottom.
            crop.height = roundedDivision(shown.width * destination.height, destination.width)
        }
        let cropInSource = quarterTurns.isMultiple(of: 2) ? crop : crop.transposed
        return Rect(x: 0, y: 0, width: source.width, height: source.height).centered(cropInSource)
    }

    /// Where `content` turned by `quarterTurns` clockwise goes inside `area`: as large as fits
    /// whole, centred, with bars on the remaining sides (for playback, where nothing is cut).
    public static func aspectFit(content: Size, in area: Rect, quarterTurns: Int = 0) -> Rect {
        aspect(content: content, in: area, quarterTurns: quarterTurns, cover: false)
    }

    /// Where `content` turned by `quarterTurns` clockwise goes to cover `area` whole: as small as
    /// covers it, centred, reaching past two of its sides (aspect-fill, the picture's edges cut off
    /// by the area's).
    public static func aspectCover(content: Size, in area: Rect, quarterTurns: Int = 0) -> Rect {
        aspect(content: content, in: area, quarterTurns: quarterTurns, cover: true)
    }

    /// The content's aspect kept, one side of `area` matched: the one that makes it fit whole, or
    /// (`cover`) the one that makes it cover the area.
    private static func aspect(content: Size, in area: Rect, quarterTurns: Int, cover: Bool) -> Rect {
        let shown = quarterTurns.isMultiple(of: 2) ? content : content.transposed
        guard shown.width > 0, shown.height > 0, !area.isEmpty else {
            return Rect(x: area.x, y: area.y, width: 0, height: 0)
        }
        var size = area.size
        // Wider than the area (relative to its shape): fit keeps the width, cover the height.
        if (shown.width * area.height > area.width * shown.height) != cover {
            size.height = roundedDivision(area.width * shown.height, shown.width)
        } else {
            size.width = roundedDivision(area.height * shown.width, shown.height)
        }
        return area.centered(size)
    }

    static func roundedDivision(_ a: Int, _ b: Int) -> Int { (2 * a + b) / (2 * b) }
}
