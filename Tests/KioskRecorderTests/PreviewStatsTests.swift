// KIOSK_STATS=1, what bench/preview reads: the stats lines on stderr, and stdout still events only.
import Foundation
import Testing
import KioskTestSupport
import KioskContract
import KioskCore

@Suite("kiosk-recorder preview stats (KIOSK_STATS)")
struct PreviewStatsTests {

    @Test("start, tap, each new mode on screen, exit; a tap on the record circle shows in the next present")
    func statsLines() throws {
        let r = try RecorderProcess(booth, environment: ["KIOSK_STATS": "1"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        guard case let .ready(_, _, _, _, orientation, _, _) = r.events[0] else { Issue.record("no ready"); return }
        let transform = DisplayTransform(physical: Size(width: 800, height: 480), orientation: orientation)
        let circle = transform.toPhysical(Layout(canvas: transform.logical).recordButton.center)
        // Ready on screen (its stats line), then the tap; recording on screen, then Stop.
        func onScreen(_ mode: String) -> Bool {
            r.waitForOutput(timeout: 20) {
                r.stderr.split(whereSeparator: \.isNewline).contains { line in
                    (try? JSONDecoder().decode(PreviewStatsLine.self, from: Data(line.utf8))).map { $0.stat == "mode" && $0.mode == mode } == true
                }
            }
        }
        #expect(onScreen("ready"), "\(r.stderr)")
        // The camera's pictures on it: the test pattern's bright bars across the middle.
        let folder = try testFolder("stats-lines")
        var shots = 0
        #expect(eventually(20) {
            shots += 1
            guard let shot = try? PromptEndToEndTests.take(r, folder.appendingPathComponent("ready-\(shots).bmp").path) else { return false }
            return stride(from: 100, to: 700, by: 20).contains { shot.brightness(x: $0, y: 240) > 100 }
        }, "no camera picture on the ready screen")
        r.send(#"{"command":"tap","x":\#(circle.x),"y":\#(circle.y)}"#)
        try #require(r.wait(for: "recordingStarted") != nil)
        #expect(onScreen("recording"), "\(r.stderr)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0)

        // Stdout is untouched: every line is an event.
        #expect(r.rawLines.count == r.events.count)
        #expect(r.names == ["ready", "recordingStarted", "recordingFinished"])
        let lines = r.stderr.split(whereSeparator: \.isNewline)
            .compactMap { try? JSONDecoder().decode(PreviewStatsLine.self, from: Data($0.utf8)) }
        #expect(lines.map { "\($0.stat) \($0.mode)" } == ["start ready", "mode ready", "tap ready", "mode recording", "mode finished", "exit finished"])
        guard lines.count == 6 else { return }
        #expect(lines[0].renderer != nil)
        #expect(lines[3].presents == lines[2].presents + 1, "the tap's effect is in the next present")
        #expect(lines[3].previewFrames > 0)
        #expect(lines.map(\.t) == lines.map(\.t).sorted())
    }

    @Test("an encoder slower than the camera (20 pictures a second of 30): while recording the preview draws at most 10 a second while the encoder is behind or the take stepped down, not 30, the log says why, and the file has every picture not counted skipped or dropped")
    func previewYieldsToEncoder() throws {
        let output = try testFolder("preview-yields").appendingPathComponent("take.mov").path
        let r = try RecorderProcess(["--camera", "test", "--microphone", "test", "--size", "640x360", "--windowed", "800x480",
                                     "--countdown", "0", "--video-encoder", TestEncoderName.slow, "--output", output],
                                    environment: ["KIOSK_STATS": "1", "KIOSK_TEST_ENCODERS": "1"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        // Three seconds on the booth's timer.
        #expect(r.waitRecorded(3))
        r.command("stop")
        try #require(r.wait(for: "recordingFinished", timeout: 30) != nil, "\(r.stderr)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        let lines = r.stderr.split(whereSeparator: \.isNewline)
            .compactMap { try? JSONDecoder().decode(PreviewStatsLine.self, from: Data($0.utf8)) }
        let recording = try #require(lines.first { $0.stat == "mode" && $0.mode == "recording" })
        let finished = try #require(lines.first { $0.stat == "mode" && $0.mode == "finished" })
        // From the first present of recording to the first of finished: the 3 s and the stop. At
        // most 10 a second while two or more pictures wait for the encoder, all 30 at the start
        // (before two wait) and as the queue empties after the stop: far under 30, over none.
        let rate = Double(finished.previewFrames - recording.previewFrames) / (finished.t - recording.t)
        #expect(rate <= 15 && rate >= 5, "\(rate) pictures a second drawn while recording (\(recording), \(finished))")
        #expect(r.said("the preview left"), "\(r.stderr)")
        let result = try #require(r.lastResult)
        #expect(result.success && result.encoder == TestEncoderName.slow, "\(result)")
        // The take stepped down to every 2nd picture (issue 35) before its queue filled: none
        // dropped, a third or more skipped by plan, counted, said.
        #expect(result.droppedFrames == 0 && result.skippedFrames >= 10, "\(result)")
        #expect(r.said("take: rate down to every 2nd picture"), "\(r.stderr)")
        // Every picture the camera gave is in the file or counted skipped or dropped.
        let frames = try #require(try pictureCount(output))
        let sent = Int((result.duration * 30).rounded())
        let missing = result.droppedFrames + result.skippedFrames
        #expect(abs(frames + missing - sent) <= 3, "\(frames) in the file, \(missing) skipped or dropped, \(sent) sent")
    }
}
