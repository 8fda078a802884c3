// `kiosk-recorder reel`'s command line (ReelOptions) and its JSON lines.
import KioskCore
@testable import KioskOptions
import Testing
import KioskContract

@Suite("reel's options")
struct ReelOptionsTests {
    @Test("the folder and each option, in any order; defaults reel.mp4, 1280x720, no title, no JSON")
    func parses() throws {
        let plain = try ReelOptions.parse(["/srv/takes"])
        #expect(plain == ReelOptions(folder: "/srv/takes"))
        #expect(plain.output == "reel.mp4" && plain.size == Size(width: 1280, height: 720) && plain.title == nil && !plain.json)
        let all = try ReelOptions.parse(["--json", "--size", "1920x1080", "/srv/takes", "--title=Anna & Tom", "--output", "film.MP4"])
        #expect(try ReelOptions.parse(["d", "--force"]).force && !plain.force)
        let brand = try ReelOptions.parse(["d", "--reel-background", "#1b2A4a", "--reel-text=#F5E6C8"])
        #expect(brand.background == 0x1B2A4A && brand.text == 0xF5E6C8 && plain.background == 0x000000 && plain.text == 0xFFFFFF)
        #expect(all.folder == "/srv/takes" && all.json && all.size == Size(width: 1920, height: 1080) && all.title == "Anna & Tom" && all.output == "film.MP4")
    }

    @Test("a bad option names itself", arguments: [
        ([], "reel needs the booth's folder of takes"),
        (["d", "--size", "1281x720"], "--size '1281x720' is not an even WxH"),
        (["d", "--size", "99999x2"], "--size '99999x2'"),
        (["d", "--output", "film.mov"], "--output 'film.mov' must be a file name ending in .mp4"),
        (["d", "--outptu", "x.mp4"], "unknown option '--outptu': did you mean --output?"),
        (["d", "--title", " "], "--title ' ' must be words on one line"),
        (["d", "--title"], "--title needs a value"),
        (["d", "e"], "one folder only, 'e' is a second"),
        (["d", "--json=yes"], "--json takes no value"),
        (["d", "--force=yes"], "--force takes no value"),
        (["d", "--forse"], "did you mean --force?"),
        (["d", "--reel-background", "navy"], "--reel-background 'navy' is not a colour #RRGGBB"),
        (["d", "--reel-text", "#FFF"], "--reel-text '#FFF' is not a colour #RRGGBB"),
        (["d", "--reel-text", "#GGGGGG"], "--reel-text '#GGGGGG'"),
        (["d", "--reel-text"], "--reel-text needs a value"),
        (["d", "--reel-backgrund", "#000000"], "did you mean --reel-background?"),
    ])
    func refused(_ arguments: [String], _ message: String) {
        let error = #expect(throws: UsageError.self) { try ReelOptions.parse(arguments) }
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("reelProgress, reelSkipped and reelFinished as JSON lines, event first, and read back")
    func lines() throws {
        let events: [KioskEvent] = [.reelProgress(done: 1, total: 3), .reelSkipped(path: "/t/b.mov", reason: "it cannot be opened"),
                                    .reelFinished(path: "film.mp4", duration: 41.23456, takes: 3)]
        let lines = events.map { EventEncoder().line(for: $0) }
        #expect(lines[0] == #"{"event":"reelProgress","done":1,"total":3}"# + "\n")
        #expect(lines[2] == #"{"event":"reelFinished","path":"film.mp4","duration":41.235,"takes":3}"# + "\n")
        for (event, line) in zip(events, lines) {
            let read = try EventEncoder().decode(line: String(line.dropLast()))
            if case .reelFinished = event { #expect(read == .reelFinished(path: "film.mp4", duration: 41.235, takes: 3)) } else { #expect(read == event) }
        }
    }
}
