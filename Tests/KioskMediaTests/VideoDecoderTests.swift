// The MJPEG decoder on real JPEGs made by the ffmpeg CLI (an independent encoder).
import CFFmpeg
import Foundation
import Testing
@testable import KioskMedia
import KioskCore
import KioskTestSupport

/// A yuv420p frame with the stamp `number` and grey elsewhere.
func stampedFrame(_ size: Size, number: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 128, count: PixelFormat.yuv420p.frameBytes(for: size))
    for i in 0..<FrameStamp.bits {
        let v = (number >> (15 - i)) & 1 == 1 ? FrameStamp.white : FrameStamp.black
        for y in 0..<FrameStamp.bandHeight(frameHeight: size.height) {
            for x in FrameStamp.cell(i, width: size.width) { bytes[y * size.width + x] = v }
        }
    }
    return bytes
}

@Suite("Video decoder")
struct VideoDecoderTests {
    let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-decoder-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// One JPEG by the ffmpeg CLI of an lavfi source (`testsrc2`, or `color=c=…`) at `size`, in `layout`.
    func lavfiJPEG(_ name: String, source: String = "testsrc2", size: String, layout: String, quality: Int = 3) throws -> [UInt8] {
        let jpeg = folder.appendingPathComponent("\(name).jpg")
        let made = try runProgram(["ffmpeg", "-y", "-loglevel", "error", "-f", "lavfi", "-i", source + (source.contains("=") ? ":" : "=") + "size=\(size)", "-frames:v", "1",
                                   "-pix_fmt", layout, "-q:v", "\(quality)", jpeg.path])
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        return [UInt8](try Data(contentsOf: jpeg))
    }

    /// The JPEG with its frame header (SOF0: FF C0, length, precision, height, width) claiming
    /// 16000x16000, and a megabyte more of data (libavcodec believes so big a picture only from a
    /// packet of over a megabyte).
    func claiming16000(_ jpeg: [UInt8]) throws -> [UInt8] {
        var data = jpeg
        let sof = try #require(data.indices.dropLast().first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        data.replaceSubrange((sof + 5)..<(sof + 9), with: [0x3E, 0x80, 0x3E, 0x80])
        return data + [UInt8](repeating: 0, count: 1_100_000)
    }

    /// The camera's decoder (libjpeg-turbo, libavcodec for the rest) or libavcodec's alone.
    static func decoder(_ name: String) throws -> any FrameDecoder {
        name == "camera" ? try CameraJPEGDecoder() : try VideoDecoder(codec: "mjpeg")
    }

