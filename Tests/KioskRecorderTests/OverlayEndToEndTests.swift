// The operator's overlay (`--overlay`, issue 33) through the binary: a PNG the ffmpeg CLI made from
// known RGBA (opaque squares in three corners, a half-transparent band) burnt into the take, where
// the ffmpeg CLI, turning the picture as the take's display matrix says, finds the squares' colours
// at the corners the PNG has them and the band the blend of the picture and its colour, in
// landscape, portrait and a camera mounted turned. And six files that cannot be overlays, each
// refused with exit status 2 and a message naming it.
import Foundation
import KioskContract
import KioskCore
import KioskTestSupport
import Testing

@Suite("Overlay through the binary", .serialized)
struct OverlayEndToEndTests {
    /// The camera's size (stored picture); portrait takes show it turned, 240x320.
    static let size = Size(width: 320, height: 240)
    static let square = 40, margin = 8
    /// The squares: top left red, top right green, bottom left blue; the bottom right corner is left
    /// to the picture.
    static let corners: [(name: String, rgb: [Int])] = [("top left", [255, 0, 0]), ("top right", [0, 255, 0]), ("bottom left", [0, 0, 255])]
    /// The band's colour and alpha (about half).
    static let band = (rgb: [0, 128, 255], alpha: 128)
    /// The band: across the middle, rows 100..<140 of a landscape PNG; columns 100..<140 of a
    /// portrait one (crossing the test pattern's bars, which a portrait take shows lying down).
    static let bandRange = 100..<140

    /// RGBA of a `shown`-sized overlay: squares at three corners, the band across (landscape: rows,
    /// portrait: columns), transparent elsewhere.
    static func overlayPixels(_ shown: Size) -> [UInt8] {
        var rgba = [UInt8](repeating: 0, count: shown.width * shown.height * 4)
        func paint(_ x: Int, _ y: Int, _ rgb: [Int], _ alpha: Int) {
            let at = (y * shown.width + x) * 4
            rgba[at] = UInt8(rgb[0]); rgba[at + 1] = UInt8(rgb[1]); rgba[at + 2] = UInt8(rgb[2]); rgba[at + 3] = UInt8(alpha)
        }
        let landscape = shown.width > shown.height
        for y in 0..<shown.height {
            for x in 0..<shown.width where bandRange.contains(landscape ? y : x) { paint(x, y, band.rgb, band.alpha) }
        }
        for (i, corner) in corners.enumerated() {
            let origin = squareOrigin(i, shown)
            for y in origin.y..<(origin.y + square) { for x in origin.x..<(origin.x + square) { paint(x, y, corner.rgb, 255) } }
        }
        return rgba
    }

    static func squareOrigin(_ corner: Int, _ shown: Size) -> (x: Int, y: Int) {
        let right = shown.width - margin - square, bottom = shown.height - margin - square
        return [(margin, margin), (right, margin), (margin, bottom)][corner]
    }

