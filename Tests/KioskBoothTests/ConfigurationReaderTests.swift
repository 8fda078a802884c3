// SIGHUP's reload as the booth's reader hands it to the core: refused (a file that does not parse, a
// setting that cannot change, words no font has) or accepted, its whole configuration held until the
// machine applies it, once.
import KioskCore
import KioskOptions
import KioskSystem
import Testing
@testable import KioskBooth

@Suite("ConfigurationReader: what a reload read is to the core")
struct ConfigurationReaderTests {
    struct NoGlyph: Error, CustomStringConvertible {
        var description: String { "no font has every glyph" }
    }

    /// What the step says, in short: refused with its message, or accepted with the settings it changed.
    static func short(_ step: BoothCore.ReloadStep) -> String {
        switch step {
        case let .refused(file, message): "refused \(file): \(message)"
        case let .accepted(file, _, changed, kept): "accepted \(file): \(changed) \(kept)"
        case .asked: "asked"
        }
    }

    @Test("refused or accepted; words on screen checked only when they change; the accepted one taken once", arguments: [
        ("bad file", false, "refused the command line: line 3: no such option", false),
        ("idle", false, "accepted the command line: [\"idle-timeout\"] []", true),
        ("idle", true, "accepted the command line: [\"idle-timeout\"] []", true),
        ("language", false, "accepted the command line: [\"language\"] []", true),
        ("language", true, "refused the command line: no font has every glyph", false),
    ])
    func hand(change: String, glyphsMissing: Bool, expected: String, held: Bool) throws {
        let reader = ConfigurationReader(source: nil, queue: try EmbeddedExecutors().factory("kiosk-config"))
        let running = Configuration()
        var next = running
        switch change {
        case "idle": next.guest.idleTimeout = 30
        case "language": next.screen.language = .ja
        default: break
        }
        let read: Result<Configuration, UsageError> = change == "bad file" ? .failure(UsageError("line 3: no such option")) : .success(next)
        var checked = 0
        let step = reader.hand(read, running: running) { _ in
            checked += 1
            if glyphsMissing { throw NoGlyph() }
        }
        #expect(Self.short(step) == expected)
        #expect(checked == (change == "language" ? 1 : 0))
        #expect(reader.takeAccepted() == (held ? next : nil))
        #expect(reader.takeAccepted() == nil, "taken once")
    }
}
