// The film's rules by table: its routes (401 before sign-in, CSRF and origin on a start, audited;
// 405 and 404), what a start may ask, and the film's state as the reel's lines and its end move it.
import Foundation
import Testing
@testable import KioskConsole

@Suite("The console's film rules")
struct ConsoleFilmRulesTests {
    func request(_ method: String, _ path: String, cookie: String? = nil, csrf: String? = nil, origin: String? = nil,
                 body: String = "") -> ConsoleRequest {
        var headers = ["host": "10.42.0.1"]
        headers["cookie"] = cookie
        headers["x-csrf-token"] = csrf
        headers["origin"] = origin
        return ConsoleRequest(method: method, path: path, headers: headers, body: Array(body.utf8), peer: "10.42.0.7")
    }

    @Test("before sign-in every film route answers 401, unaudited", arguments: [
        ("GET", "/console/api/film"), ("POST", "/console/api/film"), ("GET", "/console/api/film/video"),
        ("GET", "/console/api/film/download"), ("DELETE", "/console/api/film"), ("GET", "/console/api/film/other"),
    ])
    func signedOut(method: String, path: String) {
        var console = Console()
        #expect(console.decide(request(method, path), at: 1) == .answer(ConsoleRules.signInFirst, audit: nil))
    }

    @Test("signed in: the state, the film to play and to download; a start with the CSRF token and its ask")
    func routes() {
        var console = Console()
        let (cookie, csrf) = console.signIn(at: 0)
        #expect(console.decide(request("GET", "/console/api/film", cookie: cookie), at: 1) == .film(.state))
        #expect(console.decide(request("GET", "/console/api/film/video", cookie: cookie), at: 1) == .film(.video(download: false)))
        #expect(console.decide(request("HEAD", "/console/api/film/video", cookie: cookie), at: 1) == .film(.video(download: false)))
        #expect(console.decide(request("GET", "/console/api/film/download", cookie: cookie), at: 1) == .film(.video(download: true)))
        #expect(console.decide(request("POST", "/console/api/film", cookie: cookie, csrf: csrf, origin: "http://10.42.0.1"), at: 1)
                == .film(.start(FilmAsk(), address: "10.42.0.7")))
        #expect(console.decide(request("POST", "/console/api/film", cookie: cookie, csrf: csrf, body: #"{"title":" Anna & Tom ","size":"640x360"}"#), at: 1)
                == .film(.start(FilmAsk(title: "Anna & Tom", size: "640x360"), address: "10.42.0.7")))
    }

    @Test("a start refused: no token or a wrong one, another origin (403), a bad ask (400); each audited as film", arguments: [
        (nil as String?, nil as String?, "", 403, "csrf"), ("wrong", nil, "", 403, "csrf"),
        ("RIGHT", "http://evil.example", "", 403, "foreignOrigin"),
        ("RIGHT", nil, "[1]", 400, "badRequest"), ("RIGHT", nil, #"{"size":"big"}"#, 400, "badSize"),
        ("RIGHT", nil, #"{"size":"1280x720x3"}"#, 400, "badSize"), ("RIGHT", nil, #"{"size":"12800x720"}"#, 400, "badSize"),
        ("RIGHT", nil, #"{"title":"two\nlines"}"#, 400, "badTitle"),
        ("RIGHT", nil, "{\"title\":\"\(String(repeating: "a", count: 201))\"}", 400, "badTitle"),
        ("RIGHT", nil, #"{"output":"/etc/passwd","title":7}"#, 400, "badRequest"),
    ])
    func refused(token: String?, origin: String?, body: String, status: Int, code: String) {
        var console = Console()
        let (cookie, csrf) = console.signIn(at: 0)
        let sent = token == "RIGHT" ? csrf : token
        guard case let .answer(response, audit) = console.decide(request("POST", "/console/api/film", cookie: cookie, csrf: sent, origin: origin, body: body), at: 5) else {
            Issue.record("not refused")
            return
        }
        #expect(response.status == status && String(decoding: response.body, as: UTF8.self).contains(#""error":"\#(code)""#))
        #expect(audit == AuditEntry(time: 5, address: "10.42.0.7", action: "film", result: "refused \(status)"))
    }

    @Test("other methods 405, other names 404, a path out of the folder 404", arguments: [
        ("PUT", "/console/api/film", 405), ("DELETE", "/console/api/film", 405), ("POST", "/console/api/film/video", 405),
        ("POST", "/console/api/film/download", 405), ("GET", "/console/api/film/x", 404), ("GET", "/console/api/film/video/x", 404),
        ("GET", "/console/api/film/../takes", 404), ("GET", "/console/api/film/%2e%2e%2fsettings", 404), ("GET", "/console/api/films", 404),
    ])
    func others(method: String, path: String, status: Int) {
        var console = Console()
        let (cookie, csrf) = console.signIn(at: 0)
        #expect(console.status(request(method, path, cookie: cookie, csrf: csrf), at: 1) == status)
    }

    @Test("an ask is the reel's options, never a path")
    func arguments() throws {
        #expect(FilmAsk().arguments == [])
        #expect(FilmAsk(title: "--output /etc/x", size: "640x360").arguments == ["--title", "--output /etc/x", "--size", "640x360"])
        #expect(try FilmAsk.read(Array("  \n".utf8)) == FilmAsk())
        #expect(try FilmAsk.read(Array(#"{"title":"   "}"#.utf8)) == FilmAsk())
    }

    @Test("the state: running with the reel's progress, then finished with its figures; one at a time")
    func progress() {
        var job = FilmJob()
        #expect(job.json(video: false) == #"{"state":"idle","video":false}"#)
        let first = job.start()
        #expect(first && job.json(video: true) == #"{"state":"running","done":0,"total":0,"video":true}"#)
        let second = job.start()
        #expect(!second, "a second while one runs")
        let lines = [#"{"event":"reelProgress","done":0,"total":3}"#, #"{"event":"reelProgress","done":1,"total":3}"#,
                     #"{"event":"reelSkipped","path":"/t/b.mov","reason":"no picture"}"#, #"{"event":"reelProgress","done":2,"total":3}"#]
        var phases: [FilmJob.Phase] = []
        for line in lines {
            let said = job.read(line)
            #expect(said == nil)
            phases.append(job.phase)
        }
        #expect(phases == [.running(done: 0, total: 3), .running(done: 1, total: 3), .running(done: 1, total: 3), .running(done: 2, total: 3)])
        // A line of its stderr is handed back for the log.
        let logged = job.read("kiosk-recorder reel: left out /t/b.mov: no picture")
        #expect(logged == "kiosk-recorder reel: left out /t/b.mov: no picture")
        let events = [job.read(#"{"event":"reelProgress","done":3,"total":3}"#),
                      job.read(#"{"event":"reelFinished","path":"/v/console-film.mp4","duration":14.0333,"takes":2}"#)]
        #expect(events == [nil, nil])
        #expect(job.isRunning)
        job.ended(status: 0)
        #expect(job.phase == .finished(duration: 14.0333, takes: 2, skipped: 1))
        #expect(job.json(video: true) == #"{"state":"finished","duration":14.033,"takes":2,"skipped":1,"video":true}"#)
        // Lines after the end change nothing; a new film starts from nothing.
        _ = job.read(#"{"event":"reelProgress","done":0,"total":9}"#)
        #expect(job.phase == .finished(duration: 14.0333, takes: 2, skipped: 1))
        let again = job.start()
        #expect(again && job.phase == .running(done: 0, total: 0))
    }

    @Test("the state: failed with the reel's own last words, or how it ended", arguments: [
        (["kiosk-recorder reel: no takes in /srv/takes"], 1, "no takes in /srv/takes"),
        ([#"{"event":"reelProgress","done":0,"total":1}"#, "kiosk-recorder reel: stopped by SIGTERM; no film written"], 143,
         "stopped by SIGTERM; no film written"),
        ([#"{"event":"reelProgress","done":0,"total":1}"#], 137, "reel was ended by signal 9"),
        ([#"{"event":"reelProgress","done":1,"total":1}"#], 0, "reel exited with status 0"),
        (["kiosk-recorder reel: --size 7x7: even, 160x120 to 3840x2160", ""], 2, "--size 7x7: even, 160x120 to 3840x2160"),
    ])
    func failed(lines: [String], status: Int, message: String) {
        var job = FilmJob()
        _ = job.start()
        for line in lines { _ = job.read(line) }
        job.ended(status: status)
        #expect(job.phase == .failed(message))
        #expect(job.json(video: false).hasPrefix(#"{"state":"failed","message":"#))
    }

    @Test("a reel that could not start fails with why; a progress line out of bounds is no progress")
    func oddities() {
        var job = FilmJob()
        _ = job.start()
        _ = job.read(#"{"event":"reelProgress","done":5,"total":3}"#)
        _ = job.read(#"{"event":"reelProgress","done":-1,"total":3}"#)
        #expect(job.phase == .running(done: 0, total: 0))
        job.ended(status: 1, failure: "cannot start reel: posix_spawn(/bin/sh): No such file or directory")
        #expect(job.phase == .failed("cannot start reel: posix_spawn(/bin/sh): No such file or directory"))
    }

    @Test("cancel: the running reel's process handed out once, its end then cancelled whatever its status; nothing to cancel when none runs or before its process is known")
    func cancel() {
        var job = FilmJob()
        #expect(job.cancel() == nil, "idle")
        _ = job.start()
        #expect(job.cancel() == nil, "started, its process not yet known")
        job.started(process: 4242)
        _ = job.read(#"{"event":"reelProgress","done":1,"total":3}"#)
        #expect(job.cancel() == 4242)
        #expect(job.cancel() == nil, "stopping already")
        #expect(job.isRunning, "running until the reel ends")
        _ = job.read("kiosk-recorder reel: stopped by SIGTERM; no film written")
        job.ended(status: 143)
        #expect(job.phase == .cancelled && job.json(video: true) == #"{"state":"cancelled","video":true}"#)
        #expect(job.cancel() == nil, "ended")
        // A film after a cancelled one is made and said as any other.
        _ = job.start()
        job.started(process: 4343)
        _ = job.read(#"{"event":"reelFinished","path":"/v/f.mp4","duration":3.0,"takes":1}"#)
        job.ended(status: 0)
        #expect(job.phase == .finished(duration: 3, takes: 1, skipped: 0))
    }

    @Test("a second start while one runs: 409 naming it, with its state")
    func running() {
        let answer = ConsoleRules.filmRunning(#"{"state":"running","done":1,"total":3,"video":false}"#)
        #expect(answer.status == 409)
        let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        #expect(object?["error"] as? String == "filmRunning" && (object?["film"] as? [String: Any])?["done"] as? Int == 1)
    }

    @Test("the page's files include the Film view's script, served as JavaScript")
    func page() {
        let answer = Console.pages.answer("film.js")
        #expect(answer.status == 200 && answer.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(String(decoding: answer.body, as: UTF8.self).contains("consoleViews.push(filmView)"))
    }
}
