// The library's grid geometry (LibraryGrid) as a table: columns, touch-sized cells a finger's gap
// apart inside the room, scrolling within its ends, hit testing, and the length's text.
import Testing
@testable import KioskCore

@Suite("LibraryGrid")
struct LibraryGridTests {
    @Test("cells: at least 48 px, 24 px apart and from the room's sides, newest first row by row; the room's scroll ends",
          arguments: [(Size(width: 800, height: 480), 3), (Size(width: 480, height: 800), 2), (Size(width: 1920, height: 1080), 3),
                      (Size(width: 1080, height: 1920), 3), (Size(width: 352, height: 288), 1)])
    func cells(canvas: Size, columns: Int) {
        let layout = Layout(canvas: canvas)
        for count in [0, 1, 2, 7, 40] {
            let grid = LibraryGrid(room: layout.content, count: count, textHeight: layout.textHeight)
            #expect(grid.columns == columns, "\(canvas)")
            #expect(grid.cellSize.width >= LibraryGrid.minimumCell && grid.cellSize.height >= LibraryGrid.minimumCell)
            let frames = (0..<count).map { grid.cell($0, scroll: 0) }
            for (i, f) in frames.enumerated() {
                #expect(f.x - layout.content.x >= LibraryGrid.gap && layout.content.maxX - f.maxX >= LibraryGrid.gap, "\(canvas) \(i) \(f)")
                if i % columns > 0 { #expect(f.x - frames[i - 1].maxX >= LibraryGrid.gap && f.y == frames[i - 1].y) }
                if i >= columns { #expect(f.y - frames[i - columns].maxY >= LibraryGrid.gap) }
            }
            // Scrolled to its end, the last row ends a gap above the room's bottom (or the grid fits).
            if let last = (0..<count).last {
                let end = grid.cell(last, scroll: grid.maxScroll)
                #expect(grid.maxScroll == 0 ? end.maxY + LibraryGrid.gap <= layout.content.maxY : end.maxY + LibraryGrid.gap == layout.content.maxY,
                        "\(canvas) \(count) \(end) \(grid.maxScroll)")
            }
            #expect(grid.clamped(-5) == 0 && grid.clamped(grid.maxScroll + 100) == grid.maxScroll)
        }
    }

    @Test("hit testing: a cell's centre is its take, a gap or outside the room is none, a cell scrolled under a panel is none")
    func hits() {
        let layout = Layout(canvas: Size(width: 800, height: 480))
        let grid = LibraryGrid(room: layout.content, count: 20, textHeight: layout.textHeight)
        for i in 0..<20 {
            let f = grid.cell(i, scroll: 120)
            let inside = layout.content.contains(f.center)
            #expect(grid.index(at: f.center, scroll: 120) == (inside ? i : nil), "\(i) \(f)")
        }
        let a = grid.cell(0, scroll: 0), b = grid.cell(1, scroll: 0)
        #expect(grid.index(at: Point(x: Double(a.maxX + b.x) / 2, y: a.center.y), scroll: 0) == nil)
        #expect(grid.index(at: Point(x: a.center.x, y: 5), scroll: 0) == nil)
        #expect(grid.visibleCells(scroll: 0).allSatisfy { $0.frame.maxY > layout.content.y && $0.frame.y < layout.content.maxY })
    }

    @Test("the length under a thumbnail", arguments: [(0.0, "0:00"), (7.2, "0:07"), (7.6, "0:08"), (59.6, "1:00"), (65, "1:05"), (600, "10:00"), (-3, "0:00")])
    func length(seconds: Double, text: String) {
        #expect(LibraryGrid.length(seconds) == text)
    }
}
