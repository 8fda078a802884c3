// The console's Devices page through the real binaries, with two fake V4L2 cameras: the cameras as
// `list-cameras` (a child of the console) finds them; the booth's screen as a JPEG of the booth's
// window size that changes as the preview moves; the 3 s test take with its level, loudness and
// frame, retaken so no take is left; a microphone switched to none through the settings (the booth
// reloads it, and the next test take has no sound); a camera switched to the other fake one (the
// booth keeps it until a restart, and says so) or refused by the booth's parser with its message;
// the test take refused while a guest's take runs; 401 without a session, 403 without the CSRF
// token or from another origin, audited.
import Foundation
import Glibc
import KioskTestSupport
import Testing

@Suite("kiosk-recorder console: the Devices page", .serialized)
struct ConsoleDevicesEndToEndTests {
    let password = "booth operator 1"

    /// Two fake cameras in a folder of their own (KIOSK_VIDEO_DEVICE_DIR): their paths.
    func cameras(_ folder: URL) throws -> [String] {
        let devices = folder.appendingPathComponent("dev")
        try FileManager.default.createDirectory(at: devices, withIntermediateDirectories: true)
        return try [("video0", "card=Front Cam\nformat=YUYV 640x480@30\n"), ("video1", "card=Back Cam\nformat=MJPG 1280x720@30\n")].map { name, conf in
            let path = devices.appendingPathComponent(name).path
            try Data().write(to: URL(fileURLWithPath: path))
            try conf.write(toFile: path + ".conf", atomically: true, encoding: .utf8)
            return path
        }
    }

    /// `path` fetched with the session's cookie into `file`: the status and the content type.
    func fetch(_ console: ConsoleUnderTest, _ path: String, cookie: String, into file: String) throws -> String {
        try runProgram(["curl", "-s", "-o", file, "-w", "%{http_code} %{content_type}", "--max-time", "20"] + console.reach
                       + ["-H", cookie, console.base + path]).stdout
    }

    func object(_ answer: CurlAnswer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(answer)")
    }

