// The library's grid (`--library`, issue 34) read back pixel by pixel on a landscape display, a
// portrait one and a landscape one turned portrait: each take's thumbnail in its cell (its colour,
// not black), its length under it, newest first; a touch on a cell is that take, a drag scrolls the
// grid (and is no tap); a picked take's review shows its thumbnail large.
import CSDL2
import Foundation
import KioskContract
import KioskCore
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("The library in pixels: landscape and portrait")
    struct LibraryPixelTests {
        /// Ten takes, newest first, each thumbnail a plain colour of its own (16:9, 160x90).
        static let colours: [RGB] = (0..<10).map { (i: Int) -> RGB in
            let r = Double(40 + 20 * i), g = Double(200 - 15 * i), b = Double((i * 70) % 256)
            return RGB(r, g, b)
        }
        static let entries = (0..<10).map { LibraryEntry(path: "/takes/take-\(10 - $0).mov", duration: Double(3 + 7 * $0) + 0.2) }

        static func pictures() -> [String: RGBPicture] {
            var pictures: [String: RGBPicture] = [:]
            for (entry, c) in zip(entries, colours) {
                var rgb: [UInt8] = []
                for _ in 0..<160 * 90 { rgb += [UInt8(c.r), UInt8(c.g), UInt8(c.b)] }
                pictures[entry.path] = RGBPicture(pixels: rgb, size: Size(width: 160, height: 90), pitch: 160 * 3)
            }
            return pictures
        }

        /// For the README: each take's thumbnail colour bars (the test camera's), darker take by take.
        static func barPictures() -> [String: RGBPicture] {
            let bars: [(UInt8, UInt8, UInt8)] = [(235, 235, 235), (235, 235, 16), (16, 235, 235), (16, 235, 16), (235, 16, 235),
                                                 (235, 16, 16), (16, 16, 235), (16, 16, 16)]
            var pictures: [String: RGBPicture] = [:]
            for (i, entry) in entries.enumerated() {
                var rgb: [UInt8] = []
                for _ in 0..<90 {
                    for x in 0..<160 {
                        let (r, g, b) = bars[x * bars.count / 160]
                        let k = 1 - Double(i) * 0.07
                        rgb += [UInt8(Double(r) * k), UInt8(Double(g) * k), UInt8(Double(b) * k)]
                    }
                }
                pictures[entry.path] = RGBPicture(pixels: rgb, size: Size(width: 160, height: 90), pitch: 160 * 3)
            }
            return pictures
        }

        static func grid() -> RecorderMachine {
            var m = Models.machine()
            m.library = true
            _ = m.handle(.press(.openLibrary))
            _ = m.handle(.libraryListed(entries))
            return m
        }

        /// The screen with the takes' thumbnails, showing `machine`'s view (drawn once), and that view.
        static func open(_ s: ElementScreen, showing machine: RecorderMachine) throws -> (Screen, ViewModel) {
            let screen = try s.open()
            screen.setLibraryPictures(pictures())
            let model = machine.viewModel
            try screen.draw(model)
            return (screen, model)
        }

        static let screens: [ElementScreen] = ElementScreen.all.filter { $0.language == .en }

        @Test("the grid: each visible take's thumbnail in its colour (not black) at its cell, newest first, its length under it; a tap on a cell is that take",
              arguments: screens)
        func grid(_ s: ElementScreen) throws {
            let (screen, model) = try Self.open(s, showing: Self.grid())
            let check = try s.check(screen, model, "grid")
            let grid = Overlay.libraryGrid(screen.layout, count: Self.entries.count)
            let shown = grid.visibleCells(scroll: 0).filter { $0.frame.isInside(screen.layout.content) }
            #expect(shown.count >= 2, "\(check.label): \(grid)")
            for (index, cell) in shown {
                let box = Overlay.fitted(Size(width: 160, height: 90), in: grid.thumbnail(in: cell))
                let colour = check.pixels.color(check.pixel(box.center))
                check.expectColor(check.pixel(box.center), Self.colours[index], within: 6, "take \(index)'s thumbnail")
                #expect(colour.r + colour.g + colour.b > 60, "\(check.label): take \(index) black")
                // Its length: light text in the line under it.
                let label = grid.label(in: cell)
                let light = check.count(in: label, near: RGB(Style.lightText), within: 60)
                #expect(light > 10, "\(check.label): take \(index)'s length")
                #expect(screen.libraryIndex(atLogical: cell.center, count: Self.entries.count) == index)
                // Every cell a touch target, a finger's gap from its neighbours.
                #expect(cell.width >= LibraryGrid.minimumCell && cell.height >= LibraryGrid.minimumCell)
            }
            // A touch between cells, or on a panel, is no take.
            #expect(screen.libraryIndex(atLogical: Point(x: Double(screen.layout.content.x) + 2, y: Double(screen.layout.content.y) + 2),
                                        count: Self.entries.count) == nil)
        }

        @Test("a drag scrolls the grid (the cells move with the finger, within its ends) and lifting it taps nothing; a tap without moving is the take under it",
              arguments: screens)
        func dragAndTap(_ s: ElementScreen) throws {
            let (screen, model) = try Self.open(s, showing: Self.grid())
            let grid = Overlay.libraryGrid(screen.layout, count: Self.entries.count)
            #expect(grid.maxScroll > 0, "ten takes overflow \(grid.room)")
            let visible = model.buttons
            _ = screen.pollEvents(visible: visible)
            let first = grid.cell(0, scroll: 0)
            let from = screen.transform.toPhysical(first.center)
            let to = screen.transform.toPhysical(Point(x: first.center.x, y: first.center.y - 80))
            pushMouse(SDL_MOUSEBUTTONDOWN, at: from)
            pushMouse(SDL_MOUSEMOTION, at: to)
            pushMouse(SDL_MOUSEBUTTONUP, at: to)
            let dragged = screen.pollEvents(visible: visible)
            #expect(dragged.contains(.libraryScrolled), "\(dragged)")
            #expect(!dragged.contains { if case .tapElsewhere = $0 { true } else { false } }, "\(dragged)")
            #expect(screen.library.scroll == min(80, grid.maxScroll))
            try screen.draw(model)
            let check = try s.check(screen, model, "scrolled")
            let moved = grid.cell(1, scroll: screen.library.scroll)
            if moved.isInside(screen.layout.content) {
                let box = Overlay.fitted(Size(width: 160, height: 90), in: grid.thumbnail(in: moved))
                check.expectColor(check.pixel(box.center), Self.colours[1], within: 6, "take 1 after the scroll")
            }
            // A tap that does not move: the take under it.
            let target = grid.cell(1, scroll: screen.library.scroll)
            let tap = screen.transform.toPhysical(grid.thumbnail(in: target).center)
            pushMouse(SDL_MOUSEBUTTONDOWN, at: tap)
            pushMouse(SDL_MOUSEBUTTONUP, at: tap)
            let tapped = screen.pollEvents(visible: visible)
            guard case let .tapElsewhere(point)? = tapped.last else { Issue.record("\(tapped)"); return }
            #expect(screen.libraryIndex(atLogical: point, count: Self.entries.count) == 1)
        }

        @Test("a picked take's review: its thumbnail large between the panels, Back, Use Video and Play Video",
              arguments: screens)
        func review(_ s: ElementScreen) throws {
            var m = Self.grid()
            _ = m.handle(.pick(path: Self.entries[2].path))
            let (screen, model) = try Self.open(s, showing: m)
            #expect(model.buttons == [.back, .useVideo, .playVideo])
            let check = try s.check(screen, model, "review")
            let area = screen.layout.content.outset(dx: -LibraryGrid.gap, dy: -LibraryGrid.gap)
            let box = Overlay.fitted(Size(width: 160, height: 90), in: area)
            // Away from Play Video in the middle: a quarter in from the box's left edge.
            let p = Point(x: Double(box.x) + Double(box.width) / 8, y: Double(box.y) + Double(box.height) / 8)
            check.expectColor(check.pixel(p), Self.colours[2], within: 6, "the picked take's thumbnail")
        }
    }
}
