// What a person reads of a message too long for stderr's writer, and of a long value quoted in one.
import Testing
@testable import KioskSystem

@Suite("Log and excerpts")
struct LogTests {
    @Test("a message over 16 KiB keeps its first 12 KiB and its last 2 KiB, and says how much went; a shorter one is whole")
    func longMessage() {
        let short = "kiosk-recorder: " + String(repeating: "a", count: 16_000) + "\n"
        #expect(Log.trimmed(short) == short)
        let long = "kiosk-recorder: config.conf:2: unknown key '" + String(repeating: "k", count: 2 << 20) + "'\nTry 'kiosk-recorder --help'.\n"
        let trimmed = Log.trimmed(long)
        #expect(trimmed.utf8.count < 15 << 10)
        #expect(trimmed.hasPrefix("kiosk-recorder: config.conf:2: unknown key 'kkk"))
        #expect(trimmed.hasSuffix("kkk'\nTry 'kiosk-recorder --help'.\n"))
        #expect(trimmed.contains(" … (\(long.utf8.count - (14 << 10)) bytes left out) … "))
    }

    @Test("an excerpt: whole up to the limit, else its start and end around its length")
    func excerpt() {
        #expect("fps".excerpt() == "fps")
        let key = String(repeating: "k", count: 1_000)
        #expect(key.excerpt() == String(repeating: "k", count: 30) + "… (1000 bytes) …" + String(repeating: "k", count: 30))
    }
}
