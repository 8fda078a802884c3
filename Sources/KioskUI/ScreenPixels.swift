// The screen read back: what is drawn now, or the last view model drawn again, as pixels; and those
// pixels as a BMP file (screenshots, tests).
import CSDL2
import FoundationEssentials
import KioskCore

extension Screen {
    /// What is drawn now in the back buffer (`SDL_RenderReadPixels` as XRGB8888). Call after
    /// `draw` and before `present`: after a present the back buffer's content is undefined.
    public func readPixels() throws(SDLError) -> Pixels {
        let size = transform.physical
        var words = [UInt32](repeating: 0, count: size.width * size.height)
        let result = words.withUnsafeMutableBytes { buffer in
            SDL_RenderReadPixels(rendererHandle.handle, nil, SDL_PIXELFORMAT_RGB888.rawValue, buffer.baseAddress, Int32(size.width * 4))
        }
        guard result == 0 else { throw SDLError(call: "SDL_RenderReadPixels") }
        return Pixels(size: size, words: words)
    }

    /// The screen as it is now, read back: the last view model is drawn again first, since the back
    /// buffer holds nothing reliable after a present.
    public func snapshot() throws(SDLError) -> Pixels {
        try draw(window.lastModel)
        return try readPixels()
    }

    /// Writes the current screen to a BMP file.
    public func screenshot(to path: String) throws {
        try snapshot().bmp.write(to: URL(fileURLWithPath: path))
    }
}

/// A copy of the screen's pixels, row by row, XRGB8888.
public struct Pixels: Sendable {
    public let size: Size
    public let words: [UInt32]

    public init(size: Size, words: [UInt32]) {
        self.size = size
        self.words = words
    }

    /// The colour at (x, y) on the display.
    public func rgb(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let word = words[y * size.width + x]
        return (UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word))
    }

    /// The pixels as a 24-bit BMP file (bottom-up rows, BGR, each row padded to 4 bytes). Pure
    /// Swift, so a worker thread can make it without touching SDL.
    public var bmp: Data {
        let rowBytes = (size.width * 3 + 3) & ~3
        let imageBytes = rowBytes * size.height
        var data = Data(capacity: 54 + imageBytes)
        func u16(_ v: Int) { data.append(contentsOf: [UInt8(v & 0xff), UInt8((v >> 8) & 0xff)]) }
        func u32(_ v: Int) { u16(v & 0xffff); u16((v >> 16) & 0xffff) }
        data.append(contentsOf: Array("BM".utf8))
        u32(54 + imageBytes); u32(0); u32(54)                  // BITMAPFILEHEADER
        u32(40); u32(size.width); u32(size.height); u16(1); u16(24) // BITMAPINFOHEADER
        u32(0); u32(imageBytes); u32(2835); u32(2835); u32(0); u32(0)
        var row = [UInt8](repeating: 0, count: rowBytes)
        for y in stride(from: size.height - 1, through: 0, by: -1) {
            for x in 0..<size.width {
                let word = words[y * size.width + x]
                row[3 * x] = UInt8(truncatingIfNeeded: word)
                row[3 * x + 1] = UInt8(truncatingIfNeeded: word >> 8)
                row[3 * x + 2] = UInt8(truncatingIfNeeded: word >> 16)
            }
            data.append(contentsOf: row)
        }
        return data
    }
}
