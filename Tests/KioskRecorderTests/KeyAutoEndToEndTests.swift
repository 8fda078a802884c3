// `--key auto` through the binary: the key measured from the empty backdrop, on GreenScreenEndToEndTests'
// ground truth (its clip with the subject out of frame for the first second), and the warning a dark,
// uneven backdrop gives, at the start and on `calibrate`.
import Foundation
import KioskContract
import KioskCore
import KioskTestSupport
import Testing

@Suite("--key auto, end to end", .serialized)
struct KeyAutoEndToEndTests {
    typealias Truth = GreenScreenEndToEndTests
    static var size: Size { Truth.size }
    /// The first second: the subject out of frame.
    static let empty = 30

    /// The `keyCalibrated` events so far: colour, similarity, warning.
    static func calibrations(_ r: RecorderProcess) -> [(colour: String, similarity: Double, warning: String?)] {
        r.events.compactMap { if case let .keyCalibrated(colour, similarity, warning) = $0 { (colour, similarity, warning) } else { nil } }
    }

    static func rgb(_ colour: String) throws -> (red: Int, green: Int, blue: Int) {
        let value = try #require(colour.hasPrefix("#") ? Int(colour.dropFirst(), radix: 16) : nil, "not #RRGGBB: \(colour)")
        return (value >> 16, value >> 8 & 0xFF, value & 0xFF)
    }

    @Test("--key auto on the ground truth's backdrop, the subject out of frame for the first second: the key is measured with no colour given (no warning of light: only the clip's stamp band is not the backdrop), and the take's subject matches the true mask with IoU ≥ 0.96, the background where the mask is empty (mean error ≤ 6 levels)",
          .enabled(if: PhotoEndToEndTests.footage != nil || TestEnvironment.isCI, "needs the footage in bench/.cache (bench/footage, or kiosk/setup --test, fetches it from PyPI)"))
    func autoOnGroundTruth() throws {
        let footage = try #require(PhotoEndToEndTests.footage, "CI is set and bench/.cache has no footage: kiosk/setup --test fetches it (bench/footage)")
        let folder = try testFolder("key-auto")
        let (clip, background) = try Truth.makeFootage(footage, in: folder, empty: Self.empty)
        let all = Truth.pictures + Self.empty
        let device = try fakeCamera(in: folder, "card=Green Screen Cam\nformat=MJPG \(Self.size)@30\nclip=\(clip)\n")
        let take = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(["--camera", device, "--microphone", "none", "--size", "\(Self.size)", "--fps", "30", "--countdown", "0",
                                     "--windowed", "\(Self.size)", "--background", background, "--key", "auto", "--output", take])
        try #require(r.wait(for: "ready", timeout: 20) != nil, "\(r.stderr)")
        try #require(r.wait(for: "keyCalibrated", timeout: 20) != nil, "\(r.rawLines) \(r.stderr)")
        let measured = try #require(Self.calibrations(r).first)
        print("key auto: measured \(measured.colour), similarity \(measured.similarity), warning \(measured.warning ?? "none")")
        // The backdrop is lit evenly and bright enough; the clip's stamp (its top sixteenth, black and
        // white cells, that no real backdrop has) is the one thing in front of it.
        let warning = measured.warning ?? ""
        #expect(!warning.contains("too dark") && !warning.contains("unevenly"), "\(measured)")
        #expect(warning.isEmpty || warning.hasSuffix("% of the picture is not the backdrop: move the guest off the backdrop, then calibrate again")
                && (Int(warning.prefix { $0.isNumber }) ?? 100) <= 8, "\(measured)")
        let key = try Self.rgb(measured.colour)
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        try #require(r.waitRecorded(2.5), "\(r.stderr)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.stderr)")
        r.command("useVideo")
        #expect(r.exitStatus() == 0, "\(r.stderr)")

