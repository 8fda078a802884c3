// The share folders' names: random (the kernel's generator), URL-safe, never the same twice.
import Foundation
@testable import KioskSystem
import Testing

@Suite("ShareToken")
struct ShareTokenTests {
    @Test("1000 tokens: all different, 24 characters of base64url, and their bytes are not all alike")
    func tokens() throws {
        var seen = Set<String>()
        for _ in 0..<1000 {
            let token = try ShareToken.make()
            #expect(token.count == 24, "\(token)")
            #expect(ShareToken.isToken(token), "\(token)")
            seen.insert(token)
        }
        #expect(seen.count == 1000)
        let bytes = try ShareToken.randomBytes(ShareToken.byteCount)
        #expect(bytes.count == 18 && Set(bytes).count > 1, "\(bytes)")
        // The characters used across all tokens: close to the whole alphabet, none outside it.
        let used = Set(seen.joined())
        #expect(used.count > 60 && used.isSubset(of: Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")))
    }

    @Test("base64url without padding, as RFC 4648 writes it", arguments: [
        ([UInt8](), ""), ([0x66], "Zg"), ([0x66, 0x6F], "Zm8"), ([0x66, 0x6F, 0x6F], "Zm9v"),
        ([0xFB, 0xFF, 0xBF], "-_-_"), ([UInt8](repeating: 0, count: 18), String(repeating: "A", count: 24)),
    ])
    func encoding(bytes: [UInt8], text: String) {
        #expect(ShareToken.encode(bytes) == text)
    }

    @Test("only token-shaped names are tokens", arguments: [
        ("AAAAAAAAAAAAAAAAAAAAAAAA", true), ("abcdefghijklmnopqrstuv-_", true), (".partial-AAAAAAAAAAAAAAAA", false),
        ("AAAAAAAAAAAAAAAAAAAAAAA", false), ("AAAAAAAAAAAAAAAAAAAAAAAAA", false), ("AAAAAAAAAAAAAAAAAAAAAAA=", false),
        ("AAAAAAAAAAAAAAAAAAAAAAA/", false), ("index.html", false),
    ])
    func shape(name: String, isToken: Bool) {
        #expect(ShareToken.isToken(name) == isToken)
    }
}
