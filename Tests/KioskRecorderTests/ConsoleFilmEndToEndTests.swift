// The hosts' film made through the console's API, by the real binaries: a booth makes three short
// takes, the console runs its own `reel` as a child, `api/film` shows the progress rising to the
// end, one film at a time (409), the film downloaded whole and by ranges and decoded to its length
// by ffmpeg; 401 before sign-in, 403 without the CSRF token or from another origin, every start
// audited. A folder with no takes: the film fails with the reel's own words.
import Foundation
import Glibc
import Testing
import KioskTestSupport

@Suite("kiosk-recorder console: the hosts' film")
struct ConsoleFilmEndToEndTests {
    let live = ConsoleLiveEndToEndTests()

    /// `api/film` as JSON.
    func film(_ console: ConsoleUnderTest, cookie: String) throws -> [String: Any] {
        let answer = try console.curl("GET", "/console/api/film", headers: [cookie])
        try #require(answer.status == 200, "\(answer)")
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
    }

    /// The session's CSRF token.
    func csrf(_ console: ConsoleUnderTest, cookie: String) throws -> String {
        let session = try console.curl("GET", "/console/api/session", headers: [cookie])
        return try #require((try JSONSerialization.jsonObject(with: Data(session.body.utf8)) as? [String: String])?["csrf"])
    }