    @Test("cameras listed, the screen a JPEG of the booth's size that moves, a test take with its level and frame and no take left, switching the microphone and the camera through the settings, refusals, 401 and 403", needsFakeCamera)
    func devices() throws {
        let folder = try testFolder("console-devices")
        let paths = try cameras(folder)
        let socket = folder.appendingPathComponent("booth.sock").path, takes = folder.appendingPathComponent("takes").path
        let config = folder.appendingPathComponent("kiosk.conf").path, consoleFile = folder.appendingPathComponent("console.conf").path
        try """
            control-socket = \(socket)
            output-dir = \(takes)
            session = loop
            camera = test
            microphone = test
            size = 352x288
            countdown = 0
            console-settings = \(consoleFile)

            """.write(toFile: config, atomically: true, encoding: .utf8)
        let r = try RecorderProcess(["--config", config, "--windowed", "800x480"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        defer {
            r.command("quit")
            _ = r.exitStatus()
        }
        let set = try setConsolePassword(password, file: folder.appendingPathComponent("console-password").path)
        try #require(set.status == 0, "\(set.stderr)")
        let console = try ConsoleUnderTest.start(folder, booth: ["--config", config], environment: ["KIOSK_VIDEO_DEVICE_DIR": folder.appendingPathComponent("dev").path])
        defer { console.stop() }

        // Before sign-in: 401, and the booth is not asked.
        for (method, path) in [("GET", "/console/api/devices"), ("GET", "/console/api/screen"), ("POST", "/console/api/devices/trial"),
                               ("GET", "/console/api/devices/trial/frame")] {
            #expect(try console.curl(method, path).status == 401, "\(method) \(path)")
        }
        let (cookie, signedIn) = try console.signIn(password)
        try #require(signedIn.status == 204, "\(signedIn.body)")
        let csrf = try object(try console.curl("GET", "/console/api/session", headers: [cookie]))["csrf"] as? String ?? ""

        // The cameras, as list-cameras finds them; the microphones as ALSA names them (a list).
        let listing = try console.curl("GET", "/console/api/devices", headers: [cookie])
        #expect(listing.status == 200, "\(listing) \(console.process.stderr)")
        let devices = try object(listing)
        let cameras = try #require(devices["cameras"] as? [[String: Any]], "\(listing.body)")
        #expect(cameras.compactMap { $0["path"] as? String } == paths, "\(listing.body)")
        #expect(cameras.compactMap { $0["name"] as? String } == ["Front Cam", "Back Cam"], "\(listing.body)")
        #expect(devices["microphones"] is [[String: Any]], "\(listing.body)")

        // The screen: a JPEG of the booth's window, and a newer one once the preview moved.
        let first = folder.appendingPathComponent("screen-1.jpg").path, next = folder.appendingPathComponent("screen-2.jpg").path
        #expect(try fetch(console, "/console/api/screen", cookie: cookie, into: first) == "200 image/jpeg", "\(console.process.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)).prefix(3) == Data([0xFF, 0xD8, 0xFF]))
        #expect(try ffprobe(first, "stream=width,height") == "800\n480")
        #expect(eventually(20) {
            (try? fetch(console, "/console/api/screen", cookie: cookie, into: next)) == "200 image/jpeg"
                && FileManager.default.contents(atPath: next)?.prefix(2) == Data([0xFF, 0xD8])
                && !FileManager.default.contentsEqual(atPath: first, andPath: next)
        }, "the screen picture never changed")
        // Eight browsers asking at once: at most one screenshot for them all (the booth's `state`
        // after each `screenshot` counts them), and one more per half second the batch took.
        let states = r.count(of: "state"), began = Date()
        let batch = try runProgram(["sh", "-c", "for i in 1 2 3 4 5 6 7 8; do curl -s -o /dev/null -w '%{http_code} ' \"$@\" & done; wait", "sh"]
                                   + console.reach + ["-H", cookie, console.base + "/console/api/screen"])
        let took = Date().timeIntervalSince(began)
        // A state of our own after them: once it is read, every line before it is.
        let counted = r.count(of: "state")
        r.command("state")
        try #require(r.wait(for: "state", count: counted + 1) != nil)
        let shots = r.count(of: "state") - 1 - states
        #expect(batch.stdout.split(separator: " ").count == 8 && batch.stdout.split(separator: " ").allSatisfy { $0 == "200" }, "\(batch.stdout)")
        #expect(shots <= 1 + Int(took / 0.5), "\(shots) screenshots for 8 requests in \(took) s")
        // The console's folder (beside its password file) holds no screenshot left behind.
        let screens = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("console-screen").path)) ?? ["none made"]
        #expect(screens.isEmpty, "\(screens)")

        // The test take: refused without the CSRF token or from another origin, before anything starts.
        #expect(try console.curl("POST", "/console/api/devices/trial", headers: [cookie]).status == 403)
        #expect(try console.curl("POST", "/console/api/devices/trial", headers: [cookie, "X-CSRF-Token: \(csrf)", "Origin: http://evil.example"]).status == 403)
        #expect(r.count(of: "recordingStarted") == 0)
        let change = [cookie, "X-CSRF-Token: \(csrf)", "Origin: http://10.42.0.1", "Content-Type: application/json"]
        let trial = try console.curl("POST", "/console/api/devices/trial", headers: change)
        #expect(trial.status == 200, "\(trial) \(console.process.stderr)")
        let result = try object(trial)
        let duration = try #require(result["duration"] as? Double, "\(trial.body)")
        #expect(duration > 2.5 && duration < 4.5, "\(trial.body)")
        // The test tone: a level the booth's meter said, and the file's loudness and peak.
        let level = try #require(result["level"] as? Double, "\(trial.body)")
        #expect(level > -60 && level <= 0, "\(trial.body)")
        #expect(result["loudness"] is Double && result["peak"] is Double, "\(trial.body)")
        #expect(result["frame"] as? Bool == true && result["discarded"] as? Bool == true, "\(trial.body)")
        let frame = folder.appendingPathComponent("frame.jpg").path
        #expect(try fetch(console, "/console/api/devices/trial/frame", cookie: cookie, into: frame) == "200 image/jpeg")
        #expect(try ffprobe(frame, "stream=codec_name") == "mjpeg")
        // Retaken: back in ready, and no take in the folder or its list.
        #expect(r.waitForState { mode, _ in mode == "ready" })
        let movies = ((try? FileManager.default.contentsOfDirectory(atPath: takes)) ?? []).filter { !$0.hasPrefix(".") }
        #expect(movies.isEmpty, "\(movies)")
        #expect(try console.curl("GET", "/console/api/takes", headers: [cookie]).body == "[]")

        // The microphone switched to none: the booth's parser takes it, the booth reloads it, and
        // the next test take has no sound.
        let mute = try console.curl("PUT", "/console/api/settings", headers: change, body: #"{"microphone":"none"}"#)
        let muted = try object(mute)
        #expect(mute.status == 200 && muted["reloaded"] as? Bool == true, "\(mute)")
        #expect(r.wait(for: "reloaded") != nil, "\(r.rawLines.suffix(5))")
        #expect(r.rawLines.last { $0.hasPrefix(#"{"event":"reloaded""#) }?.contains(#""changed":["microphone"]"#) == true, "\(r.rawLines.suffix(5))")
        let silent = try object(try console.curl("POST", "/console/api/devices/trial", headers: change))
        #expect(silent["ok"] as? Bool == true && silent["loudness"] is NSNull && silent["peak"] is NSNull, "\(silent)")

        // The camera switched to the second fake one: written, reloaded, kept by the booth until it restarts.
        let switched = try console.curl("PUT", "/console/api/settings", headers: change, body: #"{"camera":"\#(paths[1])"}"#)
        #expect(switched.status == 200, "\(switched)")
        #expect(r.wait(for: "reloaded", count: 2) != nil, "\(r.rawLines.suffix(5))")
        #expect(r.rawLines.last { $0.hasPrefix(#"{"event":"reloaded""#) }?.contains(#""kept":["camera"]"#) == true, "\(r.rawLines.suffix(5))")
        let written = try String(contentsOfFile: consoleFile, encoding: .utf8)
        #expect(written.contains("camera = \(paths[1])"), "\(written)")
        // A camera the booth's parser refuses: its message, and the console's file as it was.
        let refused = try console.curl("PUT", "/console/api/settings", headers: change, body: #"{"camera":"exec:"}"#)
        #expect(refused.status == 400 && refused.body.contains("exec: needs a command"), "\(refused)")
        #expect(try String(contentsOfFile: consoleFile, encoding: .utf8) == written)

        // A guest's take running: the test take is refused, and the guest's take goes on.
        r.command("start")
        try #require(r.wait(for: "recordingStarted", count: 3) != nil, "\(r.rawLines.suffix(5))")
        let busy = try console.curl("POST", "/console/api/devices/trial", headers: change)
        #expect(busy.status == 409 && busy.body.contains("not ready"), "\(busy)")
        #expect(r.count(of: "recordingFinished") == 2)
        r.command("stop")
        #expect(r.wait(for: "recordingFinished", count: 3) != nil)

        // Audited: each test take with its result, the refusals too.
        let audit = console.auditLines.filter { $0.contains(#""action":"trial""#) }
        #expect(audit.filter { $0.contains(#""result":"refused 403""#) }.count == 2, "\(audit)")
        #expect(audit.filter { $0.contains(#""result":"ok""#) }.count == 2, "\(audit)")
        #expect(audit.contains { $0.contains(#""result":"refused notReady""#) }, "\(audit)")
    }
}