    @Test("JPEGs from ffmpeg (full range, 4:2:2, 4:2:0, 4:4:4) decode to video-range yuv420p with the source's samples and stamp, by either decoder",
          arguments: ["yuvj422p", "yuvj420p", "yuvj444p"], ["camera", "libavcodec"])
    func mjpeg(pixelFormat: String, decoderName: String) throws {
        let size = Size(width: 640, height: 480)
        let raw = folder.appendingPathComponent("\(pixelFormat)-\(decoderName).yuv")
        let jpeg = folder.appendingPathComponent("\(pixelFormat)-\(decoderName).jpg")
        // Video-range yuv420p: the stamp (Y 16 and 235) over grey, the top half's chroma (64, 192),
        // the bottom half's (192, 64). ffmpeg makes full range of it for the JPEG (16 → 0, 235 → 255).
        var source = stampedFrame(size, number: 0x1234)
        let planes = PixelFormat.yuv420p.planes(for: size)
        for row in 0..<planes[1].rows {
            let top = row < planes[1].rows / 2
            for x in 0..<planes[1].stride {
                source[planes[1].offset + row * planes[1].stride + x] = top ? 64 : 192
                source[planes[2].offset + row * planes[2].stride + x] = top ? 192 : 64
            }
        }
        try Data(source).write(to: raw)
        let status = try runProgram(["ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "640x480",
                                     "-i", raw.path, "-pix_fmt", pixelFormat, "-q:v", "3", "-frames:v", "1", jpeg.path],
                                    stdout: .discard, stderr: .discard).status
        try #require(status == 0, "ffmpeg made the JPEG")
        let data = try Data(contentsOf: jpeg)
        let decoder = try Self.decoder(decoderName)
        let frame = try data.withUnsafeBytes { try decoder.decode($0, timestamp: 42, sequence: 7) }
        let f = try #require(frame)
        if let camera = decoder as? CameraJPEGDecoder {
            // libjpeg-turbo takes the samplings webcams send; libavcodec the rest.
            let turbo = pixelFormat != "yuvj444p"
            #expect(camera.turboPictures == (turbo ? 1 : 0) && camera.fallbackPictures == (turbo ? 0 : 1))
        }
        #expect(f.format == .yuv420p && !f.fullRange && f.size == size && f.timestamp == 42 && f.sequence == 7)
        #expect(f.planes == planes && f.bytes.count == PixelFormat.yuv420p.frameBytes(for: size))
        #expect(FrameStamp.read(f) == 0x1234)
        // Back in video range: the stamp's white and black and the grey as they were (JPEG's error
        // aside); left full range they would read 255, 0 and 130.
        let band = FrameStamp.bandHeight(frameHeight: size.height)
        let white = FrameStamp.cell(3, width: size.width), black = FrameStamp.cell(0, width: size.width)
        #expect(abs(Int(f.luma(x: white.lowerBound + 10, y: band / 2)) - 235) <= 4, "white: \(f.luma(x: white.lowerBound + 10, y: band / 2))")
        #expect(abs(Int(f.luma(x: black.lowerBound + 10, y: band / 2)) - 16) <= 4, "black: \(f.luma(x: black.lowerBound + 10, y: band / 2))")
        #expect(abs(Int(f.luma(x: 320, y: 300)) - 128) <= 3)
        // The chroma, each half its own (4:2:2's rows averaged in pairs within a half); full range would read 55 and 201.
        for (row, u, v) in [(planes[1].rows / 4, 64, 192), (planes[1].rows * 3 / 4, 192, 64)] {
            let got = (f.bytes[planes[1].offset + row * planes[1].stride + 100], f.bytes[planes[2].offset + row * planes[2].stride + 100])
            #expect(abs(Int(got.0) - u) <= 4 && abs(Int(got.1) - v) <= 4, "chroma row \(row): \(got), expected (\(u), \(v))")
        }
    }

    @Test("full range to video range: every luma and chroma value exactly rounded; 4:2:2 rows averaged, rounding half up")
    func ranges() {
        let all = (0...255).map { UInt8($0) }
        var lumas = [UInt8](repeating: 0, count: 256), chromas = [UInt8](repeating: 0, count: 256)
        VideoRange.lumaRow(all, into: &lumas, count: 256, fromFull: true)
        VideoRange.chromaRow(all, into: &chromas, count: 256, fromFull: true)
        for value in 0...255 {
            #expect(Int(lumas[value]) == Int((16 + Double(value) * 219 / 255).rounded(.toNearestOrAwayFromZero)))
            #expect(Int(chromas[value]) == Int((128 + (Double(value) - 128) * 224 / 255 + 0.5).rounded(.down)))
        }
        let a: [UInt8] = [0, 255, 10, 11, 128], b: [UInt8] = [0, 255, 11, 11, 255]
        var out = [UInt8](repeating: 0, count: 5)
        VideoRange.chromaRows(a, b, into: &out, count: 5, fromFull: false)
        #expect(out == [0, 255, 11, 11, 192])
        VideoRange.chromaRows(a, b, into: &out, count: 5, fromFull: true)
        #expect(out == [16, 240, chromas[11], chromas[11], chromas[192]])
        var row = [UInt8](repeating: 0, count: 3)
        VideoRange.lumaRow([0, 128, 255], into: &row, count: 3, fromFull: true)
        #expect(row == [16, 126, 235])
        VideoRange.lumaRow([0, 128, 255], into: &row, count: 3, fromFull: false)
        #expect(row == [0, 128, 255])
    }

