// The library on screen (`--library`): the grid of the takes' thumbnails, newest first,
// each with its length ("0:07") under it, laid out by KioskCore's LibraryGrid between the panels
// and scrolled by a finger's drag; a picked take's review shows its thumbnail large. The thumbnails
// arrive as JPEGs from the file worker (`setLibraryThumbnails`; pixels, `setLibraryPictures`, in
// tests) and become textures as their cells are drawn.
import CSDL2
import KioskContract
import KioskCore

/// The thumbnails by take path, and the textures of those drawn lately. A listing's thumbnails come
/// as JPEGs, decoded when a cell is first drawn; only `keptTextures` textures are kept (the least
/// lately drawn go), so 500 takes hold their JPEGs and a screenful of textures, not 500 pictures.
/// Pixels handed over as they are (`set(_:)`) are uploaded once and kept.
final class LibraryTextures {
    private let renderer: Renderer
    private var pictures: [String: RGBPicture] = [:]
    private var jpegs: [String: [UInt8]] = [:]
    private var decode: (([UInt8]) -> RGBPicture?)?
    private var textures: [String: Texture] = [:]
    /// Paths with a texture that a JPEG can make again, least lately drawn first.
    private var recent: [String] = []
    /// Textures kept at once: a few screenfuls of cells.
    static let keptTextures = 64

    init(renderer: Renderer) { self.renderer = renderer }

    /// A new listing as pixels: pictures no longer listed go with their textures; a path listed
    /// before keeps its texture (a take's thumbnail never changes).
    func set(_ new: [String: RGBPicture]) {
        textures = textures.filter { new[$0.key] != nil }
        pictures = new
        jpegs = [:]
        recent = []
    }

    /// A new listing as JPEGs, decoded with `decode` when first drawn.
    func set(jpegs new: [String: [UInt8]], decode: @escaping ([UInt8]) -> RGBPicture?) {
        textures = textures.filter { new[$0.key] != nil }
        recent = recent.filter { new[$0] != nil }
        pictures = [:]
        jpegs = new
        self.decode = decode
    }

    /// The texture of a take's thumbnail, uploaded on first use (`SDL_UpdateTexture`); nil: none.
    func texture(_ path: String) throws(SDLError) -> Texture? {
        if let texture = textures[path] {
            drawn(path)
            return texture
        }
        guard let picture = pictures[path] ?? jpegs[path].flatMap({ decode?($0) }), picture.pitch >= picture.size.width * 3,
              picture.pixels.count >= picture.pitch * picture.size.height else { return nil }
        let texture = try Texture(renderer: renderer, format: SDL_PIXELFORMAT_RGB24.rawValue, access: SDL_TEXTUREACCESS_STATIC,
                                  size: picture.size)
        guard SDL_UpdateTexture(texture.handle, nil, picture.pixels, Int32(picture.pitch)) == 0 else {
            throw SDLError(call: "SDL_UpdateTexture(library thumbnail \(picture.size))")
        }
        SDL_SetTextureBlendMode(texture.handle, SDL_BLENDMODE_NONE)
        textures[path] = texture
        // Its pixels are on the texture now.
        pictures[path]?.pixels = []
        drawn(path)
        return texture
    }

    /// `path` was drawn: the least lately drawn of the textures a JPEG can make again go past
    /// `keptTextures`.
    private func drawn(_ path: String) {
        guard jpegs[path] != nil else { return }
        recent.removeAll { $0 == path }
        recent.append(path)
        while recent.count > Self.keptTextures { textures[recent.removeFirst()] = nil }
    }
}

extension Overlay {
    /// The library's grid geometry on this layout.
    static func libraryGrid(_ layout: Layout, count: Int) -> LibraryGrid {
        LibraryGrid(room: layout.content, count: count, textHeight: layout.textHeight)
    }

    /// The library: a dark screen, then the grid (or a review's thumbnail), under the panels.
    func drawLibrary(_ room: LibraryRoom, scroll: Int) throws(SDLError) {
        painter.fill(Rect(x: 0, y: 0, width: layout.canvas.width, height: layout.canvas.height), RGBA(16, 16, 18))
        guard let entries = room.entries, let library else { return }
        if let picked = room.picked {
            let area = layout.content.outset(dx: -LibraryGrid.gap, dy: -LibraryGrid.gap)
            if let texture = try library.texture(picked.path) { painter.picture(texture, in: Self.fitted(texture.size, in: area)) }
            return
        }
        let grid = Self.libraryGrid(layout, count: entries.count)
        for (index, cell) in grid.visibleCells(scroll: scroll) {
            let entry = entries[index]
            let box = grid.thumbnail(in: cell)
            painter.fill(box, RGBA(44, 44, 46))
            if let texture = try library.texture(entry.path) { painter.picture(texture, in: Self.fitted(texture.size, in: box)) }
            let label = grid.label(in: cell)
            let words = try text.line(LibraryGrid.length(entry.duration), size: textSize, maxWidth: label.width)
            painter.text(words, centeredAt: label.center, Style.lightText)
        }
    }

