// Switching cameras through the binary: two fake cameras whose pictures differ (base luma 16 and
// 40), one path between them that is no camera, one camera unplugged after it worked, and `auto`
// finding both; each take from the camera chosen, by its pictures.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("camera switch end to end", .serialized, needsFakeCamera)
struct CameraSwitchEndToEndTests {
    /// The mean luma of a take's middle frame below the stamp band, decoded by the ffmpeg CLI.
    static func meanLuma(_ take: String) throws -> Double {
        let raw = take + ".gray"
        let size = try runProgram(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                   "-of", "csv=p=0", take]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let wh = size.split(separator: ",").compactMap { Int($0) }
        try #require(wh.count == 2, "ffprobe: \(size)")
        let decode = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", take, "-map", "0:v:0", "-frames:v", "10",
                                     "-f", "rawvideo", "-pix_fmt", "gray", raw])
        try #require(decode.status == 0, "\(decode.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
        let frame = wh[0] * wh[1]
        try #require(bytes.count >= frame * 5)
        // Frame 4, from a quarter of its height down (under the stamp band, beside the moving bar's
        // effect on the mean).
        let rows = (wh[1] / 4)..<wh[1]
        var sum = 0
        for y in rows { for x in 0..<wh[0] { sum += Int(bytes[4 * frame + y * wh[0] + x]) } }
        return Double(sum) / Double(rows.count * wh[0])
    }

    static func take(_ r: RecorderProcess, count: Int) throws -> String {
        r.command("start")
        try #require(r.wait(for: "recordingStarted", count: count) != nil, "\(r.events)")
        try #require(r.waitRecorded(0.6), "\(r.events)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished", count: count) != nil)
        return try #require(r.lastResult?.outputPath)
    }

    @Test("Switch Camera in ready (and its command) goes to the next camera that opens, passing over one that cannot; cameraChanged; each take from the camera chosen; a retake keeps it")
    func switching() throws {
        let folder = try testFolder("switch")
        let (left, right) = try Self.twoCameras(in: folder)
        let missing = folder.appendingPathComponent("video7").path
        let r = try RecorderProcess(["--camera", left, "--camera", missing, "--camera", right, "--microphone", "none", "--size", "352x288",
                                     "--windowed", "800x480", "--countdown", "0", "--session", "loop",
                                     "--output-dir", folder.appendingPathComponent("takes").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("state")
        try #require(r.wait(for: "state") != nil)
        #expect(r.events.contains { if case let .state(_, _, buttons, _, _, _, _, _, _, _, _) = $0 { buttons == [.cancel, .start, .switchCamera] } else { false } })

        // Use Video keeps each take in the folder (a loop session: back to ready after it).
        let first = try Self.take(r, count: 1)
        r.command("useVideo")
        r.command("switchCamera")
        try #require(r.wait(for: "cameraChanged") != nil, "\(r.stderr)")
        let changed = r.events.compactMap { if case let .cameraChanged(camera, width, height, fps) = $0 { (camera, width, height, fps) } else { nil } }
        #expect(changed.first.map { $0.0 == right && $0.1 == 640 && $0.2 == 480 && $0.3 == 30 } == true, "\(changed)")
        #expect(r.waitForLog("\(missing) cannot open now; passed over"), "\(r.stderr)")
        #expect(!r.events.contains { if case .error = $0 { true } else { false } }, "the camera passed over is not an error: \(r.events)")
        _ = try Self.take(r, count: 2)
        // A retake keeps the camera chosen.
        r.command("retake")
        let second = try Self.take(r, count: 3)
        r.command("useVideo")
        // On to the first again: the switch goes round.
        r.command("switchCamera")
        #expect(r.wait(for: "cameraChanged", count: 2) != nil)
        let third = try Self.take(r, count: 4)
        r.command("useVideo")
        r.command("quit")
        #expect(r.exitStatus() == 0)

        let lumas = try [first, second, third].map(Self.meanLuma)
        // The right camera's pictures are 24 luma levels brighter all over.
        #expect(lumas[1] - lumas[0] > 15 && lumas[1] - lumas[2] > 15, "\(lumas)")
        #expect(abs(lumas[2] - lumas[0]) < 5, "\(lumas)")
    }

    /// Two fake cameras in `folder` as video0 (Left Cam, luma 16) and video1 (Right Cam, luma 40,
    /// 640x480 only): their paths.
    static func twoCameras(in folder: URL) throws -> (left: String, right: String) {
        let left = folder.appendingPathComponent("video0").path, right = folder.appendingPathComponent("video1").path
        try Data().write(to: URL(fileURLWithPath: left))
        try "card=Left Cam\nluma=16\n".write(toFile: left + ".conf", atomically: true, encoding: .utf8)
        try Data().write(to: URL(fileURLWithPath: right))
        try "card=Right Cam\nluma=40\nformat=YUYV 640x480@30\n".write(toFile: right + ".conf", atomically: true, encoding: .utf8)
        return (left, right)
    }

    static func cameraChanges(_ r: RecorderProcess) -> [String] {
        r.events.compactMap { if case let .cameraChanged(camera, _, _, _) = $0 { camera } else { nil } }
    }

    @Test("a camera that worked and is then unplugged is passed over by the switch, with no error: the booth keeps the camera it has; plugged back, the switch reaches it again")
    func unplugged() throws {
        let folder = try testFolder("switch-unplug")
        let (left, right) = try Self.twoCameras(in: folder)
        let r = try RecorderProcess(["--camera", left, "--camera", right, "--microphone", "none", "--size", "352x288",
                                     "--windowed", "800x480", "--countdown", "0", "--session", "loop",
                                     "--output-dir", folder.appendingPathComponent("takes").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        // Both work: over to the right camera and back.
        r.command("switchCamera")
        try #require(r.wait(for: "cameraChanged") != nil, "\(r.stderr)")
        r.command("switchCamera")
        try #require(r.wait(for: "cameraChanged", count: 2) != nil, "\(r.stderr)")
        #expect(Self.cameraChanges(r) == [right, left])
        let before = try Self.take(r, count: 1)
        r.command("useVideo")
        // Unplugged: its device node goes, as udev removes a USB camera's.
        try FileManager.default.removeItem(atPath: right)
        r.command("switchCamera")
        #expect(r.waitForLog("camera switch: no other camera could open; \(left) stays"), "\(r.stderr)")
        #expect(r.said("camera switch: \(right) cannot open now; passed over"), "\(r.stderr)")
        let replies = r.names.filter { $0 == "state" }.count
        r.command("state")
        try #require(r.wait(for: "state", count: replies + 1) != nil)
        #expect(r.events.contains { if case let .state(mode, _, buttons, _, _, _, _, _, _, _, _) = $0 { mode == "ready" && buttons == [.cancel, .start, .switchCamera] } else { false } },
                "ready with its camera: \(r.events)")
        #expect(Self.cameraChanges(r) == [right, left], "the booth keeps the camera it has")
        #expect(!r.events.contains { if case .error = $0 { true } else { false } }, "the camera passed over is no error: \(r.events)")
        let after = try Self.take(r, count: 2)
        r.command("useVideo")
        // Plugged back in: the next switch reaches it.
        try Data().write(to: URL(fileURLWithPath: right))
        r.command("switchCamera")
        #expect(r.wait(for: "cameraChanged", count: 3) != nil, "\(r.stderr)")
        #expect(Self.cameraChanges(r) == [right, left, right])
        r.command("quit")
        #expect(r.exitStatus() == 0)
        let lumas = try [before, after].map(Self.meanLuma)
        // Both takes from the left camera (the right one's pictures are 24 levels brighter).
        #expect(abs(lumas[1] - lumas[0]) < 5, "\(lumas)")
    }

    @Test("--camera auto finding two cameras: the Switch Camera button, and cameraChanged to the second, whose takes then come from it")
    func auto() throws {
        let folder = try testFolder("switch-auto")
        let (left, right) = try Self.twoCameras(in: folder)
        let r = try RecorderProcess(["--camera", "auto", "--size", "352x288", "--microphone", "none", "--windowed", "800x480", "--countdown", "0",
                                     "--session", "loop", "--output-dir", folder.appendingPathComponent("takes").path],
                                    environment: ["KIOSK_VIDEO_DEVICE_DIR": folder.path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        #expect(r.events.contains { if case let .ready(camera, _, _, _, _, _, _) = $0 { camera == left } else { false } }, "\(r.events)")
        r.command("state")
        try #require(r.wait(for: "state") != nil)
        #expect(r.events.contains { if case let .state(_, _, buttons, _, _, _, _, _, _, _, _) = $0 { buttons == [.cancel, .start, .switchCamera] } else { false } }, "\(r.events)")
        let first = try Self.take(r, count: 1)
        r.command("useVideo")
        r.command("switchCamera")
        try #require(r.wait(for: "cameraChanged") != nil, "\(r.stderr)")
        #expect(r.events.contains(.cameraChanged(camera: right, width: 640, height: 480, fps: 30)), "\(r.events)")
        let second = try Self.take(r, count: 2)
        r.command("useVideo")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        #expect(!r.events.contains { if case .error = $0 { true } else { false } }, "\(r.events)")
        let lumas = try [first, second].map(Self.meanLuma)
        #expect(lumas[1] - lumas[0] > 15, "the second take from the brighter camera: \(lumas)")
    }

    @Test("--camera auto with no camera: cameraUnavailable before ready, which names no camera (auto), no Record on offer (never the test pattern); a camera plugged in later is found within seconds, Record comes back, and its take records")
    func autoWithoutCamera() throws {
        let folder = try testFolder("auto-none")
        let devices = folder.appendingPathComponent("dev")
        try FileManager.default.createDirectory(at: devices, withIntermediateDirectories: true)
        let r = try RecorderProcess(["--camera", "auto", "--size", "352x288", "--microphone", "none", "--windowed", "800x480", "--countdown", "0",
                                     "--output", folder.appendingPathComponent("take.mov").path],
                                    environment: ["KIOSK_VIDEO_DEVICE_DIR": devices.path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let unavailable = r.events.contains { if case let .error(.cameraUnavailable, message) = $0 { message.contains("no camera found") } else { false } }
        #expect(unavailable, "\(r.events)")
        #expect(r.events.contains { if case let .ready(camera, _, _, _, _, _, _) = $0 { camera == "auto" } else { false } }, "\(r.events)")
        r.command("state")
        try #require(r.wait(for: "state") != nil)
        #expect(r.events.contains { if case let .state(_, _, buttons, _, _, _, _, _, _, _, _) = $0 { buttons == [.cancel] } else { false } }, "\(r.events)")
        // Before ready in the stream itself, not only read by the time ready was (the booth once
        // held the camera's report of its first attempt and said it just after ready).
        let errorAt = r.events.firstIndex { if case .error(.cameraUnavailable, _) = $0 { true } else { false } }
        let readyAt = r.events.firstIndex { if case .ready = $0 { true } else { false } }
        #expect(errorAt != nil && readyAt != nil && errorAt! < readyAt!, "\(r.events)")
        r.command("start")
        try #require(r.wait(for: "error", count: 2) != nil, "Start without a camera is refused")
        // Plugged in: found at the next look (each second).
        let device = devices.appendingPathComponent("video0").path
        try Data().write(to: URL(fileURLWithPath: device))
        try "card=Late Cam\n".write(toFile: device + ".conf", atomically: true, encoding: .utf8)
        var offered = false, k = 1
        _ = eventually(10) {
            k += 1
            r.command("state")
            guard r.wait(for: "state", count: k) != nil else { return true }
            offered = r.events.contains { if case let .state(_, _, buttons, _, _, _, _, _, _, _, _) = $0 { buttons.contains(.start) } else { false } }
            return offered
        }
        #expect(offered, "\(r.events) \(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines)")
        try #require(r.waitRecorded(1), "\(r.rawLines)")
        r.command("stop")
        let finished = try #require(r.wait(for: "recordingFinished") != nil ? r.events.compactMap { if case let .recordingFinished(f) = $0 { f } else { nil } }.first : nil)
        #expect(finished.success && finished.duration > 0.5, "\(finished)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        #expect(!r.stderr.contains("test pattern"), "\(r.stderr)")
    }

    @Test("one camera: no switch button; switchCamera is refused with notAllowed")
    func single() throws {
        let r = try RecorderProcess(booth + ["--output", try testFolder("switch-one").appendingPathComponent("t.mov").path])
        try #require(r.wait(for: "ready") != nil)
        r.command("switchCamera")
        #expect(r.wait(for: "error") != nil)
        #expect(r.events.contains { if case .error(.notAllowed, _) = $0 { true } else { false } }, "\(r.events)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
