// What a person sees from the real binary when something is wrong (issue 30): each mistake exits
// with its documented status and one line on stderr that says plainly what is wrong, nothing on
// stdout (the player's error event aside, which is the contract's).
import Foundation
import KioskTestSupport
import Testing

@Suite("kiosk-recorder messages")
struct MessagesEndToEndTests {
    /// Runs the recorder, expecting exit 2, nothing on stdout and one message (and the hint to
    /// --help) on stderr; returns the message.
    static func refused(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let r = try run(arguments, environment: environment)
        #expect(r.status == 2, "\(arguments): \(r.status) \(r.stderr)")
        #expect(r.stdout.isEmpty, "\(arguments): \(r.stdout)")
        #expect(r.stderr.hasPrefix("kiosk-recorder: ") && r.stderr.hasSuffix("\nTry 'kiosk-recorder --help'.\n"), "\(arguments): \(r.stderr)")
        return r.stderr.components(separatedBy: "\n")[0]
    }

    @Test("a typo in an option, a config key or a mode is answered with the real name")
    func didYouMean() throws {
        #expect(try Self.refused(["--max-durations", "60"]) == "kiosk-recorder: unknown option '--max-durations' (did you mean --max-duration?)")
        #expect(try Self.refused(["--camera", "test", "--widowed"]) == "kiosk-recorder: unknown option '--widowed' (did you mean --windowed?)")
        let file = try testFolder("messages-typo").appendingPathComponent("kiosk.conf")
        try "camera = test\nsesion = loop\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try Self.refused(["--config", file.path]) == "kiosk-recorder: \(file.path):2: unknown key 'sesion' (did you mean session?)")
        #expect(try Self.refused(["chek"]).hasPrefix("kiosk-recorder: unexpected argument 'chek': did you mean check?"))
    }

    @Test("--label.start (the record circle shows no words) still starts a booth, saying on stderr that it changes nothing")
    func labelStartWarns() throws {
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "none", "--windowed", "800x480", "--label.start", "Go",
                                     "--output", try testFolder("label-start").appendingPathComponent("t.mov").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        #expect(r.said("--label.start: label.start changes nothing: the record button is a circle without words"), "\(r.stderr)")
    }

    @Test("-h is --help")
    func shortHelp() throws {
        let short = try run(["-h"]), long = try run(["--help"])
        #expect(short.status == 0 && short.stderr.isEmpty)
        #expect(short.stdout == long.stdout && short.stdout.hasPrefix("Usage: kiosk-recorder"))
    }

    @Test("--help names every exit status the program uses: 0, 1, 2 and 3")
    func helpExitStatuses() throws {
        let help = try run(["--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        let statuses = try #require(help.components(separatedBy: "Exit status: ").dropFirst().first?.components(separatedBy: ". ").first)
        #expect(statuses.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).prefix(2) } == ["0 ", "1 ", "2 ", "3 "], "\(statuses)")
    }

    @Test("--windowed with a size that is not WxH says so, naming --windowed")
    func windowedSize() throws {
        #expect(try Self.refused(["--windowed", "800x480x"]) == "kiosk-recorder: --windowed: '800x480x' is not a size WxH, like 1280x720")
    }

    @Test("--output naming a folder says it is a folder and points to --output-dir, with or without .mov in its name")
    func outputFolder() throws {
        let folder = try testFolder("messages-output")
        let named = folder.appendingPathComponent("takes.mov")
        try FileManager.default.createDirectory(at: named, withIntermediateDirectories: true)
        for path in [folder.path, folder.path + "/", named.path] {
            let message = try Self.refused(["--camera", "test", "--microphone", "none", "--output", path])
            #expect(message.hasPrefix("kiosk-recorder: --output: '\(path)' is a folder; name a file in it"), "\(message)")
            #expect(message.contains("or use --output-dir "), "\(message)")
        }
    }

    @Test("an encoder FFmpeg does not have is refused at launch with the H.264 encoders it has; auto, one it has and the test-only ones (when enabled) are taken")
    func unknownEncoder() throws {
        let message = try Self.refused(["--camera", "test", "--microphone", "none", "--video-encoder", "h265"])
        #expect(message.hasPrefix("kiosk-recorder: --video-encoder: 'h265' is not an H.264 encoder of this FFmpeg (auto or one of libx264"), "\(message)")
        #expect(try Self.refused(["list-cameras", "--video-encoder", TestEncoderName.stalling]).contains("'\(TestEncoderName.stalling)' is not an H.264 encoder"))
        for (name, environment) in [("auto", [:]), ("libx264", [:]), ("h264_vaapi", [:]), (TestEncoderName.stalling, ["KIOSK_TEST_ENCODERS": "1"])] {
            let r = try run(["list-cameras", "--video-encoder", name], environment: environment)
            #expect(r.status == 0, "\(name): \(r.stderr)")
        }
    }

    @Test("--play of a file that is missing or no movie: its error event and exit 1, no playbackStarted before it")
    func playMissing() throws {
        let folder = try testFolder("messages-play")
        let text = folder.appendingPathComponent("notes.mov")
        try "not a movie\n".write(to: text, atomically: true, encoding: .utf8)
        for (path, why) in [(folder.appendingPathComponent("missing.mov").path, "No such file or directory"), (text.path, "Invalid data")] {
            let r = try run(["--play", path])
            #expect(r.status == 1, "\(path): \(r.stderr)")
            let lines = r.stdout.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix(#"{"event":"error","code":"playbackFailed","message":"cannot open "#), "\(r.stdout)")
            #expect(!r.stdout.contains("playbackStarted"))
            #expect(r.stderr.contains("kiosk-recorder: --play: cannot open \(path): \(why)"), "\(r.stderr)")
        }
    }
}
