// A guest's delete from the share page by table on a virtual clock: only a POST of a token's shape
// from the site's own page reaches the booth; an unknown token's answer is a malformed one's; 10 a
// minute from one address, the 11th 429; the booth's lines read as outcomes; the consent log's CSV.
import Foundation
import Testing
@testable import KioskConsole
import KioskScreenText

let guestToken = "AbCdEfGhIjKlMnOpQrStUv-_"

func guestRequest(_ path: String = "/s/\(guestToken)/delete", method: String = "POST", origin: String? = "http://10.42.0.1",
                  referer: String? = nil, from address: String = "10.42.0.7", body: String = "lang=de") -> ConsoleRequest {
    var headers = ["host": "10.42.0.1", "x-real-ip": address, "content-type": "application/x-www-form-urlencoded"]
    if let origin { headers["origin"] = origin }
    if let referer { headers["referer"] = referer }
    return ConsoleRequest(method: method, path: path, headers: headers, body: Array(body.utf8), overUnixSocket: true)
}

@Suite("A guest's delete from the share page")
struct GuestDeleteRulesTests {
    @Test("a POST of a token from the site's page goes to the booth, in the page's language; nothing else does")
    func passes() {
        var console = Console()
        #expect(console.decide(guestRequest(), at: 0) == .guestDelete(GuestDelete(token: guestToken, language: .de, address: "10.42.0.7")))
        // No Origin: the page's Referer will do; a language the booth has not: English.
        #expect(console.decide(guestRequest(origin: nil, referer: "http://10.42.0.1/s/\(guestToken)/", from: "10.42.0.8", body: "lang=xx"), at: 0)
                == .guestDelete(GuestDelete(token: guestToken, language: .en, address: "10.42.0.8")))
    }

    @Test("refused before the booth: GET 405, another site 403, malformed and traversing paths 404 (one body for all of them)", arguments: [
        (guestRequest(method: "GET"), 405),
        (guestRequest(method: "DELETE"), 405),
        (guestRequest(origin: "http://evil.example"), 403),
        (guestRequest(origin: "null"), 403),
        (guestRequest(origin: nil), 403),
        (guestRequest(origin: nil, referer: "http://evil.example/s/\(guestToken)/"), 403),
        (guestRequest("/s/short/delete"), 404),
        (guestRequest("/s/\(guestToken)x/delete"), 404),
        (guestRequest("/s/../\(guestToken)/delete"), 404),
        (guestRequest("/s/\(guestToken)/../delete"), 404),
        (guestRequest("/s/.partial-\(guestToken)/delete"), 404),
        (guestRequest("/s/\(guestToken.dropLast())%/delete"), 404),
        (guestRequest("/s//delete"), 404),
    ])
    func refused(_ request: ConsoleRequest, _ status: Int) {
        var console = Console()
        guard case let .answer(response, audit) = console.decide(request, at: 0) else { Issue.record("passed to the booth"); return }
        #expect(response.status == status)
        #expect(audit?.action == "guestDelete" && audit?.address == "10.42.0.7")
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8" && response.headers["Cache-Control"] == "no-store")
        // The page's own inline style, and nothing else.
        #expect(response.headers["Content-Security-Policy"]?.hasPrefix("default-src 'none'; style-src 'unsafe-inline';") == true)
        #expect(response.headers["X-Frame-Options"] == "DENY" && response.headers["Referrer-Policy"] == "no-referrer")
        if status == 404 {
            // The answer the booth's "no such take" gets: byte for byte.
            #expect(response == ConsoleRules.guestAnswer(.notFound, language: .de).0)
        }
    }

    @Test("10 tries a minute from one address, the 11th 429 (whatever the tries were); another address is not held up; a minute later again")
    func limited() {
        var console = Console()
        var statuses: [Int?] = []
        for n in 0..<11 {
            let request = n % 2 == 0 ? guestRequest() : guestRequest("/s/nothing/delete")
            switch console.decide(request, at: Double(n)) {
            case .guestDelete: statuses.append(200)
            case let .answer(response, _): statuses.append(response.status)
            default: statuses.append(nil)
            }
        }
        #expect(statuses == [200, 404, 200, 404, 200, 404, 200, 404, 200, 404, 429])
        #expect(console.status(guestRequest(from: "10.42.0.9"), at: 10) == nil)
        // GETs are not counted, and are 405 still.
        #expect(console.status(guestRequest(method: "GET"), at: 10) == 405)
        #expect(console.status(guestRequest(), at: 59.9) == 429)
        #expect(console.status(guestRequest(), at: 60.5) == nil)
    }

    @Test("the booth's lines: takeDeleted (guest) for exactly the token's take, a refusal about deleteTake; other clients' lines (another take's delete among them) passed over")
    func outcomes() {
        let path = "/srv/takes/take-0001.mov"
        let deleted = #"{"event":"takeDeleted","path":"/srv/takes/take-0001.mov","reason":"guest"}"#
        #expect(GuestDeleteLine.outcome(of: deleted, path: path) == .deleted(path))
        // A take not known to be the token's is not answered by another guest's delete.
        #expect(GuestDeleteLine.outcome(of: deleted, path: nil) == nil)
        #expect(GuestDeleteLine.outcome(of: deleted, path: "/srv/takes/take-0002.mov") == nil)
        #expect(GuestDeleteLine.outcome(of: #"{"event":"takeDeleted","path":"/srv/takes/take-0001.mov","reason":"operator"}"#, path: path) == nil)
        #expect(GuestDeleteLine.outcome(of: #"{"event":"error","code":"badCommand","message":"deleteTake needs \"path\": a take's"}"#, path: nil) == .notFound)
        #expect(GuestDeleteLine.outcome(of: #"{"event":"error","code":"notAllowed","message":"'deleteTake': its review is on screen: x"}"#, path: path)
                == .later("'deleteTake': its review is on screen: x"))
        #expect(GuestDeleteLine.outcome(of: #"{"event":"error","code":"notAllowed","message":"'retake' is not on screen"}"#, path: path) == nil)
        #expect(GuestDeleteLine.outcome(of: #"{"event":"state","mode":"ready"}"#, path: path) == nil)
        #expect(GuestDeleteLine.line(token: guestToken) == #"{"command":"deleteTake","token":"AbCdEfGhIjKlMnOpQrStUv-_","reason":"guest"}"#)
    }

    /// A folder of takes with one take shared under `listed` and one deleted under `deleted`.
    struct Shelf: TakeShelf {
        let folder = "/srv/takes"
        func takes() -> [ConsoleTake] { [] }
        func isListed(_ name: String) -> Bool { name == "take-0002.mov" }
        func thumbnail(of name: String) -> [UInt8]? { nil }
        func take(sharedAs token: String) -> String? { token == GuestDeleteRulesTests.listed ? "take-0002.mov" : nil }
        func take(deletedAs token: String) -> String? { token == guestToken ? "take-0001.mov" : nil }
    }
    static let listed = "ZyXwVuTsRqPoNmLkJiHgFe-_"

    @Test("a repeat delete (its take already deleted, in the booth's record) is answered as done from the record, with no booth asked; a listed or unknown token asks the booth")
    func repeatFromRecord() {
        let live = ConsoleLive(socket: "/nonexistent/kiosk-recorder.sock", shelf: Shelf())
        #expect(live.deleteForGuest(guestToken) == .deleted("/srv/takes/take-0001.mov"))
        for token in [Self.listed, "QqQqQqQqQqQqQqQqQqQqQqQq"] {
            guard case let .later(why) = live.deleteForGuest(token) else { Issue.record("\(token): not asked"); continue }
            #expect(why.contains("no booth answers"), "\(why)")
        }
        #expect(ConsoleLive(socket: "/nonexistent", shelf: nil).deleteForGuest(guestToken) == .notFound)
    }

    @Test("the answers: deleted 200 in the guest's language, not found 404, later 503; the share page's form and confirm step")
    func pages() {
        let (deleted, result) = ConsoleRules.guestAnswer(.deleted("/srv/takes/take-0001.mov"), language: .fr)
        #expect(deleted.status == 200 && result == "deleted take-0001.mov")
        let text = String(decoding: deleted.body, as: UTF8.self)
        #expect(text.contains(#"<html lang="fr">"#) && text.contains(SharePage.escape(SharePageText.deletedText.text(in: .fr))))
        #expect(ConsoleRules.guestAnswer(.notFound, language: .ja).0.status == 404)
        #expect(ConsoleRules.guestAnswer(.later("x"), language: .ja).0.status == 503)
        for language in Language.allCases {
            let page = SharePage.html(title: nil, language: language, downloadName: "v.mp4")
            #expect(page.contains(#"<form method="post" action="delete"><input type="hidden" name="lang" value="\#(language.rawValue)">"#))
            #expect(page.contains("<details class=\"delete\"><summary>\(SharePage.escape(SharePageText.deleteVideo.text(in: language)))</summary>"))
            #expect(!page.contains("<script"))
            #expect(SharePage.photoHTML(title: nil, language: language, downloadName: "p.jpg", width: 4, height: 3)
                .contains(SharePage.escape(SharePageText.deletePhoto.text(in: language))))
        }
    }

    @Test("the consent log: each take's last choices; CSV with its header, quoted fields and no formulas; a cut line passed over; signed-in only")
    func consentCSV() {
        let log = """
            {"take":"take-0001.mov","time":"2026-12-07T01:02:03Z","version":"ab12","choices":["share","film"]}
            {"take":"=cmd|' /C calc'!A0","time":"2026-12-07T01:03:00Z","version":"ab12","choices":[]}
            {"take":"take-0001.mov","time":"2026-12-07T02:00:00Z","deleted":"guest"}
            {"take":"take-0003.mov","ti
            """
        let records = ConsentRecords.parse(Array(log.utf8))
        #expect(records.count == 3)
        #expect(ConsentRecords.choices(records) == ["take-0001.mov": ["share", "film"], "=cmd|' /C calc'!A0": []])
        #expect(ConsentRecords.csv(records) == "take,time,version,choices,deleted\r\n"
                + "take-0001.mov,2026-12-07T01:02:03Z,ab12,share film,\r\n"
                + "'=cmd|' /C calc'!A0,2026-12-07T01:03:00Z,ab12,,\r\n"
                + "take-0001.mov,2026-12-07T02:00:00Z,,,guest\r\n")
        let answer = ConsentRecords.answer(nil)
        #expect(answer.status == 200 && answer.headers["Content-Disposition"] == "attachment; filename=\"consent.csv\""
                && String(decoding: answer.body, as: UTF8.self) == "take,time,version,choices,deleted\r\n")
        var console = Console()
        console.expectSignedInGET("/console/api/consent.csv", decides: .consentCSV)
    }
}
