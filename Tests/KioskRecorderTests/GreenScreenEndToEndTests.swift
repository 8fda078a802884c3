// The green screen (`--background`) through the binary, on ground truth: real footage (bench/footage's
// Big Buck Bunny) composited by the ffmpeg CLI through a moving elliptical mask over a green backdrop
// with a light gradient, noise, and green spill on the subject's edge, stamped by kiosk-bench
// make-clip and fed through the fake camera at 1280x720 and 30 a second. The take is measured
// against the mask the test made, the footage and the known background picture.
import Foundation
import KioskContract
import KioskCore
import KioskTestSupport
import Testing

@Suite("the green screen, end to end", .serialized)
struct GreenScreenEndToEndTests {
    static let size = Size(width: 1280, height: 720)
    /// The clip's pictures (1.5 s, looped by the camera).
    static let pictures = 45
    /// Rows at the top that carry the stamp, left out of every measure.
    static let stampRows = 48
    /// The key's defaults (`--key green`, `--key-similarity`, `--key-blend`), as the test judges
    /// which of the footage's colours the key can tell from the backdrop.
    static let key = (red: 0x00, green: 0xB1, blue: 0x40), similarity = 0.15, blend = 0.05

    /// The composite, its mask and the background: `comp.mkv` (lossless RGB), `mask.mkv` (grey, 255
    /// where the subject is), `background.png` (1600x1200: scaled to fill and cropped by the booth).
    /// `empty`: pictures first with the subject out of frame (the clip is `pictures` more, the
    /// subject then the footage's same pictures as without).
    static func makeFootage(_ footage: String, in folder: URL, empty: Int = 0) throws -> (clip: String, background: String) {
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        // The backdrop: a light gradient around chroma-key green, with noise changing every picture.
        let backdrop = "gradients=s=\(size):c0=0x069a3a:c1=0x1cc456:x0=0:y0=0:x1=1280:y1=720:r=30,trim=end_frame=1,loop=loop=-1:size=1,setpts=N/30/TB,noise=alls=10:allf=t"
        // The mask: an ellipse 520x600 moving right and down, 4 and 2 pixels a picture (after the
        // empty pictures, where it is beyond the right edge).
        let ellipse = "color=black:s=520x600:r=30,geq=lum='255*lte(((X-259.5)/260)^2+((Y-299.5)/300)^2\\,1)',trim=end_frame=1,loop=loop=-1:size=1,setpts=N/30/TB"
        // Spill: the subject's outer 4 pixels made greener by 50 levels.
        let graph = """
            [0:v]format=gbrp[backdrop];[1:v]fps=30,scale=1280:720,format=gbrp,tpad=start=\(empty),split[subject][tinted0];
            [tinted0]lutrgb=g='min(val+50\\,255)'[tinted];
            [3:v][2:v]overlay=x='if(lt(n\\,\(empty))\\,\(size.width)\\,300+4*(n-\(empty)))':y='64+2*max(n-\(empty)\\,0)':format=yuv444,format=gray,split=4[m1][m2][m3][mask];
            [m1]erosion,erosion,erosion,erosion[eroded];[m2][eroded]blend=all_mode=difference,format=gbrp[band];
            [subject][tinted][band]maskedmerge[spilled];[m3]format=gbrp[m3rgb];[backdrop][spilled][m3rgb]maskedmerge[comp]
            """
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", backdrop, "-i", footage, "-f", "lavfi", "-i", ellipse,
                                   "-f", "lavfi", "-i", "color=black:s=\(size):r=30", "-filter_complex", graph,
                                   "-map", "[comp]", "-frames:v", "\(pictures + empty)", "-c:v", "ffv1", path("comp.mkv"),
                                   "-map", "[mask]", "-frames:v", "\(pictures + empty)", "-c:v", "ffv1", path("mask.mkv")], stdout: .discard)
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        let clip = path("footage.mjpeg")
        let stamped = try runProgram([TestEnvironment.buildFolder.appendingPathComponent("kiosk-bench").path, "make-clip", "--footage", path("comp.mkv"),
                                      "--size", "\(size)", "--frames", "\(pictures + empty)", "--output", clip], stdout: .discard)
        try #require(stamped.status == 0, "kiosk-bench make-clip: \(stamped.stderr)")
        let background = path("background.png")
        let picture = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                                      "gradients=s=1600x1200:c0=0x3050d0:c1=0xd04090:c2=0xe0a030:n=3:x0=0:y0=0:x1=1600:y1=1200,trim=end_frame=1",
                                      "-frames:v", "1", background], stdout: .discard)
        try #require(picture.status == 0, "ffmpeg: \(picture.stderr)")
        return (clip, background)
    }

    /// Pictures `numbers` (sorted, each once) of `path`, decoded by the ffmpeg CLI as `format`.
    static func frames(_ path: String, _ numbers: [Int], format: String, channels: Int) throws -> [Int: [UInt8]] {
        let select = numbers.map { "eq(n\\,\($0))" }.joined(separator: "+")
        let out = path + ".selected." + format
        let r = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", path, "-vf", "select='\(select)'", "-fps_mode", "passthrough",
                                "-f", "rawvideo", "-pix_fmt", format, out], stdout: .discard)
        try #require(r.status == 0, "ffmpeg on \(path): \(r.stderr)")
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        let bytes = size.width * size.height * channels
        try #require(data.count == numbers.count * bytes, "\(path): \(data.count) bytes for \(numbers.count) pictures")
        return Dictionary(uniqueKeysWithValues: numbers.enumerated().map { ($1, Array(data[($0 * bytes)..<(($0 + 1) * bytes)])) })
    }

    /// chromakey's distance of a colour from the key (`--key`'s default, or `to`): its chroma's
    /// (BT.601), as a fraction of the largest.
    static func keyDistance(_ r: Int, _ g: Int, _ b: Int, to key: (red: Int, green: Int, blue: Int) = key) -> Double {
        func chroma(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double) {
            (-0.168736 * r - 0.331264 * g + 0.5 * b, 0.5 * r - 0.418688 * g - 0.081312 * b)
        }
        let (u, v) = chroma(Double(r), Double(g), Double(b)), (ku, kv) = chroma(Double(key.red), Double(key.green), Double(key.blue))
        return ((u - ku) * (u - ku) + (v - kv) * (v - kv)).squareRoot() / (255 * 2.0.squareRoot())
    }

    /// What one take's picture shows against the truth.
    struct Measures {
        var intersection = 0, union = 0
        var backgroundError = 0.0, backgroundCount = 0
        var spill = 0.0, spillCount = 0
        /// The same edge's green excess in the camera's picture: the spill there was to take out.
        var sourceSpill = 0.0
    }

    /// The take's picture `take` (RGB) against the composite's `source`, its `mask` and the
    /// background `expected`, added to `m`; `key` and `similarity`: the key's (the defaults', or
    /// the one `--key auto` measured).
    /// The `sampled` pictures of `take` (whose stamps are `stamps`), the clip's composite and mask
    /// at their stamps (in `folder`), and `background` as the key should show it (scaled to fill).
    static func truth(take: String, sampled: [Int], stamps: [Int], folder: URL, background: String) throws
        -> (taken: [Int: [UInt8]], composite: [Int: [UInt8]], masks: [Int: [UInt8]], expected: [UInt8]) {
        let taken = try frames(take, sampled, format: "rgb24", channels: 3)
        let sources = Array(Set(sampled.map { stamps[$0] })).sorted()
        let composite = try frames(folder.appendingPathComponent("comp.mkv").path, sources, format: "rgb24", channels: 3)
        let masks = try frames(folder.appendingPathComponent("mask.mkv").path, sources, format: "gray", channels: 1)
        let expectedPath = folder.appendingPathComponent("expected.rgb").path
        let (w, h) = (size.width, size.height)
        let scaled = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", background, "-vf",
                                     "scale=\(w):\(h):force_original_aspect_ratio=increase:flags=bicubic,crop=\(w):\(h)",
                                     "-f", "rawvideo", "-pix_fmt", "rgb24", expectedPath], stdout: .discard)
        try #require(scaled.status == 0, "\(scaled.stderr)")
        return (taken, composite, masks, try [UInt8](Data(contentsOf: URL(fileURLWithPath: expectedPath))))
    }

    static func measure(take: [UInt8], source: [UInt8], mask: [UInt8], expected: [UInt8], into m: inout Measures,
                        key: (red: Int, green: Int, blue: Int) = key, similarity: Double = similarity) {
        let (w, h) = (size.width, size.height)
        let subjectMask = mask.map { $0 > 127 }
        let (near1, near2, near4) = (nearOtherSide(subjectMask, 1), nearOtherSide(subjectMask, 2), nearOtherSide(subjectMask, 4))
        for y in stampRows..<h {
            for x in 0..<w {
                let p = (y * w + x) * 3
                let t = (Int(take[p]), Int(take[p + 1]), Int(take[p + 2]))
                let s = (Int(source[p]), Int(source[p + 1]), Int(source[p + 2]))
                let b = (Int(expected[p]), Int(expected[p + 1]), Int(expected[p + 2]))
                let fromBackground = Double(abs(t.0 - b.0) + abs(t.1 - b.1) + abs(t.2 - b.2)) / 3
                let i = y * w + x, subject = subjectMask[i]
                // Near the mask's edge (2 pixels), a pixel is neither's: left out.
                if !subject, !near2[i] {
                    m.backgroundError += fromBackground
                    m.backgroundCount += 1
                }
                if subject, !near1[i], near4[i] {
                    m.spill += Double(max(0, t.1 - max(t.0, t.2)))
                    m.sourceSpill += Double(max(0, s.1 - max(s.0, s.2)))
                    m.spillCount += 1
                }
                guard !near2[i] else { continue }
                // Told apart: the source's colour beyond the key's reach, and unlike the background.
                let unlike = Double(abs(s.0 - b.0) + abs(s.1 - b.1) + abs(s.2 - b.2)) / 3 >= 40
                let keyable = keyDistance(s.0, s.1, s.2, to: key) < similarity + blend + 0.02
                guard unlike, !(subject && keyable) else { continue }
                let shownSubject = fromBackground >= 20
                if shownSubject && subject { m.intersection += 1 }
                if shownSubject || subject { m.union += 1 }
            }
        }
    }

    /// Whether a pixel of the mask's other side lies within `r` pixels (a square): each row's
    /// window counted from running sums, then each column's.
    static func nearOtherSide(_ mask: [Bool], _ r: Int) -> [Bool] {
        let (w, h) = (size.width, size.height)
        func within(_ values: [Bool], count: Int, step: Int, lines: Int, lineStep: Int) -> [Bool] {
            var out = [Bool](repeating: false, count: values.count)
            var sums = [Int](repeating: 0, count: count + 1)
            for line in 0..<lines {
                let base = line * lineStep
                for k in 0..<count { sums[k + 1] = sums[k] + (values[base + k * step] ? 1 : 0) }
                for k in 0..<count { out[base + k * step] = sums[min(count, k + r + 1)] - sums[max(0, k - r)] > 0 }
            }
            return out
        }
        var result = [Bool](repeating: false, count: mask.count)
        for side in [true, false] {
            let other = mask.map { $0 != side }
            let rows = within(other, count: w, step: 1, lines: h, lineStep: w)
            let both = within(rows, count: h, step: w, lines: w, lineStep: 1)
            for i in 0..<mask.count where mask[i] == side && both[i] { result[i] = true }
        }
        return result
    }

    /// A screenshot of the whole 1280x720 window.
    static func screenshot(_ r: RecorderProcess, _ path: String) throws -> PromptEndToEndTests.Bitmap {
        r.send(#"{"command":"screenshot","path":"\#(path)"}"#)
        let whole = 54 + size.width * size.height * 3
        try #require(eventually(10, { ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int ?? 0) >= whole }),
                     "no screenshot at \(path): \(r.rawLines)")
        return try PromptEndToEndTests.Bitmap(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("the guest keyed in front of the background, in a photo and in the take: the subject matches the true mask (IoU ≥ 0.97 where subject and background can be told apart), the background shows where the mask is empty (mean error ≤ 6 levels), no green spill on the subject's edge (G over max(R, B) below 5 levels), and the preview's screenshot agrees with the take's picture of the same stamp (within 2 levels on average)",
          .enabled(if: PhotoEndToEndTests.footage != nil || TestEnvironment.isCI, "needs the footage in bench/.cache (bench/footage, or kiosk/setup --test, fetches it from PyPI)"))
    func keyedOnGroundTruth() throws {
        let footage = try #require(PhotoEndToEndTests.footage, "CI is set and bench/.cache has no footage: kiosk/setup --test fetches it (bench/footage)")
        let folder = try testFolder("green-screen")
        let (clip, background) = try Self.makeFootage(footage, in: folder)
        let device = try fakeCamera(in: folder, "card=Green Screen Cam\nformat=MJPG \(Self.size)@30\nclip=\(clip)\n")
        let take = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(["--camera", device, "--microphone", "none", "--size", "\(Self.size)", "--fps", "30", "--countdown", "0",
                                     "--windowed", "\(Self.size)", "--background", background, "--photo-button", "--output", take])
        try #require(r.wait(for: "ready", timeout: 20) != nil, "\(r.stderr)")
        // A photo in ready first: keyed as the take is.
        r.command("photo")
        try #require(r.wait(for: "photoTaken") != nil, "\(r.stderr)")
        let photo = try #require(PhotoEndToEndTests.photos(r).first)
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        try #require(r.waitRecorded(1), "\(r.stderr)")
        let shot = try Self.screenshot(r, folder.appendingPathComponent("preview.bmp").path)
        try #require(r.waitRecorded(2), "\(r.stderr)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.stderr)")
        r.command("useVideo")
        #expect(r.exitStatus() == 0, "\(r.stderr)")

        // The take's stamps, from its luma.
        let count = try #require(try pictureCount(take))
        let grey = try PhotoEndToEndTests.decode(take, format: "gray", bytes: count * Self.size.width * Self.size.height)
        let pixels = Self.size.width * Self.size.height
        let stamps = (0..<count).map { f in FrameStamp.read(width: Self.size.width, height: Self.size.height) { x, y in grey[f * pixels + y * Self.size.width + x] } }
        try #require(stamps.allSatisfy { (0..<Self.pictures).contains($0) }, "stamps \(stamps)")
        // The screenshot's stamp: the band's cells for the numbers the clip has (6 bits, at the right,
        // away from the timer), read on the band's middle row; the top panel's shade darkens them, so
        // each is judged against the middle of the darkest and the brightest cell.
        let band = FrameStamp.bandRows(0, frameHeight: Self.size.height)
        let cells = (0..<FrameStamp.bits).map { i in
            let cell = FrameStamp.cell(i, width: Self.size.width)
            let (r, g, b) = shot.rgb(x: min((cell.lowerBound + cell.upperBound) / 2, Self.size.width - 1), y: (band.lowerBound + band.upperBound) / 2)
            return (r + g + b) / 3
        }
        let middle = (cells.min()! + cells.max()!) / 2
        let shotStamp = cells[10...].reduce(0) { n, level in n << 1 | (level > middle ? 1 : 0) }
        let shotIndex = try #require(stamps.firstIndex(of: shotStamp), "the screenshot's stamp \(shotStamp) is not in the take's \(stamps)")

        // Five pictures spread over the take, and the screenshot's.
        let sampled = Array(Set((0..<5).map { $0 * (count - 1) / 4 } + [shotIndex])).sorted()
        let (taken, composite, masks, expected) = try Self.truth(take: take, sampled: sampled, stamps: stamps, folder: folder, background: background)

        var m = Measures()
        for index in sampled {
            let stamp = stamps[index]
            Self.measure(take: taken[index]!, source: composite[stamp]!, mask: masks[stamp]!, expected: expected, into: &m)
        }
        // The photo, measured the same way against its own stamp's truth.
        let photoGrey = try PhotoEndToEndTests.decode(photo.path, format: "gray", bytes: pixels)
        let photoStamp = FrameStamp.read(width: Self.size.width, height: Self.size.height) { x, y in photoGrey[y * Self.size.width + x] }
        try #require((0..<Self.pictures).contains(photoStamp), "the photo's stamp reads \(photoStamp)")
        let photoTruth = (composite: try Self.frames(folder.appendingPathComponent("comp.mkv").path, [photoStamp], format: "rgb24", channels: 3),
                          mask: try Self.frames(folder.appendingPathComponent("mask.mkv").path, [photoStamp], format: "gray", channels: 1))
        var p = Measures()
        Self.measure(take: try PhotoEndToEndTests.decode(photo.path, format: "rgb24", bytes: 3 * pixels), source: photoTruth.composite[photoStamp]!,
                     mask: photoTruth.mask[photoStamp]!, expected: expected, into: &p)
        let photoIoU = Double(p.intersection) / Double(max(p.union, 1)), photoBackground = p.backgroundError / Double(max(p.backgroundCount, 1))
        print("green screen: the photo (stamp \(photoStamp)): IoU \(String(printf: "%.4f", photoIoU)), background error \(String(printf: "%.2f", photoBackground)) levels")
        #expect(photoIoU >= 0.97 && photoBackground <= 6, "the photo: IoU \(photoIoU), background error \(photoBackground)")

        let iou = Double(m.intersection) / Double(max(m.union, 1))
        let backgroundError = m.backgroundError / Double(max(m.backgroundCount, 1))
        let spill = m.spill / Double(max(m.spillCount, 1)), sourceSpill = m.sourceSpill / Double(max(m.spillCount, 1))

        // The screenshot against the take's picture of its stamp, away from the panels' words and
        // buttons, in blocks of 8x8 pixels: what differs is the picture shown, not the take's
        // encoding or the two conversions' rounding from YUV to RGB.
        let picture = taken[shotIndex]!
        var difference = 0.0, compared = 0
        for top in stride(from: 96, to: Self.size.height - 176, by: 8) {
            for left in stride(from: 0, to: Self.size.width, by: 8) {
                var shown = [0, 0, 0], recorded = [0, 0, 0]
                for y in top..<(top + 8) {
                    for x in left..<(left + 8) {
                        let p = (y * Self.size.width + x) * 3
                        let (sr, sg, sb) = shot.rgb(x: x, y: y)
                        (shown[0], shown[1], shown[2]) = (shown[0] + sr, shown[1] + sg, shown[2] + sb)
                        for c in 0..<3 { recorded[c] += Int(picture[p + c]) }
                    }
                }
                difference += Double((0..<3).map { abs(shown[$0] - recorded[$0]) }.reduce(0, +)) / (3 * 64)
                compared += 1
            }
        }
        let previewDifference = difference / Double(compared)
        print("green screen: \(count) pictures, sampled \(sampled.map { stamps[$0] }); IoU \(String(printf: "%.4f", iou)) over \(m.union) pixels, background error \(String(printf: "%.2f", backgroundError)) levels, edge spill \(String(printf: "%.2f", spill)) levels (the camera's \(String(printf: "%.1f", sourceSpill))), preview against the take \(String(printf: "%.2f", previewDifference)) levels (stamp \(shotStamp))")
        #expect(m.union > 20_000 * sampled.count, "\(m.union) pixels told apart in \(sampled.count) pictures")
        #expect(iou >= 0.97, "IoU \(iou)")
        #expect(backgroundError <= 6, "background error \(backgroundError)")
        #expect(sourceSpill > 20, "the clip's edge carries \(sourceSpill) levels of green: no spill to take out")
        #expect(spill < 5, "edge spill \(spill)")
        #expect(previewDifference <= 2, "the preview differs from the take by \(previewDifference) levels on average")
    }

    /// A video background's pictures: 20 at 10 a second (a loop of 2 s), each numbered over its
    /// top band (FrameStamp, by kiosk-bench make-clip over testsrc2's picture), as an H.264 MP4.
    static let loopPictures = 20, loopRate = 10.0

    static func makeNumberedVideo(_ size: Size, in folder: URL) throws -> String {
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        func run(_ arguments: [String]) throws {
            let made = try runProgram(arguments, stdout: .discard)
            try #require(made.status == 0, "\(arguments[0]): \(made.stderr)")
        }
        try run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(size):r=30", "-frames:v", "\(loopPictures)", "-c:v", "ffv1",
                 path("footage.mkv")])
        try run([TestEnvironment.buildFolder.appendingPathComponent("kiosk-bench").path, "make-clip", "--footage", path("footage.mkv"),
                 "--size", "\(size)", "--frames", "\(loopPictures)", "--output", path("numbered.mjpeg")])
        try run(["ffmpeg", "-v", "error", "-y", "-f", "mjpeg", "-framerate", "\(Int(loopRate))", "-i", path("numbered.mjpeg"),
                 "-c:v", "libx264", "-crf", "12", "-pix_fmt", "yuv420p", path("background.mp4")])
        return path("background.mp4")
    }

    @Test("a video background plays in a loop on its own clock: the take's background pictures advance with the take's time and wrap from the last to the first, with no jump, no black picture and no stall")
    func videoBackgroundLoops() throws {
        let folder = try testFolder("green-screen-video")
        let size = Size(width: 640, height: 360)
        let background = try Self.makeNumberedVideo(size, in: folder)
        let take = folder.appendingPathComponent("take.mov").path
        // A similarity of 1 takes every colour out: the take is the background, whatever the camera shows.
        let r = try RecorderProcess(["--camera", "test", "--microphone", "none", "--size", "\(size)", "--fps", "30", "--countdown", "0",
                                     "--windowed", "\(size)", "--background", background, "--key-similarity", "1", "--output", take])
        try #require(r.wait(for: "ready", timeout: 20) != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        // Longer than two loops.
        try #require(r.waitRecorded(5), "\(r.stderr)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.stderr)")
        r.command("useVideo")
        #expect(r.exitStatus() == 0, "\(r.stderr)")

        let times = try runProgram(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", take])
            .stdout.split(separator: "\n").compactMap { $0.split(separator: ",").first.flatMap { Double($0) } }
        let pixels = size.width * size.height
        let grey = try PhotoEndToEndTests.decode(take, format: "gray", bytes: times.count * pixels)
        let stamps = (0..<times.count).map { f in FrameStamp.read(width: size.width, height: size.height) { x, y in grey[f * pixels + y * size.width + x] } }
        // Below the stamp, testsrc2's picture: never a black one.
        let body = FrameStamp.bandRows(1, frameHeight: size.height).upperBound
        let bodyPixels = (size.height - body) * size.width
        func meanBody(_ f: Int) -> Int {
            var sum = 0
            for i in (f * pixels + body * size.width)..<((f + 1) * pixels) { sum += Int(grey[i]) }
            return sum / bodyPixels
        }
        let darkest = (0..<times.count).map(meanBody).min() ?? 0
        print("video background: \(times.count) pictures over \(String(printf: "%.2f", (times.last ?? 0) - (times.first ?? 0))) s, stamps \(stamps)")
        // Enough pictures to follow the background around its loop; a keyed take on a loaded
        // machine steps its rate down (ci48's wide pass: 110), which the steps below allow for.
        try #require(times.count >= 60, "\(times.count) pictures in the take")
        #expect(stamps.allSatisfy { (0..<Self.loopPictures).contains($0) }, "stamps out of the loop: \(stamps)")
        #expect(darkest > 40, "a picture of the take is dark (mean luma \(darkest)): a black background picture")
        // Each step: forward by what the time between the two pictures holds (at 10 a second, at
        // most one picture more, for where the two fall in their pictures' spans), counted around
        // the loop: the last picture is followed by the first. One more again where the picture
        // before was held: the camera's thread never waits for the background's decoder, so a
        // decoder held off the CPU leaves its last picture up a camera picture longer, then the
        // one due comes (ci88's and ci78's wide pass); how late a held picture is, the times below bound.
        var unwrapped = [0], wraps = 0
        for i in 1..<stamps.count {
            let step = (stamps[i] - stamps[i - 1] + Self.loopPictures) % Self.loopPictures
            let most = Int(((times[i] - times[i - 1]) * Self.loopRate).rounded(.down)) + 2
            #expect(step <= most, "from \(stamps[i - 1]) to \(stamps[i]) in \(times[i] - times[i - 1]) s (at most \(most) on)")
            if stamps[i] < stamps[i - 1] {
                wraps += 1
                #expect(stamps[i - 1] == Self.loopPictures - 1 && stamps[i] == 0, "a wrap from \(stamps[i - 1]) to \(stamps[i])")
            }
            unwrapped.append(unwrapped[i - 1] + step)
        }
        #expect(wraps >= 2, "\(wraps) wraps in \(stamps)")
        // With the take's time, at the video's rate, measured from the first change: a change shows
        // at the first take picture at or after its time, so it comes after its due time by less than
        // the gap to the picture before it (a 30th of a second; two where the take was stepped
        // down), one camera picture more for a picture held for the decoder; and before it by less
        // than the first change's gap (the due times are measured from it), a held picture more.
        // None held back longer (a stall), none early.
        let changes = (1..<stamps.count).filter { unwrapped[$0] != unwrapped[$0 - 1] }
        try #require(changes.count >= 40, "\(changes.count) changes of picture")
        let first = changes[0], firstGap = times[first] - times[first - 1]
        for i in changes {
            let due = times[first] + Double(unwrapped[i] - unwrapped[first]) / Self.loopRate
            let gap = times[i] - times[i - 1]
            #expect(times[i] - due < gap + 1.0 / 30 + 0.005 && due - times[i] < firstGap + 1.0 / 30 + 0.005,
                    "picture \(stamps[i]) (the \(unwrapped[i])th) at \(times[i]) s, due at \(due) s, \(gap) s after the picture before")
        }
    }

    /// Files that cannot be a background, how each is made in `folder`, and the words its refusal says.
    static let hostile: [(name: String, words: String)] = [
        ("words", "not a picture"), ("transparent", "transparent"), ("16384x16384", "at most 8192x8192"),
        ("sound only", "no picture in it"), ("a folder", "is a folder"),
    ]

    static func makeHostile(_ name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-")).path
        func ffmpeg(_ arguments: [String]) throws {
            let made = try runProgram(["ffmpeg", "-v", "error", "-y"] + arguments, stdout: .discard)
            try #require(made.status == 0, "\(made.stderr)")
        }
        switch name {
        case "words": try Data("a beach at sunset\n".utf8).write(to: URL(fileURLWithPath: path + ".jpg"))
        case "transparent": try ffmpeg(["-f", "lavfi", "-i", "color=c=0x3050d080:s=64x48,format=rgba", "-frames:v", "1", path + ".png"])
        case "16384x16384":
            // Grey, 1 bit: a valid PNG of 16384x16384, 200 KB on disk.
            let side = 16384, rowBytes = 1 + side / 8
            try Data(PNGWriter.png(width: side, height: side, depth: 1, colourType: 0, extra: [],
                                   zlib: PNGWriter.zlibZeros(count: rowBytes * side))).write(to: URL(fileURLWithPath: path + ".png"))
        case "sound only": try ffmpeg(["-f", "lavfi", "-i", "sine=d=0.2", "-c:a", "aac", path + ".mp4"])
        default: try FileManager.default.createDirectory(atPath: path + ".png", withIntermediateDirectories: true)
        }
        return path + (name == "words" ? ".jpg" : name == "sound only" ? ".mp4" : ".png")
    }

    @Test("a file that cannot be a background exits 2 naming --background and why; a --key that is not a colour exits 2 naming --key",
          arguments: hostile.map(\.name) + ["key"])
    func badInput(name: String) throws {
        let folder = try testFolder("green-screen-bad")
        let good = folder.appendingPathComponent("good.png").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x3050d0:s=64x48", "-frames:v", "1", good], stdout: .discard)
        try #require(made.status == 0, "\(made.stderr)")
        let path = name == "key" ? good : try Self.makeHostile(name, in: folder)
        let words = name == "key" ? "is not a colour" : try #require(Self.hostile.first { $0.name == name }?.words)
        let extra = name == "key" ? ["--key", "greenish"] : []
        // Through a shell, which says how the recorder ended: its exit status, or 128 + a signal.
        let r = try runProgram(["/bin/sh", "-c", "\"$0\" \"$@\"; echo \"exit $?\"", recorderPath, "--camera", "test", "--microphone", "none",
                                "--windowed", "640x480", "--background", path] + extra,
                               environment: recorderEnvironment(), directory: repositoryRoot)
        #expect(r.stdout.hasSuffix("exit 2\n"), "\(name): \(r.stdout) \(r.stderr)")
        let option = name == "key" ? "--key: 'greenish'" : "--background: '\(path)'"
        #expect(r.stderr.contains(option) && r.stderr.contains(words), "\(name): \(r.stderr)")
    }

    /// The middle pixel of a take's last picture, as RGB.
    static func lastMiddle(_ take: String) throws -> [Int] {
        let out = take + ".last.rgb"
        let r = try runProgram(["ffmpeg", "-v", "error", "-y", "-sseof", "-0.3", "-i", take, "-vf", "crop=2:2:iw/2:ih/2", "-update", "1",
                                "-f", "rawvideo", "-pix_fmt", "rgb24", out], stdout: .discard)
        try #require(r.status == 0, "\(r.stderr)")
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        try #require(data.count >= 3)
        return data.suffix(12).prefix(3).map { Int($0) }
    }

    @Test("a reload applies a new background at the next take, a still or a video; one that cannot be a background (transparent, a video with no picture) is a badConfig naming it, and the old one stays")
    func reload() throws {
        let pictures = try testFolder("green-screen-reload-pictures")
        func picture(_ colour: String, _ name: String, _ format: String = "rgb24") throws -> String {
            let path = pictures.appendingPathComponent(name).path
            let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=\(colour):s=320x240,format=\(format)", "-frames:v", "1", path],
                                      stdout: .discard)
            try #require(made.status == 0, "\(made.stderr)")
            return path
        }
        let (red, blue, transparent) = (try picture("0xC02020", "red.png"), try picture("0x2020C0", "blue.jpg"),
                                        try picture("0x20C02080", "transparent.png", "rgba"))
        // A similarity of 1 takes every colour out: the take is the background, whatever the camera shows.
        let (r, rewrite, folder) = try configuredBooth("green-screen-reload", "background = \(red)\nkey-similarity = 1\n")
        let take = folder.appendingPathComponent("take.mov").path
        func record() throws -> [Int] {
            r.command("start")
            try #require(r.wait(for: "recordingStarted", count: r.names.filter { $0 == "recordingStarted" }.count + 1) != nil, "\(r.stderr)")
            try #require(r.waitRecorded(1), "\(r.stderr)")
            let finished = r.names.filter { $0 == "recordingFinished" }.count
            r.command("stop")
            try #require(r.wait(for: "recordingFinished", count: finished + 1) != nil, "\(r.stderr)")
            let middle = try Self.lastMiddle(take)
            r.command("retake")
            try #require(r.waitForState { mode, _ in mode == "ready" }, "\(r.rawLines)")
            return middle
        }
        let first = try record()
        #expect(first[0] > 150 && first[2] < 80, "the red background's take: \(first)")
        try rewrite("background = \(blue)\nkey-similarity = 1\n")
        r.kill(SIGHUP)
        #expect(r.waitForLog("are in force"), "\(r.stderr)")
        let second = try record()
        #expect(second[2] > 150 && second[0] < 80, "the blue background's take: \(second)")
        try rewrite("background = \(transparent)\nkey-similarity = 1\n")
        r.kill(SIGHUP)
        #expect(r.wait(for: "error") != nil, "\(r.stderr)")
        let errors = r.events.compactMap { if case let .error(code, message) = $0 { (code, message) } else { nil } }
        #expect(errors.map(\.0) == [.badConfig] && errors.first?.1.contains("background: '\(transparent)'") == true, "\(errors)")
        let third = try record()
        #expect(third[2] > 150 && third[0] < 80, "after the refused reload, the blue background stays: \(third)")
        // A video (green, 1 s, played in a loop), then a video with no picture: refused, the video stays.
        let video = pictures.appendingPathComponent("green.mp4").path, sound = pictures.appendingPathComponent("sound.mp4").path
        for (source, path) in [("color=c=0x20C020:s=320x240:r=10:d=1", video), ("sine=d=0.3", sound)] {
            let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", source, path], stdout: .discard)
            try #require(made.status == 0, "\(made.stderr)")
        }
        try rewrite("background = \(video)\nkey-similarity = 1\n")
        r.kill(SIGHUP)
        #expect(r.waitForLog("are in force", count: 2), "\(r.stderr)")
        let fourth = try record()
        #expect(fourth[1] > 150 && fourth[0] < 80 && fourth[2] < 80, "the green video's take: \(fourth)")
        try rewrite("background = \(sound)\nkey-similarity = 1\n")
        r.kill(SIGHUP)
        #expect(r.wait(for: "error", count: 2) != nil, "\(r.stderr)")
        let refused = r.events.compactMap { if case let .error(code, message) = $0 { (code, message) } else { nil } }
        #expect(refused.map(\.0) == [.badConfig, .badConfig] && refused.last?.1.contains("no picture in it") == true, "\(refused)")
        let fifth = try record()
        #expect(fifth[1] > 150 && fifth[0] < 80 && fifth[2] < 80, "after the refused reload, the green video stays: \(fifth)")
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
    }

    @Test("a boomerang is keyed, and the brand overlay's corners are on top of the keyed picture")
    func boomerangUnderOverlay() throws {
        let folder = try testFolder("green-screen-boomerang")
        let size = OverlayEndToEndTests.size
        let overlay = try OverlayEndToEndTests.makePNG(size, in: folder, name: "frame")
        let background = folder.appendingPathComponent("red.png").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0xC02020:s=400x200", "-frames:v", "1", background], stdout: .discard)
        try #require(made.status == 0, "\(made.stderr)")
        // A similarity of 1 takes every colour out: the picture is the background, under the overlay.
        let r = try RecorderProcess(["--camera", "test", "--microphone", "none", "--size", "\(size)", "--countdown", "0", "--windowed", "800x480",
                                     "--video-crf", "10", "--overlay", overlay, "--background", background, "--key-similarity", "1",
                                     "--boomerang-button", "--output", folder.appendingPathComponent("take.mov").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let result = try BoomerangEndToEndTests.boomerang(r)
        r.command("useVideo")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        let rgbPath = folder.appendingPathComponent("boomerang.rgb").path
        let decoded = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", result.outputPath, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", rgbPath],
                                     stdout: .discard)
        try #require(decoded.status == 0, "\(decoded.stderr)")
        let rgb = try [UInt8](Data(contentsOf: URL(fileURLWithPath: rgbPath)))
        try #require(rgb.count == size.width * size.height * 3)
        func pixel(_ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(rgb[(y * size.width + x) * 3 + $0]) } }
        for (i, corner) in OverlayEndToEndTests.corners.enumerated() {
            let origin = OverlayEndToEndTests.squareOrigin(i, size)
            let got = pixel(origin.x + OverlayEndToEndTests.square / 2, origin.y + OverlayEndToEndTests.square / 2)
            #expect(zip(got, corner.rgb).allSatisfy { abs($0 - $1) <= 10 }, "the \(corner.name) square is \(got), not \(corner.rgb)")
        }
        let middle = pixel(size.width / 2, 70)
        #expect(zip(middle, [0xC0, 0x20, 0x20]).allSatisfy { abs($0 - $1) <= 10 }, "the keyed picture shows \(middle), not the red background")
    }

    @Test("docs/screenshots/make-greenscreen, as docs/deploy.md shows them, into a scratch folder: the booth's own 800x480 screenshots of a guest in front of a green backdrop; beside the guest, before the key mostly the backdrop's green, after it the background picture (mean error ≤ 8 levels) and no green left")
    func docScreenshots() throws {
        let folder = try testFolder("green-screen-screens")
        let made = try runTool(["docs/screenshots/make-greenscreen", folder.path])
        try #require(made.status == 0, "\(made.stderr)")
        func rgb(_ name: String, _ size: Size) throws -> [UInt8] {
            let rgbPath = folder.appendingPathComponent("\(name).rgb").path
            let decoded = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", folder.appendingPathComponent("\(name).png").path,
                                          "-f", "rawvideo", "-pix_fmt", "rgb24", rgbPath], stdout: .discard)
            let rgb = try [UInt8](Data(contentsOf: URL(fileURLWithPath: rgbPath)))
            try #require(decoded.status == 0 && rgb.count == size.width * size.height * 3, "\(name): \(rgb.count) bytes, not \(size)")
            return rgb
        }
        let before = try rgb("greenscreen-before-landscape", Size(width: 800, height: 480))
        let after = try rgb("greenscreen-after-landscape", Size(width: 800, height: 480))
        // The camera's 854x480 (and the background, at that size) filled into the screen: 27 columns cut each side.
        let background = try rgb("greenscreen-background", Size(width: 854, height: 480))
        // The backdrop beside the guest: two bands of the screen clear of the guest and of the controls.
        let beside = [20..<200, 600..<780].flatMap { xs in (60..<340).flatMap { y in xs.map { (x: $0, y: y) } } }
        let green = { (p: [UInt8], o: Int) in Int(p[o + 1]) > max(Int(p[o]), Int(p[o + 2])) + 60 }
        let greenBefore = beside.filter { green(before, ($0.y * 800 + $0.x) * 3) }.count
        let greenAfter = beside.filter { green(after, ($0.y * 800 + $0.x) * 3) }.count
        let error = beside.map { p in
            (0..<3).map { abs(Int(after[(p.y * 800 + p.x) * 3 + $0]) - Int(background[(p.y * 854 + p.x + 27) * 3 + $0])) }.reduce(0, +)
        }.reduce(0, +) / (beside.count * 3)
        #expect(greenBefore * 100 >= beside.count * 95, "before: \(greenBefore) of \(beside.count) green")
        #expect(greenAfter == 0 && error <= 8, "after: \(greenAfter) green, mean error \(error) from the background")
    }
}