    @Test("swscale between two ranges of one layout and size converts the samples (told the ranges only after its set-up, it copied them)")
    func scalerRanges() throws {
        let size = Size(width: 64, height: 32)
        let planes = PixelFormat.yuv420p.planes(for: size)
        var source = [UInt8](repeating: 255, count: PixelFormat.yuv420p.frameBytes(for: size))
        for i in 0..<(size.width * size.height / 2) { source[i] = 0 } // the top half black, the bottom white
        var target = [UInt8](repeating: 7, count: source.count)
        for (sourceFull, targetFull, black, white) in [(true, false, 16, 235), (false, true, 0, 255), (false, false, 0, 255)] {
            let scaler = try Scaler(Scaler.Key(source: AV_PIX_FMT_YUV420P, sourceWidth: 64, sourceHeight: 32, target: AV_PIX_FMT_YUV420P,
                                               targetWidth: 64, targetHeight: 32, sourceFullRange: sourceFull, targetFullRange: targetFull,
                                               bt709: false, flags: SWS_POINT))
            try source.withUnsafeBufferPointer { s in
                try target.withUnsafeMutableBufferPointer { t in
                    try scaler.scale(planes.map { UnsafePointer(s.baseAddress! + $0.offset) }, pitches: planes.map(\.stride),
                                     into: planes.map { t.baseAddress! + $0.offset }, pitches: planes.map(\.stride))
                }
            }
            let (top, bottom) = (Int(target[5 * size.width + 5]), Int(target[25 * size.width + 5]))
            #expect(abs(top - black) <= 1 && abs(bottom - white) <= 1, "\(sourceFull) → \(targetFull): \(top), \(bottom)")
        }
    }

    @Test("garbage and truncated JPEGs are refused without a crash")
    func corrupt() throws {
        let decoder = try VideoDecoder(codec: "mjpeg")
        let garbage = [UInt8](repeating: 0xAB, count: 5000)
        let result = try? garbage.withUnsafeBytes { try decoder.decode($0, timestamp: 0, sequence: 0) }
        #expect(result == nil)
        let empty = try? [UInt8]().withUnsafeBytes { try decoder.decode($0, timestamp: 0, sequence: 0) }
        #expect(empty == nil)
    }

    @Test("a JPEG whose header claims 16000x16000 (with data enough for libavcodec to believe it) is refused by max_pixels before it allocates")
    func hugeHeader() throws {
        let small = try lavfiJPEG("small", size: "64x64", layout: "yuvj422p")
        let data = try claiming16000(small)
        let decoder = try VideoDecoder(codec: "mjpeg")
        #expect(throws: AVError.self) { _ = try data.withUnsafeBytes { try decoder.decode($0, timestamp: 0, sequence: 0) } }
        // The same decoder still takes a JPEG of a real size.
        #expect(try small.withUnsafeBytes { try decoder.decode($0, timestamp: 0, sequence: 1) }?.size == Size(width: 64, height: 64))
    }

    @Test("the camera's decoder and libavcodec's give the same picture of real content (a test source), to within the IDCTs' rounding")
    func decodersAgree() throws {
        for layout in ["yuvj422p", "yuvj420p"] {
            let data = try lavfiJPEG("agree-\(layout)", size: "640x360", layout: layout)
            let camera = try CameraJPEGDecoder(), avcodec = try VideoDecoder(codec: "mjpeg")
            let a = try #require(try data.withUnsafeBytes { try camera.decode($0, timestamp: 0, sequence: 0) })
            let b = try #require(try data.withUnsafeBytes { try avcodec.decode($0, timestamp: 0, sequence: 0) })
            #expect(camera.turboPictures == 1)
            #expect(a.format == b.format && a.size == b.size && a.planes == b.planes && a.bytes.count == b.bytes.count)
            let differences = zip(a.bytes, b.bytes).map { abs(Int($0) - Int($1)) }
            let mean = Double(differences.reduce(0, +)) / Double(differences.count)
            #expect(mean < 0.5 && differences.max()! <= 6, "\(layout): mean \(mean), max \(differences.max()!)")
        }
    }

