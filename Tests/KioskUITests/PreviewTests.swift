// Each camera format goes into its texture untouched and comes out in the right colours at the
// right places; bad frames are refused before SDL reads them.
import CSDL2
import Foundation
import KioskCore
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("Preview upload")
    struct PreviewTests {
        /// Eight colours in a 4 x 2 grid: checks both axes, and for yuv422p that the every-other-
        /// chroma-row trick takes each half's own chroma.
        static let grid: [RGB] = [
            RGB(220, 40, 40), RGB(40, 200, 60), RGB(50, 70, 220), RGB(235, 235, 235),
            RGB(230, 210, 40), RGB(40, 200, 210), RGB(200, 60, 200), RGB(110, 110, 110),
        ]

        static func block(x: Int, y: Int, size: Size) -> Int { (y * 2 / size.height) * 4 + x * 4 / size.width }

        @Test("yuyv, nv12, yuv420p and yuv422p frames show their colours", arguments: [
            (PixelFormat.yuyv, Size(width: 640, height: 480)), (.nv12, Size(width: 320, height: 240)),
            (.yuv420p, Size(width: 640, height: 360)), (.yuv422p, Size(width: 640, height: 480)),
            (.yuyv, Size(width: 1280, height: 720)), (.yuv422p, Size(width: 1280, height: 720)),
        ])
        func formats(format: PixelFormat, size: Size) throws {
            let output = Size(width: 800, height: 480)
            let screen = try makeScreen(size: output)
            // yuv422p full range, and saying so (SDL's JPEG mode); the others limited range.
            let frame = TestFrames.make(format, size: size, fullRange: format == .yuv422p) { x, y in
                let c = Self.grid[Self.block(x: x, y: y, size: size)]
                return format == .yuv422p ? Colour.full(c) : Colour.limited(c)
            }
            try screen.show(frame: frame)
            #expect(screen.previewSize == size)
            try screen.draw(nil)
            let pixels = try screen.readPixels()
            var seen = Set<Int>()
            for y in stride(from: 4, to: output.height, by: 20) {
                for x in stride(from: 4, to: output.width, by: 20) {
                    let p = Point(x: Double(x), y: Double(y))
                    let f = framePoint(display: Point(x: p.x + 0.5, y: p.y + 0.5), frame: size, transform: screen.transform)
                    // Away from the block edges, where scaling blends neighbours.
                    let bw = Double(size.width) / 4, bh = Double(size.height) / 2
                    let ex = f.x.truncatingRemainder(dividingBy: bw), ey = f.y.truncatingRemainder(dividingBy: bh)
                    guard ex > 6, ex < bw - 6, ey > 6, ey < bh - 6 else { continue }
                    let index = Self.block(x: Int(f.x), y: Int(f.y), size: size)
                    let got = pixels.color(p)
                    #expect(got.close(to: Self.grid[index], within: 10), "\(format) \(size): (\(x),\(y)) is \(got), expected \(Self.grid[index])")
                    seen.insert(index)
                }
            }
            #expect(seen.count == 8, "every block was checked")
        }

        @Test("a new format or size replaces the texture; the last frame stays until then")
        func replaceAndFreeze() throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480))
            let centre = Point(x: 400, y: 240)
            let red = RGB(220, 40, 40), blue = RGB(50, 70, 220)
            try screen.show(frame: TestFrames.make(.yuyv, size: Size(width: 320, height: 240)) { _, _ in Colour.limited(red) })
            try screen.draw(nil)
            #expect(try screen.readPixels().color(centre).close(to: red, within: 10))
            // No new frame: the same picture, frozen.
            try screen.draw(nil)
            #expect(try screen.readPixels().color(centre).close(to: red, within: 10))
            try screen.show(frame: TestFrames.make(.nv12, size: Size(width: 640, height: 360)) { _, _ in Colour.limited(blue) })
            #expect(screen.previewSize == Size(width: 640, height: 360))
            try screen.draw(nil)
            #expect(try screen.readPixels().color(centre).close(to: blue, within: 10))
            screen.clearPreview()
            try screen.draw(nil)
            #expect(try screen.readPixels().color(centre) == RGB(0, 0, 0), "no picture: black")
        }

        @Test("an MJPEG frame or one with too few bytes is refused with an SDLError")
        func refused() throws {
            let screen = try makeScreen(size: Size(width: 320, height: 240))
            let jpeg = VideoFrame(format: .mjpeg, size: Size(width: 64, height: 48), planes: [], bytes: [0xFF, 0xD8], timestamp: 0, sequence: 0)
            #expect(throws: SDLError.self) { try screen.show(frame: jpeg) }
            let size = Size(width: 64, height: 48)
            let short = VideoFrame(format: .yuv420p, size: size, planes: PixelFormat.yuv420p.planes(for: size),
                                   bytes: [UInt8](repeating: 0, count: 100), timestamp: 0, sequence: 0)
            #expect(throws: SDLError.self) { try screen.show(frame: short) }
            #expect(screen.previewSize == nil)
        }
    }
}