        // The take's stamps; five of its pictures with the subject in frame.
        let count = try #require(try pictureCount(take))
        let (w, h) = (Self.size.width, Self.size.height), pixels = w * h
        let grey = try PhotoEndToEndTests.decode(take, format: "gray", bytes: count * pixels)
        let stamps = (0..<count).map { f in FrameStamp.read(width: w, height: h) { x, y in grey[f * pixels + y * w + x] } }
        try #require(stamps.allSatisfy { (0..<all).contains($0) }, "stamps \(stamps)")
        let inFrame = (0..<count).filter { stamps[$0] >= Self.empty }
        try #require(inFrame.count >= 3, "stamps \(stamps)")
        let sampled = Array(Set((0..<5).map { inFrame[$0 * (inFrame.count - 1) / 4] })).sorted()
        let (taken, composite, masks, expected) = try Truth.truth(take: take, sampled: sampled, stamps: stamps, folder: folder, background: background)
        var m = Truth.Measures()
        for index in sampled {
            Truth.measure(take: taken[index]!, source: composite[stamps[index]]!, mask: masks[stamps[index]]!, expected: expected, into: &m,
                          key: key, similarity: measured.similarity)
        }
        let iou = Double(m.intersection) / Double(max(m.union, 1))
        let backgroundError = m.backgroundError / Double(max(m.backgroundCount, 1))
        print("key auto: \(count) pictures, sampled \(sampled.map { stamps[$0] }); IoU \(String(printf: "%.4f", iou)) over \(m.union) pixels, background error \(String(printf: "%.2f", backgroundError)) levels")
        #expect(m.union > 20_000 * sampled.count, "\(m.union) pixels told apart in \(sampled.count) pictures")
        #expect(iou >= 0.96, "IoU \(iou)")
        #expect(backgroundError <= 6, "background error \(backgroundError)")
    }

    /// A dark green, darker still towards the left and the corners, with a little noise.
    static let darkBackdrop = "gradients=s=640x480:c0=0x010802:c1=0x0a4a1a:x0=0:y0=240:x1=640:y1=240:r=30,vignette=PI/3,noise=alls=4:allf=t"
    /// Chroma-key green lit evenly, with a little noise.
    static let evenBackdrop = "color=c=0x0FA84A:s=640x480:r=30,noise=alls=4:allf=t"

    /// A fake camera showing `backdrop` (an ffmpeg source) at 640x480, and a background picture.
    static func backdropCamera(_ backdrop: String, in folder: URL) throws -> (device: String, background: String) {
        let clip = folder.appendingPathComponent("backdrop.mjpeg").path
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", backdrop, "-frames:v", "20", "-pix_fmt", "yuvj422p", "-f", "mjpeg", clip],
                                  stdout: .discard)
        try #require(made.status == 0, "\(made.stderr)")
        let device = try fakeCamera(in: folder, "card=Backdrop Cam\nformat=MJPG 640x480@30\nclip=\(clip)\n")
        let background = folder.appendingPathComponent("beach.png").path
        let picture = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x3050d0:s=320x240", "-frames:v", "1", background],
                                     stdout: .discard)
        try #require(picture.status == 0, "\(picture.stderr)")
        return (device, background)
    }

    @Test("--check with --key auto: its key item gives the key measured from the camera's backdrop; an even green has no warning, a dark, uneven one is a warning saying which, with the fix")
    func check() throws {
        for (name, backdrop) in [("even", Self.evenBackdrop), ("dark", Self.darkBackdrop)] {
            let folder = try testFolder("key-auto-check-\(name)")
            let (device, background) = try Self.backdropCamera(backdrop, in: folder)
            let c = try CheckEndToEndTests.check(["--camera", device, "--microphone", "none", "--size", "640x480", "--background", background, "--key", "auto",
                                                  "--output-dir", folder.appendingPathComponent("takes").path])
            let key = try CheckEndToEndTests.item("key", in: c.items)
            print("key auto, --check on the \(name) backdrop: \(key.detail)")
            #expect(key.ok && key.detail.hasPrefix("--key auto: the backdrop measures #"), "\(key)")
            #expect(c.stderr.contains(key.detail), "\(c.stderr)")
            if name == "even" {
                #expect(!key.warning && key.fix == nil, "\(key)")
                let colour = try Self.rgb(String(try #require(key.detail.split(separator: " ").first { $0.hasPrefix("#") }).prefix(7)))
                #expect(abs(colour.red - 0x0F) <= 8 && abs(colour.green - 0xA8) <= 8 && abs(colour.blue - 0x4A) <= 8, "\(key.detail)")
            } else {
                #expect(key.warning && key.detail.contains("too dark") && key.detail.contains("light it evenly") && key.fix != nil, "\(key)")
            }
        }
    }

    @Test("--key auto on a dark backdrop lit from one side: keyCalibrated carries the warning (too dark, lit unevenly), said too as an error keyBackdrop; calibrate measures again and says it again, and is refused while recording")
    func darkUnevenBackdrop() throws {
        let folder = try testFolder("key-auto-dark")
        let (device, background) = try Self.backdropCamera(Self.darkBackdrop, in: folder)
        let r = try RecorderProcess(["--camera", device, "--microphone", "none", "--size", "640x480", "--countdown", "0", "--windowed", "640x480",
                                     "--background", background, "--key", "auto", "--output", folder.appendingPathComponent("take.mov").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        try #require(r.wait(for: "keyCalibrated") != nil, "\(r.rawLines) \(r.stderr)")
        let first = try #require(Self.calibrations(r).first)
        print("key auto, dark backdrop: \(first)")
        let warning = try #require(first.warning, "no warning: \(first)")
        #expect(warning.contains("too dark") && warning.contains("light it brighter"), "\(warning)")
        #expect(warning.contains("unevenly") && warning.contains("light it evenly"), "\(warning)")
        #expect(r.wait(for: "error") != nil, "\(r.rawLines)")
        let said = r.events.compactMap { if case let .error(.keyBackdrop, message) = $0 { message } else { nil } }
        #expect(said == ["--key auto: \(warning)"], "\(r.rawLines)")
        // calibrate: measured again, said again.
        r.command("calibrate")
        #expect(r.wait(for: "keyCalibrated", count: 2) != nil, "\(r.rawLines)")
        #expect(Self.calibrations(r).last?.warning?.contains("too dark") == true, "\(r.rawLines)")
        // Not while recording: refused, and no measure.
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        let errors = r.count(of: "error")
        r.command("calibrate")
        #expect(r.wait(for: "error", count: errors + 1) != nil, "\(r.rawLines)")
        #expect(r.events.last { $0.name == "error" } == .error(code: .notAllowed, message: "'calibrate': only in ready, with no one in front of the backdrop"),
                "\(r.rawLines)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.stderr)")
        r.command("retake")
        try #require(r.waitForState { mode, _ in mode == "ready" }, "\(r.rawLines)")
        r.command("cancel")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        #expect(Self.calibrations(r).count == 2, "\(r.rawLines)")
    }
}
