// The photo's JPEG (`PhotoJPEG`, issue 34): its planes turned upright by each of the four turns, as
// a player turns a take (sample by sample, odd sizes too), video range made full range on the way,
// and a whole JPEG of the upright size out of a camera frame of each layout; `--consent`'s choices
// in a comment segment after its JFIF header, the JPEG still whole to ffmpeg.
import Foundation
import KioskCore
import Testing
@testable import KioskMedia
import KioskStorage
import KioskTestSupport

@Suite("Photo JPEG")
struct PhotoJPEGTests {
    @Test("each plane turned k quarter turns clockwise: the source's (x, y) where a clockwise turn puts it", arguments: 0..<4)
    func turns(k: Int) {
        let size = Size(width: 37, height: 22)
        var planes = PhotoJPEG.Planes(size, aligned: true)
        // Luma 16…235 (in range, so the full-range map is one to one): a value per position.
        for i in 0..<3 {
            for y in 0..<planes.sizes[i].height {
                for x in 0..<planes.sizes[i].width { planes.bytes[planes.offsets[i] + y * planes.pitches[i] + x] = UInt8(16 + (x * 7 + y * 3) % 200) }
            }
        }
        let upright = k % 2 == 0 ? size : size.transposed
        let turned = planes.turned(k, upright: upright)
        #expect(turned.sizes[0] == upright)
        let (luma, chroma) = (PhotoJPEG.fullRange(luma: true), PhotoJPEG.fullRange(luma: false))
        for i in 0..<3 {
            let (w, h) = (planes.sizes[i].width, planes.sizes[i].height)
            #expect(turned.sizes[i] == (k % 2 == 0 ? planes.sizes[i] : planes.sizes[i].transposed))
            for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (w / 3, h / 2)] {
                let (tx, ty): (Int, Int) = switch k {
                case 1: (h - 1 - y, x)
                case 2: (w - 1 - x, h - 1 - y)
                case 3: (y, w - 1 - x)
                default: (x, y)
                }
                let source = planes.bytes[planes.offsets[i] + y * planes.pitches[i] + x]
                let got = turned.bytes[turned.offsets[i] + ty * turned.pitches[i] + tx]
                #expect(got == (i == 0 ? luma : chroma)[Int(source)], "plane \(i) (\(x), \(y)) → (\(tx), \(ty)) turn \(k)")
            }
        }
    }

    @Test("video range to full range: black 16 → 0, white 235 → 255, neutral chroma 128 stays, 16 and 240 → the ends")
    func ranges() {
        let (luma, chroma) = (PhotoJPEG.fullRange(luma: true), PhotoJPEG.fullRange(luma: false))
        #expect(luma[16] == 0 && luma[235] == 255 && luma[0] == 0 && luma[255] == 255 && luma[126] == 128)
        // Chroma spans 128 ± 127.5: its lowest rounds to 1.
        #expect(chroma[128] == 128 && chroma[16] <= 1 && chroma[240] == 255)
    }

    @Test("a camera frame of each layout becomes a whole JPEG of the upright size", arguments: [PixelFormat.yuyv, .nv12, .yuv420p, .yuv422p])
    func jpeg(format: PixelFormat) throws {
        let size = Size(width: 64, height: 48)
        let planes = format.planes(for: size)
        let frame = VideoFrame(format: format, size: size, planes: planes, bytes: [UInt8](repeating: 128, count: format.frameBytes(for: size)),
                               timestamp: 0, sequence: 0)
        for turns in [0, 1] {
            let photo = try PhotoJPEG.make(frame, quarterTurns: turns, overlay: nil)
            #expect(photo.size == (turns == 0 ? size : size.transposed))
            #expect(photo.bytes.prefix(3) == [0xFF, 0xD8, 0xFF] && photo.bytes.suffix(2) == [0xFF, 0xD9], "\(format) turn \(turns)")
        }
        #expect(throws: PhotoError.self) {
            try PhotoJPEG.make(VideoFrame(format: .mjpeg, size: size, planes: [], bytes: [0xFF, 0xD8], timestamp: 0, sequence: 0),
                               quarterTurns: 0, overlay: nil)
        }
    }

    @Test("a comment segment (the photo's consent) after the JFIF header: ffmpeg still decodes the whole picture; bytes that are no JPEG are left as they are")
    func commented() throws {
        let size = Size(width: 64, height: 48)
        let frame = VideoFrame(format: .yuv420p, size: size, planes: PixelFormat.yuv420p.planes(for: size),
                               bytes: [UInt8](repeating: 128, count: PixelFormat.yuv420p.frameBytes(for: size)), timestamp: 0, sequence: 0)
        let plain = try PhotoJPEG.make(frame, quarterTurns: 0, overlay: nil).bytes
        let tagged = PhotoJPEG.commented(plain, "consent=film")
        try #require(plain[2] == 0xFF && plain[3] == 0xE0, "no JFIF header")
        let at = 4 + (Int(plain[4]) << 8 | Int(plain[5]))
        #expect(Array(tagged[at..<(at + 4)]) == [0xFF, 0xFE, 0, 14] && Array(tagged[(at + 4)..<(at + 16)]) == Array("consent=film".utf8))
        #expect(tagged.count == plain.count + 16 && Array(tagged[..<at]) == Array(plain[..<at]) && Array(tagged[(at + 16)...]) == Array(plain[at...]))
        let path = NSTemporaryDirectory() + "commented-\(getpid()).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(tagged).write(to: URL(fileURLWithPath: path))
        let decoded = try runProgram(["ffmpeg", "-v", "error", "-i", path, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(decoded.stderr)")
        #expect(PhotoJPEG.commented([0x89, 0x50, 0x4E, 0x47], "consent=film") == [0x89, 0x50, 0x4E, 0x47])
    }
}