    /// The overlay as a PNG the ffmpeg CLI writes from its raw RGBA.
    static func makePNG(_ shown: Size, in folder: URL, name: String) throws -> String {
        let raw = folder.appendingPathComponent(name + ".rgba")
        try Data(overlayPixels(shown)).write(to: raw)
        let png = folder.appendingPathComponent(name + ".png").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(shown)", "-i", raw.path,
                                   "-frames:v", "1", "-pix_fmt", "rgba", png], stdout: .discard)
        try #require(made.status == 0, "\(made.stderr)")
        return png
    }

    @Test("a take with --overlay holds the PNG's squares at its corners and its band blended at its alpha, upright as ffmpeg turns it",
          arguments: [("landscape", [String]()), ("portrait", ["--orientation", "portrait"]), ("camera mounted turned", ["--camera-rotation", "90"])])
    func overlayInTake(name: String, arguments: [String]) throws {
        let folder = try testFolder("overlay-\(name.replacingOccurrences(of: " ", with: "-"))")
        let landscape = try Self.makePNG(Self.size, in: folder, name: "landscape")
        let portrait = try Self.makePNG(Size(width: Self.size.height, height: Self.size.width), in: folder, name: "portrait")
        let output = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(["--camera", "test", "--microphone", "none", "--size", "\(Self.size)", "--countdown", "0",
                                     "--windowed", "800x480", "--video-crf", "10", "--overlay", landscape, "--overlay-portrait", portrait,
                                     "--output", output] + arguments)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        _ = try ServiceEndToEndTests.take(r, seconds: 1)
        r.command("useVideo")
        #expect(r.exitStatus() == 0, "\(r.stderr)")

        // As ffmpeg shows it: turned as the display matrix says (its default), made RGB.
        let shown = name == "landscape" ? Self.size : Size(width: Self.size.height, height: Self.size.width)
        let frames = 10
        let rgbPath = folder.appendingPathComponent("take.rgb").path
        let decoded = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", output, "-frames:v", "\(frames)", "-f", "rawvideo", "-pix_fmt", "rgb24", rgbPath],
                                     stdout: .discard)
        try #require(decoded.status == 0, "\(decoded.stderr)")
        let rgb = try [UInt8](Data(contentsOf: URL(fileURLWithPath: rgbPath)))
        let frameBytes = shown.width * shown.height * 3
        try #require(rgb.count == frames * frameBytes, "\(rgb.count) bytes: not \(frames) pictures of \(shown)")
        // The picture under the band, sampled beside it along the pattern's bars: each bar's centre.
        let landscapeShown = shown.width > shown.height
        let bars = (0..<8).map { 20 + 40 * $0 }
        let pairs: [(band: (x: Int, y: Int), beside: (x: Int, y: Int))] = bars.map { c in
            landscapeShown ? ((c, 120), (c, 80)) : ((120, c), (70, c))
        }
        func pixel(_ frame: Int, _ x: Int, _ y: Int) -> [Int] {
            let at = frame * frameBytes + (y * shown.width + x) * 3
            return [Int(rgb[at]), Int(rgb[at + 1]), Int(rgb[at + 2])]
        }
        // Not a flash picture (the pattern's white second mark): its bars are there, the black one dark.
        let frame = try #require((0..<frames).first { f in pairs.contains { pair in pixel(f, pair.beside.x, pair.beside.y).allSatisfy { $0 < 60 } } },
                                 "every picture is a flash")
        for (i, corner) in Self.corners.enumerated() {
            let origin = Self.squareOrigin(i, shown)
            let got = pixel(frame, origin.x + Self.square / 2, origin.y + Self.square / 2)
            #expect(zip(got, corner.rgb).allSatisfy { abs($0 - $1) <= 10 }, "\(name): the \(corner.name) square is \(got), not \(corner.rgb)")
        }
        for pair in pairs {
            let under = pixel(frame, pair.beside.x, pair.beside.y), got = pixel(frame, pair.band.x, pair.band.y)
            let a = Double(Self.band.alpha) / 255
            let want = zip(Self.band.rgb, under).map { Int((a * Double($0) + (1 - a) * Double($1)).rounded()) }
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 3 }, "\(name): the band at \(pair.band) is \(got), not \(want) (the picture \(under))")
        }
    }

    /// Where a point of the shown picture (the overlay's own pixels) lands on a `canvas` the preview
    /// fills (`fill`: covering it, cropped) or fits (`fit`: whole, bars beside), centred.
    static func onScreen(_ point: (x: Int, y: Int), shown: Size, canvas: Size, fill: Bool) -> (x: Int, y: Int) {
        let (sx, sy) = (Double(canvas.width) / Double(shown.width), Double(canvas.height) / Double(shown.height))
        let scale = fill ? max(sx, sy) : min(sx, sy)
        let origin = ((Double(canvas.width) - Double(shown.width) * scale) / 2, (Double(canvas.height) - Double(shown.height) * scale) / 2)
        return (Int(origin.0 + (Double(point.x) + 0.5) * scale), Int(origin.1 + (Double(point.y) + 0.5) * scale))
    }

    /// The booth's screenshot in ready shows each square where the take has it, mapped through the
    /// preview's fit and the canvas's turn on the 800x480 display: the square's colour at its centre,
    /// or that colour at half where a panel (black at alpha 128, at the canvas's top and bottom) lies
    /// over it. The overlay is drawn over the picture, so the test pattern's flash does not change it.
    /// `covered`: squares a button lies over (not looked at).
    static func expectSquaresOnScreen(_ r: RecorderProcess, _ path: String, orientation: Orientation, fill: Bool, covered: [Int] = [],
                                      _ name: String) throws {
        // The booth draws on its own time: screenshots until one shows every square (at most 5 s),
        // and the checks judge the last one.
        var wrong: [String] = [], shots = 0, failure: (any Error)?
        _ = eventually(5) {
            shots += 1
            do {
                wrong = try squaresNotOnScreen(r, shots == 1 ? path : path + ".\(shots).bmp", orientation: orientation, fill: fill,
                                               covered: covered, name)
            } catch {
                failure = error
                return true
            }
            return wrong.isEmpty
        }
        if let failure { throw failure }
        for message in wrong { Issue.record(Comment(rawValue: message)) }
    }

    /// What a screenshot at `path` shows wrong about the overlay's squares (nothing: all where they belong).
    static func squaresNotOnScreen(_ r: RecorderProcess, _ path: String, orientation: Orientation, fill: Bool, covered: [Int],
                                   _ name: String) throws -> [String] {
        let display = DisplayTransform(physical: Size(width: 800, height: 480), orientation: orientation)
        let canvas = display.logical, shown = canvas.width > canvas.height ? size : size.transposed
        let shot = try PromptEndToEndTests.take(r, path)
        try #require(shot.width == 800 && shot.height == 480, "\(name): a \(shot.width)x\(shot.height) screenshot")
        var wrong: [String] = []
        for (i, corner) in corners.enumerated() where !covered.contains(i) {
            let origin = squareOrigin(i, shown)
            let at = onScreen((origin.x + square / 2, origin.y + square / 2), shown: shown, canvas: canvas, fill: fill)
            let physical = display.toPhysical(Point(x: Double(at.x), y: Double(at.y)))
            let got = shot.rgb(x: Int(physical.x), y: Int(physical.y))
            let channels: [Int] = [got.0, got.1, got.2]
            let matches = [1.0, 127.0 / 255].contains { (shade: Double) -> Bool in
                zip(channels, corner.rgb).allSatisfy { (have, want) -> Bool in abs(Double(have) - shade * Double(want)) <= 12 }
            }
            if !matches {
                wrong.append("\(name): the \(corner.name) square on screen at \(physical) (\(at) on the canvas) is \(got), not \(corner.rgb)")
            }
        }
        return wrong
    }

    @Test("the live preview and the review's frozen frame show the overlay's squares where the take has them, mapped through --preview-fit (fit by default with an overlay, and fill) and the canvas's turn, landscape and portrait",
          arguments: [("landscape", Orientation.landscapeRight, [String](), false, [2]),
                      ("landscape, fill", .landscapeRight, ["--preview-fit", "fill"], true, []),
                      ("portrait", .portrait, ["--orientation", "portrait"], false, [])])
    func overlayInPreview(name: String, orientation: Orientation, arguments: [String], fill: Bool, covered: [Int]) throws {
        // Fitted in landscape, the bottom left square lies under Cancel.
        let folder = try testFolder("overlay-preview-\(name.replacingOccurrences(of: ", ", with: "-"))")
        let landscape = try Self.makePNG(Self.size, in: folder, name: "landscape")
        let portrait = try Self.makePNG(Self.size.transposed, in: folder, name: "portrait")
        let r = try RecorderProcess(["--camera", "test", "--microphone", "none", "--size", "\(Self.size)", "--countdown", "0",
                                     "--windowed", "800x480", "--overlay", landscape, "--overlay-portrait", portrait,
                                     "--output", folder.appendingPathComponent("take.mov").path] + arguments)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        try Self.expectSquaresOnScreen(r, folder.appendingPathComponent("ready.bmp").path, orientation: orientation, fill: fill,
                                       covered: covered, name)
        // The review's frozen frame is the take's last picture: it has them too (Retake lies over the bottom left).
        _ = try ServiceEndToEndTests.take(r, seconds: 0.5)
        try Self.expectSquaresOnScreen(r, folder.appendingPathComponent("finished.bmp").path, orientation: orientation, fill: fill,
                                       covered: [2], name + ", finished")
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
    }

    @Test("docs/screenshots/make-overlay, as the README runs it, into a scratch folder: the example frames, the booth's screenshots and the takes' pictures, each take framed in the PNG's yellow at its sides, upright (640x360 and 360x640)")
    func readmeOverlayScript() throws {
        let folder = try testFolder("overlay-readme")
        let made = try runTool(["docs/screenshots/make-overlay", folder.path])
        try #require(made.status == 0, "\(made.stderr)")
        for (name, size) in [("landscape", Size(width: 640, height: 360)), ("portrait", Size(width: 360, height: 640))] {
            for picture in ["frame", "ready"] {
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("overlay-\(picture)-\(name).png").path))
            }
            let rgbPath = folder.appendingPathComponent("\(name).rgb").path
            let decoded = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", folder.appendingPathComponent("overlay-take-\(name).png").path,
                                          "-f", "rawvideo", "-pix_fmt", "rgb24", rgbPath], stdout: .discard)
            let rgb = try [UInt8](Data(contentsOf: URL(fileURLWithPath: rgbPath)))
            try #require(decoded.status == 0 && rgb.count == size.width * size.height * 3, "\(name): \(rgb.count) bytes, not \(size)")
            // The border (24 of 1280 or 720 pixels, 12 of 640 or 360 here) at the middle of the left and right sides.
            for x in [4, size.width - 5] {
                let at = (size.height / 2 * size.width + x) * 3
                let got = [Int(rgb[at]), Int(rgb[at + 1]), Int(rgb[at + 2])]
                #expect(zip(got, [0xF2, 0xB7, 0x05]).allSatisfy { abs($0 - $1) <= 16 }, "\(name): the side at x \(x) is \(got), not the frame's yellow")
            }
        }
    }

    @Test("SIGHUP: a reload naming a file that is no PNG is refused (badConfig naming it); one naming a PNG puts it on the next take")
    func reload() throws {
        let (r, rewrite, folder) = try configuredBooth("overlay-reload", "size = \(Self.size)\nmax-duration = 1.5\n")
        let jpeg = try Self.makeHostile("a JPEG renamed", in: folder)
        try rewrite("size = \(Self.size)\nmax-duration = 1.5\noverlay = \(jpeg)\n")
        r.kill(SIGHUP)
        #expect(r.wait(for: "error") != nil)
        let errors = r.events.compactMap { if case let .error(code, message) = $0 { (code, message) } else { nil } }
        #expect(errors.map(\.0) == [.badConfig] && errors.first?.1.contains("overlay: '\(jpeg)' is not a PNG") == true, "\(errors)")
        let png = try Self.makePNG(Self.size, in: folder, name: "landscape")
        try rewrite("size = \(Self.size)\nmax-duration = 1.5\noverlay = \(png)\n")
        r.kill(SIGHUP)
        #expect(r.waitForLog("are in force"), "\(r.stderr)")
        // The preview has it from now on too (fit, the default with an overlay).
        try Self.expectSquaresOnScreen(r, folder.appendingPathComponent("reloaded.bmp").path, orientation: .landscapeRight, fill: false,
                                       covered: [2], "after the reload")
        r.command("start")
        #expect(r.wait(for: "recordingFinished", timeout: 20) != nil)
        let take = try #require(r.lastResult).outputPath
        r.command("quit")
        #expect(r.exitStatus() == 0)
        // The red square at the top left, where the PNG has it.
        let rgbPath = folder.appendingPathComponent("corner.rgb").path
        let decoded = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", take, "-frames:v", "1", "-vf", "crop=2:2:28:28", "-f", "rawvideo",
                                      "-pix_fmt", "rgb24", rgbPath], stdout: .discard)
        let rgb = try [UInt8](Data(contentsOf: URL(fileURLWithPath: rgbPath)))
        try #require(decoded.status == 0 && rgb.count == 12, "\(decoded.stderr)")
        #expect(rgb[0] > 230 && rgb[1] < 25 && rgb[2] < 25, "\(rgb)")
    }

    // MARK: - Files that cannot be overlays

    /// The hostile files: how each is made in `folder`, and the words its refusal must say.
    static let hostile: [(name: String, words: String)] = [
        ("truncated", "cut short"), ("a JPEG renamed", "it is a JPEG"), ("16384x16384", "too large"),
        ("palette without alpha", "palette PNG without alpha"), ("zero bytes", "empty"), ("a folder", "is a folder"),
    ]

    static func makeHostile(_ name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-") + ".png").path
        switch name {
        case "truncated":
            let whole = try Data(contentsOf: URL(fileURLWithPath: try makePNG(size, in: folder, name: "whole")))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
        case "a JPEG renamed":
            let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=red:s=64x48", "-frames:v", "1", "-f", "mjpeg", path],
                                      stdout: .discard)
            try #require(made.status == 0, "\(made.stderr)")
        case "16384x16384":
            // Grey, 1 bit, its one shade transparent (tRNS): a valid PNG of 16384x16384, 200 KB on disk.
            let side = 16384, rowBytes = 1 + side / 8
            try Data(PNGWriter.png(width: side, height: side, depth: 1, colourType: 0, extra: [("tRNS", [0, 0])],
                                   zlib: PNGWriter.zlibZeros(count: rowBytes * side))).write(to: URL(fileURLWithPath: path))
        case "palette without alpha":
            let rows = [UInt8]((0..<16).flatMap { _ in [0] + [UInt8](repeating: 0, count: 16) })
            try Data(PNGWriter.png(width: 16, height: 16, depth: 8, colourType: 3, extra: [("PLTE", [255, 0, 0])],
                                   zlib: PNGWriter.zlibStored(rows))).write(to: URL(fileURLWithPath: path))
        case "zero bytes":
            try Data().write(to: URL(fileURLWithPath: path))
        default:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        return path
    }

    @Test("a file that cannot be an overlay exits 2 (not a signal) with a message naming it and why", arguments: hostile.map(\.name))
    func hostileFile(name: String) throws {
        let folder = try testFolder("overlay-hostile")
        let path = try Self.makeHostile(name, in: folder)
        let words = try #require(Self.hostile.first { $0.name == name }?.words)
        // Through a shell, which says how the recorder ended: its exit status, or 128 + a signal.
        let r = try runProgram(["/bin/sh", "-c", "\"$0\" \"$@\"; echo \"exit $?\"", recorderPath, "--camera", "test", "--microphone", "none",
                                "--windowed", "640x480", "--overlay", path],
                               environment: recorderEnvironment(), directory: repositoryRoot)
        #expect(r.stdout.hasSuffix("exit 2\n"), "\(name): \(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("--overlay: '\(path)'") && r.stderr.contains(words), "\(name): \(r.stderr)")
    }
}

