// `--camera exec:COMMAND` through the binary with ffmpeg as the camera: pictures numbered in their
// pixels (FrameStamp, drawn by ffmpeg's geq filter) as MJPEG and as raw I420; a take with every
// frame, read back by the ffmpeg CLI; the program killed mid-take (the take kept and playable, the
// camera back when it restarts); a program that never writes; one that writes another format; the
// program ended with the booth, kill -9 included.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("exec camera end to end", .serialized)
struct ExecCameraEndToEndTests {
    /// ffmpeg making 320x240 pictures at 30 fps in real time, each with its number in FrameStamp's
    /// band (16 cells across the top 15 rows, white for a 1 bit), grey below.
    static func source(_ format: CameraPipeFormat) -> String {
        let stamp = "if(lt(Y\\,15)\\,if(mod(floor(N/pow(2\\,15-floor(X*16/W)))\\,2)\\,235\\,16)\\,128)"
        let output = format == .mjpeg ? "-f mjpeg -q:v 3" : "-f rawvideo -pix_fmt yuv420p"
        return "ffmpeg -nostdin -v error -re -f lavfi -i \"color=c=gray:s=320x240:r=30,format=gray,geq=lum='\(stamp)',format=yuv420p\" \(output) -flush_packets 1 -"
    }

    /// Whether ffmpeg decodes the whole take without an error. A pipe camera's pictures are timed
    /// as they arrive, a few ms off a 30 fps grid: the CLI's null output, on its 1/30 s time base,
    /// would call two pictures in one tick "non monotonically increasing", so it keeps the take's.
    static func decodesCleanly(_ path: String) throws -> Bool {
        let r = try runProgram(["ffmpeg", "-v", "error", "-i", path, "-fps_mode", "passthrough", "-enc_time_base", "-1", "-f", "null", "-"],
                               stdout: .discard)
        if r.status != 0 || !r.stderr.isEmpty { print("decodesCleanly: ffmpeg on \(path) exited \(r.status): \(r.stderr.prefix(2000))") }
        return r.status == 0 && r.stderr.isEmpty
    }

    /// Whether a process runs (a zombie does not: PID 1 in a container may never reap it).
    static func running(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[close...].hasPrefix(") Z")
    }

    static func booth(_ command: String, format: CameraPipeFormat = .mjpeg, output: String) -> [String] {
        ["--camera", "exec:" + command, "--camera-format", format.rawValue, "--size", "320x240", "--microphone", "none",
         "--windowed", "800x480", "--countdown", "0", "--output", output]
    }

