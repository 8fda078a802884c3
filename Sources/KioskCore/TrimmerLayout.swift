// Where the review's trimmer goes (`--trim`): a band of the take's pictures just above the
// bottom panel, across the canvas, with a handle each side of the part kept and its times above them.
// Pure geometry on the logical canvas, like Layout: the screen draws it, the input hit-tests it.
import KioskContract

public struct TrimmerLayout: Equatable, Sendable {
    /// The least width and height that takes a handle's touch (a finger, with room to spare).
    public static let handleTouch = 48

    /// The band the pictures fill: the take's whole length from its left edge to its right.
    public let strip: Rect
    /// The take's length in seconds, and the part kept.
    public let duration: Double
    public let range: TrimRange
    /// The handles as drawn: the start's just left of the part kept, the end's just right of it.
    public let startHandle: Rect
    public let endHandle: Rect
    /// The time labels' boxes, above the handles (kept on the canvas).
    public let startLabel: Rect
    public let endLabel: Rect

    public init(layout: Layout, duration: Double, range: TrimRange) {
        let canvas = layout.canvas
        let short = max(canvas.shortSide, 1)
        let margin = max(Int((Double(short) * 0.03).rounded()), 4)
        let handleWidth = max(Int((Double(short) * 0.035).rounded()), 12)
        let height = max(Int((Double(short) * 0.12).rounded()), Self.handleTouch)
        // Room for a handle (its touch) beyond each end of the band, so either can reach the take's ends.
        let side = margin + Self.handleTouch / 2
        let band = Rect(x: side, y: layout.bottomPanel.y - margin - height, width: max(canvas.width - 2 * side, 1), height: height)
        strip = band
        self.duration = duration
        self.range = range
        let start = Int(Self.x(of: range.start, in: band, duration: duration).rounded())
        let end = Int(Self.x(of: range.end, in: band, duration: duration).rounded())
        let startFrame = Rect(x: start - handleWidth, y: band.y, width: handleWidth, height: band.height)
        let endFrame = Rect(x: end, y: band.y, width: handleWidth, height: band.height)
        startHandle = startFrame
        endHandle = endFrame
        let labelHeight = layout.textHeight + 8
        let labelWidth = layout.textHeight * 4
        func label(centredAt x: Int) -> Rect {
            Rect(x: min(max(x - labelWidth / 2, 0), max(canvas.width - labelWidth, 0)), y: band.y - labelHeight - 4,
                 width: labelWidth, height: labelHeight)
        }
        var left = label(centredAt: startFrame.x + handleWidth / 2)
        var right = label(centredAt: endFrame.x + handleWidth / 2)
        // Labels that would overlap stand side by side around their middle, on the canvas.
        if left.maxX + 4 > right.x {
            let middle = (left.x + right.maxX) / 2
            left.x = min(max(middle - labelWidth - 2, 0), max(canvas.width - 2 * labelWidth - 4, 0))
            right.x = left.maxX + 4
        }
        startLabel = left
        endLabel = right
    }

    static func x(of seconds: Double, in strip: Rect, duration: Double) -> Double {
        guard duration > 0 else { return Double(strip.x) }
        return Double(strip.x) + min(max(seconds / duration, 0), 1) * Double(strip.width)
    }

    /// Where a time falls along the band.
    public func x(of seconds: Double) -> Double { Self.x(of: seconds, in: strip, duration: duration) }

    /// The time at `x` along the band (clamped to the take).
    public func seconds(atX x: Double) -> Double {
        guard strip.width > 0 else { return 0 }
        return min(max((x - Double(strip.x)) / Double(strip.width), 0), 1) * duration
    }

    /// The rectangle that takes a handle's touch: the handle grown to `handleTouch` each way.
    public func hitFrame(of handle: TrimHandle) -> Rect {
        let r = handle == .start ? startHandle : endHandle
        return r.outset(dx: max(0, (Self.handleTouch - r.width + 1) / 2), dy: max(0, (Self.handleTouch - r.height + 1) / 2))
    }

    /// The handle a touch at `point` takes: the nearer one where both could.
    public func handle(at point: Point) -> TrimHandle? {
        let hits = TrimHandle.allCases.filter { hitFrame(of: $0).contains(point) }
        return hits.min { abs(point.x - (($0 == .start ? startHandle : endHandle).center.x)) < abs(point.x - (($1 == .start ? startHandle : endHandle).center.x)) }
    }

    /// The pictures along the band: `count` boxes side by side, filling it.
    public func thumbnails(count: Int) -> [Rect] {
        guard count > 0 else { return [] }
        return (0..<count).map { i in
            let x0 = strip.x + strip.width * i / count, x1 = strip.x + strip.width * (i + 1) / count
            return Rect(x: x0, y: strip.y, width: x1 - x0, height: strip.height)
        }
    }

    /// A handle's time as shown above it: "0:01.5" (seconds to the tenth).
    public static func timeText(_ seconds: Double) -> String {
        let tenths = Int((max(seconds, 0) * 10).rounded())
        let minutes = tenths / 600, rest = tenths % 600
        return "\(minutes):" + (rest < 100 ? "0" : "") + "\(rest / 10).\(rest % 10)"
    }

    /// How many pictures the band holds at `aspect` (width / height) each, at least one.
    public func thumbnailCount(aspect: Double) -> Int {
        guard aspect > 0, strip.height > 0 else { return 1 }
        return max(Int((Double(strip.width) / (Double(strip.height) * aspect)).rounded(.up)), 1)
    }
}
