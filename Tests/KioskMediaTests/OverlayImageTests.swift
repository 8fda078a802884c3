// The overlay PNG's decoding (`OverlayImage`, `--overlay`): PNGs the ffmpeg CLI wrote from known
// pixels come back as those pixels, straight RGBA, whatever layout the file has; and the overlay
// made ready for a take (`OverlayPlanes`) covers a picture of another shape, centred.
import Foundation
import KioskCore
import KioskTestSupport
import Testing
@testable import KioskMedia

@Suite("Overlay PNGs")
struct OverlayImageTests {
    static let size = Size(width: 37, height: 21)

    /// Pseudo-random RGBA, every alpha from 0 to 255 among them.
    static let pixels: [UInt8] = {
        var state: UInt32 = 0x2545F491
        return (0..<(size.width * size.height * 4)).map { i in
            state = state &* 1_664_525 &+ 1_013_904_223
            return i % 4 == 3 ? UInt8(i / 4 % 256) : UInt8(truncatingIfNeeded: state >> 24)
        }
    }()

    /// The pixels as a PNG of `layout` (rgba, ya8, rgba64be) written by the ffmpeg CLI.
    static func png(_ layout: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-overlay-png-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let raw = folder.appendingPathComponent("pixels.rgba")
        try Data(pixels).write(to: raw)
        let path = folder.appendingPathComponent("\(layout).png").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(size)", "-i", raw.path,
                                   "-frames:v", "1", "-pix_fmt", layout, path], stdout: .discard)
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    @Test("an RGBA PNG decodes to its very pixels; 16-bit RGBA to the same to within one level; grey with alpha keeps its alpha (not made opaque)")
    func decodes() throws {
        let rgba = try OverlayImage.load(try Self.png("rgba")).get()
        #expect(rgba.size == Self.size)
        #expect(rgba.rgba == Self.pixels)
        let deep = try OverlayImage.load(try Self.png("rgba64be")).get()
        let near = zip(deep.rgba, Self.pixels).allSatisfy { (a: UInt8, b: UInt8) -> Bool in abs(Int(a) - Int(b)) <= 1 }
        #expect(near)
        let grey = try OverlayImage.load(try Self.png("ya8")).get()
        let pixels = grey.rgba
        // Within one level: the ffmpeg CLI's own conversion to ya8 moves a few alphas by one (128 → 129).
        let alphasKept = stride(from: 3, to: pixels.count, by: 4).allSatisfy { (i: Int) -> Bool in abs(Int(pixels[i]) - Int(Self.pixels[i])) <= 1 }
        let greys = stride(from: 0, to: pixels.count, by: 4).allSatisfy { (i: Int) -> Bool in pixels[i] == pixels[i + 1] && pixels[i] == pixels[i + 2] }
        #expect(alphasKept && greys)
    }

    @Test("an overlay of another shape covers the picture, centred: a 2:1 PNG's middle over a 1:1 picture, the outer quarters cut off")
    func covers() throws {
        // Left quarter red, middle half green (its left and right columns blue), right quarter red; all opaque.
        let (w, h) = (64, 32)
        var rgba = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let at = (y * w + x) * 4
                let rgb: [UInt8] = x < 16 || x >= 48 ? [255, 0, 0] : x == 16 || x == 47 ? [0, 0, 255] : [0, 255, 0]
                (rgba[at], rgba[at + 1], rgba[at + 2]) = (rgb[0], rgb[1], rgb[2])
            }
        }
        let planes = try OverlayPlanes(TakeOverlay(landscape: OverlayPicture(size: Size(width: w, height: h), rgba: rgba)),
                                       size: Size(width: 32, height: 32), quarterTurns: 0, interleaved: false)
        var y = [UInt8](repeating: 0, count: 32 * 32), cb = [UInt8](repeating: 128, count: 16 * 16), cr = cb
        y.withUnsafeMutableBufferPointer { yp in
            cb.withUnsafeMutableBufferPointer { bp in
                cr.withUnsafeMutableBufferPointer { rp in
                    planes.blend(planes: [yp.baseAddress!, bp.baseAddress!, rp.baseAddress!], pitches: [32, 16, 16])
                }
            }
        }
        // Green is Y 145 in video range, blue 41, red 81: the edges blue, no red anywhere.
        #expect(y[16 * 32 + 16] == 145 && y[16 * 32] == 41 && y[16 * 32 + 31] == 41, "\(Array(y[(16 * 32)..<(17 * 32)]))")
        #expect(!y.contains(81))
    }

    @Test("the next take with the same overlay, size and turn takes the planes made for the last; another turn gets its own")
    func madeOnce() throws {
        let picture = OverlayPicture(size: Size(width: 8, height: 6), rgba: [UInt8](repeating: 200, count: 8 * 6 * 4))
        let overlay = TakeOverlay(landscape: picture)
        let first = try OverlayPlanes.made(overlay, size: Size(width: 16, height: 12), quarterTurns: 0, interleaved: false)
        let again = try OverlayPlanes.made(overlay, size: Size(width: 16, height: 12), quarterTurns: 0, interleaved: false)
        let turned = try OverlayPlanes.made(overlay, size: Size(width: 16, height: 12), quarterTurns: 1, interleaved: false)
        #expect(first === again)
        #expect(first !== turned)
    }
}
