// The library's pictures of a turned take (issue 34): a take of a camera mounted a quarter turn
// (`--camera-rotation 90`) is stored landscape with a display matrix; its thumbnail beside it
// (`.NAME.thumb.jpg`) and its picture in the library's grid must be upright, as ffmpeg (which honours
// the matrix) shows the take: compared pixel by pixel with ffmpeg's first picture of the take, and
// against the same picture half a turn round (the test pattern's colour bars tell them apart).
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("the library's pictures of a turned take through the binary")
struct LibraryUprightEndToEndTests {
    /// The take's first picture as ffmpeg shows it (its display matrix applied), scaled to `size`, RGB.
    static func upright(_ take: String, size: Size, in folder: URL) throws -> [UInt8] {
        let out = folder.appendingPathComponent("upright-\(size.width)x\(size.height).rgb").path
        let r = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", take, "-frames:v", "1", "-vf", "scale=\(size.width):\(size.height)",
                                "-f", "rawvideo", "-pix_fmt", "rgb24", out], stdout: .discard)
        try #require(r.status == 0, "ffmpeg on \(take): \(r.stderr)")
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        try #require(data.count == size.width * size.height * 3)
        return data
    }

    /// The mean difference per channel value (0–255) of two same-sized RGB pictures.
    static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        zip(a, b).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(max(a.count, 1))
    }

    @Test("--camera-rotation 90: the take's thumbnail is portrait and upright (PSNR above 25 dB against ffmpeg's first picture, and well above the half-turned one), and so is its picture in the grid on screen")
    func turnedTake() throws {
        let window = Size(width: 800, height: 480)
        let root = try testFolder("library-upright")
        let takes = root.appendingPathComponent("takes")
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "none", "--windowed", "\(window.width)x\(window.height)", "--countdown", "0",
                                     "--camera-rotation", "90", "--output-dir", takes.path, "--session", "loop", "--library"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        _ = try ServiceEndToEndTests.take(r, seconds: 0.6)
        r.command("useVideo")
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath") != nil, "\(r.rawLines)")
        let take = try #require(r.events.compactMap(\.handedOverPath).first)
        r.command("openLibrary")
        try #require(LibraryEndToEndTests.listed(r, count: 1) != nil, "\(r.rawLines) \(r.stderr)")

        // The thumbnail beside the take: portrait, the picture ffmpeg shows.
        let thumbnail = takes.appendingPathComponent("." + URL(fileURLWithPath: take).lastPathComponent + ".thumb.jpg").path
        let sides = try ffprobe(thumbnail, "stream=width,height").split(separator: "\n").compactMap { Int($0) }
        try #require(sides.count == 2, "\(thumbnail): \(sides)")
        let size = Size(width: sides[0], height: sides[1])
        #expect(size.height > size.width, "the thumbnail is \(size), not portrait")
        let stored = try ffprobe(take, "stream=width,height", stream: "v:0").split(separator: "\n").compactMap { Int($0) }
        #expect(stored.count == 2 && stored[0] > stored[1], "the take is stored landscape with its matrix: \(stored)")
        let expected = try Self.upright(take, size: size, in: root)
        let thumb = try PhotoEndToEndTests.decode(thumbnail, format: "rgb24", bytes: size.width * size.height * 3)
        let halfTurned = PhotoEndToEndTests.unturned(expected, size: size, channels: 3, quarterTurns: 2).pixels
        let right = PhotoEndToEndTests.psnr(thumb[...], expected[...]), wrong = PhotoEndToEndTests.psnr(thumb[...], halfTurned[...])
        print("library upright: thumbnail \(size), PSNR \(String(format: "%.1f", right)) dB against ffmpeg's upright picture, \(String(format: "%.1f", wrong)) dB half a turn round")
        #expect(right > 25 && right > wrong + 6, "PSNR \(right) dB upright, \(wrong) dB half-turned")

        // The grid on screen: the thumbnail aspect-fit in its cell's box, upright.
        let shot = try ShareEndToEndTests.screenshot(r, root.appendingPathComponent("grid.bmp").path)
        let bmp = try [UInt8](Data(contentsOf: URL(fileURLWithPath: shot)))
        let rowBytes = (window.width * 3 + 3) & ~3
        try #require(bmp.count >= 54 + rowBytes * window.height)
        let layout = Layout(canvas: window)
        let grid = LibraryGrid(room: layout.content, count: 1, textHeight: layout.textHeight)
        let fit = Scaling.aspectFit(content: size, in: grid.thumbnail(in: grid.cell(0, scroll: 0)))
        #expect(fit.height > fit.width, "\(fit)")
        // Its inside (2 px in from each edge: the scaler's rounding there), RGB from the bottom-up BGR rows.
        let inner = Rect(x: fit.x + 2, y: fit.y + 2, width: fit.width - 4, height: fit.height - 4)
        var onScreen: [UInt8] = []
        for y in 0..<inner.height {
            for x in 0..<inner.width {
                let offset: Int = 54 + (window.height - 1 - (inner.y + y)) * rowBytes + 3 * (inner.x + x)
                onScreen += [bmp[offset + 2], bmp[offset + 1], bmp[offset]]
            }
        }
        let picture = try Self.upright(take, size: Size(width: fit.width, height: fit.height), in: root)
        func crop(_ pixels: [UInt8]) -> [UInt8] {
            var out: [UInt8] = []
            for y in 0..<inner.height {
                let start: Int = ((y + 2) * fit.width + 2) * 3
                out += pixels[start..<(start + inner.width * 3)]
            }
            return out
        }
        let turned = PhotoEndToEndTests.unturned(picture, size: Size(width: fit.width, height: fit.height), channels: 3, quarterTurns: 2).pixels
        let near = Self.meanDifference(onScreen, crop(picture)), far = Self.meanDifference(onScreen, crop(turned))
        print("library upright: grid picture \(fit), mean difference \(String(format: "%.1f", near)) upright, \(String(format: "%.1f", far)) half a turn round")
        #expect(near < 20 && near * 3 < far, "mean difference \(near) upright, \(far) half-turned")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
