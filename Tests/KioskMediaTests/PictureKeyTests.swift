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

    @Test("at 1280x720 chromakey and despill work on a 256x144 copy (the only RGBA step), its alpha scaled to 1280x720 and its colour to the 640x360 chroma planes, with the picture's own luma; without despill the picture's own chroma stays and nothing is RGBA",
          arguments: [true, false])
    func graphAtAQuarter(despill: Bool) {
        let settings = KeySettings(background: "beach.png", red: 0x00, green: 0xB1, blue: 0x40, similarity: 0.15, blend: 0.05, despill: despill)
        let text = PictureKey.graphText(settings, size: Size(width: 1280, height: 720), fullRange: false)
        #expect(text.hasPrefix("[in]format=yuv420p,split[whole][small];[small]scale=256:144:flags=area,format=yuva444p,chromakey=color=0x6F693A:yuv=1:"),
                "\(text)")
        #expect(text.contains("alphaextract,gblur=sigma=0.5,scale=1280:720:flags=bicubic[alpha]") && text.hasSuffix("[bg][fg]overlay=format=yuv420,format=yuv420p[out]"),
                "\(text)")
        if despill {
            // RGBA once, between the copy's key and its colour's scale to the chroma planes.
            let copy = text.split(separator: ";").first { $0.hasPrefix("[small]") }
            #expect(copy?.contains("format=rgba,despill=type=green:mix=1,") == true && text.components(separatedBy: "rgba").count == 2, "\(text)")
            #expect(text.contains("[colour]scale=640:360:flags=bilinear,format=yuv444p,extractplanes=u+v[u][v]")
                    && text.contains("[whole]extractplanes=y[y];[y][u][v][alpha]mergeplanes=map1s=1:map2s=2:map3s=3:format=yuva420p[fg]"), "\(text)")
            var blue = settings
            (blue.green, blue.blue) = (0x40, 0xB1)
            #expect(PictureKey.graphText(blue, size: Size(width: 1280, height: 720), fullRange: false).contains("despill=type=blue:mix=1,"))
        } else {
            #expect(!text.contains("rgba") && !text.contains("despill") && text.contains("[whole]format=yuva420p[picture];[picture][alpha]alphamerge[fg]"),
                    "\(text)")
        }
    }

    @Test("the copy the key works on has about 256x144's pixels, but at least a fifth and at most half of the picture's width and height")
    func keySize() {
        let table = [(1280, 720, 256, 144), (854, 480, 256, 144), (640, 480, 222, 166), (1920, 1080, 384, 216), (64, 48, 32, 24), (2, 2, 2, 2)]
        for (w, h, kw, kh) in table {
            #expect(PictureKey.keySize(Size(width: w, height: h)) == Size(width: kw, height: kh), "\(w)x\(h)")
        }
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

    @Test("a video is a background (played in a loop), a transparent one is refused, as a still is; a still is not a video")
    func videoChecked() throws {
        let folder = try Self.folder()
        let video = folder.appendingPathComponent("loop.mp4").path
        var made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=96x54:r=10:d=0.5", "-c:v", "libx264", "-pix_fmt", "yuv420p", video],
                                  stdout: .discard)
        try #require(made.status == 0, "\(made.stderr)")
        let loaded = try BackgroundPicture.load(video).get()
        #expect(loaded.isVideo && loaded.size == Size(width: 96, height: 54))
        let clear = folder.appendingPathComponent("clear.mov").path
        made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x20C02080:s=32x32:r=10:d=0.3,format=rgba", "-c:v", "png", clear],
                              stdout: .discard)
        try #require(made.status == 0, "\(made.stderr)")
        #expect(BackgroundPicture.load(clear).failure?.reason.contains("transparent") == true)
        #expect(try BackgroundPicture.load(Self.picture("color=c=0x2020C0:s=40x30", "still.png")).get().isVideo == false)
    }

    @Test("the ring gives the picture of the time asked: the last one started by then (those before it go), the first before any has started; a picture the camera passed is not wanted")
    func ring() {
        var ring = BackgroundRing<Int>()
        #expect(ring.take(at: 0) == nil)
        for (n, start) in [(0, 0), (1, 100), (2, 200), (3, 300)] { ring.add(n, start: Int64(start)) }
        // (time asked, picture given, pictures left)
        let table: [(Int64, Int, Int)] = [(0, 0, 4), (99, 0, 4), (100, 1, 3), (250, 2, 2), (250, 2, 2), (1000, 3, 1)]
        for (time, picture, left) in table {
            #expect(ring.take(at: time) == picture, "at \(time)")
            #expect(ring.pictures.count == left, "at \(time)")
        }
        #expect(!ring.wants(end: 1000) && ring.wants(end: 1001))
        for n in 4..<(3 + BackgroundRing<Int>.capacity) { ring.add(n, start: Int64(n * 100)) }
        #expect(!ring.hasRoom)
        // Pictures that start before the one shown go; what is not wanted stays as the latest time said.
        #expect(ring.take(at: 550) == 5 && ring.pictures.count == 3 && ring.hasRoom && !ring.wants(end: 900))
    }

    @Test("a video background plays on its own clock and loops: the picture at each time is the video's at that time modulo its length, across three plays")
    func videoLoops() throws {
        // 10 pictures at 10 a second, each a level of grey its number tells (lossless).
        let video = try Self.folder().appendingPathComponent("levels.mkv").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=black:s=32x32:r=10:d=1,format=yuv420p,geq=lum='40+N*16':cb=128:cr=128",
                                   "-c:v", "ffv1", video], stdout: .discard)
        try #require(made.status == 0, "\(made.stderr)")
        let player = try BackgroundVideo(path: video, size: Size(width: 32, height: 32))
        // Mid-picture times, 50 ms apart, over 3 plays; each asked until the player has made it.
        for step in 0..<60 {
            let time = Int64(step) * 50_000_000 + 25_000_000
            let expected = 40 + (step / 2 % 10) * 16
            var level = -1
            let deadline = Date().addingTimeInterval(10)
            while abs(level - expected) > 3, Date() < deadline {
                if let picture = player.picture(at: time), let y = picture.frame.pointee.data.0 {
                    level = Int(y[Int(picture.frame.pointee.linesize.0) * 16 + 16])
                }
                if abs(level - expected) > 3 { usleep(2_000) }
            }
            #expect(abs(level - expected) <= 3, "at \(Double(time) / 1e9) s: level \(level), not picture \(step / 2 % 10)'s \(expected)")
        }
    }
}

extension Result {
    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
