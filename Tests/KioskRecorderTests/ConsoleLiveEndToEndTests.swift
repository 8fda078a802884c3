// The console's live part through the real binaries: its event stream (curl holding
// `api/events` open) carries the booth's own event lines for a take started on the booth's stdin;
// the log keeps them; the takes are listed from the folder's records, played, hidden, shown and
// deleted through the booth's commands (the files checked on disk); every new route answers 401
// before sign-in and 404 for a name that is not a take; a console started before its booth says so
// on the stream and follows the booth once it comes, and again after it goes and comes back.
import Foundation
import Glibc
import Testing
import KioskTestSupport

/// `curl -N` holding the console's event stream open, writing it to a file.
struct EventStreamReader {
    let pid: pid_t
    let file: String

    init(_ console: ConsoleUnderTest, cookie: String, file: String) throws {
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(fd >= 0)
        defer { close(fd) }
        self.file = file
        pid = try startServer(["curl", "-s", "-N", "--max-time", "300"] + console.reach + ["-H", cookie, console.base + "/console/api/events"],
                              stdout: fd)
    }

    var text: String { (try? String(contentsOfFile: file, encoding: .utf8)) ?? "" }
    /// The `data:` lines so far, without the prefix.
    var lines: [String] { text.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) } }

    func stop() { stopServer(pid) }
}

@Suite("kiosk-recorder console: the event stream, the log and the takes")
struct ConsoleLiveEndToEndTests {
    let password = "booth operator 1"

