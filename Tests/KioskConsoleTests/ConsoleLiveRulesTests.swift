// The console's live part by table: the routes of the stream, the log and the takes (401 before
// sign-in, CSRF on changes, 404 for a name that is not one), the backlog, a browser's bounded
// queue, the link to the booth on a virtual clock, the stream's framing, a take change's answer and
// a download's range; and the fan-out itself, its browsers read as MHD reads them.
import Foundation
import Testing
@testable import KioskConsole

@Suite("The console's live rules")
struct ConsoleLiveRulesTests {
    func request(_ method: String, _ path: String, cookie: String, csrf: String? = nil) -> ConsoleRequest {
        var headers = ["host": "10.42.0.1", "cookie": cookie]
        headers["x-csrf-token"] = csrf
        return ConsoleRequest(method: method, path: path, headers: headers, peer: "10.42.0.7")
    }

    @Test("signed in: the stream, the log, the takes and their files are the live part's; a change needs the CSRF token")
    func routes() {
        var console = Console()
        let (cookie, csrf) = console.signIn(at: 0)
        let name = "take-20260101-120000-3.mov"
        #expect(console.decide(request("GET", "/console/api/events", cookie: cookie), at: 1) == .live(.events))
        #expect(console.decide(request("GET", "/console/api/log", cookie: cookie), at: 1) == .live(.log))
        #expect(console.decide(request("GET", "/console/api/takes", cookie: cookie), at: 1) == .live(.takes))
        #expect(console.decide(request("GET", "/console/api/takes/\(name)/video", cookie: cookie), at: 1) == .live(.file(.video, name: name)))
        #expect(console.decide(request("GET", "/console/api/takes/\(name)/thumbnail", cookie: cookie), at: 1) == .live(.file(.thumbnail, name: name)))
        #expect(console.decide(request("POST", "/console/api/takes/\(name)/hide", cookie: cookie, csrf: csrf), at: 1)
                == .live(.change(.hide, name: name, address: "10.42.0.7")))
        #expect(console.decide(request("POST", "/console/api/takes/\(name)/show", cookie: cookie, csrf: csrf), at: 1)
                == .live(.change(.show, name: name, address: "10.42.0.7")))
        #expect(console.decide(request("DELETE", "/console/api/takes/\(name)", cookie: cookie, csrf: csrf), at: 1)
                == .live(.change(.delete, name: name, address: "10.42.0.7")))
        // Without the token: 403, audited with the take's name.
        guard case let .answer(refused, audit) = console.decide(request("DELETE", "/console/api/takes/\(name)", cookie: cookie), at: 2) else {
            Issue.record()
            return
        }
        #expect(refused.status == 403 && audit?.action == "deleteTake \(name)" && audit?.result == "refused 403" && audit?.time == 2)
        // Other methods 405; names that are none, or more parts, 404.
        #expect(console.status(request("POST", "/console/api/events", cookie: cookie), at: 1) == 405)
        #expect(console.status(request("DELETE", "/console/api/takes", cookie: cookie, csrf: csrf), at: 1) == 405)
        #expect(console.status(request("GET", "/console/api/takes/\(name)/hide", cookie: cookie), at: 1) == 405)
        for path in ["/console/api/takes/.kiosk-recorder.takes", "/console/api/takes/\(name)/video/x", "/console/api/takes/\(name)/rename",
                     "/console/api/takes/a\u{1}b", "/console/api/takes/../x", "/console/api/takes/%2e%2e%2fetc", "/console/api/takesx"] {
            #expect(console.status(request("GET", path, cookie: cookie), at: 1) == 404, "\(path)")
        }
        // Expired: 401 again.
        #expect(console.status(request("GET", "/console/api/events", cookie: cookie), at: SessionTable.lifetime + 1) == 401)
    }

    @Test("the commands the console sends for a take")
    func commandLines() {
        #expect(TakeAction.hide.line(path: "/srv/takes/a.mov") == #"{"command":"hideTake","path":"/srv/takes/a.mov"}"#)
        #expect(TakeAction.delete.line(path: #"/srv/t"a.mov"#) == #"{"command":"deleteTake","path":"/srv/t\"a.mov","reason":"operator"}"#)
    }

    @Test("the backlog keeps the last 200 lines, oldest first")
    func backlog() {
        var backlog = EventBacklog()
        for n in 1...250 { backlog.append("{\"n\":\(n)}") }
        #expect(backlog.lines.count == 200 && backlog.lines.first == "{\"n\":51}" && backlog.lines.last == "{\"n\":250}")
    }

    @Test("a browser's queue: lines in order, taken out whole; past 1 MiB the browser is dropped and nothing more is queued")
    func clientQueue() {
        var queue = ClientQueue()
        let pushed = [queue.push("a"), queue.push("b")]
        let taken = queue.take(), again = queue.take()
        #expect(pushed == [true, true] && taken == ["a", "b"] && again.isEmpty && queue.bytes == 0)
        let line = String(repeating: "x", count: 1023)
        var accepted = 0
        for _ in 0..<1024 where queue.push(line) { accepted += 1 }
        #expect(accepted == 1024 && !queue.dropped && queue.bytes == ClientQueue.limit)
        let overflowing = queue.push("one more")
        #expect(!overflowing && queue.dropped)
        let left = queue.take(), after = queue.push("after")
        #expect(left.isEmpty && !after)
    }

    @Test("the link to the booth: said once when it goes or comes, tried again a second after each failure (virtual clock)")
    func link() {
        var link = BoothLink()
        let first = link.lost("no booth answers at /run/x", now: 10)
        #expect(first == #"{"event":"boothUnreachable","message":"no booth answers at /run/x"}"# && link.nextTry == 11)
        #expect(link.lost("no booth answers at /run/x", now: 11) == nil && link.nextTry == 12 && link.said == first)
        #expect(link.connected(now: 12.5) == #"{"event":"boothReachable"}"# && link.reachable == true)
        #expect(link.connected(now: 13) == nil)
        #expect(link.lost("the booth closed the connection", now: 20)?.contains("boothUnreachable") == true && link.nextTry == 21)
    }

    @Test("each event line is one Server-Sent Event")
    func framing() {
        #expect(ServerSentEvents.frame(#"{"event":"ready"}"#) == "data: {\"event\":\"ready\"}\n\n")
        #expect(ServerSentEvents.frame("a\nb\r\nc\rd") == "data: a\ndata: b\ndata: c\ndata: d\n\n")
    }

    @Test("a take change is answered by its event for its path, or an error naming the path or the command")
    func takeAnswer() {
        let path = "/srv/takes/a.mov"
        #expect(TakeAnswer.reply(to: #"{"event":"state","mode":"ready"}"#, action: .hide, path: path) == .passed)
        #expect(TakeAnswer.reply(to: #"{"event":"takeHidden","path":"/srv/takes/b.mov"}"#, action: .hide, path: path) == .passed)
        #expect(TakeAnswer.reply(to: #"{"event":"takeShown","path":"/srv/takes/a.mov"}"#, action: .hide, path: path) == .passed)
        #expect(TakeAnswer.reply(to: #"{"event":"takeHidden","path":"/srv/takes/a.mov"}"#, action: .hide, path: path)
                == .done(#"{"event":"takeHidden","path":"/srv/takes/a.mov"}"#))
        let refusal = #"{"event":"error","code":"notAllowed","message":"'deleteTake': the take is still being written or reviewed: /srv/takes/a.mov"}"#
        #expect(TakeAnswer.reply(to: refusal, action: .delete, path: path)
                == .refused(code: "notAllowed", message: "'deleteTake': the take is still being written or reviewed: /srv/takes/a.mov"))
        #expect(TakeAnswer.reply(to: #"{"event":"error","code":"notAllowed","message":"'retake' is not on screen"}"#, action: .delete, path: path) == .passed)
        #expect(TakeAnswer.response(.refused(code: "notAllowed", message: "m"), unreachable: nil).0.status == 409)
        #expect(TakeAnswer.response(nil, unreachable: "gone").result == "boothUnreachable")
        #expect(TakeAnswer.response(.passed, unreachable: nil).0.status == 504)
    }

    @Test("a download's range", arguments: [
        ("bytes=0-99", Int64(1000), ByteRange.part(offset: 0, length: 100)), ("bytes=900-", 1000, .part(offset: 900, length: 100)),
        ("bytes=-100", 1000, .part(offset: 900, length: 100)), ("bytes=990-2000", 1000, .part(offset: 990, length: 10)),
        ("bytes=1000-", 1000, .unsatisfiable), ("bytes=5-2", 1000, .unsatisfiable), ("bytes=0-1,5-6", 1000, nil), ("items=0-1", 1000, nil),
        ("bytes=-0", 1000, nil), ("bytes=x-1", 1000, nil),
    ] as [(String, Int64, ByteRange?)])
    func range(header: String, size: Int64, expected: ByteRange?) {
        #expect(ByteRange.parse(header, size: size) == expected)
    }

    @Test("a take's kind from its name and the name template", arguments: [
        ("a.mov", "take-{n}.mov", "video"), ("a.mp4", "take-{n}.mov", "boomerang"), ("a.mp4", "take-{n}.mp4", "video"),
        ("photo-1.JPG", "take-{n}.mov", "photo"), ("p.jpeg", "x.mp4", "photo"),
    ])
    func kind(name: String, template: String, kind: String) {
        #expect(ConsoleTake.kind(of: name, template: template) == kind)
    }
}

