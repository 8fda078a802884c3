// The real kiosk-recorder without --output (issue 30): the private folder it makes in TMPDIR goes
// again when the run leaves without a take to keep; a kept take keeps it; a kill -9 leaves it as it was.
import Foundation
import KioskContract
import KioskCore
import KioskTestSupport
import Testing

@Suite("kiosk-recorder's private folder")
struct LeftoversEndToEndTests {
    /// A booth without --output whose TMPDIR is a fresh folder of its own; that folder.
    static func launch(_ name: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> (RecorderProcess, URL) {
        let temporary = try testFolder("leftovers-" + name)
        let r = try RecorderProcess(booth + arguments, environment: environment.merging(["TMPDIR": temporary.path]) { $1 })
        return (r, temporary)
    }

    /// Everything under `folder`, as paths relative to it, sorted.
    static func contents(_ folder: URL) -> [String] {
        ((FileManager.default.subpaths(atPath: folder.path)) ?? []).sorted()
    }

    /// The private folder's name in `temporary` (the one `kiosk-recorder-XXXXXX` there).
    static func privateFolder(_ temporary: URL) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("kiosk-recorder-") }
        try #require(names.count == 1, "\(names)")
        return names[0]
    }

    enum Leave: String, CaseIterable, CustomTestStringConvertible {
        case cancel, quit, sigterm, sigint, retakeThenCancel, idleReset
        var testDescription: String { rawValue }
    }

    @Test("leaving without a take to keep (Cancel, quit, SIGTERM, SIGINT, a take retaken then Cancel, one an idle reset discards): nothing is left in TMPDIR",
          arguments: Leave.allCases)
    func nothingLeft(leave: Leave) throws {
        let (r, temporary) = try Self.launch("\(leave)", leave == .idleReset ? ["--idle-timeout", "1", "--idle-action", "discard"] : [])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        // While it runs, the take's folder is there with its lock.
        let folder = try Self.privateFolder(temporary)
        #expect(Self.contents(temporary) == [folder, "\(folder)/.output.mov.lock"])
        switch leave {
        case .cancel: r.command("cancel")
        case .quit: r.command("quit")
        case .sigterm: r.kill(SIGTERM)
        case .sigint: r.kill(SIGINT)
        case .retakeThenCancel, .idleReset:
            _ = try ServiceEndToEndTests.take(r, seconds: 1)
            // The idle reset discards the take a second later, and the session ends as on Cancel.
            if leave == .retakeThenCancel {
                r.command("retake")
                r.command("cancel")
            }
        }
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        #expect(Self.contents(temporary) == [], "\(r.names)")
    }

    @Test("a launch that fails after the folder was made (no display: exit 3) leaves nothing either")
    func failedLaunch() throws {
        let (r, temporary) = try Self.launch("no-display", environment: ["SDL_VIDEODRIVER": "nowhere"])
        #expect(r.exitStatus() == 3, "\(r.stderr)")
        #expect(Self.contents(temporary) == [])
    }

    @Test("a used take stays in its folder, at the path the outcome gave, without its marker; only the lock file goes")
    func usedTakeStays() throws {
        let (r, temporary) = try Self.launch("used")
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        _ = try ServiceEndToEndTests.take(r, seconds: 1.5)
        r.command("useVideo")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        let folder = try Self.privateFolder(temporary)
        #expect(Self.contents(temporary) == [folder, "\(folder)/output.mov"])
        let handed = r.events.compactMap { if case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path) = $0 { path } else { nil } }
        #expect(handed == [temporary.appendingPathComponent("\(folder)/output.mov").path], "\(r.names)")
        if let path = handed.first { #expect(try decodesCleanly(path)) }
    }

    @Test("a loop session's used takes stay (their hand-over names), the next guest's take retaken goes")
    func loopTakesStay() throws {
        let (r, temporary) = try Self.launch("loop", ["--session", "loop"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        for (count, answer) in [(1, "useVideo"), (2, "retake")] {
            r.command("start")
            try #require(r.wait(for: "recordingStarted", count: count) != nil)
            try #require(r.waitRecorded(1), "\(r.stderr)")
            r.command("stop")
            try #require(r.wait(for: "recordingFinished", count: count) != nil)
            r.command(answer)
        }
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        let folder = try Self.privateFolder(temporary)
        let handed = r.events.compactMap { if case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path) = $0 { path } else { nil } }
        #expect(handed.count == 1 && FileManager.default.fileExists(atPath: handed[0]), "\(handed)")
        #expect(Self.contents(temporary) == [folder] + handed.map { "\(folder)/" + URL(fileURLWithPath: $0).lastPathComponent }, "\(Self.contents(temporary))")
    }

    @Test("a take a signal ends mid-take, or the background, is kept with its marker (the parent was told its path) when the run ends unused; only the lock file goes",
          arguments: [StopReason.signal, .background])
    func unusedTakeStays(reason: StopReason) throws {
        let (r, temporary) = try Self.launch("unused-\(reason)")
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil)
        try #require(r.waitRecorded(1.5), "\(r.stderr)")
        if reason == .signal {
            r.kill(SIGTERM)
        } else {
            r.kill(SIGUSR1)
            try #require(r.wait(for: "recordingFinished") != nil)
            r.command("quit")
        }
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        #expect(r.events.contains { if case let .recordingFinished(result) = $0 { result.reason == reason && result.success } else { false } }, "\(r.names)")
        let folder = try Self.privateFolder(temporary)
        #expect(Self.contents(temporary) == [folder, "\(folder)/.output.mov.recording", "\(folder)/output.mov"])
        #expect(try decodesCleanly(temporary.appendingPathComponent("\(folder)/output.mov").path))
    }

    @Test("kill -9 mid-take is no clean leave: the folder stays as it was, the take cut at its last fragment, its marker and the lock file")
    func killNineLeavesAll() throws {
        let (r, temporary) = try Self.launch("kill-9")
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil)
        try #require(r.waitRecorded(1.5), "\(r.stderr)")
        r.kill(SIGKILL)
        #expect(r.exitStatus() != 0)
        let folder = try Self.privateFolder(temporary)
        #expect(Self.contents(temporary) == [folder, "\(folder)/.output.mov.lock", "\(folder)/.output.mov.recording", "\(folder)/output.mov"])
        #expect(try decodesCleanly(temporary.appendingPathComponent("\(folder)/output.mov").path))
    }
}
