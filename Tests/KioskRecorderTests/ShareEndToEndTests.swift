// Issue 31 through the binary: a take used with --share-dir gets its share folder and `takeShared`,
// and the QR code on the booth's own screenshot, read by a real decoder (zbarimg, Debian's
// zbar-tools), is exactly the event's address, landscape and portrait; the Wi-Fi code joins the
// hotspot; Done and --share-seconds end the share screen; a folder a kill left half written goes at
// launch; a full share disk is an error, the take handed over all the same.
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

@Suite("the share flow through the binary", .serialized)
struct ShareEndToEndTests {
    static let template = "http://127.0.0.1:8080/s/{token}/"

    /// The codes zbarimg reads in an image, one text each (none: empty).
    static func codes(in path: String) throws -> [String] {
        let read = try runProgram(["zbarimg", "--raw", "-q", path])
        // 4: no code found.
        try #require(read.status == 0 || read.status == 4, "zbarimg: \(read.stderr)")
        return read.stdout.split(separator: "\n").map(String.init)
    }

    /// The booth's own screenshot, once written whole.
    static func screenshot(_ r: RecorderProcess, _ path: String) throws -> String {
        r.send(#"{"command":"screenshot","path":"\#(path)"}"#)
        // Whole when it is as long as its header says (bfSize, bytes 2…5).
        let whole = eventually(20) {
            guard let file = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? file.close() }
            guard let header = try? file.read(upToCount: 6), header.count == 6,
                  let size = try? file.seekToEnd() else { return false }
            let declared = header[2...5].reversed().reduce(0) { $0 << 8 | Int($1) }
            return declared > 54 && Int(size) == declared
        }
        guard whole else { throw ShareTestFailure(description: "no screenshot at \(path): \(r.rawLines)") }
        return path
    }

