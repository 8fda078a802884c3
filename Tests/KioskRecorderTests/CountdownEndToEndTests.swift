// The countdown through the binary: Start → countdown 3, 2, 1 a second apart → recordingStarted a
// second after the 1; Cancel during the count; a start command with its own countdown.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("the countdown, end to end", .serialized)
struct CountdownEndToEndTests {
    static let base = ["--camera", "test", "--microphone", "test", "--windowed", "800x480"]

    /// When each event named `name` arrived.
    static func times(_ r: RecorderProcess, _ name: String) -> [Double] {
        r.timedEvents.filter { $0.event.name == name }.map(\.at)
    }

    @Test("Start (the default --countdown 3): countdown 3, 2, 1 a second apart (±50 ms), recordingStarted a second after the 1; state is countdown with only Cancel")
    func countsDown() throws {
        let folder = try testFolder("countdown")
        let r = try RecorderProcess(Self.base + ["--output", folder.appendingPathComponent("take.mov").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "countdown") != nil)
        r.command("state")
        try #require(r.wait(for: "recordingStarted", timeout: 6) != nil, "\(r.rawLines)")
        let counts = r.events.compactMap { if case let .countdown(n) = $0 { n } else { nil } }
        #expect(counts == [3, 2, 1])
        let ticks = Self.times(r, "countdown"), started = Self.times(r, "recordingStarted")
        let marks = ticks + started
        for (a, b) in zip(marks, marks.dropFirst()) {
            #expect(abs(b - a - 1) <= 0.05, "a second apart: \(marks.map { $0 - marks[0] })")
        }
        guard case let .state(mode, _, buttons, _)? = r.events.first(where: { $0.name == "state" }) else {
            Issue.record("no state: \(r.rawLines)"); return
        }
        #expect(mode == "countdown" && buttons == [.cancel])
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
    }

    @Test("Cancel during the count: back to ready with no cancel event and no take; a start with countdown 0 starts at once")
    func cancelAndSkip() throws {
        let folder = try testFolder("countdown-cancel")
        let output = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(Self.base + ["--output", output, "--countdown", "5"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "countdown", count: 2) != nil)
        r.command("cancel")
        r.command("state")
        try #require(r.wait(for: "state") != nil)
        guard case let .state(mode, _, buttons, _)? = r.events.last(where: { $0.name == "state" }) else { return }
        #expect(mode == "ready" && buttons == [.cancel, .start])
        Thread.sleep(forTimeInterval: 1.5)
        #expect(!r.names.contains("recordingStarted") && !r.names.contains("videoRecorderDidCancelRecordingVideo"), "\(r.rawLines)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(r.process.isRunning)

        let before = r.names.filter { $0 == "countdown" }.count
        let asked = ProcessInfo.processInfo.systemUptime
        r.send(#"{"command":"start","countdown":0}"#)
        let started = try #require(r.wait(for: "recordingStarted"))
        #expect(started - asked < 0.5, "no countdown: \(started - asked) s")
        #expect(r.names.filter { $0 == "countdown" }.count == before)
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        // A bad countdown is a bad command, nothing else.
        let bad = try RecorderProcess(Self.base + ["--output", folder.appendingPathComponent("b.mov").path])
        try #require(bad.wait(for: "ready") != nil)
        bad.send(#"{"command":"start","countdown":-1}"#)
        try #require(bad.wait(for: "error") != nil)
        #expect(bad.events.contains { if case .error(.badCommand, _) = $0 { true } else { false } })
        bad.command("quit")
        #expect(bad.exitStatus() == 0)
    }
}
