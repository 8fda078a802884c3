// The microphone's level through the binary: `state.microphoneLevel` moving with the test tone in
// ready and while recording, absent without a microphone, and `microphoneSilent` from a silent one.
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

@Suite("the microphone's meter, end to end", .serialized)
struct MicrophoneMeterEndToEndTests {
    /// `microphoneLevel` of every state reply so far.
    static func levels(_ r: RecorderProcess) -> [Double?] {
        r.events.compactMap { if case let .state(_, _, _, _, _, level, _, _, _, _, _) = $0 { level } else { nil } }
    }

    /// Asks `state`, each time its reply has come, until `enough` holds for the levels the replies
    /// carried and the last reply (at most `timeout`); those levels.
    static func poll(_ r: RecorderProcess, timeout: Double = 15, until enough: ([Double], KioskEvent) -> Bool) -> [Double] {
        let before = levels(r).count
        var got: [Double] = []
        _ = eventually(timeout) {
            let replies = levels(r).count
            r.command("state")
            guard r.wait(for: "state", count: replies + 1, timeout: 5) != nil,
                  let last = r.events.last(where: { $0.name == "state" }) else { return true }
            got = levels(r).dropFirst(before).compactMap { $0 }
            return enough(got, last)
        }
        return got
    }

    /// The beeps (≥ −12 dBFS) and the silence between (≤ −60) both among `levels`.
    static func beepsAndSilence(_ levels: [Double]) -> Bool { (levels.max() ?? -200) >= -12 && (levels.min() ?? 0) <= -60 }

    @Test("the test tone: microphoneLevel reaches the beeps (≥ −12 dBFS) and the silence between (≤ −60) in ready and while recording; no microphoneSilent; absent with --microphone none")
    func levelMovesWithTheTone() throws {
        let folder = try testFolder("meter")
        let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("take.mov").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let ready = Self.poll(r) { levels, _ in levels.count > 20 && Self.beepsAndSilence(levels) }
        #expect(ready.count > 20 && (ready.max() ?? -200) >= -12 && (ready.min() ?? 0) <= -60, "ready: \(ready)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil)
        // Past the 3 s a silence would need to be called one, with both in the levels.
        let recording = Self.poll(r) { levels, last in
            guard case let .state(mode, timer, _, _, _, _, _, _, _, _, _) = last else { return false }
            return Self.beepsAndSilence(levels) && mode == "recording" && (RecorderProcess.seconds(timer) ?? 0) >= 4
        }
        #expect((recording.max() ?? -200) >= -12 && (recording.min() ?? 0) <= -60, "recording: \(recording)")
        #expect(!r.names.contains("microphoneSilent"), "beeps every second are not silence")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0)

        let none = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "none", "--windowed", "800x480", "--countdown", "0",
                                        "--output", folder.appendingPathComponent("none.mov").path])
        try #require(none.wait(for: "ready") != nil)
        none.command("state")
        try #require(none.wait(for: "state") != nil)
        #expect(Self.levels(none) == [nil], "no microphone, no level: \(none.rawLines)")
        #expect(!(none.rawLines.last ?? "").contains("microphoneLevel"))
        none.command("quit")
        #expect(none.exitStatus() == 0)
    }

    @Test("a silent microphone (the fake ALSA microphone, `silent 1`): microphoneSilent once, about 3 s into the take")
    func silence() throws {
        let folder = try testFolder("meter-silent")
        let plugin = TestEnvironment.fakeMicrophonePlugin
        try #require(FileManager.default.fileExists(atPath: plugin), "build the package first (swift build)")
        try """
            pcm_type.kiosk_fake_microphone { lib "\(plugin)" }
            pcm.kiosk_fake_mic { type kiosk_fake_microphone  silent 1 }
            """.write(to: folder.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "kiosk_fake_mic", "--windowed", "800x480", "--countdown", "0",
                                     "--output", folder.appendingPathComponent("take.mov").path], environment: ["HOME": folder.path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        let started = try #require(r.wait(for: "recordingStarted"), "\(r.rawLines) \(r.stderr)")
        let silent = try #require(r.wait(for: "microphoneSilent", timeout: 20), "\(r.rawLines) \(r.stderr)")
        // After 3 s of silence, never before; the upper margin is a loaded machine's (the rule's
        // timing itself is the core's, on virtual time).
        #expect(silent - started >= 2.9 && silent - started <= 6.0, "after \(silent - started) s")
        // 1.5 s more of the take, as the booth counts it, without a second one.
        #expect(r.waitRecorded(4.5), "\(r.rawLines.suffix(3))")
        #expect(r.names.filter { $0 == "microphoneSilent" }.count == 1)
        let replies = Self.levels(r).count
        r.command("state")
        try #require(r.wait(for: "state", count: replies + 1) != nil)
        #expect((Self.levels(r).last ?? 0) ?? 0 <= -60)
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}

@Suite("the microphone at launch, through the binary")
struct MicrophoneAtLaunchEndToEndTests {
    static func ready(_ r: RecorderProcess) -> String?? {
        for case let .ready(_, _, _, _, _, _, microphone) in r.events { return .some(microphone) }
        return nil
    }

    @Test("a microphone that is not there: microphoneUnavailable (with ALSA's own words, none raw on stderr) before ready, ready says none, and a take still records (without sound)")
    func missing() throws {
        let folder = try testFolder("mic-missing")
        let output = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "kiosk_no_such_pcm", "--windowed", "800x480", "--countdown", "0",
                                     "--output", output])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let names = r.events.map(\.name)
        let error = try #require(names.firstIndex(of: "error"), "\(r.rawLines)")
        #expect(error < names.firstIndex(of: "ready")!, "the error comes before ready: \(names)")
        #expect(r.events.contains { if case let .error(.microphoneUnavailable, message) = $0 { message.contains("kiosk_no_such_pcm") } else { false } },
                "\(r.events)")
        #expect(Self.ready(r) == .some("none"), "\(r.rawLines)")
        // ALSA's own words are in that one error, not raw lines on stderr.
        #expect(r.events.contains { if case let .error(.microphoneUnavailable, message) = $0 { message.contains("Unknown PCM") } else { false } })
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines)")
        try #require(r.waitRecorded(1), "\(r.rawLines)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0)
        #expect(try ffprobe(output, "stream=codec_type") == "video", "a picture, no sound track")
        #expect(!r.stderr.contains("ALSA lib "), "\(r.stderr)")
    }

    @Test("ready names the microphone the takes will have: test, or none when none is asked for (and no error then)",
          arguments: [("test", "test"), ("none", "none")])
    func named(choice: String, expected: String) throws {
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", choice, "--windowed", "800x480",
                                     "--output", try testFolder("mic-named-\(choice)").appendingPathComponent("t.mov").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        #expect(Self.ready(r) == .some(expected), "\(r.rawLines)")
        #expect(!r.events.contains { $0.name == "error" }, "\(r.rawLines)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