    /// The booth's config: its socket, its folder of takes, its question; the console reads the same file.
    func config(_ folder: URL, question: String = "What made you laugh today?", extra: String = "") throws -> (config: String, socket: String, takes: String) {
        let socket = folder.appendingPathComponent("booth.sock").path, takes = folder.appendingPathComponent("takes").path
        let questions = folder.appendingPathComponent("questions.txt").path
        try (question + "\n").write(toFile: questions, atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("kiosk.conf").path
        try "control-socket = \(socket)\noutput-dir = \(takes)\nsession = loop\nquestions = \(questions)\n\(extra)"
            .write(toFile: config, atomically: true, encoding: .utf8)
        return (config, socket, takes)
    }

    /// The password set and a console started on the booth's config (on a Unix socket, or `tcp`).
    func consoleWithPassword(_ folder: URL, config: String, tcp: Bool = false, environment: [String: String] = [:]) throws -> ConsoleUnderTest {
        let set = try setConsolePassword(password, file: folder.appendingPathComponent("console-password").path)
        try #require(set.status == 0, "\(set.stderr)")
        return try ConsoleUnderTest.start(folder, booth: ["--config", config], tcp: tcp, environment: environment)
    }

    /// The password set, a console started on the booth's config, and signed in: the console and its
    /// session's cookie (a request without it is a stranger's).
    func signedInConsole(_ folder: URL, config: String) throws -> (ConsoleUnderTest, cookie: String) {
        let console = try consoleWithPassword(folder, config: config)
        do {
            let (cookie, signedIn) = try console.signIn(password)
            try #require(signedIn.status == 204, "\(signedIn.body)")
            return (console, cookie)
        } catch {
            console.stop()
            throw error
        }
    }

    /// A take made on the booth's stdin and used; its path.
    func take(_ r: RecorderProcess, count: Int) throws -> String {
        try r.recordASecondAndUse(count: count)
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: count) != nil)
        #expect(r.waitForState { mode, _ in mode == "ready" })
        let line = try #require(r.rawLines.filter { $0.hasPrefix(#"{"event":"videoRecorderDidFinishRecordingVideoWithOutputPath""#) }.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try #require(object["outputPath"] as? String)
    }

    @Test("the stream carries a take's event lines as the booth wrote them; the log keeps them; the takes listed newest first, played, hidden, shown and deleted (files on disk), audited; 401 before sign-in, 404 for names that are none")
    func streamAndTakes() throws {
        let folder = try testFolder("console-live")
        let (config, _, takes) = try config(folder)
        let r = try RecorderProcess(booth + ["--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let (console, cookie) = try signedInConsole(folder, config: config)
        defer { console.stop() }

        // Before sign-in: 401 for every new route.
        for (method, path) in [("GET", "/console/api/events"), ("GET", "/console/api/log"), ("GET", "/console/api/takes"),
                               ("GET", "/console/api/takes/x.mov/video"), ("GET", "/console/api/takes/x.mov/thumbnail"),
                               ("POST", "/console/api/takes/x.mov/hide"), ("POST", "/console/api/takes/x.mov/show"), ("DELETE", "/console/api/takes/x.mov")] {
            #expect(try console.curl(method, path).status == 401, "\(method) \(path)")
        }
        let session = try console.curl("GET", "/console/api/session", headers: [cookie])
        let csrf = try #require(try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: String])["csrf"] ?? ""

        // The stream, held open by curl while two takes are made on the booth's stdin.
        let stream = try EventStreamReader(console, cookie: cookie, file: folder.appendingPathComponent("stream.txt").path)
        defer { stream.stop() }
        #expect(eventually(60) { stream.text.hasPrefix("retry: ") }, "\(stream.text)")
        let head = try runProgram(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{content_type}", "--max-time", "2"] + console.reach
                                  + ["-H", cookie, console.base + "/console/api/events"])
        #expect(head.stdout == "200 text/event-stream", "\(head.stdout)")
        let first = try take(r, count: 1)
        let second = try take(r, count: 2)
        // Every booth line of the takes, byte for byte, in the booth's order, once each.
        let wanted = r.rawLines.filter { line in
            ["recordingStarted", "recordingFinished", "videoRecorderDidFinishRecordingVideoWithOutputPath"].contains { line.hasPrefix(#"{"event":"\#($0)""#) }
        }
        #expect(wanted.count == 6)
        #expect(eventually(20) { wanted.allSatisfy(stream.lines.contains) }, "\(stream.lines) \(wanted)")
        #expect(stream.lines.filter(wanted.contains) == wanted)
        #expect(stream.lines.first { $0.contains("recordingStarted") }?.contains("What made you laugh today?") == true)
        // The log: the same lines.
        let log = try console.curl("GET", "/console/api/log", headers: [cookie])
        let logged = try #require(try JSONSerialization.jsonObject(with: Data(log.body.utf8)) as? [[String: Any]])
        #expect(logged.filter { $0["event"] as? String == "recordingFinished" }.count == 2, "\(log.body)")

        // The takes: newest first, from the folder's records.
        let firstName = URL(fileURLWithPath: first).lastPathComponent, secondName = URL(fileURLWithPath: second).lastPathComponent
        func listed() throws -> [[String: Any]] {
            let answer = try console.curl("GET", "/console/api/takes", headers: [cookie])
            #expect(answer.status == 200, "\(answer)")
            return try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [[String: Any]])
        }
        var list = try listed()
        #expect(list.compactMap { $0["name"] as? String } == [secondName, firstName], "\(list)")
        for entry in list {
            #expect(entry["kind"] as? String == "video" && entry["hidden"] as? Bool == false && entry["shared"] as? Bool == false)
            #expect(entry["question"] as? String == "What made you laugh today?", "\(entry)")
            let duration = try #require(entry["duration"] as? Double)
            #expect(duration > 0.5 && duration < 30, "\(entry)")
        }
        // Its thumbnail (a JPEG) and its video (the file's bytes, whole or a range).
        let thumbnail = folder.appendingPathComponent("thumb.jpg").path
        let fetched = try runProgram(["curl", "-s", "-o", thumbnail, "-w", "%{http_code} %{content_type}"] + console.reach
                                     + ["-H", cookie, console.base + "/console/api/takes/\(firstName)/thumbnail"])
        #expect(fetched.stdout == "200 image/jpeg", "\(fetched.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: thumbnail)).prefix(2) == Data([0xFF, 0xD8]))
        let video = folder.appendingPathComponent("video.mov").path
        let got = try runProgram(["curl", "-s", "-o", video, "-w", "%{http_code}"] + console.reach
                                 + ["-H", cookie, console.base + "/console/api/takes/\(firstName)/video"])
        #expect(got.stdout == "200" && FileManager.default.contentsEqual(atPath: video, andPath: first), "\(got.stdout)")
        let part = try console.curl("GET", "/console/api/takes/\(firstName)/video", headers: [cookie, "Range: bytes=4-7"])
        #expect(part.status == 206 && part.body == "ftyp" && part.header("content-range")?.hasPrefix("bytes 4-7/") == true, "\(part.status) \(part.headers)")

        // Hide and show the first: through the booth (its events on the stream), in the folder's records.
        let refused = try console.curl("POST", "/console/api/takes/\(firstName)/hide", headers: [cookie])
        #expect(refused.status == 403)
        let hid = try console.curl("POST", "/console/api/takes/\(firstName)/hide", headers: [cookie, "X-CSRF-Token: \(csrf)", "Origin: http://10.42.0.1"])
        #expect(hid.status == 200 && hid.body.contains(#""event":"takeHidden""#), "\(hid)")
        let ledger = takes + "/.kiosk-recorder.takes"
        let hiddenLine = try String(contentsOfFile: ledger, encoding: .utf8).split(separator: "\n").first { $0.contains(firstName) }
        #expect(hiddenLine?.contains("\thidden") == true, "\(String(describing: hiddenLine))")
        #expect(try listed().first { $0["name"] as? String == firstName }?["hidden"] as? Bool == true)
        #expect(eventually(10) { stream.lines.contains { $0.hasPrefix(#"{"event":"takeHidden""#) && $0.contains(firstName) } })
        let shown = try console.curl("POST", "/console/api/takes/\(firstName)/show", headers: [cookie, "X-CSRF-Token: \(csrf)"])
        #expect(shown.status == 200 && shown.body.contains(#""event":"takeShown""#), "\(shown)")
        #expect(try String(contentsOfFile: ledger, encoding: .utf8).split(separator: "\n").first { $0.contains(firstName) }?.contains("hidden") == false)

        // Delete the second: its file, its thumbnail and its line gone.
        let deleted = try console.curl("DELETE", "/console/api/takes/\(secondName)", headers: [cookie, "X-CSRF-Token: \(csrf)"])
        #expect(deleted.status == 200 && deleted.body.contains(#""reason":"operator""#), "\(deleted)")
        #expect(!FileManager.default.fileExists(atPath: second) && !FileManager.default.fileExists(atPath: takes + "/." + secondName + ".thumb.jpg"))
        #expect(try !String(contentsOfFile: ledger, encoding: .utf8).contains(secondName) && FileManager.default.fileExists(atPath: first))
        list = try listed()
        #expect(list.compactMap { $0["name"] as? String } == [firstName])
        // Gone, or never one: 404, and the booth is not asked.
        #expect(try console.curl("DELETE", "/console/api/takes/\(secondName)", headers: [cookie, "X-CSRF-Token: \(csrf)"]).status == 404)
        for path in ["/console/api/takes/\(secondName)/video", "/console/api/takes/.kiosk-recorder.takes/video", "/console/api/takes/..%2f..%2fetc%2fpasswd/video",
                     "/console/api/takes/%2e%2e/video", "/console/api/takes/../takes/\(firstName)/video", "/console/api/takes/questions.txt/video"] {
            #expect(try console.curl("GET", path, headers: [cookie]).status == 404, "\(path)")
        }
        #expect(try console.curl("POST", "/console/api/takes/..%2fquestions.txt/hide", headers: [cookie, "X-CSRF-Token: \(csrf)"]).status == 404)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("questions.txt").path))

        // Audited: each change with the take's name.
        let audit = console.auditLines
        #expect(audit.contains { $0.contains(#""action":"hideTake \#(firstName)""#) && $0.contains(#""result":"ok""#) }, "\(audit)")
        #expect(audit.contains { $0.contains(#""action":"deleteTake \#(secondName)""#) && $0.contains(#""result":"ok""#) })
        #expect(audit.contains { $0.contains(#""action":"hideTake \#(firstName)""#) && $0.contains(#""result":"refused 403""#) })
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("a boomerang and a photo listed as such, newest first; the photo is its own thumbnail and its file")
    func kinds() throws {
        let folder = try testFolder("console-kinds")
        let (config, _, takes) = try config(folder, extra: "photo-button = yes\nboomerang-button = yes\n")
        let r = try RecorderProcess(booth + ["--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let (console, cookie) = try signedInConsole(folder, config: config)
        defer { console.stop() }
        r.command("boomerang")
        try #require(r.wait(for: "recordingFinished", timeout: 60) != nil, "\(r.rawLines) \(r.stderr)")
        r.command("useVideo")
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath") != nil, "\(r.rawLines)")
        #expect(r.waitForState { mode, _ in mode == "ready" })
        r.command("photo")
        try #require(r.wait(for: "photoTaken") != nil, "\(r.rawLines)")
        let answer = try console.curl("GET", "/console/api/takes", headers: [cookie])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [[String: Any]])
        #expect(list.compactMap { $0["kind"] as? String } == ["photo", "boomerang"], "\(answer.body)")
        #expect(list.last?["duration"] as? Double ?? 0 >= 2.9, "\(answer.body)")
        let photo = try #require(list.first?["name"] as? String)
        #expect(list.first?["duration"] == nil && (photo.hasSuffix(".jpg")))
        for file in ["thumbnail", "video"] {
            let got = folder.appendingPathComponent("got-\(file)").path
            let run = try runProgram(["curl", "-s", "-o", got, "-w", "%{http_code} %{content_type}"] + console.reach
                                     + ["-H", cookie, console.base + "/console/api/takes/\(photo)/\(file)"])
            #expect(run.stdout == "200 image/jpeg" && FileManager.default.contentsEqual(atPath: got, andPath: takes + "/" + photo), "\(file): \(run.stdout)")
        }
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("a browser that stops reading the stream is dropped past 1 MiB; the booth and a browser that reads get every line meanwhile")
    func stalledBrowser() throws {
        let folder = try testFolder("console-stalled")
        // A long question makes each state line long: about 350 bytes.
        let (config, _, _) = try config(folder, question: String(repeating: "What made you laugh today? ", count: 7))
        let r = try RecorderProcess(booth + ["--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let (console, cookie) = try signedInConsole(folder, config: config)
        defer { console.stop() }
        let reading = try EventStreamReader(console, cookie: cookie, file: folder.appendingPathComponent("stream.txt").path)
        defer { reading.stop() }
        #expect(eventually(60) { reading.text.hasPrefix("retry: ") })
        // A browser that asks for the stream and never reads a byte.
        // (The control socket tests' client, never reading; its line's newline ends the request.)
        let stalled = try SocketClient(folder.appendingPathComponent("console.sock").path, reading: false)
        stalled.send("GET /console/api/events HTTP/1.1\r\nHost: 10.42.0.1\r\n\(cookie)\r\n\r")
        // 5000 state replies, about 1.7 MB of events, asked on the booth's stdin 500 at a time; the
        // reading browser keeps up with each batch (however slow the machine), the stalled one never reads.
        let asked = 5000, batch = 500
        for done in stride(from: batch, through: asked, by: batch) {
            r.send(Array(repeating: #"{"command":"state"}"#, count: batch).joined(separator: "\n"))
            #expect(r.wait(for: "state", count: done, timeout: 120) != nil, "\(r.count(of: "state"))")
            #expect(eventually(60) { reading.lines.filter { $0.hasPrefix(#"{"event":"state""#) }.count >= done })
        }
        r.send(#"{"command":"lastOfTheFlood"}"#)
        #expect(eventually(60) { reading.lines.contains { $0.contains("lastOfTheFlood") } }, "\(reading.lines.count)")
        #expect(reading.lines.filter { $0.hasPrefix(#"{"event":"state""#) }.count == asked)
        #expect(eventually(20) { console.process.stderr.contains("a browser on the event stream did not read: more than 1 MiB of events waited for it; dropped") },
                "\(console.process.stderr)")
        // The booth still answers, and so does the console.
        #expect(r.stateReply() != nil)
        #expect(try console.curl("GET", "/console/api/state", headers: [cookie]).status == 200)
        withExtendedLifetime(stalled) {}
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("a console started before its booth says so on the stream, follows the booth once it comes, and again after it goes and comes back")
    func reconnects() throws {
        let folder = try testFolder("console-reconnect")
        let (config, _, _) = try config(folder)
        let (console, cookie) = try signedInConsole(folder, config: config)
        defer { console.stop() }
        let stream = try EventStreamReader(console, cookie: cookie, file: folder.appendingPathComponent("stream.txt").path)
        defer { stream.stop() }
        func said(_ name: String) -> Int { stream.lines.filter { $0.hasPrefix(#"{"event":"\#(name)""#) }.count }
        // No booth: the stream's first word says so.
        #expect(eventually(20) { said("boothUnreachable") == 1 }, "\(stream.text)")
        #expect(stream.lines.first?.contains("no booth answers at") == true, "\(stream.lines)")

        for round in 1...2 {
            let r = try RecorderProcess(booth + ["--config", config])
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            #expect(eventually(20) { said("boothReachable") == round }, "\(stream.lines)")
            // The booth's own lines come through: its answer to a state asked on its stdin. The booth
            // sends a client its lines from the moment it accepted the connection, which on a busy
            // machine comes after the connect the console said boothReachable at: a state is asked
            // again each 3 s until its answer has come through.
            let through = eventually(60) {
                guard r.stateReply() != nil, let reply = r.rawLines.last(where: { $0.hasPrefix(#"{"event":"state""#) }) else { return false }
                return eventually(3) { stream.lines.contains(reply) }
            }
            #expect(through, "\(stream.lines)")
            r.command("quit")
            #expect(r.exitStatus() == 0)
            #expect(eventually(20) { said("boothUnreachable") == round + 1 }, "\(stream.lines)")
        }
        // The console answered throughout, and still does.
        #expect(try console.curl("GET", "/console/api/state", headers: [cookie]).status == 503)
    }

    @Test("kill -9 of the console mid-take: the take completes, is handed over and plays its length; the booth never waited on the console")
    func consoleKilledMidTake() throws {
        let folder = try testFolder("console-killed")
        let (config, _, _) = try config(folder)
        let r = try RecorderProcess(booth + ["--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let (console, cookie) = try signedInConsole(folder, config: config)
        defer { console.stop() }
        let stream = try EventStreamReader(console, cookie: cookie, file: folder.appendingPathComponent("stream.txt").path)
        defer { stream.stop() }
        // The stream carries what the booth says from the moment it is open: open first, then the take.
        try #require(eventually(60) { stream.text.hasPrefix("retry: ") }, "\(stream.text)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        // The console holds its subscription and a browser's stream when it dies.
        #expect(eventually(60) { stream.lines.contains { $0.hasPrefix(#"{"event":"recordingStarted""#) } }, "\(stream.text)")
        console.process.kill(SIGKILL)
        #expect(console.process.exitStatus() != nil, "the console outlived kill -9")
        try #require(r.waitRecorded(2), "\(r.rawLines)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.rawLines)")
        guard case let .recordingFinished(result)? = r.events.first(where: { $0.name == "recordingFinished" })?.unasked else { Issue.record("\(r.rawLines)"); return }
        #expect(result.success && result.droppedFrames == 0, "\(r.rawLines)")
        r.command("useVideo")
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath") != nil, "\(r.rawLines)")
        let seconds = try #require(Double(try ffprobe(result.outputPath, "format=duration")))
        #expect(seconds >= 1.9, "\(seconds) s")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("200 connections held open on the console: the booth still records a take, and the console still answers a new sign-in and its state")
    func twoHundredConnections() throws {
        let folder = try testFolder("console-crowd")
        let (config, _, _) = try config(folder)
        let r = try RecorderProcess(booth + ["--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let console = try consoleWithPassword(folder, config: config, tcp: true)
        defer { console.stop() }
        let port = try #require(UInt16(console.base.split(separator: ":").last ?? ""))
        // 200 clients that connect and then say nothing (half a request line each, as a slow attacker would).
        var held: [Int32] = []
        defer { held.forEach { _ = close($0) } }
        for _ in 0..<200 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(fd >= 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(connected == 0, "connect: \(errno)")
            _ = "GET /console/api/st".withCString { send(fd, $0, strlen($0), 0) }
            held.append(fd)
        }
        let (cookie, signedIn) = try console.signIn(password)
        #expect(signedIn.status == 204, "\(signedIn.body)")
        let state = try console.curl("GET", "/console/api/state", headers: [cookie])
        #expect(state.status == 200 && state.body.contains(#""mode":"ready""#), "\(state.status) \(state.body)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        try #require(r.waitRecorded(1), "\(r.rawLines)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.rawLines)")
        guard case let .recordingFinished(result)? = r.events.first(where: { $0.name == "recordingFinished" })?.unasked else { Issue.record("\(r.rawLines)"); return }
        #expect(result.success && result.droppedFrames == 0, "\(r.rawLines)")
        #expect(console.process.exitStatus(timeout: 0) == nil, "the console ended: \(console.process.stderr)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

}