@Suite("The console's fan-out of the booth's events")
struct EventFanOutTests {
    /// The first `count` bytes `client` hands MHD, at most `max` a call (what is queued is there, so it never waits).
    func drain(_ client: EventClient, _ count: Int, max: Int = 7) -> String {
        var buffer = [CChar](repeating: 0, count: max)
        var text: [UInt8] = []
        while text.count < count {
            let n = buffer.withUnsafeMutableBufferPointer { client.fill($0.baseAddress!, max: max) }
            guard n > 0 else { break }
            text += buffer[0..<n].map { UInt8(bitPattern: $0) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    @Test("every browser gets every line, framed, in pieces as small as MHD asks; the backlog keeps them; a browser that comes while no booth answers hears that first")
    func fanOut() {
        let fanOut = EventFanOut()
        let first = fanOut.subscribe(), second = fanOut.subscribe()
        fanOut.publish(#"{"event":"ready"}"#, linkSaid: nil)
        fanOut.publish(#"{"event":"state"}"#, linkSaid: nil)
        let framed = "retry: 2000\n\ndata: {\"event\":\"ready\"}\n\ndata: {\"event\":\"state\"}\n\n"
        #expect(drain(first, framed.utf8.count) == framed)
        #expect(drain(second, framed.utf8.count, max: 4096) == framed)
        let gone = #"{"event":"boothUnreachable","message":"no booth"}"#
        fanOut.publish(gone, linkSaid: gone)
        let late = fanOut.subscribe()
        let lateText = "retry: 2000\n\ndata: \(gone)\n\n"
        #expect(drain(late, lateText.utf8.count) == lateText)
        #expect(fanOut.backlog() == [#"{"event":"ready"}"#, #"{"event":"state"}"#, gone])
        // Back: a browser that comes now hears nothing of the booth's absence.
        fanOut.publish(#"{"event":"boothReachable"}"#, linkSaid: #"{"event":"boothReachable"}"#)
        let later = fanOut.subscribe()
        fanOut.publish(#"{"event":"state"}"#, linkSaid: nil)
        let laterText = "retry: 2000\n\ndata: {\"event\":\"state\"}\n\n"
        #expect(drain(later, laterText.utf8.count) == laterText)
    }

    @Test("a browser whose queue overflows is dropped (its reader ends the stream), the others keep every line")
    func overflow() {
        let fanOut = EventFanOut()
        let stalled = fanOut.subscribe(), reading = fanOut.subscribe()
        let line = String(repeating: "x", count: 4095)
        var kept = 0
        for n in 0..<300 {
            fanOut.publish(line, linkSaid: nil)
            kept += reading.queue.withLock { $0.take() }.count
            if n == 255 { #expect(!stalled.queue.withLock { $0.dropped }) }
        }
        #expect(kept == 300 && stalled.queue.withLock { $0.dropped })
        var buffer = [CChar](repeating: 0, count: 64)
        // The opening first, then the end: -2 (MHD_CONTENT_READER_END_WITH_ERROR).
        _ = buffer.withUnsafeMutableBufferPointer { stalled.fill($0.baseAddress!, max: 64) }
        #expect(buffer.withUnsafeMutableBufferPointer { stalled.fill($0.baseAddress!, max: 64) } == -2)
        fanOut.unsubscribe(reading)
        fanOut.publish("after", linkSaid: nil)
        #expect(reading.queue.withLock { $0.lines.isEmpty })
    }
}
