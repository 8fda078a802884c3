// KIOSK_STATS=1, what bench/preview reads: the stats lines on stderr, and stdout still events only.
import Foundation
import Testing
import KioskCore

@Suite("kiosk-recorder preview stats (KIOSK_STATS)")
struct PreviewStatsTests {

    @Test("start, tap, each new mode on screen, exit; a tap on the record circle shows in the next present")
    func statsLines() throws {
        let r = try RecorderProcess(booth, environment: ["KIOSK_STATS": "1"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        guard case let .ready(_, _, _, _, orientation, _) = r.events[0] else { Issue.record("no ready"); return }
        let transform = DisplayTransform(physical: Size(width: 800, height: 480), orientation: orientation)
        let circle = transform.toPhysical(Layout(canvas: transform.logical).recordButton.center)
        Thread.sleep(forTimeInterval: 0.5)
        r.send(#"{"command":"tap","x":\#(circle.x),"y":\#(circle.y)}"#)
        try #require(r.wait(for: "recordingStarted") != nil)
        Thread.sleep(forTimeInterval: 0.5)
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
}