    @Test("a webcam's JPEG without Huffman tables (MJPEG's default tables assumed) decodes with libjpeg-turbo")
    func withoutHuffmanTables() throws {
        let jpeg = folder.appendingPathComponent("dht.jpg")
        let raw = folder.appendingPathComponent("dht.yuv")
        try Data(stampedFrame(Size(width: 640, height: 480), number: 0x0F0F)).write(to: raw)
        // The default tables written out (huffman=default), then the DHT segments cut, as UVC cameras send them.
        let encoded = try runProgram(["ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "640x480",
                                      "-i", raw.path, "-frames:v", "1", "-pix_fmt", "yuvj422p", "-huffman", "default", "-q:v", "3", jpeg.path])
        try #require(encoded.status == 0, "ffmpeg: \(encoded.stderr)")
        var data = [UInt8](try Data(contentsOf: jpeg))
        var cut = 0
        while let dht = data.indices.dropLast().first(where: { data[$0] == 0xFF && data[$0 + 1] == 0xC4 }) {
            let length = Int(data[dht + 2]) << 8 | Int(data[dht + 3])
            data.removeSubrange(dht..<(dht + 2 + length))
            cut += 1
        }
        try #require(cut > 0, "the JPEG had Huffman tables to cut")
        let camera = try CameraJPEGDecoder()
        let frame = try #require(try data.withUnsafeBytes { try camera.decode($0, timestamp: 0, sequence: 0) })
        #expect(camera.turboPictures == 1 && camera.fallbackPictures == 0)
        #expect(FrameStamp.read(frame) == 0x0F0F)
        #expect(abs(Int(frame.luma(x: 320, y: 300)) - 128) <= 3)
    }