    /// The frame numbers of a take's pictures, in order, read by the ffmpeg CLI.
    static func numbers(_ take: String, width: Int = 320, height: Int = 240) throws -> [Int] {
        let raw = take + ".gray"
        // Each picture once, as it is in the file (the CLI's default would make the output
        // constant-rate, repeating or dropping pictures around the pipe's jitter).
        let decode = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", take, "-map", "0:v:0", "-fps_mode", "passthrough",
                                     "-f", "rawvideo", "-pix_fmt", "gray", raw])
        try #require(decode.status == 0, "\(decode.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
        let size = width * height
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { start in
            FrameStamp.read(width: width, height: height, band: 0) { x, y in bytes[start + y * width + x] }
        }
    }

    @Test("a take from ffmpeg's pipe has every frame once, in order, at the camera's rate", arguments: [CameraPipeFormat.mjpeg, .i420])
    func everyFrame(format: CameraPipeFormat) throws {
        let output = try testFolder("exec-\(format.rawValue)").appendingPathComponent("take.mov").path
        let r = try RecorderProcess(Self.booth(Self.source(format), format: format, output: output))
        try #require(r.wait(for: "ready", timeout: 15) != nil, "\(r.stderr)")
        guard case let .ready(camera, width, height, _, _, _, _) = try #require(r.events.first { $0.name == "ready" }) else { return }
        #expect(camera.hasPrefix("exec:ffmpeg") && width == 320 && height == 240)
        #expect(!r.events.contains { $0.name == "error" }, "\(r.events)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil)
        try #require(r.waitRecorded(3), "\(r.stderr)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        let result = try #require(r.lastResult)
        #expect(result.success && result.reason == .user)
        r.command("quit")
        #expect(r.exitStatus() == 0)

        let numbers = try Self.numbers(output)
        #expect(numbers.count >= 75, "\(numbers.count) frames in \(result.duration) s")
        // Every number from the first to the last, once: no picture lost, none twice.
        let expected = Array((numbers.first ?? 0)...(numbers.last ?? 0))
        #expect(numbers == expected, "gaps or repeats: \(zip(numbers, numbers.dropFirst()).filter { $1 != $0 + 1 }.prefix(5))")
        // At the camera's rate: the frames fill the take's time (a margin of 10 %: on a loaded
        // machine the program itself, ffmpeg pacing its output, falls behind its 30 a second, and
        // the take's ends fall between its pictures; ci67: 6.5 frames short of about 100).
        #expect(abs(Double(numbers.count) - result.duration * 30) <= max(3, 0.1 * Double(numbers.count)), "\(numbers.count) frames in \(result.duration) s")
        #expect(result.droppedFrames == 0)
        #expect(try Self.decodesCleanly(output))
    }

    @Test("the program killed mid-take: the take stops (deviceDisconnected), is kept and plays; Retake starts the program again and the camera is back")
    func killedMidTake() throws {
        let folder = try testFolder("exec-kill")
        let pidFile = folder.appendingPathComponent("pid").path
        let command = "echo $$ > \(pidFile); exec " + Self.source(.mjpeg)
        let r = try RecorderProcess(Self.booth(command, output: folder.appendingPathComponent("take.mov").path))
        try #require(r.wait(for: "ready", timeout: 15) != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil)
        try #require(r.waitRecorded(1.5), "\(r.stderr)")
        let first = try #require(pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(first, SIGKILL)
        try #require(r.wait(for: "recordingFinished", timeout: 10) != nil, "\(r.names) \(r.stderr)")
        let take = try #require(r.lastResult)
        #expect(take.reason == .deviceDisconnected && take.success, "\(take)")
        #expect(take.duration > 1 && take.duration < 3, "\(take.duration)")
        #expect(try Self.decodesCleanly(take.outputPath))
        let lost = r.events.compactMap { if case let .error(.cameraUnavailable, message) = $0 { message } else { nil } }
        #expect(lost.first?.contains("the command ended (killed by signal 9)") == true, "\(lost)")
        // The finished screen holds no camera; Retake starts the program again, and its pictures
        // give Start back.
        r.command("retake")
        // Start back on screen: the camera's new program gave its pictures. (Its log line is no sign:
        // under load the killed program's own restart, before Retake stopped that camera, printed it.)
        #expect(r.waitForState(timeout: 20) { mode, buttons in mode == "ready" && buttons.contains(.start) }, "\(r.events) \(r.stderr)")
        let second = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(pid_t(second) != first)
        r.command("start")
        try #require(r.wait(for: "recordingStarted", count: 2) != nil, "\(r.events)")
        try #require(r.waitRecorded(1), "\(r.stderr)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished", count: 2) != nil)
        let again = try #require(r.lastResult)
        #expect(again.success && again.reason == .user && again.duration > 0.7, "\(again)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("a program that never writes: ready with an error cameraUnavailable saying so within 10 s (and a little)")
    func silent() throws {
        let launched = ProcessInfo.processInfo.systemUptime
        let r = try RecorderProcess(Self.booth("sleep 600", output: try testFolder("exec-silent").appendingPathComponent("t.mov").path))
        try #require(r.wait(for: "error", timeout: 20) != nil, "\(r.stderr)")
        let at = try #require(r.timedEvents.first { $0.event.name == "error" }?.at) - launched
        #expect(at >= 9.5 && at < 14, "the error came \(at) s after launch")
        let message = r.events.compactMap { if case let .error(.cameraUnavailable, m) = $0 { m } else { nil } }.first
        #expect(message?.contains("no picture within 10 s of starting (is it writing mjpeg to stdout?)") == true, "\(String(describing: message))")
        #expect(r.wait(for: "ready") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("a program whose output is not the declared format: an error naming what it is")
    func wrongFormat() throws {
        let r = try RecorderProcess(Self.booth(Self.source(.mjpeg), format: .i420,
                                               output: try testFolder("exec-format").appendingPathComponent("t.mov").path))
        try #require(r.wait(for: "error", timeout: 15) != nil, "\(r.stderr)")
        let message = r.events.compactMap { if case let .error(.cameraUnavailable, m) = $0 { m } else { nil } }.first
        #expect(message?.contains("is not raw i420 frames as --camera-format says: it looks like MJPEG (JPEG pictures); use --camera-format mjpeg") == true,
                "\(String(describing: message))")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("the program does not outlive the booth: quit, and kill -9")
    func endsWithBooth() throws {
        let folder = try testFolder("exec-ends")
        for (n, ending) in ["quit", "kill"].enumerated() {
            let pidFile = folder.appendingPathComponent("pid\(n)").path
            // A pipeline: a second program in the group, which no kill of the shell alone reaches.
            let command = "sleep 600 & echo $! > \(pidFile).sleeper; echo $$ > \(pidFile); exec " + Self.source(.mjpeg)
            let r = try RecorderProcess(Self.booth(command, output: folder.appendingPathComponent("t\(n).mov").path))
            try #require(r.wait(for: "ready", timeout: 15) != nil, "\(r.stderr)")
            let pids = try [pidFile, pidFile + ".sleeper"].map { try #require(pid_t(try String(contentsOfFile: $0, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))) }
            #expect(pids.allSatisfy { Self.running($0) })
            if ending == "quit" {
                r.command("quit")
                #expect(r.exitStatus() == 0)
            } else {
                r.kill(SIGKILL)
                #expect(r.exitStatus() != nil)
            }
            _ = eventually(5) { !pids.contains { Self.running($0) } }
            #expect(!pids.contains { Self.running($0) }, "\(ending): still running: \(pids.filter { Self.running($0) })")
        }
    }

    /// A Raspberry Pi's ISP node as the fake camera stands for it (driver bcm2835-isp, a YU12
    /// capture format): `auto` passes over it, says so, and opens the USB webcam after it. (The
    /// fake serves no Bayer formats; the format filter that passes over a CSI receiver is
    /// ExecCameraTests.autoSkipsUnusable's.)
    @Test("auto passes over a Pi's ISP node and opens the webcam", needsFakeCamera)
    func autoPassesOverPiNodes() throws {
        let folder = try testFolder("exec-auto-pi")
        let devices = folder.appendingPathComponent("dev")
        try FileManager.default.createDirectory(at: devices, withIntermediateDirectories: true)
        let nodes = [("video14", "card=bcm2835-isp-capture0\ndriver=bcm2835-isp\nformat=YU12 640x480@30\n"),
                     ("video20", "card=USB Webcam\nformat=YUYV 640x480@30\n")]
        for (name, conf) in nodes {
            let path = devices.appendingPathComponent(name).path
            try Data().write(to: URL(fileURLWithPath: path))
            try conf.write(toFile: path + ".conf", atomically: true, encoding: .utf8)
        }
        let r = try RecorderProcess(["--camera", "auto", "--size", "352x288", "--microphone", "none", "--windowed", "800x480", "--countdown", "0",
                                     "--output", folder.appendingPathComponent("t.mov").path],
                                    environment: ["KIOSK_VIDEO_DEVICE_DIR": devices.path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let ready = r.events.compactMap { if case let .ready(camera, _, _, _, _, _, _) = $0 { camera } else { nil } }
        #expect(ready == [devices.appendingPathComponent("video20").path], "\(r.stderr)")
        #expect(r.said("\(devices.path)/video14 (bcm2835-isp-capture0, bcm2835-isp) passed over: a picture processor's node"), "\(r.stderr)")
        // Only one camera is left: no Switch Camera button.
        r.command("state")
        try #require(r.wait(for: "state") != nil)
        #expect(r.events.contains { if case let .state(_, _, buttons, _, _, _, _, _, _, _, _) = $0 { !buttons.contains(.switchCamera) } else { false } })
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