/// Just enough of a PNG encoder to make the files the ffmpeg CLI will not: chunks with their CRCs,
/// zlib streams of stored blocks, and one of fixed-Huffman back references for a huge picture of zeros.
enum PNGWriter {
    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crcTable[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc(body))
    }

    static func png(width: Int, height: Int, depth: UInt8, colourType: UInt8, extra: [(String, [UInt8])], zlib: [UInt8]) -> [UInt8] {
        let ihdr = be32(UInt32(width)) + be32(UInt32(height)) + [depth, colourType, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + extra.flatMap { chunk($0.0, $0.1) }
            + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return b << 16 | a
    }

    /// A zlib stream of stored blocks (no compression).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let n = min(65535, data.count - at)
            let last: UInt8 = at + n == data.count ? 1 : 0
            out += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)] + data[at..<(at + n)]
            at += n
        } while at < data.count
        return out + be32(adler32(data))
    }

    /// A zlib stream of `count` zero bytes in one fixed-Huffman block: a literal 0, then copies of
    /// 258 bytes from 1 back (13 bits each), the rest as literals.
    static func zlibZeros(count: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var bits: UInt64 = 0, used = 0
        func put(_ value: UInt64, _ n: Int) {
            bits |= value << UInt64(used)
            used += n
            while used >= 8 { out.append(UInt8(bits & 0xFF)); bits >>= 8; used -= 8 }
        }
        // Huffman codes go most significant bit first: reversed into the LSB-first stream.
        func code(_ value: UInt64, _ n: Int) {
            var reversed: UInt64 = 0
            for i in 0..<n { reversed |= ((value >> UInt64(i)) & 1) << UInt64(n - 1 - i) }
            put(reversed, n)
        }
        put(1, 1); put(1, 2)  // the last block, fixed Huffman codes
        code(0x30, 8)  // literal 0
        var left = count - 1
        while left >= 258 {
            code(0xC5, 8)  // length 258 (code 285)
            code(0, 5)  // distance 1
            left -= 258
        }
        for _ in 0..<left { code(0x30, 8) }
        code(0, 7)  // end of block
        if used > 0 { put(0, 8 - used) }
        // Adler-32 of zeros: a stays 1, b adds 1 for each byte.
        return out + be32(UInt32(count % 65521) << 16 | 1)
    }
}