    @Test("three takes made into the film from the API: its progress rising to 3 of 3, one at a time, downloaded (attachment, ranges) and decoded to its length; a take hidden, then a film of the other two; 401, 403 and the audit log")
    func filmFromTheAPI() throws {
        let folder = try testFolder("console-film")
        let (config, _, _) = try live.config(folder)
        let r = try RecorderProcess(booth + ["--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let (console, cookie) = try live.signedInConsole(folder, config: config)
        defer { console.stop() }
        let paths = try (1...3).map { try live.take(r, count: $0) }

        // Before sign-in, and without the token or from another site: nothing starts.
        for (method, path) in [("GET", "/console/api/film"), ("POST", "/console/api/film"), ("GET", "/console/api/film/video"), ("GET", "/console/api/film/download")] {
            #expect(try console.curl(method, path).status == 401, "\(method) \(path)")
        }
        let token = try csrf(console, cookie: cookie)
        #expect(try console.curl("POST", "/console/api/film", headers: [cookie]).status == 403)
        let foreign = try console.curl("POST", "/console/api/film", headers: [cookie, "X-CSRF-Token: \(token)", "Origin: http://evil.example"])
        #expect(foreign.status == 403 && foreign.body.contains("foreignOrigin"), "\(foreign)")
        #expect(try film(console, cookie: cookie)["state"] as? String == "idle")
        #expect(try console.curl("GET", "/console/api/film/video", headers: [cookie]).status == 404)

        // Started: 202 and running; a second start while it runs: 409 with its state.
        let started = try console.curl("POST", "/console/api/film", headers: [cookie, "X-CSRF-Token: \(token)", "Content-Type: application/json",
                                                                              "Origin: http://10.42.0.1"],
                                       body: #"{"title":"Anna & Tom","size":"320x240"}"#)
        #expect(started.status == 202 && started.body.contains(#""state":"running""#), "\(started)")
        let again = try console.curl("POST", "/console/api/film", headers: [cookie, "X-CSRF-Token: \(token)"])
        #expect(again.status == 409 && again.body.contains(#""error":"filmRunning""#) && again.body.contains(#""state":"running""#), "\(again)")

        // Its progress, asked until it is done: never falling, every take counted, then finished.
        var seen: [[Int]] = [], last: [String: Any] = [:]
        let finished = eventually(300) {
            guard let state = try? film(console, cookie: cookie) else { return false }
            last = state
            if state["state"] as? String == "running", let done = state["done"] as? Int, let total = state["total"] as? Int, seen.last != [done, total] {
                seen.append([done, total])
            }
            return state["state"] as? String != "running"
        }
        try #require(finished && last["state"] as? String == "finished", "\(last) \(console.process.stderr)")
        print("figure: the film's progress as the console's API showed it: \(seen)")
        #expect(seen.count >= 2, "\(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0[0] <= $1[0] && ($0[1] == 0 || $0[1] == $1[1]) }, "\(seen)")
        #expect(seen.allSatisfy { $0[1] == 0 || $0[1] == 3 } && seen.allSatisfy { $0[0] <= 3 }, "\(seen)")
        #expect(last["takes"] as? Int == 3 && last["skipped"] as? Int == 0 && last["video"] as? Bool == true, "\(last)")
        let duration = try #require(last["duration"] as? Double)
        // A 3 s title card, then three takes of about a second after their 2 s cards.
        let shortest: Double = 3 + 3 * 2.5, longest: Double = 3 + 3 * 2 + 3 * 5
        #expect(duration > shortest && duration < longest, "\(duration)")

        // Downloaded: the file the console keeps beside its password file, as an attachment.
        let kept = folder.appendingPathComponent("console-film.mp4").path
        let downloaded = folder.appendingPathComponent("downloaded.mp4").path
        let got = try runProgram(["curl", "-s", "-D", "-", "-o", downloaded, "-w", "%{http_code} %{content_type}"] + console.reach
                                 + ["-H", cookie, console.base + "/console/api/film/download"])
        #expect(got.stdout.hasSuffix("200 video/mp4"), "\(got.stdout)")
        #expect(got.stdout.lowercased().contains("content-disposition: attachment; filename=\"film.mp4\""), "\(got.stdout)")
        #expect(FileManager.default.contentsEqual(atPath: downloaded, andPath: kept))
        let part = try console.curl("GET", "/console/api/film/video", headers: [cookie, "Range: bytes=4-7"])
        #expect(part.status == 206 && part.body == "ftyp" && part.header("content-disposition") == "inline", "\(part.status) \(part.headers)")

        // It plays to its length: ffprobe's duration, and every packet decoded by ffmpeg without an error.
        let probe = try runProgram(["ffprobe", "-v", "error", "-show_entries", "format=duration:format_tags=comment:stream=codec_name,width,height",
                                    "-of", "json", downloaded])
        let probed = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any], "\(probe.stderr)")
        let format = try #require(probed["format"] as? [String: Any])
        let length = try #require((format["duration"] as? String).flatMap(Double.init))
        #expect(abs(length - duration) < 0.2, "\(length) \(duration)")
        #expect((format["tags"] as? [String: String])?["comment"] == "kiosk-recorder reel")
        let streams = try #require(probed["streams"] as? [[String: Any]])
        #expect(streams.contains { $0["codec_name"] as? String == "h264" && $0["width"] as? Int == 320 && $0["height"] as? Int == 240 }, "\(streams)")
        let decoded = try runProgram(["ffmpeg", "-nostdin", "-v", "error", "-xerror", "-i", downloaded, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(decoded.stderr)")
        // The last picture decoded is at the film's end.
        let pictures = try runProgram(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time", "-of", "csv=p=0", downloaded])
        let times = pictures.stdout.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let end = try #require(times.max(), "\(pictures.stderr)")
        #expect(end > duration - 0.2 && end <= duration, "the last picture at \(end) s of \(duration) s")

        // A take hidden on the Takes page, then a film again: the new one has the other two, and replaced the first.
        let hidden = URL(fileURLWithPath: paths[1]).lastPathComponent
        let hid = try console.curl("POST", "/console/api/takes/\(hidden)/hide", headers: [cookie, "X-CSRF-Token: \(token)"])
        #expect(hid.status == 200, "\(hid)")
        let second = try console.curl("POST", "/console/api/film", headers: [cookie, "X-CSRF-Token: \(token)"], body: #"{"size":"320x240"}"#)
        #expect(second.status == 202, "\(second)")
        #expect(eventually(300) { (try? film(console, cookie: cookie))?["state"] as? String != "running" })
        let remade = try film(console, cookie: cookie)
        #expect(remade["state"] as? String == "finished" && remade["takes"] as? Int == 2, "\(remade)")
        let shorter = try #require(remade["duration"] as? Double)
        #expect(shorter < duration - 2, "\(shorter) of \(duration)")
        let redone = try runProgram(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", kept])
        #expect(abs((Double(redone.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - shorter) < 0.2, "\(redone.stdout)")
        // Cancelled mid-film: the reel stops, no new film, the last one kept whole as it was.
        let before = try Data(contentsOf: URL(fileURLWithPath: kept))
        #expect(try console.curl("POST", "/console/api/film/cancel", headers: [cookie]).status == 403, "no CSRF token")
        let nothing = try console.curl("POST", "/console/api/film/cancel", headers: [cookie, "X-CSRF-Token: \(token)"])
        #expect(nothing.status == 409 && nothing.body.contains(#""state":"finished""#), "none running: \(nothing)")
        let third = try console.curl("POST", "/console/api/film", headers: [cookie, "X-CSRF-Token: \(token)"], body: #"{"size":"1920x1080"}"#)
        #expect(third.status == 202, "\(third)")
        // At once: the 202 above came after the reel's process was known, and a film of two takes
        // takes seconds, so it is still being made. The answer's state is running, or cancelled
        // already when the reel ended before it was written (ci35).
        let stopping = try console.curl("POST", "/console/api/film/cancel", headers: [cookie, "X-CSRF-Token: \(token)"])
        #expect(stopping.status == 202 && (stopping.body.contains(#""state":"running""#) || stopping.body.contains(#""state":"cancelled""#)),
                "\(stopping)")
        var cancelled: [String: Any] = [:]
        #expect(eventually(60) {
            cancelled = (try? film(console, cookie: cookie)) ?? [:]
            return cancelled["state"] as? String != "running"
        })
        #expect(cancelled["state"] as? String == "cancelled" && cancelled["video"] as? Bool == true, "\(cancelled)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == before, "the last film kept as it was")
        r.command("quit")
        #expect(r.exitStatus() == 0)

        // Audited: each start, and each refusal.
        let audit = console.auditLines.filter { $0.contains(#""action":"film""#) }
        #expect(audit.filter { $0.contains(#""result":"started""#) }.count == 3, "\(audit)")
        #expect(audit.filter { $0.contains(#""result":"refused 403""#) }.count == 2, "\(audit)")
        #expect(audit.contains { $0.contains(#""result":"refused running""#) }, "\(audit)")
        let cancels = console.auditLines.filter { $0.contains(#""action":"filmCancel""#) }
        #expect(cancels.contains { $0.contains(#""result":"cancelled""#) } && cancels.contains { $0.contains(#""result":"none running""#) }
                && cancels.contains { $0.contains(#""result":"refused 403""#) }, "\(cancels)")
        // The reel's private folder went with it (a cancelled one's too).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasPrefix(".kiosk-reel-") })
    }

    @Test("a folder with no takes: the film fails with the reel's own words, and the console makes another when asked")
    func noTakes() throws {
        let folder = try testFolder("console-film-none")
        let (config, _, takes) = try live.config(folder)
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        // No booth: the console reads the folder itself, and the film is its own.
        let (console, cookie) = try live.signedInConsole(folder, config: config)
        defer { console.stop() }
        let token = try csrf(console, cookie: cookie)
        for attempt in 1...2 {
            let started = try console.curl("POST", "/console/api/film", headers: [cookie, "X-CSRF-Token: \(token)"])
            #expect(started.status == 202, "\(started)")
            var last: [String: Any] = [:]
            #expect(eventually(60) {
                last = (try? film(console, cookie: cookie)) ?? [:]
                return last["state"] as? String == "failed"
            }, "\(attempt): \(last)")
            #expect(last["message"] as? String == "no takes in \(takes)" && last["video"] as? Bool == false, "\(last)")
        }
        #expect(console.auditLines.filter { $0.contains(#""action":"film""#) && $0.contains(#""result":"started""#) }.count == 2)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("console-film.mp4").path))
    }
}
