// The green screen's key (`PictureKey`, `--background`): a picture of a grey square on a green
// backdrop comes out with the square where it was and the background picture (scaled to fill)
// everywhere else, one picture out for each one in; backgrounds that cannot be one are refused
// with a reason.
import Foundation
import KioskCore
import KioskTestSupport
import Testing
@testable import KioskMedia

@Suite("The green screen's key")
struct PictureKeyTests {
    static let size = Size(width: 64, height: 48)

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-key-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A picture made by the ffmpeg CLI from a lavfi source, `name` in the test's folder.
    static func picture(_ source: String, _ name: String, _ extra: [String] = []) throws -> String {
        let path = try folder().appendingPathComponent(name).path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", source, "-frames:v", "1"] + extra + [path], stdout: .discard)
        try #require(made.status == 0, "\(made.stderr)")
        return path
    }

    /// A video-range yuv420p picture: the backdrop's green (#00B140), a grey square in its middle.
    static func camera(sequence: UInt32) -> VideoFrame {
        let (w, h) = (size.width, size.height)
        let planes = PixelFormat.yuv420p.planes(for: size)
        var bytes = [UInt8](repeating: 0, count: PixelFormat.yuv420p.frameBytes(for: size))
        // #00B140 in video-range BT.601: Y 120, Cb 103, Cr 55; grey: Y 128, Cb Cr 128.
        for y in 0..<h {
            for x in 0..<w { bytes[y * w + x] = square(x, y) ? 128 : 120 }
        }
        for y in 0..<(h / 2) {
            for x in 0..<(w / 2) {
                let inside = square(2 * x, 2 * y)
                bytes[planes[1].offset + y * (w / 2) + x] = inside ? 128 : 103
                bytes[planes[2].offset + y * (w / 2) + x] = inside ? 128 : 55
            }
        }
        return VideoFrame(format: .yuv420p, size: size, planes: planes, bytes: bytes, timestamp: 1_000_000 * Int64(sequence), sequence: sequence)
    }

    static func square(_ x: Int, _ y: Int) -> Bool { (16..<48).contains(x) && (16..<32).contains(y) }

    @Test("each picture comes out keyed at once (one out for one in, its time and number kept): the square grey, the rest the background's red; with and without despill",
          arguments: [true, false])
    func keys(despill: Bool) throws {
        // A red background of another shape: scaled to fill, it is red wherever it shows.
        let background = try Self.picture("color=c=0xC02020:s=200x100", "red-\(despill).png")
        let key = PictureKey()
        key.set(KeySettings(background: background, red: 0x00, green: 0xB1, blue: 0x40, similarity: 0.15, blend: 0.05, despill: despill))
        for n in 0..<3 {
            let out = key.key(Self.camera(sequence: UInt32(n)))
            #expect(out.format == .yuv420p && out.size == Self.size && out.sequence == UInt32(n) && out.timestamp == 1_000_000 * Int64(n))
            let planes = out.planes
            let (w, cw) = (Self.size.width, Self.size.width / 2)
            // Inside the square: grey (Cr 128); far outside: red (Cr well above 128).
            let crInside = Int(out.bytes[planes[2].offset + 12 * cw + 16])
            let crOutside = Int(out.bytes[planes[2].offset + 2 * cw + 2])
            #expect(abs(crInside - 128) <= 3, "Cr \(crInside) inside the square")
            #expect(crOutside > 180, "Cr \(crOutside) on the background")
            #expect(abs(Int(out.bytes[24 * w + 32]) - 128) <= 3)
        }
        key.set(nil)
        let passed = key.key(Self.camera(sequence: 9))
        #expect(passed.bytes == Self.camera(sequence: 9).bytes)
    }

    @Test("a background that cannot be one is refused, saying why: not a picture, transparent, a folder; an opaque RGBA PNG and a JPEG are taken")
    func refused() throws {
        let folder = try Self.folder()
        let text = folder.appendingPathComponent("words.png")
        try Data("not a picture".utf8).write(to: text)
        #expect(throws: OverlayError.self) { try BackgroundPicture.load(text.path).get() }
        let transparent = try Self.picture("color=c=0x20C02080:s=32x32,format=rgba", "transparent.png")
        let why = try #require(BackgroundPicture.load(transparent).failure)
        #expect(why.reason.contains("transparent"), "\(why)")
        let opaque = try Self.picture("color=c=0x20C020:s=32x32,format=rgba", "opaque-rgba.png")
        #expect(throws: Never.self) { try BackgroundPicture.load(opaque).get() }
        #expect(BackgroundPicture.load(folder.path).failure?.reason.contains("folder") == true)
        let jpeg = try Self.picture("color=c=0x2020C0:s=40x30", "blue.jpg")
        #expect(try BackgroundPicture.load(jpeg).get().size == Size(width: 40, height: 30))
    }
}

extension Result {
    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
