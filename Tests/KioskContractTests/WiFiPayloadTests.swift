// The `WIFI:` payload of the share screen's first QR code: ZXing's format, with `\`, `;`, `,`, `:`
// and `"` escaped by a backslash in the network's name and its password.
import Testing
@testable import KioskContract

@Suite("WiFiPayload")
struct WiFiPayloadTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let ssid: String
        let password: String?
        let payload: String
        var testDescription: String { "\(ssid) / \(password ?? "open")" }
    }

    static let rows: [Row] = [
        Row(ssid: "Booth", password: "secret123", payload: #"WIFI:T:WPA;S:Booth;P:secret123;;"#),
        Row(ssid: "Booth", password: nil, payload: #"WIFI:T:nopass;S:Booth;;"#),
        Row(ssid: #"a\b"#, password: #"p\q"#, payload: #"WIFI:T:WPA;S:a\\b;P:p\\q;;"#),
        Row(ssid: "a;b", password: "p;q", payload: #"WIFI:T:WPA;S:a\;b;P:p\;q;;"#),
        Row(ssid: "a,b", password: "p,q", payload: #"WIFI:T:WPA;S:a\,b;P:p\,q;;"#),
        Row(ssid: "a:b", password: "p:q", payload: #"WIFI:T:WPA;S:a\:b;P:p\:q;;"#),
        Row(ssid: #"a"b"#, password: #"p"q"#, payload: #"WIFI:T:WPA;S:a\"b;P:p\"q;;"#),
        Row(ssid: #"Booth;"1"#, password: #"p;a"ss:word"#, payload: #"WIFI:T:WPA;S:Booth\;\"1;P:p\;a\"ss\:word;;"#),
        // Every special character at once, the backslash escaped first (not escaped twice).
        Row(ssid: #"\;,:""#, password: nil, payload: #"WIFI:T:nopass;S:\\\;\,\:\";;"#),
        // Characters outside the five stay as they are: spaces, accents, CJK, emoji.
        Row(ssid: "Café Wi-Fi 会場 🎉", password: "pass word!", payload: "WIFI:T:WPA;S:Café Wi-Fi 会場 🎉;P:pass word!;;"),
    ]

    @Test("the payload escapes \\ ; , : \" in the SSID and the password; an open network is T:nopass without P", arguments: rows)
    func payload(_ row: Row) {
        #expect(WiFiPayload.make(ssid: row.ssid, password: row.password) == row.payload)
    }
}