    /// `size` scaled to fit inside `box`, centred (aspect-fit).
    static func fitted(_ size: Size, in box: Rect) -> Rect {
        guard size.width > 0, size.height > 0 else { return box }
        let scale = min(Double(box.width) / Double(size.width), Double(box.height) / Double(size.height))
        let w = Int((Double(size.width) * scale).rounded()), h = Int((Double(size.height) * scale).rounded())
        return Rect(x: box.x + (box.width - w) / 2, y: box.y + (box.height - h) / 2, width: w, height: h)
    }
}

/// A finger (or the mouse) on the library's grid: where it went down and the scroll then; past
/// `Screen.librarySlop` it scrolls, and its lifting is then no tap.
struct LibraryDrag {
    let pointer: PointerTracker.Pointer
    let startY: Double
    let startScroll: Int
    var moved = false
}

extension Screen {
    /// How far a finger moves before a touch on the grid is a drag, not a tap (canvas pixels).
    static let librarySlop = 12.0

    /// The library's thumbnails, by take path (from the file worker's listing); the grid goes back
    /// to its top.
    public func setLibraryPictures(_ pictures: [String: RGBPicture]) {
        library.textures.set(pictures)
        library.scroll = 0
        library.drag = nil
    }

    /// The library's thumbnails as JPEGs, by take path, decoded with `decode` as their cells are
    /// drawn; the grid goes back to its top.
    public func setLibraryThumbnails(_ jpegs: [String: [UInt8]], decode: @escaping ([UInt8]) -> RGBPicture?) {
        library.textures.set(jpegs: jpegs, decode: decode)
        library.scroll = 0
        library.drag = nil
    }

    /// The library's take under a canvas point (its index in the grid of `count`), if any.
    public func libraryIndex(atLogical point: Point, count: Int) -> Int? {
        Overlay.libraryGrid(layout, count: count).index(at: point, scroll: library.scroll)
    }

    /// The grid as last drawn, when the library's grid (not a review) shows.
    private var libraryGridShowing: LibraryGrid? {
        guard let room = window.lastModel?.library, room.picked == nil, let count = room.entries?.count else { return nil }
        return Overlay.libraryGrid(layout, count: count)
    }

    /// A pointer down on the grid (not on a button) may become a drag.
    func libraryDragBegins(_ pointer: PointerTracker.Pointer, at physical: Point, visible: [Button]) {
        let logical = transform.toLogical(physical)
        guard let grid = libraryGridShowing, grid.room.contains(logical), layout.button(at: logical, among: visible) == nil else {
            if library.drag?.pointer == pointer { library.drag = nil }
            return
        }
        library.drag = LibraryDrag(pointer: pointer, startY: logical.y, startScroll: library.scroll)
    }

    /// The drag follows the finger (the grid moves with it, within its ends); true when it scrolled.
    func libraryDragMoves(_ pointer: PointerTracker.Pointer, to physical: Point) -> Bool {
        guard var drag = library.drag, drag.pointer == pointer, let grid = libraryGridShowing else { return false }
        let dy = transform.toLogical(physical).y - drag.startY
        if abs(dy) >= Self.librarySlop { drag.moved = true }
        library.drag = drag
        guard drag.moved else { return false }
        let scroll = grid.clamped(drag.startScroll - Int(dy.rounded()))
        guard scroll != library.scroll else { return false }
        library.scroll = scroll
        return true
    }

    /// The pointer lifted: whether it had dragged (then it taps nothing).
    func libraryDragEnds(_ pointer: PointerTracker.Pointer) -> Bool {
        guard let drag = library.drag, drag.pointer == pointer else { return false }
        library.drag = nil
        return drag.moved
    }
}

/// The library's grid on screen: the thumbnails uploaded for it, how far it is scrolled (canvas
/// pixels), and the finger dragging it.
struct LibraryView {
    let textures: LibraryTextures
    var scroll = 0
    var drag: LibraryDrag?
}
