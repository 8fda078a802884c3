// A guest's own delete, from the share page (`POST /s/{token}/delete`, which nginx passes here):
// the one route of the console a stranger may use, so it trusts nothing. Only a POST, from the share
// site's own origin, at most `limit` a minute from one address (every try counts, so tokens cannot be
// guessed at speed), the token of a share folder's shape; whether the token is a take's is the
// booth's say, and an unknown token is answered exactly as a malformed one. The answers are the share
// page's own look, in the language the page posted (`lang`).
import FoundationEssentials
import KioskScreenText
import KioskSystem

/// A guest's request to delete their take, as the rules let it through to the booth.
public struct GuestDelete: Sendable, Equatable {
    /// The take's share token (ShareToken's shape).
    public var token: String
    /// The language the share page was in (its form's `lang`), for the answer.
    public var language: Language
    public var address: String
}

/// How the booth answered a guest's delete (`deleteTake` with the token), for the page.
public enum GuestDeleteOutcome: Sendable, Equatable {
    /// `takeDeleted` for the take: its path.
    case deleted(String)
    /// No such take (the booth's refusal, or no folder of takes here): the same 404 as a malformed token.
    case notFound
    /// The booth cannot now (no booth, no answer, the take still being handed over): why, for the audit log.
    case later(String)
}

extension ConsoleRules {
    static let guestPrefix = "/s/"
    static let guestSuffix = "/delete"

    /// Whether `path` is a guest's delete, well formed or not: under /s/, ending in /delete.
    static func isGuestDelete(_ path: String) -> Bool {
        path.hasPrefix(guestPrefix) && path.hasSuffix(guestSuffix)
    }

    /// The token of a well-formed delete path (`/s/` + a token + `/delete`, nothing else), or nil.
    static func guestToken(_ path: String) -> String? {
        guard isGuestDelete(path), path.utf8.count > guestPrefix.utf8.count + guestSuffix.utf8.count else { return nil }
        let token = String(path.dropFirst(guestPrefix.count).dropLast(guestSuffix.count))
        return ShareToken.isToken(token) ? token : nil
    }

    /// Whether the request comes from this site's own page: an `Origin` naming the `Host` it was sent
    /// to, or without one a `Referer` under it. Neither: refused (a browser sends `Origin` with every POST).
    static func sameSite(_ request: ConsoleRequest) -> Bool {
        guard let host = request.headers["host"], !host.isEmpty else { return false }
        if let origin = request.headers["origin"] { return origin == "http://" + host || origin == "https://" + host }
        guard let referer = request.headers["referer"] else { return false }
        return referer.hasPrefix("http://" + host + "/") || referer.hasPrefix("https://" + host + "/")
    }

    /// The language the form posted (`lang`), else English.
    static func guestLanguage(_ request: ConsoleRequest) -> Language {
        for pair in String(decoding: request.body.prefix(1024), as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, FormText.decode(parts[0]) == "lang", let tag = FormText.decode(parts[1]), let language = Language(rawValue: tag) {
                return language
            }
        }
        return .en
    }

    /// The decision for a guest's delete (`isGuestDelete`): refused here, or the booth asked.
    mutating func decideGuestDelete(_ request: ConsoleRequest, now: Double) -> ConsoleDecision {
        let address = request.clientAddress, language = Self.guestLanguage(request)
        func refused(_ status: Int, _ text: SharePageText, _ result: String, headers: [String: String] = [:]) -> ConsoleDecision {
            .answer(Self.guestPage(status, text, deleted: false, language: language, headers: headers),
                    audit: AuditEntry(time: now, address: address, action: "guestDelete", result: result))
        }
        guard request.method == "POST" else { return refused(405, .notFoundText, "refused 405", headers: ["Allow": "POST"]) }
        guard !guestLimiter.isLimited(address, now: now) else { return refused(429, .tryLaterText, "limited") }
        guestLimiter.failed(address, now: now)
        guard Self.sameSite(request) else { return refused(403, .notFoundText, "refused 403") }
        guard let token = Self.guestToken(request.path) else { return refused(404, .notFoundText, "notFound") }
        return .guestDelete(GuestDelete(token: token, language: language, address: address))
    }

    /// The answer to a guest's delete and the audit log's result.
    public static func guestAnswer(_ outcome: GuestDeleteOutcome, language: Language) -> (ConsoleResponse, result: String) {
        switch outcome {
        case let .deleted(path):
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return (guestPage(200, .deletedText, deleted: true, language: language), "deleted " + name)
        case .notFound: return (guestPage(404, .notFoundText, deleted: false, language: language), "notFound")
        case let .later(why): return (guestPage(503, .tryLaterText, deleted: false, language: language), "later: " + why)
        }
    }

    /// A page in the share page's look: `status`, the text, never cached, framed or referred. Its
    /// policy lets in the page's own inline style and nothing else (no script, no address).
    static func guestPage(_ status: Int, _ text: SharePageText, deleted: Bool, language: Language, headers: [String: String] = [:]) -> ConsoleResponse {
        let own = ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow",
                   "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; form-action 'none'"]
        return ConsoleResponse(status: status, headers: headers.merging(own) { a, _ in a }.merging(safety) { a, _ in a },
                               body: Array(SharePage.answerHTML(text, deleted: deleted, language: language).utf8))
    }
}

/// The control socket's line for a guest's delete: `deleteTake` by the token, reason `guest`.
public enum GuestDeleteLine {
    public static func line(token: String) -> String {
        "{\"command\":\"deleteTake\",\"token\":\(JSONText.string(token)),\"reason\":\"guest\"}"
    }

    private struct Line: Decodable {
        var event: String
        var path: String?
        var reason: String?
        var code: String?
        var message: String?
    }

    /// What an event line is to the wait for that delete's answer: nil (not it), or the outcome.
    /// `path`: the token's take (nil: none known): only a guest's `takeDeleted` of exactly that take
    /// answers, never another guest's delete of another take. A refusal is an `error` about `deleteTake`
    /// (the socket carries every client's lines).
    public static func outcome(of line: String, path: String?) -> GuestDeleteOutcome? {
        guard let parsed = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)) else { return nil }
        if parsed.event == "takeDeleted", parsed.reason == "guest", let deleted = parsed.path, deleted == path {
            return .deleted(deleted)
        }
        guard parsed.event == "error", let message = parsed.message, message.contains("deleteTake") else { return nil }
        return parsed.code == "notAllowed" ? .later(message) : .notFound
    }
}