    /// Start, 1.5 s, Stop, Use Video: the hand-over's path and the share event.
    static func takeAndUse(_ r: RecorderProcess, count: Int = 1) throws -> (take: String, url: String, token: String, folder: String) {
        try r.recordASecondAndUse(count: count)
        try #require(r.wait(for: "takeShared", count: count) != nil, "\(r.names) \(r.stderr)")
        let handed = r.events.compactMap { e -> String? in
            if case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path) = e { path } else { nil }
        }
        let shared = r.events.compactMap { e -> (String, String, String)? in
            if case let .takeShared(url, token, folder, _) = e { (url, token, folder) } else { nil }
        }
        try #require(handed.count == count && shared.count == count)
        let (url, token, folder) = shared[count - 1]
        // A file every phone plays (PhoneFile), as every share rendition the tests make.
        #expect(try PhoneFile.problems(folder + "/video.mp4", rotation: nil) == [])
        return (handed[count - 1], url, token, folder)
    }

    /// Two shared takes, each followed by Done back to ready: the first's and the second's.
    static func twoSharedTakes(_ r: RecorderProcess) throws
        -> (first: (take: String, url: String, token: String, folder: String), second: (take: String, url: String, token: String, folder: String)) {
        var taken: [(take: String, url: String, token: String, folder: String)] = []
        for count in 1...2 {
            taken.append(try takeAndUse(r, count: count))
            r.command("done")
            try #require(r.waitForState { mode, _ in mode == "ready" }, "no ready after Done: \(r.names)")
        }
        return (taken[0], taken[1])
    }

    @Test("a loop session: Use Video gives takeShared after the hand-over, the share folder whole (video.mp4, poster.jpg, index.html, 0644 in 0755), the take 0600 and untouched; the QR code on screen is the event's url, landscape then portrait; Done goes back to ready")
    func loopSession() throws {
        let folder = try testFolder("share-loop")
        let takes = folder.appendingPathComponent("takes").path, shares = folder.appendingPathComponent("share").path
        let r = try RecorderProcess(booth + ["--output-dir", takes, "--session", "loop", "--share-dir", shares, "--share-url", Self.template,
                                             "--share-title", "Anna & Tom"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        for (round, orientation) in ["landscapeRight", "portrait"].enumerated() {
            if round > 0 {
                r.send(#"{"command":"rotate","orientation":"\#(orientation)"}"#)
                try #require(r.wait(for: "orientationChanged") != nil, "\(r.names)")
            }
            let shared = try Self.takeAndUse(r, count: round + 1)
            // A file every phone plays (PhoneFile): the 352x288 test pattern's.
            #expect(try PhoneFile.problems(shared.folder + "/video.mp4", rotation: round == 0 ? 0 : -90, maxLevel: 31).isEmpty)
            // The event's order: the hand-over first, then the share.
            let names = r.names
            #expect(names.lastIndex(of: "videoRecorderDidFinishRecordingVideoWithOutputPath")! < names.lastIndex(of: "takeShared")!)
            #expect(shared.url == Self.template.replacingOccurrences(of: "{token}", with: shared.token))
            #expect(shared.token.count >= 22 && shared.token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "\(shared.token)")
            #expect(shared.folder == shares + "/" + shared.token)
            let files = try FileManager.default.contentsOfDirectory(atPath: shared.folder).sorted()
            #expect(files == ["index.html", "poster.jpg", "video.mp4"], "\(files)")
            for file in files {
                let mode = try #require(try FileManager.default.attributesOfItem(atPath: shared.folder + "/" + file)[.posixPermissions] as? Int)
                #expect(mode == 0o644, "\(file): \(String(mode, radix: 8))")
            }
            let folderMode = try #require(try FileManager.default.attributesOfItem(atPath: shared.folder)[.posixPermissions] as? Int)
            #expect(folderMode == 0o755)
            let takeMode = try #require(try FileManager.default.attributesOfItem(atPath: shared.take)[.posixPermissions] as? Int)
            #expect(takeMode == 0o600)
            // The video is the take's own pictures, its index first.
            #expect(try pictureCount(shared.folder + "/video.mp4") == pictureCount(shared.take))
            let page = try String(contentsOfFile: shared.folder + "/index.html", encoding: .utf8)
            #expect(page.contains("Anna &amp; Tom") && page.contains("video.mp4"))
            // The screen: sharing, with Done; its QR code says the event's url.
            if case let .state(mode, _, buttons, _, _, _, _, _, _, _, _)? = r.stateReply() {
                #expect(mode == "sharing" && buttons == [.done], "\(mode) \(buttons)")
            }
            let shot = try Self.screenshot(r, folder.appendingPathComponent("share-\(orientation).bmp").path)
            #expect(try Self.codes(in: shot) == [shared.url], "\(orientation)")
            r.command("done")
            if case let .state(mode, _, _, _, _, _, _, _, _, _, _)? = r.stateReply() { #expect(mode == "ready") }
            // Nothing in the share folder lists the tokens.
            #expect(try FileManager.default.contentsOfDirectory(atPath: shares).allSatisfy { !$0.hasPrefix("index") })
        }
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("--share-wifi-ssid and -password: a second QR code with the WIFI: payload (its ; and \" escaped); a once session ends when --share-seconds is up, after the outcome event")
    func wifiAndTimeout() throws {
        let folder = try testFolder("share-wifi")
        let shares = folder.appendingPathComponent("share").path
        let (ssid, password) = ("Booth;\"1", "p;a\"ss:word")
        let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("take.mov").path, "--share-dir", shares,
                                             "--share-url", Self.template, "--share-seconds", "10",
                                             "--share-wifi-ssid", ssid, "--share-wifi-password", password])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let shared = try Self.takeAndUse(r)
        let shot = try Self.screenshot(r, folder.appendingPathComponent("wifi.bmp").path)
        let codes = try Self.codes(in: shot)
        #expect(Set(codes) == [shared.url, WiFiPayload.make(ssid: ssid, password: password)], "\(codes)")
        #expect(codes.contains(#"WIFI:T:WPA;S:Booth\;\"1;P:p\;a\"ss\:word;;"#))
        // The once session ends with the share screen, by itself. (10 s: with 3, a test runner held
        // off the CPU for 3 s asked for its screenshot after the booth had ended, ci69.)
        let sharedAt = try #require(r.wait(for: "takeShared"))
        #expect(r.exitStatus(timeout: 30) == 0)
        let ended = ProcessInfo.processInfo.systemUptime
        #expect(ended - sharedAt >= 9.9, "the share screen stayed \(ended - sharedAt) s")
        #expect(r.names.firstIndex(of: "videoRecorderDidFinishRecordingVideoWithOutputPath")! < r.names.firstIndex(of: "takeShared")!)
    }

    @Test("the Wi-Fi code names the network kiosk.conf gives as `config get` reads it (kiosk/install's reader of the hotspot): an inline comment, quotes, spaces, CRLF and CR-only line ends, a CJK name")
    func wifiFromConfig() throws {
        let folder = try testFolder("share-wifi-conf")
        let cases: [(text: String, ssid: String, password: String)] = [
            ("share-wifi-ssid = Anna booth   # the guests' network\nshare-wifi-password = secret123 # the guests' password\n", "Anna booth", "secret123"),
            ("share-wifi-ssid = \"Tom # and Anna\"\nshare-wifi-password = \"pass word 1\"\n", "Tom # and Anna", "pass word 1"),
            ("share-wifi-ssid = \"  spaced out  \"\nshare-wifi-password =    leading99   \n", "  spaced out  ", "leading99"),
            ("share-wifi-ssid = Booth CRLF\r\nshare-wifi-password = crlf-pass1\r\n", "Booth CRLF", "crlf-pass1"),
            ("share-wifi-ssid = Booth CR\rshare-wifi-password = cr-only-pass\r", "Booth CR", "cr-only-pass"),
            ("share-wifi-ssid = 花嫁と花婿のブース写\nshare-wifi-password = cjk-pass-10\n", "花嫁と花婿のブース写", "cjk-pass-10"),
        ]
        for (k, c) in cases.enumerated() {
            let conf = folder.appendingPathComponent("kiosk-\(k).conf")
            try Data(c.text.utf8).write(to: conf)
            let ssid = try run(["config", "get", "share-wifi-ssid", "--config", conf.path])
            let password = try run(["config", "get", "share-wifi-password", "--config", conf.path])
            #expect(ssid.stdout == c.ssid + "\n" && password.stdout == c.password + "\n", "\(k): '\(ssid.stdout)' '\(password.stdout)' \(ssid.stderr)")
            let r = try RecorderProcess(booth + ["--config", conf.path, "--output", folder.appendingPathComponent("take-\(k).mov").path,
                                                 "--share-dir", folder.appendingPathComponent("share").path, "--share-url", Self.template])
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            let shared = try Self.takeAndUse(r)
            let codes = try Self.codes(in: try Self.screenshot(r, folder.appendingPathComponent("wifi-\(k).bmp").path))
            #expect(Set(codes) == [shared.url, WiFiPayload.make(ssid: c.ssid, password: c.password)], "\(k): \(codes)")
            r.command("done")
            r.command("quit")
            #expect(r.exitStatus() == 0)
        }
    }

    @Test("a microphone slow to close (2 s, the fake plugin's close_ms): Use Video right after the stop still shares the take, the hook gets its share folder; the close's report coming back after Use Video is not taken for the hand-over's")
    func slowMicrophoneClose() throws {
        let plugin = TestEnvironment.fakeMicrophonePlugin
        try #require(FileManager.default.fileExists(atPath: plugin), "build the package first (swift build)")
        let home = try testFolder("share-slow-microphone")
        try """
            pcm_type.kiosk_fake_microphone { lib "\(plugin)" }
            pcm.kiosk_fake_mic { type kiosk_fake_microphone  close_ms 2000 }
            """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let shares = home.appendingPathComponent("share").path, seen = home.appendingPathComponent("hook.txt").path
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "kiosk_fake_mic", "--windowed", "800x480", "--countdown", "0",
                                     "--output", home.appendingPathComponent("take.mov").path, "--share-dir", shares,
                                     "--share-url", Self.template, "--share-seconds", "2",
                                     "--on-take", #"echo "$KIOSK_TAKE_PATH $KIOSK_SHARE_DIR" > \#(seen)"#],
                                    environment: ["HOME": home.path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let shared = try Self.takeAndUse(r)
        #expect(!r.names.contains("shareFailed") && !r.names.contains("error"), "\(r.rawLines)")
        // The once session ends after the share screen, once the close and the hook are back.
        #expect(r.exitStatus(timeout: 30) == 0, "\(r.stderr)")
        let hook = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(hook == "\(shared.take) \(shared.folder)\n", "\(hook)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shared.folder).sorted() == ["index.html", "poster.jpg", "video.mp4"])
    }

    @Test("a share folder a kill left half written (.partial-…) is removed at launch, said on stderr; a full share disk is an error (shareFailed), the take handed over all the same and the booth goes on", needsFakeCamera)
    func leftoversAndFullDisk() throws {
        let folder = try testFolder("share-full")
        let shares = folder.appendingPathComponent("share")
        try FileManager.default.createDirectory(at: shares, withIntermediateDirectories: true)
        let mount = try runProgram(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", shares.path], stdout: .inherit, stderr: .inherit)
        try #require(mount.status == 0)
        defer { _ = try? runProgram(["umount", shares.path], stdout: .inherit, stderr: .inherit) }
        let partial = shares.appendingPathComponent(".partial-AAAAAAAAAAAAAAAAAAAAAAAA")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        try Data(count: 1000).write(to: partial.appendingPathComponent("video.mp4"))
        let r = try RecorderProcess(booth + ["--output-dir", folder.appendingPathComponent("takes").path, "--session", "loop",
                                             "--share-dir", shares.path, "--share-url", Self.template, "--size", "1280x720"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        // The file worker tidies the share folders at launch, beside `ready` (which does not wait for it).
        #expect(r.waitForOutput(timeout: 10) { r.stderr.contains(".partial-AAAAAAAAAAAAAAAAAAAAAAAA") }, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: partial.path), "\(r.stderr)")
        // Then the whole small disk taken (to its last block): the share's files cannot fit.
        let other = try FileHandle(forWritingTo: try { () throws -> URL in
            let url = shares.appendingPathComponent("other")
            try Data().write(to: url)
            return url
        }())
        while (try? other.write(contentsOf: Data(count: 4096))) != nil {}
        try? other.close()
        _ = try ServiceEndToEndTests.take(r, seconds: 2)
        r.command("useVideo")
        #expect(r.wait(for: "error") != nil, "\(r.names)")
        let errors = r.events.compactMap { e -> (ErrorCode, String)? in if case let .error(code, message) = e { (code, message) } else { nil } }
        #expect(errors.map(\.0) == [.shareFailed], "\(errors)")
        let handed = r.events.compactMap { e -> String? in
            if case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path) = e { path } else { nil }
        }
        try #require(handed.count == 1, "\(handed)")
        #expect(try decodesCleanly(handed[0]))
        // Nothing half written is left; the booth is ready for the next guest.
        let left = try FileManager.default.contentsOfDirectory(atPath: shares.path)
        #expect(left == ["other"], "\(left)")
        guard case let .state(mode, _, _, _, _, _, _, _, _, _, _)? = r.stateReply() else { Issue.record("no state: \(r.rawLines)"); return }
        #expect(mode == "ready")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    /// The request paths in nginx's access log (its default format: `"GET /path HTTP/1.1"`).
    static func requests(_ log: String) -> [String] {
        log.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "\"GET ") else { return nil }
            return line[start.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    /// The top-level boxes of an MP4, in order.
    static func boxes(_ data: Data) -> [String] {
        var names: [String] = [], offset = 0
        let bytes = [UInt8](data)
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            names.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            if size == 1, offset + 16 <= bytes.count { size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            guard size >= 8 else { break }
            offset += size
        }
        return names
    }

    @Test("Debian's nginx with the installed site file, and headless Chromium: the page's video reaches HAVE_ENOUGH_DATA with the take's duration and no error; Save's bytes are video.mp4's; a range answers 206; /s/ and a half-written folder answer no listing; moov before mdat; the page asks for nothing outside its folder")
    func browser() throws {
        let folder = try testFolder("share-browser")
        let shares = folder.appendingPathComponent("share").path
        let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("take.mov").path, "--share-dir", shares,
                                             "--share-url", Self.template, "--share-seconds", "1", "--language", "de"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let shared = try Self.takeAndUse(r)
        #expect(r.exitStatus() == 0)
        let duration = try #require(r.events.compactMap { e -> Double? in if case let .recordingFinished(result) = e { result.duration } else { nil } }.first)
        let nginx = folder.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: nginx, withIntermediateDirectories: true)
        let server = try ShareServer(shares: shares, folder: nginx)
        defer { server.stop() }
        let page = "/s/\(shared.token)/"
        let video = try Data(contentsOf: URL(fileURLWithPath: shared.folder + "/video.mp4"))

        let index = try server.get(page)
        #expect(index.status == 200 && index.headers.lowercased().contains("content-type: text/html"), "\(index.headers)")
        let html = String(decoding: index.body, as: UTF8.self)
        #expect(html.contains("lang=\"de\""))
        // The Save link: an <a download> whose bytes are video.mp4's.
        let save = try #require(html.range(of: #"<a[^>]*download[^>]*>"#, options: .regularExpression).map { String(html[$0]) }, "\(html)")
        let href = try #require(save.range(of: #"href="[^"]+""#, options: .regularExpression).map { String(save[$0].dropFirst(6).dropLast()) })
        let saved = try server.get(page + href)
        #expect(saved.status == 200 && saved.body == video && saved.headers.lowercased().contains("content-type: video/mp4"), "\(href) \(saved.headers)")
        let range = try server.get(page + "video.mp4", range: "0-99")
        #expect(range.status == 206 && range.body == video.prefix(100), "\(range.headers)")
        let boxes = Self.boxes(video)
        #expect((boxes.firstIndex(of: "moov") ?? .max) < (boxes.firstIndex(of: "mdat") ?? -1), "\(boxes)")
        try FileManager.default.createDirectory(atPath: shares + "/.partial-BBBBBBBBBBBBBBBBBBBBBBBB", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: shares + "/.partial-BBBBBBBBBBBBBBBBBBBBBBBB/index.html"))
        for hidden in ["/s/", "/s/.partial-BBBBBBBBBBBBBBBBBBBBBBBB/", "/s/.partial-BBBBBBBBBBBBBBBBBBBBBBBB/index.html", "/"] {
            let answer = try server.get(hidden)
            #expect(answer.status == 404 && !String(decoding: answer.body, as: UTF8.self).contains(shared.token), "\(hidden): \(answer.status)")
        }

        // The page alone in the browser: every request it makes is in its folder.
        let before = Self.requests(server.accessLog).count
        let loaded = try chromium(server.base + page, folder: folder) {
            Self.requests(server.accessLog).dropFirst(before).contains(page + "video.mp4")
        }
        #expect(loaded, "the page never asked for its video: \(server.accessLog) \(server.errorLog)")
        // The browser has quit; a request of ours after its own, logged by nginx's one worker in
        // order once each ends, says its log is whole.
        let barrier = "/barrier-\(UUID().uuidString)"
        _ = try? server.get(barrier)
        #expect(eventually(10) { Self.requests(server.accessLog).contains(barrier) }, "\(server.accessLog)")
        let asked = Self.requests(server.accessLog).dropFirst(before).filter { $0 != barrier }
        #expect(asked.allSatisfy { $0.hasPrefix(page) }, "\(Array(asked))")

        // The video in the browser: a probe page beside the folders loads the page in a frame and
        // reports its video's state in a request nginx logs.
        let report = try browserReport(server, site: shares, body: #"<iframe id="f" src="\#(shared.token)/"></iframe>"#, script: """
            const f = document.getElementById('f');
            function look() {
              const v = f.contentDocument && f.contentDocument.querySelector('video');
              if (v && v.error) return report('error=' + v.error.code);
              if (v && v.readyState >= 4) return report('ready=' + v.readyState + '&duration=' + v.duration);
              setTimeout(look, 100);
            }
            f.onload = () => { const v = f.contentDocument.querySelector('video'); v.muted = true; v.preload = 'auto'; v.load(); look(); };
            """, folder: folder)
        #expect(report.contains("ready=4"), "\(report)")
        let reported = report.components(separatedBy: "duration=").last.flatMap { Double($0) }
        #expect(reported.map { abs($0 - duration) <= 0.1 } == true, "\(report), the take \(duration) s")
    }

    @Test("kill -9 while the share folder is written (each fsync made 2.5 s long): no share folder is visible, only its .partial- one; the next launch removes it and says so; the take was handed over and plays")
    func killWhileSharing() throws {
        let folder = try testFolder("share-kill")
        let shares = folder.appendingPathComponent("share").path, takes = folder.appendingPathComponent("takes").path
        let slow = folder.appendingPathComponent("slow").path
        let arguments = booth + ["--output-dir", takes, "--session", "loop", "--share-dir", shares, "--share-url", Self.template]
        let environment = ["LD_PRELOAD": failingSyscallsShim, "KIOSK_SLOW_CALLS": "fsync", "KIOSK_SLOW_TRIGGER": slow, "KIOSK_SLOW_MS": "2500"]
        let r = try RecorderProcess(arguments, environment: environment)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        _ = try ServiceEndToEndTests.take(r, seconds: 1.5)
        try Data().write(to: URL(fileURLWithPath: slow))
        r.command("useVideo")
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", timeout: 15) != nil, "\(r.names)")
        // The share's first fsync holds it in its .partial- folder: killed there.
        var partial: String?
        _ = eventually(15) {
            partial = (try? FileManager.default.contentsOfDirectory(atPath: shares))?.first { $0.hasPrefix(".partial-") }
            return partial != nil
        }
        let name = try #require(partial, "no share folder was being written: \(r.names) \(r.stderr)")
        r.kill(SIGKILL)
        _ = r.exitStatus()
        #expect(!r.names.contains("takeShared"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: shares) == [name], "only the half-written folder, hidden")
        try FileManager.default.removeItem(atPath: slow)
        let next = try RecorderProcess(arguments)
        try #require(next.wait(for: "ready") != nil, "\(next.stderr)")
        // The launch's tidying runs on the file worker beside the camera's start: not ordered with `ready`.
        _ = next.waitForOutput(timeout: 5) {
            ((try? FileManager.default.contentsOfDirectory(atPath: shares).isEmpty) ?? false) && next.stderr.contains(name)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: shares).isEmpty)
        #expect(next.stderr.contains(name), "\(next.stderr)")
        let handed = r.events.compactMap { e -> String? in
            if case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path) = e { path } else { nil }
        }
        try #require(handed.count == 1)
        #expect(try decodesCleanly(handed[0]))
        next.command("quit")
        #expect(next.exitStatus() == 0)
    }

    @Test("--share-max-age at launch, by a clock that can be trusted: a share folder older than it goes (said on stderr), a younger one and other names stay")
    func maxAge() throws {
        let folder = try testFolder("share-age")
        let shares = folder.appendingPathComponent("share")
        let old = shares.appendingPathComponent("OLDxOLDxOLDxOLDxOLDxOLDx"), young = shares.appendingPathComponent("NEWxNEWxNEWxNEWxNEWxNEWx")
        let other = shares.appendingPathComponent("operator-notes")
        for made in [old, young, other] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: made.appendingPathComponent("index.html"))
        }
        for aged in [old, other] {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3 * 86400)], ofItemAtPath: aged.path)
        }
        let arguments = booth + ["--output", folder.appendingPathComponent("take.mov").path, "--share-dir", shares.path,
                                 "--share-url", Self.template, "--share-max-age", "2d"]
        // (Without KIOSK_CLOCK_TRUSTED the booth asks the kernel whether the clock is synchronised,
        // which this machine may or may not be: only the operator's word is sure here.)
        let trusted = try RecorderProcess(arguments, environment: ["KIOSK_CLOCK_TRUSTED": "1"])
        try #require(trusted.wait(for: "ready") != nil, "\(trusted.stderr)")
        // The folder goes, then the line that says so (a loaded machine may show one without the other).
        _ = eventually(5) { !FileManager.default.fileExists(atPath: old.path) && trusted.stderr.contains("OLDxOLDxOLDxOLDxOLDxOLDx") }
        #expect(!FileManager.default.fileExists(atPath: old.path), "\(trusted.stderr)")
        #expect(trusted.stderr.contains("OLDxOLDxOLDxOLDxOLDxOLDx"), "\(trusted.stderr)")
        #expect(FileManager.default.fileExists(atPath: young.path) && FileManager.default.fileExists(atPath: other.path))
        trusted.command("quit")
        #expect(trusted.exitStatus() == 0)
    }

    @Test("bad share options exit 2 naming themselves")
    func badOptions() throws {
        for (arguments, words) in [(["--share-dir", "/tmp/s"], "--share-dir needs --share-url"),
                                   (["--share-dir", "/tmp/s", "--share-url", "http://x/s/"], "{token}"),
                                   (["--share-url", "http://x/{token}/"], "--share-url needs --share-dir"),
                                   (["--share-dir", "/tmp/s", "--share-url", "ftp://x/{token}"], "http://"),
                                   (["--share-dir", "/tmp/s", "--share-url", "http://x/{token}/", "--share-wifi-password", "12345678"], "--share-wifi-ssid"),
                                   (["--share-dir", "/tmp/s", "--share-url", "http://x/{token}/", "--share-wifi-ssid", "B", "--share-wifi-password", "short"], "8 to 63"),
                                   (["--share-dir", "/tmp/s", "--share-url", "http://x/{token}/", "--share-file-mode", "0600"], "--share-file-mode"),
                                   // Write for others or the group: any local user could replace a guest's video.
                                   (["--share-dir", "/tmp/s", "--share-url", "http://x/{token}/", "--share-file-mode", "0666"], "every user"),
                                   (["--share-dir", "/tmp/s", "--share-url", "http://x/{token}/", "--share-file-mode", "0664"], "the group")] {
            let result = try run(booth + arguments)
            #expect(result.status == 2 && result.stderr.contains(words), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}

struct ShareTestFailure: Error, CustomStringConvertible {
    let description: String
}
