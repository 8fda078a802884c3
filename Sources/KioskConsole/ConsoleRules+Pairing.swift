// Pairing: `GET /console/api/pair/{code}`, the address of the QR code the booth shows once the
// operator's password was typed on its screen. The code is exchanged once, before its time, for a
// session as a sign-in gives; a wrong, used or expired code is answered alike, and counts against
// the sign-in's limit of the address. Pure: the booth's ticket (PairingFile) and the clocks come in.
import KioskPassword

/// The codes already exchanged (the last few): a code is good once, even if its file stays.
public struct PairingExchange: Sendable {
    var used: [String] = []
    static let remembered = 16

    public init() {}
}

extension ConsoleRules {
    public static let pairPrefix = "/console/api/pair/"

    /// The answer to a request under `pairPrefix`, and whether `ticket` was spent (the glue then
    /// removes its file). `ticket`: the booth's code, if any; `monotonic`: CLOCK_MONOTONIC ns (the
    /// ticket's clock); `now`: the wall clock's seconds (the session's and the log's).
    public mutating func pair(_ request: ConsoleRequest, ticket: PairingTicket?, monotonic: Int64, now: Double,
                              token: () -> String) -> (decision: ConsoleDecision, spent: Bool) {
        let address = request.clientAddress
        func audit(_ result: String) -> AuditEntry { AuditEntry(time: now, address: address, action: "pair", result: result) }
        guard request.method == "GET" else { return (.answer(Self.notAllowed(true), audit: nil), false) }
        guard !limiter.isLimited(address, now: now) else {
            return (.answer(.error(429, "tooManyTries", "more than \(SignInLimiter.limit) wrong tries in a minute: wait a minute"),
                            audit: audit("limited")), false)
        }
        let given = String(request.path.dropFirst(Self.pairPrefix.count))
        // Compared whole in constant time first; then its time and whether it was used.
        let matches = ticket.map { ConstantTime.equal(given, $0.code) } ?? false
        guard let ticket, matches, !given.isEmpty, monotonic < ticket.until, !pairing.used.contains(ticket.code) else {
            limiter.failed(address, now: now)
            return (.answer(.error(401, "badCode", "this pairing code is wrong, used or expired: type the password on the booth's screen again"),
                            audit: audit("badCode")), false)
        }
        pairing.used = (pairing.used + [ticket.code]).suffix(PairingExchange.remembered)
        limiter.succeeded(address)
        let cookie = token()
        sessions.open(token: cookie, csrf: token(), now: now)
        let set = "\(Self.cookieName)=\(cookie); Path=/console/; Max-Age=\(Int(SessionTable.lifetime)); HttpOnly; SameSite=Strict"
        return (.answer(ConsoleResponse(status: 303, headers: ["Set-Cookie": set, "Location": "/console/", "Cache-Control": "no-store"]),
                        audit: audit("ok")), true)
    }
}
