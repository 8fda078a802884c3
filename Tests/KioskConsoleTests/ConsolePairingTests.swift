// Pairing's exchange by table on virtual clocks: the booth's code once, before its time, for a
// session as a sign-in gives; wrong, used and expired codes answered alike and counted.
import Testing
@testable import KioskConsole
import KioskPassword

@Suite("The console's pairing exchange")
struct ConsolePairingTests {
    static let s: Int64 = 1_000_000_000
    static let ticket = PairingTicket(code: "Q2xvc2VkIGJvb3RoIGNvZGUgMTkyYml0", until: 120 * s)

    static func pair(_ code: String, from address: String = "10.42.0.7", method: String = "GET") -> ConsoleRequest {
        ConsoleRequest(method: method, path: ConsoleRules.pairPrefix + code, headers: ["host": "10.42.0.1"], peer: address)
    }

    /// The status, the audit's result, whether the ticket was spent.
    static func exchange(_ console: inout Console, _ code: String, ticket: PairingTicket? = Self.ticket, monotonic: Int64,
                         now: Double = 1000, from address: String = "10.42.0.7") -> (Int, String?, Bool) {
        let (decision, spent) = console.rules.pair(pair(code, from: address), ticket: ticket, monotonic: monotonic, now: now,
                                                   token: console.tokens.make)
        guard case let .answer(response, audit) = decision else { return (0, nil, spent) }
        return (response.status, audit?.result, spent)
    }

    @Test("the right code before its time: 303 to the page with the session cookie, spent; the session then works")
    func right() {
        var console = Console()
        let (decision, spent) = console.rules.pair(Self.pair(Self.ticket.code), ticket: Self.ticket, monotonic: 119 * Self.s, now: 1000,
                                                   token: console.tokens.make)
        #expect(spent)
        guard case let .answer(response, audit) = decision else { Issue.record("no answer"); return }
        #expect(response.status == 303)
        #expect(response.headers["Location"] == "/console/")
        #expect(response.headers["Set-Cookie"] == "kiosk_console=t1; Path=/console/; Max-Age=43200; HttpOnly; SameSite=Strict")
        #expect(audit == AuditEntry(time: 1000, address: "10.42.0.7", action: "pair", result: "ok"))
        let state = ConsoleRequest(method: "GET", path: "/console/api/state", headers: ["cookie": "kiosk_console=t1"], peer: "10.42.0.7")
        #expect(console.decide(state, at: 1001) == .state)
    }

    @Test("a wrong, used, expired or absent code, or none, is answered alike: 401 badCode, nothing spent", arguments: [
        ("wrong", String(Self.ticket.code.dropLast()) + "A", 10 * Self.s, true),
        ("expired", Self.ticket.code, 120 * Self.s, true),
        ("long expired", Self.ticket.code, 9999 * Self.s, true),
        ("no ticket", Self.ticket.code, 10 * Self.s, false),
        ("empty", "", 10 * Self.s, true),
        ("a prefix", String(Self.ticket.code.prefix(8)), 10 * Self.s, true),
    ])
    func refused(_ name: String, _ code: String, _ monotonic: Int64, _ withTicket: Bool) {
        var console = Console()
        let (status, result, spent) = Self.exchange(&console, code, ticket: withTicket ? Self.ticket : nil, monotonic: monotonic)
        #expect(status == 401, "\(name)")
        #expect(result == "badCode")
        #expect(!spent)
    }

    @Test("a code is good once: the second exchange, even with its file still there, is 401 as a wrong one")
    func once() {
        var console = Console()
        #expect(Self.exchange(&console, Self.ticket.code, monotonic: Self.s).0 == 303)
        #expect(Self.exchange(&console, Self.ticket.code, monotonic: 2 * Self.s) == (401, "badCode", false))
    }

    @Test("wrong codes count with wrong passwords: past 5 in a minute from one address, 429, even for the right code")
    func limited() {
        var console = Console()
        for i in 0..<3 { #expect(Self.exchange(&console, "guess\(i)", monotonic: Self.s, now: 1000 + Double(i)).0 == 401) }
        for i in 0..<2 { _ = console.decide(signInRequest("wrong", from: "10.42.0.7"), at: 1003 + Double(i)) }
        #expect(Self.exchange(&console, Self.ticket.code, monotonic: Self.s, now: 1010) == (429, "limited", false))
        #expect(Self.exchange(&console, Self.ticket.code, monotonic: Self.s, now: 1010, from: "10.42.0.8").0 == 303,
                "another address is not held back")
    }

    @Test("only GET: another method is 401, nothing spent")
    func method() {
        var console = Console()
        let (decision, spent) = console.rules.pair(Self.pair(Self.ticket.code, method: "POST"), ticket: Self.ticket, monotonic: Self.s,
                                                   now: 1000, token: console.tokens.make)
        #expect(!spent)
        guard case let .answer(response, _) = decision else { Issue.record("no answer"); return }
        #expect(response.status == 401)
    }
}
