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

        @Test("on the software renderer the picture stretched once at its upload has SDL's own stretch's bytes", arguments: [
            (PixelFormat.yuv420p, Size(width: 352, height: 288), Size(width: 800, height: 480)),
            (.yuyv, Size(width: 640, height: 480), Size(width: 800, height: 480)),
            (.nv12, Size(width: 1280, height: 720), Size(width: 800, height: 480)),
            (.yuv420p, Size(width: 320, height: 240), Size(width: 1024, height: 600)),
            (.yuyv, Size(width: 352, height: 288), Size(width: 480, height: 800)),
        ])
        func stretchedOnce(format: PixelFormat, size: Size, output: Size) throws {
            let screen = try makeScreen(size: output)
            // A picture with detail everywhere, so that every weight of the stretch shows.
            let frame = TestFrames.make(format, size: size) { x, y in
                YUV(y: UInt8(16 + (x * 7 + y * 13) % 220), u: UInt8(16 + (x * 3 + y * 5) % 225), v: UInt8(16 + (x * 11 + y * 2) % 225))
            }
            try screen.show(frame: frame)
            #if arch(x86_64)
            #expect(screen.previewStretched, "the frame was stretched at its upload")
            #endif
            try screen.draw(nil)
            let shown = try screen.readPixels()
            // SDL's way: the frame converted to RGB888 as the preview converts it, then its crop
            // stretched onto the display by SDL_SoftStretchLinear, as the software renderer's present does.
            let rgb = try #require(SDL_CreateRGBSurfaceWithFormat(0, Int32(size.width), Int32(size.height), 32, SDL_PIXELFORMAT_RGB888.rawValue))
            let display = try #require(SDL_CreateRGBSurfaceWithFormat(0, Int32(output.width), Int32(output.height), 32, SDL_PIXELFORMAT_RGB888.rawValue))
            defer {
                SDL_FreeSurface(rgb)
                SDL_FreeSurface(display)
            }
            let sdlFormat = try #require(PreviewFormat(format)).sdlFormat
            SDL_SetYUVConversionMode(SDL_YUV_CONVERSION_BT601)
            let converted = frame.bytes.withUnsafeBytes { bytes in
                SDL_ConvertPixels(Int32(size.width), Int32(size.height), sdlFormat, bytes.baseAddress, Int32(frame.planes[0].stride),
                                  SDL_PIXELFORMAT_RGB888.rawValue, rgb.pointee.pixels, rgb.pointee.pitch)
            }
            #expect(converted == 0)
            let crop = Scaling.aspectFillCrop(source: size, destination: screen.transform.logical,
                                              quarterTurns: screen.transform.cameraQuarterTurns(mount: 0))
            var source = SDL_Rect(x: Int32(crop.x), y: Int32(crop.y), w: Int32(crop.width), h: Int32(crop.height))
            var whole = SDL_Rect(x: 0, y: 0, w: Int32(output.width), h: Int32(output.height))
            #expect(SDL_SoftStretchLinear(rgb, &source, display, &whole) == 0)
            var differing = 0
            for y in 0..<output.height {
                let row = display.pointee.pixels.advanced(by: y * Int(display.pointee.pitch)).assumingMemoryBound(to: UInt32.self)
                for x in 0..<output.width where shown.words[y * output.width + x] & 0xFFFFFF != row[x] & 0xFFFFFF { differing += 1 }
            }
            #expect(differing == 0, "\(format) \(size) on \(output): \(differing) pixels differ from SDL's stretch")
        }

        @Test("a mirrored preview is left to SDL's stretch, drawn where it was")
        func mirroredNotStretched() throws {
            let screen = try makeScreen(size: Size(width: 800, height: 480), mirror: true)
            try screen.show(frame: TestFrames.bars(size: Size(width: 352, height: 288)))
            #expect(!screen.previewStretched)
            try screen.draw(nil)
            let p = Point(x: 60, y: 240)
            let expected = try #require(expectedBar(display: p, frame: Size(width: 352, height: 288), transform: screen.transform, mirror: true))
            #expect(try screen.readPixels().color(p).close(to: expected, within: 12))
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
