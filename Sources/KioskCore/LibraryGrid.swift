// The library's grid (`--library`) as pure geometry: the takes' cells between the panels, newest
// first, row by row, each a thumbnail with its length under it; a finger's gap (24 px) between
// cells and around them, every cell at least a touch target (48 px), scrolled by a vertical offset.

public struct LibraryGrid: Equatable, Sendable {
    /// The room between cells and around them.
    public static let gap = 24
    /// A cell's least width and height: a touch target with room to spare.
    public static let minimumCell = 48

    /// Where the grid shows (between the panels).
    public let room: Rect
    public let count: Int
    public let columns: Int
    /// A cell: its thumbnail (16:9) over a line for its length.
    public let cellSize: Size
    /// The thumbnail's height within a cell; the rest is the length's line.
    public let thumbnailHeight: Int
    /// How far the grid can scroll (0 when it fits).
    public let maxScroll: Int

    /// `textHeight`: the length's text size (the layout's).
    public init(room: Rect, count: Int, textHeight: Int) {
        self.room = room
        self.count = max(count, 0)
        let gap = LibraryGrid.gap
        // About three columns on a landscape screen and two on a portrait one, never a cell under
        // the minimum (one column, as narrow as the room, if that is all there is).
        let wanted = max(LibraryGrid.minimumCell * 3, room.width / 4)
        columns = max(1, (room.width - gap) / (wanted + gap))
        let width = max((room.width - gap * (columns + 1)) / columns, LibraryGrid.minimumCell)
        thumbnailHeight = max(width * 9 / 16, LibraryGrid.minimumCell - textHeight)
        cellSize = Size(width: width, height: thumbnailHeight + Int((Double(textHeight) * 1.5).rounded()))
        let rows = (self.count + columns - 1) / columns
        let total = rows * cellSize.height + (rows + 1) * gap
        maxScroll = max(total - room.height, 0)
    }

    /// The scroll kept within 0…`maxScroll`.
    public func clamped(_ scroll: Int) -> Int { min(max(scroll, 0), maxScroll) }

    /// Cell `index`'s rectangle on the canvas at `scroll` (it may lie partly or wholly outside the room).
    public func cell(_ index: Int, scroll: Int) -> Rect {
        let gap = LibraryGrid.gap
        // The row of cells centred in the room's width.
        let used = columns * cellSize.width + (columns - 1) * gap
        let left = room.x + (room.width - used) / 2
        let (row, column) = index.quotientAndRemainder(dividingBy: columns)
        return Rect(x: left + column * (cellSize.width + gap), y: room.y + gap + row * (cellSize.height + gap) - clamped(scroll),
                    width: cellSize.width, height: cellSize.height)
    }

    /// The cells that show at `scroll`, each with its index: those that reach into the room.
    public func visibleCells(scroll: Int) -> [(index: Int, frame: Rect)] {
        (0..<count).map { ($0, cell($0, scroll: scroll)) }.filter { $0.frame.maxY > room.y && $0.frame.y < room.maxY }
    }

    /// The thumbnail's part of a cell, and the length's.
    public func thumbnail(in cell: Rect) -> Rect { Rect(x: cell.x, y: cell.y, width: cell.width, height: thumbnailHeight) }
    public func label(in cell: Rect) -> Rect {
        Rect(x: cell.x, y: cell.y + thumbnailHeight, width: cell.width, height: cell.height - thumbnailHeight)
    }

    /// The take under a canvas point at `scroll`, if any (only where the grid shows).
    public func index(at point: Point, scroll: Int) -> Int? {
        guard room.contains(point) else { return nil }
        return visibleCells(scroll: scroll).first { $0.frame.contains(point) }?.index
    }

    /// A take's length as the grid shows it: "0:07", "1:05", rounded to the second.
    public static func length(_ seconds: Double) -> String {
        let whole = Int(max(seconds, 0).rounded())
        let (minutes, rest) = whole.quotientAndRemainder(dividingBy: 60)
        return "\(minutes):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}
