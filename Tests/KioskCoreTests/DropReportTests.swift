// Where a finished take's missing pictures went, by table: the encoder behind, the backlog after the
// whole process stood still, the camera; the take's `droppedFrames` counts all three.
import KioskCore
import Testing
import KioskContract

@Suite("DropReport: a take's lost pictures, told apart")
struct DropReportTests {
    static func result(dropped: Int, afterStall: Int) -> RecordingResult {
        RecordingResult(outputPath: "/t/take.mov", duration: 10, bytes: 1, reason: .user, success: true,
                        droppedFrames: dropped, droppedAfterStall: afterStall)
    }

    @Test("nothing lost: no line, 0 in all")
    func nothing() {
        let report = DropReport(result: Self.result(dropped: 0, afterStall: 0), cameraDropped: 0, stalls: [], previewLeft: nil)
        #expect(report.total == 0 && report.lines.isEmpty)
    }

    @Test("the encoder's, the stall's and the camera's drops are counted apart and together", arguments: [
        (5, 0, 0, 5, "5 pictures dropped: 5 while the encoder was behind"),
        (5, 3, 0, 5, "5 pictures dropped: 2 while the encoder was behind (its queue full), 3 in the backlog"),
        (0, 0, 4, 4, "4 pictures dropped: 0 while the encoder was behind (its queue full), 0 in the backlog just after the process stood still, 4 the camera"),
        (2, 1, 3, 5, "5 pictures dropped: 1 while the encoder was behind (its queue full), 1 in the backlog just after the process stood still, 3 the camera"),
    ])
    func counts(dropped: Int, afterStall: Int, camera: Int, total: Int, line: String) {
        let report = DropReport(result: Self.result(dropped: dropped, afterStall: afterStall), cameraDropped: camera, stalls: [], previewLeft: nil)
        #expect(report.total == total)
        #expect(report.lines.count == 1 && report.lines[0].hasPrefix(line), "\(report.lines)")
    }

    @Test("a stall is named with its length; a preview that yielded says why, by whether the process stood still")
    func stallsAndPreview() {
        let stalled = DropReport(result: Self.result(dropped: 3, afterStall: 3), cameraDropped: 0, stalls: [3_000_000_000], previewLeft: 12)
        #expect(stalled.lines.count == 3, "\(stalled.lines)")
        #expect(stalled.lines[0].hasPrefix("the whole process stood still 1 time(s), for 3.0 s"), "\(stalled.lines[0])")
        #expect(stalled.lines[1] == "the encoder had the backlog after the stall to catch up on; the preview left 12 of the camera's pictures undrawn to give it the time")
        let behind = DropReport(result: Self.result(dropped: 0, afterStall: 0), cameraDropped: 0, stalls: [], previewLeft: 7)
        #expect(behind.lines == ["the encoder fell behind; the preview left 7 of the camera's pictures undrawn to give it the time"])
    }
}
