// The operator closing and opening the booth through the binary and its control socket (`send`):
// closeBooth mid-take keeps the take (it plays, ffprobe reads it, it is listed in the output folder),
// then boothClosed and the back-soon words alone on the booth's own screenshot; a guest's start is
// refused with notAllowed; SIGUSR2 and a reload leave it closed (the reload's words on screen);
// openBooth brings ready back and a take works again; closed over a review, that take is kept too.
import Foundation
import Testing
import KioskContract
import KioskCore
import KioskTestSupport

@Suite("the closed booth, end to end", .serialized)
struct ClosedBoothEndToEndTests {
    typealias Shots = PromptEndToEndTests
    static let layout = Layout(canvas: Size(width: 800, height: 480))

    /// `send COMMAND` to the booth's socket: its exit status and the last line's event name.
    static func send(_ command: String, _ socket: String) throws -> (status: Int32, last: String?, stdout: String) {
        let sent = try run(["send", command, "--control-socket", socket])
        return (sent.status, sent.stdout.split(separator: "\n").last.map { SocketClient.name(String($0)) }, sent.stdout)
    }

    /// The near-white pixels in the screen's middle (the message's box), and whether everything
    /// else (the panels, the buttons' places, the corners) is black: the closed screen.
    static func closedScreen(_ r: RecorderProcess, _ path: String) throws -> (words: Int, restBlack: Bool) {
        let shot = try Shots.take(r, path)
        let middle = shot.measure(Rect(x: 100, y: 140, width: 600, height: 200)).white
        let rest = [layout.topPanel, layout.leftButton, layout.rightButton, layout.recordButton, Rect(x: 0, y: 0, width: 60, height: 60),
                    Rect(x: 740, y: 420, width: 60, height: 60)]
        return (middle, rest.allSatisfy { shot.measure($0).mean < 8 })
    }

    /// The takes the output folder lists (its `.kiosk-recorder.takes` ledger: the library's, reel's and retention's).
    static func listed(_ takes: String) -> [String] {
        let ledger = (try? String(contentsOfFile: takes + "/.kiosk-recorder.takes", encoding: .utf8)) ?? ""
        return ledger.split(separator: "\n").compactMap { $0.split(separator: "\t").dropFirst().first.map(String.init) }
    }

    @Test("closeBooth mid-take: the take kept (plays, ffprobe, listed, no marker), boothClosed, back soon alone on screen; start refused (notAllowed, send exits 1); SIGUSR2 and a reload leave it closed; openBooth: ready, a take again; closed over a review (on stdin), that take is kept too")
    func closeMidTake() throws {
        let folder = try testFolder("closed-booth")
        let takes = folder.appendingPathComponent("takes").path, socket = folder.appendingPathComponent("booth.sock").path
        let conf = folder.appendingPathComponent("kiosk.conf")
        try "label.back-soon = Back soon\n".write(to: conf, atomically: true, encoding: .utf8)
        let r = try RecorderProcess(booth + ["--config", conf.path, "--output-dir", takes, "--session", "loop", "--control-socket", socket])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil && r.waitRecorded(1.5), "\(r.stderr)")

        let closing = try Self.send("closeBooth", socket)
        #expect(closing.status == 0 && closing.last == "state", "\(closing.stdout)")
        try #require(r.wait(for: "boothClosed") != nil, "\(r.names) \(r.stderr)")
        guard case let .recordingFinished(result)? = r.events.first(where: { $0.name == "recordingFinished" }) else {
            Issue.record("no recordingFinished: \(r.names)"); return
        }
        #expect(result.reason == .background && result.success, "\(result)")
        #expect(r.names.firstIndex(of: "recordingFinished")! < r.names.firstIndex(of: "boothClosed")!, "\(r.names)")
        // Kept: recovered as a take nobody decided on, listed, its marker gone; it plays to its end.
        try #require(r.wait(for: "recordingRecovered") != nil, "\(r.names)")
        guard case let .recordingRecovered(path, duration)? = r.events.first(where: { $0.name == "recordingRecovered" }) else { return }
        #expect(path == result.outputPath && duration > 1, "\(path) \(duration)")
        #expect(try decodesCleanly(path))
        #expect((Double(try ffprobe(path, "format=duration")) ?? 0) > 1)
        let name = URL(fileURLWithPath: path).lastPathComponent
        #expect(Self.listed(takes) == [name])
        #expect(!FileManager.default.fileExists(atPath: takes + "/." + name + ".recording"))

        // The closed screen: the back-soon words in the middle, black everywhere else.
        #expect(r.waitForState { mode, buttons in mode == "closed" && buttons.isEmpty })
        var screen = (words: 0, restBlack: false)
        #expect(eventually(5) { screen = (try? Self.closedScreen(r, folder.appendingPathComponent("closed-\(UUID()).bmp").path)) ?? screen
                               return screen.words > 50 && screen.restBlack }, "\(screen)")
        // A guest's start: refused.
        let start = try Self.send("start", socket)
        #expect(start.status == 1 && start.stdout.contains(#""code":"notAllowed""#), "\(start.stdout)")
        // SIGUSR2 (the foreground) and a reload with other words: still closed, the new words shown.
        r.kill(SIGUSR2)
        try "label.back-soon = The booth is closed for a short while: we are back in a few minutes, thank you!\n"
            .write(to: conf, atomically: true, encoding: .utf8)
        r.kill(SIGHUP)
        var reloaded = screen
        #expect(eventually(10) { reloaded = (try? Self.closedScreen(r, folder.appendingPathComponent("reloaded-\(UUID()).bmp").path)) ?? reloaded
                                 return reloaded.restBlack && reloaded.words > screen.words * 2 }, "\(screen) → \(reloaded)")
        #expect(r.waitForState { mode, _ in mode == "closed" })
        #expect(!r.names.contains("boothOpened") && r.count(of: "recordingStarted") == 1, "\(r.names)")

        // Open: ready, and a take works again; closed over its review, that take is kept too.
        let opening = try Self.send("openBooth", socket)
        #expect(opening.status == 0 && opening.stdout.contains(#""event":"boothOpened""#), "\(opening.stdout)")
        #expect(r.waitForState { mode, buttons in mode == "ready" && buttons.contains(.start) })
        r.command("start")
        try #require(r.wait(for: "recordingStarted", count: 2) != nil && r.waitRecorded(1), "\(r.stderr)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished", count: 2) != nil, "\(r.stderr)")
        r.command("closeBooth") // on stdin this time, as a parent sends it
        try #require(r.wait(for: "recordingRecovered", count: 2) != nil && r.wait(for: "boothClosed", count: 2) != nil, "\(r.names)")
        let kept = r.events.compactMap { if case let .recordingRecovered(path, _) = $0 { path } else { nil } }
        #expect(kept.count == 2 && kept.allSatisfy { (try? decodesCleanly($0)) == true }, "\(kept)")
        #expect(Self.listed(takes) == kept.map { URL(fileURLWithPath: $0).lastPathComponent })
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
