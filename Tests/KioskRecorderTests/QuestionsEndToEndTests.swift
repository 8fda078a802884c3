// The guestbook's questions through the release binary (issue 44): `--questions` in order and
// shuffled over a loop session's guests, each take's events and its file's title tag naming the
// question it was made under.
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskScreenText
import KioskTestSupport

@Suite("the guestbook's questions end to end")
struct QuestionsEndToEndTests {
    static let questions = ["What is your best memory of Anna?", "Any advice for the couple?", "ふたりへのメッセージを"]

    /// A loop booth asking `questions` (`order`), `takes` guests each recording about a second and
    /// pressing Use Video: the booth, and the `state` reply each guest saw in ready before Start.
    static func guests(_ name: String, order: String, takes: Int) throws -> (RecorderProcess, [KioskEvent]) {
        let folder = try testFolder(name)
        let file = folder.appendingPathComponent("questions.txt")
        try ("# the hosts' questions\n" + questions.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let r = try RecorderProcess(booth + ["--session", "loop", "--questions", file.path, "--question-order", order,
                                             "--output-dir", folder.appendingPathComponent("takes").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        var seen: [KioskEvent] = []
        for n in 1...takes {
            let replies = r.names.filter { $0 == "state" }.count
            r.command("state")
            try #require(r.wait(for: "state", count: replies + 1) != nil)
            seen.append(try #require(r.events.last { $0.name == "state" }))
            r.command("start")
            try #require(r.wait(for: "recordingStarted", count: n) != nil, "\(r.stderr)")
            try #require(r.waitRecorded(1), "\(r.stderr)")
            r.command("stop")
            try #require(r.wait(for: "recordingFinished", count: n) != nil)
            r.command("useVideo")
            try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: n) != nil, "\(r.stderr)")
        }
        return (r, seen)
    }

    @Test("a question longer than the prompt may be (5,000 characters) and a questions file that is a folder each exit 2 at launch, naming --questions, the line, and no config file")
    func refusedQuestions() throws {
        let folder = try testFolder("questions-refused")
        let long = folder.appendingPathComponent("long.txt")
        try ("What is your best memory of Anna?\n" + String(repeating: "Why? ", count: 1_000) + "\n").write(to: long, atomically: true, encoding: .utf8)
        for (path, words) in [(long.path, "--questions: '\(long.path)':2: a question of 4999 characters; each may have at most 200"),
                              (folder.path, "--questions: '\(folder.path)' is a folder, not a text file")] {
            let result = try run(booth + ["--questions", path])
            #expect(result.status == 2 && result.stderr.contains(words), "\(result.stderr)")
            #expect(!result.stderr.contains("config"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// The question each event named `name` carried, in order ("none" for one without).
    static func asked(_ r: RecorderProcess, _ name: String) -> [String] {
        r.events.filter { $0.name == name }.map { if case let .asked(_, question) = $0 { question } else { "none" } }
    }

    @Test("three questions in order over 4 guests: question 1 again for the 4th; recordingStarted, recordingFinished, the outcome and state in ready name it, and each take's file has it as its title")
    func inOrder() throws {
        let (r, seen) = try Self.guests("questions-order", order: "order", takes: 4)
        let expected = Self.questions + [Self.questions[0]]
        #expect(Self.asked(r, "recordingStarted") == expected)
        #expect(Self.asked(r, "recordingFinished") == expected)
        #expect(Self.asked(r, "videoRecorderDidFinishRecordingVideoWithOutputPath") == expected)
        #expect(seen.map { if case let .asked(_, question) = $0 { question } else { "none" } } == expected, "state in ready")
        let outcomes = r.events.compactMap { event -> String? in
            if case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path) = event.unasked { path } else { nil }
        }
        #expect(try outcomes.map { try ffprobe($0, "format_tags=title") } == expected, "the files' title tags")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("with --share-dir the take's share page shows its question, escaped as HTML")
    func onSharePage() throws {
        let folder = try testFolder("questions-share")
        let file = folder.appendingPathComponent("questions.txt")
        try "Your wish for <Anna & Tom>?\n".write(to: file, atomically: true, encoding: .utf8)
        let r = try RecorderProcess(booth + ["--questions", file.path, "--output", folder.appendingPathComponent("take.mov").path,
                                             "--share-dir", folder.appendingPathComponent("share").path,
                                             "--share-url", "http://10.42.0.1/s/{token}/", "--share-seconds", "1"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        try #require(r.waitRecorded(1), "\(r.stderr)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("useVideo")
        try #require(r.wait(for: "takeShared") != nil, "\(r.rawLines) \(r.stderr)")
        guard case let .takeShared(_, _, shared, _)? = r.events.first(where: { $0.name == "takeShared" })?.unasked else {
            throw QuestionsFailure("no takeShared: \(r.rawLines)")
        }
        #expect(try PhoneFile.problems(shared + "/video.mp4", rotation: nil) == [])
        let page = try String(contentsOfFile: shared + "/index.html", encoding: .utf8)
        #expect(page.contains("Your wish for &lt;Anna &amp; Tom&gt;?") && !page.contains("<Anna"), "\(page)")
        #expect(r.exitStatus(timeout: 10) == 0)
    }

    struct QuestionsFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("shuffle over 6 guests: each question exactly twice, the first three all different")
    func shuffled() throws {
        let (r, _) = try Self.guests("questions-shuffle", order: "shuffle", takes: 6)
        let asked = Self.asked(r, "recordingStarted")
        #expect(asked.count == 6 && Set(asked.prefix(3)).count == 3, "\(asked)")
        #expect(Self.questions.allSatisfy { q in asked.filter { $0 == q }.count == 2 }, "\(asked)")
        #expect(Self.asked(r, "videoRecorderDidFinishRecordingVideoWithOutputPath") == asked)
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("the ready screen's top band with a question differs from the same booth's without one: the question's box and its white words over the test picture")
    func onScreen() throws {
        let folder = try testFolder("questions-screen")
        let file = folder.appendingPathComponent("questions.txt")
        try "What is your best memory of the two of them?\n".write(to: file, atomically: true, encoding: .utf8)
        let band = Rect(x: 120, y: 20, width: 560, height: 90)
        var bands: [(mean: Double, white: Int)] = []
        for asked in [false, true] {
            let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("take-\(asked).mov").path]
                                        + (asked ? ["--questions", file.path] : []))
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            // Once the camera picture is up (a busy machine's first shot may be the black before it).
            let shot = try PromptEndToEndTests.pictureShot(r, folder.appendingPathComponent("ready-\(asked).bmp").path)
            bands.append(shot.measure(band))
            r.command("quit")
            #expect(r.exitStatus() == 0)
        }
        #expect(bands[1].white > bands[0].white + 500, "white pixels in the top band: \(bands[0].white) without, \(bands[1].white) with the question")
        #expect(abs(bands[1].mean - bands[0].mean) > 5, "the band's brightness: \(bands[0].mean) without, \(bands[1].mean) with")
    }
}
