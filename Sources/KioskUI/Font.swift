// Owns one TTF_Font from SDL2_ttf and renders text to ARGB surfaces for the overlay.
import CSDL2
import CSDL2TTF
import FoundationEssentials
import Glibc
import KioskCore
import KioskScreenText
import KioskSystem

/// A font file's bytes, mapped once and shared by every size of it. SDL_ttf reads a font lazily
/// for as long as it is open; from a private read-only mapping, only the pages it reads are
/// resident (a CJK collection is some 20 MB, of which a screen's words touch little), and the booth
/// holds no descriptor of it (`TTF_OpenFont` keeps the file open without close-on-exec, so a child
/// process would inherit it).
final class FontFile: Sendable {
    /// Mapped in init, unmapped in deinit, never written (PROT_READ): SDL_ttf reads it through a pointer.
    nonisolated(unsafe) let bytes: UnsafeRawBufferPointer
    private static let loaded = Locked<[String: FontFile]>([:])

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }

    /// The file at `path`, from the cache after the first time.
    static func named(_ path: String) throws(SDLError) -> FontFile {
        if let file = loaded.withLock({ $0[path] }) { return file }
        let opened: FileDescriptor
        do { opened = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC) } catch {
            throw SDLError(call: "TTF_OpenFont(\(path))", message: "cannot read the font file: \(String(cString: strerror(error.errno)))")
        }
        var info = stat()
        guard fstat(opened.rawValue, &info) == 0, info.st_size > 0 else {
            throw SDLError(call: "TTF_OpenFont(\(path))", message: "cannot read the font file: \(String(cString: strerror(errno)))")
        }
        let mapped = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, opened.rawValue, 0)
        // The mapping stays once the file is closed.
        _ = consume opened
        guard let mapped, mapped != MAP_FAILED else {
            throw SDLError(call: "TTF_OpenFont(\(path))", message: "cannot map the font file: \(String(cString: strerror(errno)))")
        }
        let file = FontFile(UnsafeRawBufferPointer(start: mapped, count: Int(info.st_size)))
        loaded.withLock { $0[path] = file }
        return file
    }
}

/// A font at one pixel size (`TTF_OpenFontRW` on the file's bytes in memory), closed with
/// `TTF_CloseFont`. Needs an `SDLContext` alive (TTF_Init); use on the UI thread only.
public final class Font {
    let handle: OpaquePointer
    public let pointSize: Int32
    /// The bytes SDL_ttf reads from while the font is open.
    private let file: FontFile

    public convenience init(path: String, pointSize: Int32) throws(SDLError) {
        try self.init(face: FaceSource(path: path), pointSize: pointSize)
    }

    /// One face of a file (a collection's faces are numbered from 0).
    public init(face: FaceSource, pointSize: Int32) throws(SDLError) {
        let file = try FontFile.named(face.path)
        // `file` outlives the font (a stored property); freesrc = 1 frees the RWops with the font.
        guard let rw = SDL_RWFromConstMem(file.bytes.baseAddress, Int32(file.bytes.count)),
              let font = TTF_OpenFontIndexRW(rw, 1, pointSize, face.index) else { throw SDLError(call: "TTF_OpenFont(\(face))") }
        handle = font
        self.pointSize = pointSize
        self.file = file
    }

    deinit { TTF_CloseFont(handle) }

    /// Sets the font's direction and script for `text` before it is shaped (SDL_ttf's HarfBuzz:
    /// `TTF_SetFontDirection`, `TTF_SetFontScriptName`): right to left with Arabic's or Hebrew's
    /// shaping when its first strong character is, else left to right as before. A font is shared
    /// by every text of its size, so each measure and render sets them. The text to hand SDL_ttf:
    /// a right-to-left one with its Latin words and numbers turned for HarfBuzz, which lays out the
    /// whole line one way (`TextDirection.forShaper`).
    func shape(for text: String) -> String {
        let direction = TextDirection.of(text)
        shape(direction, script: TextDirection.script(of: text))
        return direction == .rightToLeft ? TextDirection.forShaper(text) : text
    }

    /// Sets the direction and script the next measure or render shapes with: a part of a text
    /// (words between emoji) is shaped as the whole text is.
    func shape(_ direction: TextDirection, script: String) {
        TTF_SetFontDirection(handle, direction == .rightToLeft ? TTF_DIRECTION_RTL : TTF_DIRECTION_LTR)
        TTF_SetFontScriptName(handle, script)
    }

    /// Renders anti-aliased text (`TTF_RenderUTF8_Blended`) into a new ARGB8888 surface.
    public func render(_ text: String, red: UInt8 = 255, green: UInt8 = 255, blue: UInt8 = 255) throws(SDLError) -> Surface {
        try render(shaped: shape(for: text), red: red, green: green, blue: blue)
    }

