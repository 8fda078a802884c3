// The console's settings through the real binaries: a booth run with --config (a comment of the
// operator's in it) and the console beside it, driven with curl. A save lands in the console's file,
// the booth reloads it (`reloaded`) and the next take counts it; a value the booth's parser refuses is
// refused with its message and both files stay byte for byte; uploads are checked as the booth checks
// them, stored beside the console's file and on the next take.
import Foundation
import Glibc
import KioskContract
import KioskCore
import KioskTestSupport
import Testing

@Suite("kiosk-recorder console: settings and uploads", .serialized)
struct ConsoleSettingsEndToEndTests {
    let password = "booth operator 1"

    /// A signed-in console beside a booth run with `--config`: the booth, the console, the headers
    /// a change sends, and the two files.
    struct Setup {
        let r: RecorderProcess
        let console: ConsoleUnderTest
        let change: [String]
        let config: String
        let consoleFile: String
        let folder: URL

        func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

        /// The JSON object of an answer.
        func object(_ answer: CurlAnswer) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any], "\(answer)")
        }

        /// The setting `name` of a listing.
        func setting(_ name: String, in answer: CurlAnswer) throws -> [String: Any] {
            let settings = try #require(try object(answer)["settings"] as? [[String: Any]])
            return try #require(settings.first { $0["name"] as? String == name }, "no \(name) in \(answer.body.prefix(300))")
        }

        /// Take `number`, started and stopped once its picture runs; its `recordingStarted` as it
        /// came (with its question, if any). `retake`: the booth back in ready after it (the take
        /// deleted), else left on its review.
        func take(_ number: Int, retake: Bool = true) throws -> KioskEvent {
            r.command("start")
            try #require(r.wait(for: "recordingStarted", count: number, timeout: 20) != nil, "\(r.rawLines) \(r.stderr)")
            try #require(r.waitForPictures(0.3), "\(r.rawLines)")
            r.command("stop")
            try #require(r.wait(for: "recordingFinished", count: number) != nil, "\(r.rawLines)")
            if retake {
                let states = r.count(of: "state")
                r.command("retake")
                r.command("state")
                try #require(r.wait(for: "state", count: states + 1) != nil)
                try #require(r.rawLines.last?.contains(#""mode":"ready""#) == true, "\(r.rawLines)")
            }
            let started = r.events.filter { if case .recordingStarted = $0.unasked { true } else { false } }
            return started[number - 1]
        }

        func stop() {
            console.stop()
            r.command("quit")
            _ = r.exitStatus()
        }
    }

    func start(_ name: String, size: String = "352x288", tcp: Bool = false) throws -> Setup {
        let folder = try testFolder(name)
        let socket = folder.appendingPathComponent("booth.sock").path
        let config = folder.appendingPathComponent("kiosk.conf").path
        let consoleFile = folder.appendingPathComponent("console.conf").path
        try """
            # The operator's own words: the console must never touch them.
            control-socket = \(socket)
            output = \(folder.appendingPathComponent("take.mov").path)
            countdown = 3   # three for the guests
            console-settings = \(consoleFile)

            """.write(toFile: config, atomically: true, encoding: .utf8)
        let r = try RecorderProcess(["--camera", "test", "--size", size, "--microphone", "none", "--windowed", "800x480", "--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let set = try setConsolePassword(password, file: folder.appendingPathComponent("console-password").path)
        try #require(set.status == 0, "\(set.stderr)")
        let console = try ConsoleUnderTest.start(folder, booth: ["--config", config], tcp: tcp)
        let (cookie, signedIn) = try console.signIn(password)
        try #require(signedIn.status == 204)
        let session = try console.curl("GET", "/console/api/session", headers: [cookie])
        let csrf = try #require(try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: String])["csrf"] ?? ""
        return Setup(r: r, console: console, change: [cookie, "X-CSRF-Token: \(csrf)", "Origin: \(console.base)"], config: config,
                     consoleFile: consoleFile, folder: folder)
    }

    @Test("countdown 3 → 5: in the console's file, the booth reloads, the next take counts 5; 99: 400 with the parser's message, both files byte for byte; the operator's comment stays")
    func countdown() throws {
        let s = try start("console-settings-countdown")
        defer { s.stop() }
        let cookie = s.change[0]
        let configBefore = try #require(s.bytes(s.config))

        // The listing: the value and where it comes from, its kind, range, group and when it applies.
        let listing = try s.console.curl("GET", "/console/api/settings", headers: [cookie])
        #expect(listing.status == 200, "\(listing)")
        let countdown = try s.setting("countdown", in: listing)
        #expect(countdown["value"] as? String == "3" && countdown["source"] as? String == "config")
        #expect(countdown["type"] as? String == "integer" && countdown["min"] as? Int == 0 && countdown["max"] as? Int == 10)
        #expect(countdown["group"] as? String == "The guest's countdown, words and sound" && countdown["applies"] as? String == "ready")
        #expect(countdown["default"] as? String == "3" && (countdown["help"] as? String)?.contains("counted down") == true)
        let prompt = try s.setting("prompt", in: listing)
        #expect(prompt["source"] as? String == "default" && prompt["value"] is NSNull)
        let session = try s.setting("session", in: listing)
        #expect(session["type"] as? String == "choice" && session["choices"] as? [String] == ["once", "loop"])
        // What cannot change while the booth runs is not the console's to set.
        #expect(try s.setting("output", in: listing)["fixed"] is String)
        // Before sign-in, nothing; without the CSRF token, 403.
        #expect(try s.console.curl("GET", "/console/api/settings").status == 401)
        #expect(try s.console.curl("PUT", "/console/api/settings", headers: [cookie], body: #"{"countdown":"5"}"#).status == 403)
        #expect(!FileManager.default.fileExists(atPath: s.consoleFile))

        // 5: saved in the console's file, reloaded by the booth, counted by the next take.
        let saved = try s.console.curl("PUT", "/console/api/settings", headers: s.change + ["Content-Type: application/json"], body: #"{"countdown":"5"}"#)
        #expect(saved.status == 200, "\(saved)")
        #expect(try s.object(saved)["reloaded"] as? Bool == true)
        let now = try s.setting("countdown", in: saved)
        #expect(now["value"] as? String == "5" && now["source"] as? String == "console")
        let file = try String(contentsOfFile: s.consoleFile, encoding: .utf8)
        #expect(file.split(separator: "\n").contains("countdown = 5"), "\(file)")
        var st = stat()
        #expect(stat(s.consoleFile, &st) == 0 && st.st_mode & 0o777 == 0o640)
        #expect(s.bytes(s.config) == configBefore, "kiosk.conf changed")
        #expect(s.r.events.contains(.reloaded(changed: ["countdown"], kept: [])), "\(s.r.rawLines)")
        _ = try s.take(1)
        let counted = s.r.events.compactMap { if case let .countdown(remaining) = $0 { remaining } else { nil } }
        #expect(counted.first == 5 && counted == counted.sorted(by: >), "\(counted)")

        // 99: the parser's message, nothing written.
        let consoleBefore = try #require(s.bytes(s.consoleFile))
        let refused = try s.console.curl("PUT", "/console/api/settings", headers: s.change, body: #"{"countdown":"99"}"#)
        #expect(refused.status == 400, "\(refused)")
        let message = try s.object(refused)["message"] as? String ?? ""
        #expect(message.contains("console.conf:3: countdown: '99'") && message.contains("0 to 10"), "\(message)")
        #expect(s.bytes(s.consoleFile) == consoleBefore && s.bytes(s.config) == configBefore)
        // An unknown setting names the nearest; one the console may not set says where it belongs.
        let unknown = try s.console.curl("PUT", "/console/api/settings", headers: s.change, body: #"{"countdwn":"4"}"#)
        #expect(unknown.status == 400 && unknown.body.contains("did you mean countdown?"), "\(unknown)")
        let fixed = try s.console.curl("PUT", "/console/api/settings", headers: s.change, body: #"{"output":"/tmp/x.mov"}"#)
        #expect(fixed.status == 400 && fixed.body.contains("--config file"), "\(fixed)")
        #expect(s.bytes(s.consoleFile) == consoleBefore && s.bytes(s.config) == configBefore)

        // null takes the console's line away: kiosk.conf's 3 again, its comment still there.
        let back = try s.console.curl("PUT", "/console/api/settings", headers: s.change, body: #"{"countdown":null}"#)
        let unset = try s.setting("countdown", in: back)
        #expect(back.status == 200 && unset["source"] as? String == "config" && unset["value"] as? String == "3", "\(back)")
        #expect(s.bytes(s.config) == configBefore)
        let audit = s.console.auditLines
        #expect(audit.contains { $0.contains(#""action":"settings""#) && $0.contains(#""result":"ok""#) }, "\(audit)")
        #expect(audit.contains { $0.contains(#""action":"settings""#) && $0.contains("refused") })
    }

    @Test("uploads: a questions file is asked on the next take; an overlay PNG is on the next take's corners; an 8192+ PNG and a JPEG are refused as the booth refuses them, nothing changed; 20 MB: 413")
    func uploads() throws {
        let s = try start("console-settings-uploads", size: "\(OverlayEndToEndTests.size)")
        defer { s.stop() }
        let configBefore = try #require(s.bytes(s.config))

        // The questions: stored beside the console's file, set there, asked of the next guest.
        let questions = s.folder.appendingPathComponent("questions.txt").path
        try "# for the hosts\nWhat do you wish Anna and Tom?\n".write(toFile: questions, atomically: true, encoding: .utf8)
        let uploaded = try s.console.curl("PUT", "/console/api/files/questions", headers: s.change, bodyFile: questions)
        #expect(uploaded.status == 200, "\(uploaded)")
        let stored = s.folder.appendingPathComponent("console-questions.txt").path
        #expect(s.bytes(stored) == s.bytes(questions))
        #expect(try s.setting("questions", in: uploaded)["value"] as? String == stored)
        let started = try s.take(1)
        guard case let .asked(_, question) = started else {
            Issue.record("the take was asked nothing: \(started)")
            return
        }
        #expect(question == "What do you wish Anna and Tom?")

        // Refused as the booth refuses them: too large, not a PNG; nothing changed.
        let consoleBefore = try #require(s.bytes(s.consoleFile))
        for (name, words) in [("16384x16384", "too large"), ("a JPEG renamed", "it is a JPEG")] {
            let hostile = try OverlayEndToEndTests.makeHostile(name, in: s.folder)
            let refused = try s.console.curl("PUT", "/console/api/files/overlay", headers: s.change, bodyFile: hostile)
            #expect(refused.status == 400 && refused.body.contains(words), "\(name): \(refused)")
        }
        #expect(s.bytes(s.consoleFile) == consoleBefore && s.bytes(s.config) == configBefore)
        #expect(!FileManager.default.fileExists(atPath: s.folder.appendingPathComponent("console-overlay.png").path))
        // 20 MB: 413; a name that is no upload: 404.
        let big = s.folder.appendingPathComponent("big.png").path
        try Data(count: 20_000_000).write(to: URL(fileURLWithPath: big))
        #expect(try s.console.curl("PUT", "/console/api/files/overlay", headers: s.change, bodyFile: big).status == 413)
        #expect(try s.console.curl("PUT", "/console/api/files/..%2fkiosk.conf", headers: s.change, body: "x").status == 404)
        #expect(try s.console.curl("PUT", "/console/api/files/password", headers: s.change, body: "x").status == 404)
        #expect(s.bytes(s.consoleFile) == consoleBefore && s.bytes(s.config) == configBefore)

        // The overlay: on the next take, the red square at its top left where the PNG has it.
        let png = try OverlayEndToEndTests.makePNG(OverlayEndToEndTests.size, in: s.folder, name: "frame")
        let overlay = try s.console.curl("PUT", "/console/api/files/overlay", headers: s.change, bodyFile: png)
        #expect(overlay.status == 200, "\(overlay)")
        _ = try s.take(2, retake: false)
        let take = s.folder.appendingPathComponent("take.mov").path
        let rgbPath = s.folder.appendingPathComponent("corner.rgb").path
        let decoded = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", take, "-frames:v", "1", "-vf", "crop=2:2:28:28", "-f", "rawvideo",
                                      "-pix_fmt", "rgb24", rgbPath], stdout: .discard)
        let rgb = try [UInt8](Data(contentsOf: URL(fileURLWithPath: rgbPath)))
        try #require(decoded.status == 0 && rgb.count == 12, "\(decoded.stderr)")
        #expect(rgb[0] > 230 && rgb[1] < 25 && rgb[2] < 25, "\(rgb)")
        #expect(s.bytes(s.config) == configBefore)
    }

    @Test("the Settings view at 360 px in Chromium and WebKit over WebDriver: the form from api/settings, grouped, where countdown comes from; 99 typed and saved shows the parser's message; 5 saves, the booth reloads, the form says it is set here; a questions file and an overlay PNG picked in the page's file inputs and uploaded with its buttons: the next take is asked the file's first question and carries the overlay's corners; nothing wider than the phone",
          .enabled(if: BrowserEngines.missing.isEmpty || TestEnvironment.isCI, BrowserEngines.skipNote), arguments: ["chromium", "webkit"])
    func settingsView(engine: String) throws {
        try #require(BrowserEngines.missing.isEmpty, "\(BrowserEngines.missing) not found (CI is set, so this test does not skip): \(BrowserEngines.skipNote)")
        let s = try start("console-settings-view-\(engine)", size: "\(OverlayEndToEndTests.size)", tcp: true)
        defer { s.stop() }
        let shot = s.folder.appendingPathComponent("console-settings-\(engine).png").path
        let questions = s.folder.appendingPathComponent("guestbook.txt").path
        try "# for the hosts\nWhat do you wish Anna and Tom?\nWhere did you first meet them?\n".write(toFile: questions, atomically: true, encoding: .utf8)
        let png = try OverlayEndToEndTests.makePNG(OverlayEndToEndTests.size, in: s.folder, name: "frame")
        let run = try runProgram(["python3", repositoryRoot.appendingPathComponent("Tests/ConsoleBrowser/settings-view.py").path, engine,
                                  s.console.base + "/console/", password, shot, s.folder.appendingPathComponent(engine).path, png, questions])
        let line = try #require(run.stdout.split(separator: "\n").last.map(String.init), "\(run.stderr)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line) \(run.stderr)")
        #expect(run.status == 0, "\(seen) \(run.stderr.suffix(2000))")
        #expect(seen["sourceBefore"] as? String == "kiosk.conf" && seen["valueBefore"] as? String == "3" && seen["type"] as? String == "number", "\(seen)")
        let groups = seen["groups"] as? [String] ?? []
        #expect(groups.first == "Camera and microphone" && groups.contains("The guest's countdown, words and sound"), "\(groups)")
        #expect((seen["refusal"] as? String)?.contains("countdown: '99'") == true, "\(seen)")
        #expect((seen["saved"] as? String)?.hasPrefix("Saved") == true && seen["sourceAfter"] as? String == "set here", "\(seen)")
        #expect(seen["valueAfter"] as? String == "5" && seen["innerWidth"] as? Int == 360 && (seen["scrollWidth"] as? Int ?? 999) <= 360, "\(seen)")
        #expect(try String(contentsOfFile: s.consoleFile, encoding: .utf8).contains("countdown = 5"))
        #expect(s.r.events.contains(.reloaded(changed: ["countdown"], kept: [])), "\(s.r.rawLines)")

        // The files, picked in the page and uploaded: stored beside the console's file, byte for byte.
        for (name, file, stored) in [("questions", questions, "console-questions.txt"), ("overlay", png, "console-overlay.png")] {
            let size = s.bytes(file)?.count ?? -1
            #expect(seen[name + "Picked"] as? String == "\(URL(fileURLWithPath: file).lastPathComponent) \(size)", "\(seen)")
            #expect((seen[name + "Uploaded"] as? String)?.hasPrefix("Uploaded") == true, "\(seen)")
            #expect(s.bytes(s.folder.appendingPathComponent(stored).path) == s.bytes(file), "\(stored)")
        }
        // The next take: counted from 5, asked the file's first question, the overlay's squares at its corners.
        let started = try s.take(1, retake: false)
        let counted = s.r.events.compactMap { if case let .countdown(remaining) = $0 { remaining } else { nil } }
        #expect(counted.first == 5, "\(counted)")
        guard case let .asked(_, question) = started else {
            Issue.record("the take was asked nothing: \(started)")
            return
        }
        #expect(question == "What do you wish Anna and Tom?")
        let take = s.folder.appendingPathComponent("take.mov").path
        for (corner, x) in [("top left", 28), ("top right", OverlayEndToEndTests.size.width - 30)] {
            let rgbPath = s.folder.appendingPathComponent("corner.rgb").path
            let decoded = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", take, "-frames:v", "1", "-vf", "crop=2:2:\(x):28", "-f", "rawvideo",
                                          "-pix_fmt", "rgb24", rgbPath], stdout: .discard)
            let rgb = try [UInt8](Data(contentsOf: URL(fileURLWithPath: rgbPath)))
            try #require(decoded.status == 0 && rgb.count == 12, "\(decoded.stderr)")
            let expected = try #require(OverlayEndToEndTests.corners.first { $0.name == corner }).rgb
            #expect(zip(rgb.prefix(3), expected).allSatisfy { abs(Int($0.0) - $0.1) < 25 }, "\(corner): \(rgb), not \(expected)")
        }
        // The screenshot: a PNG of the phone's width.
        let picture = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(picture.count > 24 && picture.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47])
                && picture[16..<20] == Data([0, 0, 0x01, 0x68]), "not a 360 px wide PNG")
        // docs/deploy.md shows Chromium's: KIOSK_REGENERATE=1 puts this run's picture there.
        if engine == "chromium" && ProcessInfo.processInfo.environment["KIOSK_REGENERATE"] == "1" {
            try picture.write(to: repositoryRoot.appendingPathComponent("docs/console/settings-360.png"))
        }
    }

    @Test("the booth's --console-settings: a bad line in it exits 2 at launch naming the file and line; a reload that finds one is badConfig, the running settings kept; a missing file is none")
    func boothReadsIt() throws {
        let folder = try testFolder("console-settings-booth")
        let config = folder.appendingPathComponent("kiosk.conf").path
        let consoleFile = folder.appendingPathComponent("console.conf").path
        try "countdown = 0\nconsole-settings = \(consoleFile)\noutput = \(folder.appendingPathComponent("take.mov").path)\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let arguments = ["--camera", "test", "--size", "352x288", "--microphone", "none", "--windowed", "800x480", "--config", config]
        try "countdown = 99\n".write(toFile: consoleFile, atomically: true, encoding: .utf8)
        let bad = try RecorderProcess(arguments)
        #expect(bad.exitStatus() == 2 && bad.stderr.contains("console.conf:1: countdown: '99'"), "\(bad.stderr)")
        // Missing: the booth runs on kiosk.conf alone.
        try FileManager.default.removeItem(atPath: consoleFile)
        let r = try RecorderProcess(arguments)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        try "countdown = x\n".write(toFile: consoleFile, atomically: true, encoding: .utf8)
        r.command("reload")
        #expect(r.wait(for: "error") != nil)
        let errors = r.events.compactMap { if case let .error(code, message) = $0 { (code, message) } else { nil } }
        #expect(errors.first?.0 == .badConfig && errors.first?.1.contains("console.conf:1: countdown: 'x'") == true, "\(errors)")
        try "countdown = 2\n".write(toFile: consoleFile, atomically: true, encoding: .utf8)
        r.command("reload")
        #expect(r.wait(for: "reloaded") != nil, "\(r.rawLines)")
        #expect(r.events.contains(.reloaded(changed: ["countdown"], kept: [])))
        r.command("start")
        #expect(r.wait(for: "countdown") != nil)
        #expect(r.events.contains(.countdown(remaining: 2)) && !r.events.contains(.countdown(remaining: 3)), "\(r.rawLines)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