    @Test("the camera's decoder on hostile pictures: garbage, nothing, a cut JPEG, one claiming 16000x16000; no crash, and good pictures after")
    func cameraDecoderHostile() throws {
        let good = try lavfiJPEG("hostile", size: "320x240", layout: "yuvj422p")
        let camera = try CameraJPEGDecoder()
        func decode(_ bytes: [UInt8]) -> VideoFrame?? { try? bytes.withUnsafeBytes { try camera.decode($0, timestamp: 0, sequence: 0) } }
        #expect(decode([UInt8](repeating: 0xAB, count: 5000)).flatMap { $0 } == nil)
        #expect(decode([]).flatMap { $0 } == nil)
        // A JPEG cut in half: turbo warns and gives it up; libavcodec decides (it conceals or refuses).
        let cutResult = decode(Array(good.prefix(good.count / 2)))
        #expect(camera.turboPictures == 0, "no damaged picture is taken from turbo")
        if let frame = cutResult.flatMap({ $0 }) { #expect(frame.size == Size(width: 320, height: 240)) }
        let huge = try claiming16000(good)
        #expect(decode(huge).flatMap { $0 } == nil)
        #expect(camera.turboPictures == 0)
        // And the next good picture is decoded by turbo.
        #expect(decode(good).flatMap { $0 }?.size == Size(width: 320, height: 240))
        #expect(camera.turboPictures == 1)
    }

    @Test("tiny pictures in the layouts swscale converts (4:4:4, 4:4:0) come out whole: every sample of every plane as the source's")
    func tinyConverted() throws {
        for (layout, size) in [("yuvj444p", "3x3"), ("yuvj444p", "2x3"), ("yuvj444p", "5x7"), ("yuvj440p", "9x5")] {
            // A flat colour (Y 81, U 90, V 240 in video range), so every sample has one right value.
            let data = try lavfiJPEG("tiny-\(layout)-\(size)", source: "color=c=0xff0000", size: size, layout: layout, quality: 1)
            let frame = try #require(try data.withUnsafeBytes { try CameraJPEGDecoder().decode($0, timestamp: 0, sequence: 0) })
            let planes = PixelFormat.yuv420p.planes(for: frame.size)
            #expect(frame.format == .yuv420p && frame.planes == planes && frame.bytes.count == PixelFormat.yuv420p.frameBytes(for: frame.size))
            let expected = [81, 90, 240]
            for (index, plane) in planes.enumerated() {
                let samples = (0..<plane.rows).flatMap { row in (0..<plane.stride).map { Int(frame.bytes[plane.offset + row * plane.stride + $0]) } }
                #expect(samples.allSatisfy { abs($0 - expected[index]) <= 3 }, "\(layout) \(size) plane \(index): \(samples)")
            }
        }
    }

    @Test("YUYV to 4:2:0: luma as it is, each chroma sample the two rows' average (the last row alone at an odd height)")
    func yuyv() {
        // 4x3: row r, pair p holds Y = 10r + 2p (+1 for its second pixel), U = 100 + 10r + p, V = 200 + 10r + p.
        let size = Size(width: 4, height: 3)
        var source: [UInt8] = []
        for r in 0..<3 { for p in 0..<2 { source += [UInt8(10 * r + 2 * p), UInt8(100 + 10 * r + p), UInt8(10 * r + 2 * p + 1), UInt8(200 + 10 * r + p)] } }
        var y = [UInt8](repeating: 0, count: 12), u = [UInt8](repeating: 0, count: 4), v = [UInt8](repeating: 0, count: 4)
        source.withUnsafeBufferPointer { s in
            VideoRange.yuyvTo420(s.baseAddress!, pitch: 8, size: size, y: &y, yPitch: 4, u: &u, uPitch: 2, v: &v, vPitch: 2)
        }
        #expect(y == [0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23])
        // Rows 0 and 1 averaged (105, 106 rounding half up), then row 2 alone.
        #expect(u == [105, 106, 120, 121])
        #expect(v == [205, 206, 220, 221])
    }

    @Test("YUYV to 4:2:0 over rows long enough for the vector steps (and their scalar tails): every byte as the plain definition says")
    func yuyvVectorised() {
        // 102 pixels: six 16-sample luma steps and a tail of 6; three 16-pair chroma steps and a
        // tail of 3. 7 rows: three chroma rows of two, the last alone. Every byte value appears.
        let size = Size(width: 102, height: 7), pitch = 2 * 102 + 12
        var state: UInt32 = 12345
        let source = (0..<(pitch * size.height)).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        var y = [UInt8](repeating: 0, count: 102 * 7), u = [UInt8](repeating: 0, count: 51 * 4), v = u
        source.withUnsafeBufferPointer { s in
            VideoRange.yuyvTo420(s.baseAddress!, pitch: pitch, size: size, y: &y, yPitch: 102, u: &u, uPitch: 51, v: &v, vPitch: 51)
        }
        var wantY: [UInt8] = [], wantU: [UInt8] = [], wantV: [UInt8] = []
        for row in 0..<7 { for x in 0..<102 { wantY.append(source[row * pitch + 2 * x]) } }
        for row in 0..<4 {
            let a = 2 * row * pitch, b = min(2 * row + 1, 6) * pitch
            for p in 0..<51 {
                wantU.append(UInt8((Int(source[a + 4 * p + 1]) + Int(source[b + 4 * p + 1]) + 1) >> 1))
                wantV.append(UInt8((Int(source[a + 4 * p + 3]) + Int(source[b + 4 * p + 3]) + 1) >> 1))
            }
        }
        #expect(y == wantY)
        #expect(u == wantU)
        #expect(v == wantV)
    }

    @Test("an unknown codec name is an AVError naming the call")
    func unknownCodec() {
        #expect(throws: AVError.self) { try VideoDecoder(codec: "no-such-codec") }
    }
}