    /// `render` of a text as it is, in the direction and script set last (`shape`).
    func render(shaped text: String, red: UInt8 = 255, green: UInt8 = 255, blue: UInt8 = 255) throws(SDLError) -> Surface {
        let color = SDL_Color(r: red, g: green, b: blue, a: 255)
        guard let surface = TTF_RenderUTF8_Blended(handle, text, color) else {
            throw SDLError(call: "TTF_RenderUTF8_Blended")
        }
        return Surface(owning: surface)
    }

    /// The width of `text` on one line, in pixels, without rendering it (`TTF_SizeUTF8`).
    public func width(of text: String) throws(SDLError) -> Int {
        try width(shaped: shape(for: text))
    }

    /// `width(of:)` of a text as it is, in the direction and script set last (`shape`).
    func width(shaped text: String) throws(SDLError) -> Int {
        var w: Int32 = 0, h: Int32 = 0
        guard TTF_SizeUTF8(handle, text, &w, &h) == 0 else { throw SDLError(call: "TTF_SizeUTF8") }
        return Int(w)
    }

    /// The height of a line (`TTF_FontHeight`: ascent and descent) and the distance from one
    /// line's top to the next's (`TTF_FontLineSkip`), in pixels.
    var lineHeight: Int { Int(TTF_FontHeight(handle)) }
    var lineSkip: Int { Int(TTF_FontLineSkip(handle)) }

    /// Renders text wrapped at `width` pixels, lines centred (`TTF_RenderUTF8_Blended_Wrapped`),
    /// shaped in the direction of its first strong character. The surface is `width` wide, however
    /// short the lines.
    public func render(_ text: String, wrapWidth width: Int) throws(SDLError) -> Surface {
        let text = shape(for: text)
        TTF_SetFontWrappedAlign(handle, TTF_WRAPPED_ALIGN_CENTER)
        let white = SDL_Color(r: 255, g: 255, b: 255, a: 255)
        guard let surface = TTF_RenderUTF8_Blended_Wrapped(handle, text, white, UInt32(max(width, 1))) else {
            throw SDLError(call: "TTF_RenderUTF8_Blended_Wrapped")
        }
        return Surface(owning: surface)
    }
}

/// Owns an `SDL_Surface`, freed with `SDL_FreeSurface`.
public final class Surface {
    let pointer: UnsafeMutablePointer<SDL_Surface>

    init(owning pointer: UnsafeMutablePointer<SDL_Surface>) { self.pointer = pointer }
    deinit { SDL_FreeSurface(pointer) }

    public var width: Int { Int(pointer.pointee.w) }
    public var height: Int { Int(pointer.pointee.h) }

    /// The alpha (0…255) of the pixel at (x, y), read through the surface's own pixel format.
    public func alpha(x: Int, y: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel outside the surface")
        let locked = kiosk_SDL_MUSTLOCK(pointer) != 0
        if locked { SDL_LockSurface(pointer) }
        defer { if locked { SDL_UnlockSurface(pointer) } }
        let surface = pointer.pointee
        let bytesPerPixel = Int(surface.format.pointee.BytesPerPixel)
        let row = surface.pixels.advanced(by: y * Int(surface.pitch) + x * bytesPerPixel)
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(start: row, count: bytesPerPixel)) }
        var r: UInt8 = 0, g: UInt8 = 0, b: UInt8 = 0, a: UInt8 = 0
        SDL_GetRGBA(value, surface.format, &r, &g, &b, &a)
        return a
    }

    /// Every pixel's alpha (0…255), row after row, read under one lock through the surface's format:
    /// for scanning a whole rendering, where `alpha(x:y:)` a pixel at a time is slow.
    public func alphaPlane() -> [UInt8] {
        let locked = kiosk_SDL_MUSTLOCK(pointer) != 0
        if locked { SDL_LockSurface(pointer) }
        defer { if locked { SDL_UnlockSurface(pointer) } }
        let surface = pointer.pointee
        let format = surface.format
        let bytesPerPixel = Int(format!.pointee.BytesPerPixel)
        let (width, height, pitch) = (Int(surface.w), Int(surface.h), Int(surface.pitch))
        let base = UnsafeRawPointer(surface.pixels!)
        var plane = [UInt8](repeating: 0, count: width * height)
        plane.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                for x in 0..<width {
                    var value: UInt32 = 0
                    withUnsafeMutableBytes(of: &value) {
                        $0.copyMemory(from: UnsafeRawBufferPointer(start: base + y * pitch + x * bytesPerPixel, count: bytesPerPixel))
                    }
                    var r: UInt8 = 0, g: UInt8 = 0, b: UInt8 = 0
                    SDL_GetRGBA(value, format, &r, &g, &b, &out[y * width + x])
                }
            }
        }
        return plane
    }
}
