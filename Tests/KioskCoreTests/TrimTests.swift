// Issue 34's trim as pure values: the rule a trim must keep (0.5 s at least, within the take), the
// trimmer's handles stopping there, the machine with `--trim` (the command in finished only, the
// trim in `state`, cut before the hand-over, gone with the take), and the contract's lines.
import Foundation
import KioskContract
import Testing
@testable import KioskCore

@Suite("the trim")
struct TrimTests {
    @Test("the rule: 0.5 s at least, within the take (its length as reported, to the millisecond)", arguments: [
        (0.0, 3.2, nil), (1.0, 1.5, nil), (1.0, 1.49, "less than"), (1.0, 1.4995, nil), (1.0, 1.2, "less than"), (2.0, 1.0, "less than"),
        (-0.1, 2.0, "outside"), (1.0, 3.2005, nil), (1.0, 3.3, "outside"), (3.0, 3.2, "less than"), (Double.nan, 2.0, "numbers"),
    ] as [(Double, Double, String?)])
    func refusal(start: Double, end: Double, reason: String?) {
        let refusal = TrimRange(start: start, end: end).refusal(takeDuration: 3.2)
        if let reason {
            #expect(refusal?.contains(reason) == true, "\(start)…\(end): \(String(describing: refusal))")
        } else {
            #expect(refusal == nil, "\(start)…\(end): \(String(describing: refusal))")
        }
    }

    @Test("the handles stop at the take's ends and 0.5 s from each other", arguments: [
        (TrimHandle.start, 1.0, TrimRange(start: 1.0, end: 4.0)), (.start, -2, TrimRange(start: 0, end: 4)),
        (.start, 3.8, TrimRange(start: 3.5, end: 4)), (.end, 9, TrimRange(start: 0.5, end: 6)),
        (.end, 0.7, TrimRange(start: 0.5, end: 1.0)), (.end, 5, TrimRange(start: 0.5, end: 5)),
    ] as [(TrimHandle, Double, TrimRange)])
    func handles(handle: TrimHandle, to seconds: Double, expected: TrimRange) {
        let before = handle == .start ? TrimRange(start: 0.5, end: 4) : TrimRange(start: 0.5, end: 4)
        #expect(before.moving(handle, to: seconds, takeDuration: 6) == expected)
        #expect(before.moving(handle, to: seconds, takeDuration: 6).refusal(takeDuration: 6) == nil)
    }

    static let take = RecordingResult(outputPath: out, duration: 6.2, bytes: 1000, reason: .user, success: true)

    /// A machine with `--trim` in finished with a 6.2 s take.
    static func finished(session: SessionMode = .once, take: RecordingResult = take) -> RecorderMachine {
        var m = RecorderMachine(session: session, outputPath: out, orientation: .landscapeRight, trims: true)
        _ = m.start()
        _ = m.handle(.press(.start))
        _ = m.handle(.recordingStarted(outputPath: out))
        _ = m.handle(.press(.stop))
        _ = m.handle(.recordingFinished(take))
        return m
    }

    static func stateTrim(_ m: inout RecorderMachine) -> TrimRange? {
        guard case let .emit(.state(_, _, _, _, _, _, _, trim, _, _, _))? = m.handle(.stateQuery).first else { return nil }
        return trim
    }

    @Test("with --trim in finished: a trim is set quietly and reported by state; Use Video cuts before the hand-over")
    func useTrimmed() {
        var m = Self.finished()
        #expect(m.handle(.trim(TrimRange(start: 1, end: 4))) == [])
        #expect(Self.stateTrim(&m) == TrimRange(start: 1, end: 4))
        #expect(m.handle(.press(.useVideo)) == [.handOverTake(trim: TrimRange(start: 1, end: 4)), .exit(code: 0)])
    }

    @Test("a trim too short or outside the take: badCommand, the trim as it was; the whole take is no trim")
    func refused() {
        var m = Self.finished()
        _ = m.handle(.trim(TrimRange(start: 1, end: 4)))
        for bad in [TrimRange(start: 1, end: 1.4), TrimRange(start: 1, end: 7), TrimRange(start: -1, end: 2)] {
            let actions = m.handle(.trim(bad))
            guard case let .emit(.error(code, _))? = actions.first else { Issue.record("\(bad): \(actions)"); continue }
            #expect(code == .badCommand && actions.count == 1)
            #expect(Self.stateTrim(&m) == TrimRange(start: 1, end: 4))
        }
        _ = m.handle(.trim(TrimRange(start: 0, end: 6.2)))
        #expect(Self.stateTrim(&m) == nil)
        #expect(m.handle(.press(.useVideo)) == [.handOverTake(), .exit(code: 0)])
    }

    @Test("the trim goes with its take: Retake, the next take in a loop session; refused in the player, after a failed take and without --trim")
    func lifetime() {
        var m = Self.finished(session: .loop)
        _ = m.handle(.trim(TrimRange(start: 1, end: 4)))
        _ = m.handle(.press(.retake))
        _ = m.handle(.press(.start))
        _ = m.handle(.recordingStarted(outputPath: out))
        _ = m.handle(.press(.stop))
        _ = m.handle(.recordingFinished(Self.take))
        #expect(Self.stateTrim(&m) == nil)
        _ = m.handle(.trim(TrimRange(start: 2, end: 3)))
        #expect(m.handle(.press(.useVideo)) == [.handOverTake(trim: TrimRange(start: 2, end: 3)), .startCamera])
        _ = m.handle(.press(.start))
        _ = m.handle(.recordingStarted(outputPath: out))
        _ = m.handle(.press(.stop))
        _ = m.handle(.recordingFinished(Self.take))
        #expect(m.handle(.press(.useVideo)) == [.handOverTake(), .startCamera], "the last take's trim is not this one's")

        var playing = Self.finished()
        _ = playing.handle(.press(.playVideo))
        #expect(playing.handle(.trim(TrimRange(start: 1, end: 4))) == [notAllowed("trim", .playing, [.closePlayer])])
        var failed = Self.finished(take: RecordingResult(outputPath: out, duration: 3, bytes: 9, reason: .error, success: false))
        #expect(failed.handle(.trim(TrimRange(start: 1, end: 2))) == [notAllowed("trim", .finished, [.retake, .playVideo])])
        var plain = Fixture.finished.make()
        #expect(plain.handle(.trim(TrimRange(start: 1, end: 2))) == [notAllowed("trim", .finished, [.retake, .useVideo, .playVideo])])
    }

    @Test("a reload turns --trim on and off in ready")
    func reload() {
        var m = RecorderMachine(session: .loop, outputPath: out, orientation: .landscapeRight)
        _ = m.start()
        var c = defaultSettings
        c.session = .loop
        c.trims = true
        _ = m.handle(.reload(c))
        #expect(m.trims)
    }

    @Test("the contract: the command, state's trim, and the outcome with trimmed and duration, read back as written")
    func contract() throws {
        let parser = CommandParser()
        #expect(parser.parse(line: #"{"command":"trim","start":1,"end":4.5}"#) == .success(.trim(TrimRange(start: 1, end: 4.5))))
        guard case let .failure(error) = parser.parse(line: #"{"command":"trim","start":1}"#) else { Issue.record("accepted"); return }
        #expect(error.code == .badCommand)
        let encoder = EventEncoder()
        let outcome = KioskEvent.videoRecorderDidFinishRecordingTrimmedVideo(outputPath: "/o.mov", trimmed: TrimRange(start: 1, end: 4.0004),
                                                                            duration: 3.0004)
        let line = encoder.line(for: outcome)
        #expect(line.hasPrefix(#"{"event":"videoRecorderDidFinishRecordingVideoWithOutputPath","outputPath":"/o.mov","trimmed":{"#), "\(line)")
        #expect(line.hasSuffix(#"},"duration":3}"# + "\n"), "\(line)")
        #expect(line.contains(#""start":1"#) && line.contains(#""end":4"#), "\(line)")
        #expect(try encoder.decode(line: line) == .videoRecorderDidFinishRecordingTrimmedVideo(outputPath: "/o.mov", trimmed: TrimRange(start: 1, end: 4),
                                                                                                duration: 3))
        #expect(outcome.handedOverPath == "/o.mov" && outcome.name == "videoRecorderDidFinishRecordingVideoWithOutputPath")
        let plain = encoder.line(for: .videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: "/o.mov"))
        #expect(plain == #"{"event":"videoRecorderDidFinishRecordingVideoWithOutputPath","outputPath":"/o.mov"}"# + "\n")
        #expect(try encoder.decode(line: plain) == .videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: "/o.mov"))
        let state = KioskEvent.state(mode: "finished", timer: "00:06", buttons: [.retake], orientation: .portrait, trim: TrimRange(start: 0.5, end: 2))
        #expect(try encoder.decode(line: encoder.line(for: state)) == state)
    }
}

@Suite("the trimmer's geometry")
struct TrimmerLayoutTests {
    @Test("on every canvas: the band above the bottom panel and clear of Play Video, the handles at the trim's times and 48 px or more to touch, the labels on the canvas and apart",
          arguments: [Size(width: 800, height: 480), Size(width: 480, height: 800), Size(width: 1280, height: 720), Size(width: 352, height: 288),
                      Size(width: 1080, height: 1920)])
    func places(canvas: Size) {
        let layout = Layout(canvas: canvas)
        for range in [TrimRange(start: 1, end: 4), TrimRange(start: 0, end: 6), TrimRange(start: 3, end: 3.5), TrimRange(start: 5.5, end: 6)] {
            let t = TrimmerLayout(layout: layout, duration: 6, range: range)
            let what = "\(canvas.width)x\(canvas.height) \(range)"
            #expect(t.strip.x > 0 && t.strip.maxX < canvas.width && t.strip.maxY <= layout.bottomPanel.y, "\(what): \(t.strip)")
            #expect(t.strip.height >= TrimmerLayout.handleTouch, "\(what)")
            #expect(abs(t.x(of: range.start) - Double(t.startHandle.maxX)) <= 1 && abs(t.x(of: range.end) - Double(t.endHandle.x)) <= 1, "\(what)")
            for handle in TrimHandle.allCases {
                let hit = t.hitFrame(of: handle)
                #expect(hit.width >= 48 && hit.height >= 48 && hit.x >= 0 && hit.maxX <= canvas.width, "\(what): \(handle) \(hit)")
                #expect(t.handle(at: (handle == .start ? t.startHandle : t.endHandle).center) == handle, "\(what): \(handle)")
            }
            #expect(t.startLabel.maxX <= t.endLabel.x && t.startLabel.x >= 0 && t.endLabel.maxX <= canvas.width, "\(what): \(t.startLabel) \(t.endLabel)")
            #expect(t.startLabel.maxY <= t.strip.y, "\(what)")
            for seconds in [0.0, 1.3, 6.0] { #expect(abs(t.seconds(atX: t.x(of: seconds)) - seconds) < 0.02, "\(what): \(seconds)") }
        }
        if canvas.width >= 480 {
            #expect(!TrimmerLayout(layout: layout, duration: 6, range: TrimRange(start: 1, end: 4)).strip.intersects(layout.middleButton))
        }
    }

    @Test("the times above the handles", arguments: [(0.0, "0:00.0"), (1.04, "0:01.0"), (4.96, "0:05.0"), (59.94, "0:59.9"), (61.25, "1:01.3")]
          as [(Double, String)])
    func timeText(seconds: Double, text: String) {
        #expect(TrimmerLayout.timeText(seconds) == text)
    }

    @Test("the band's pictures fill it side by side")
    func thumbnails() {
        let t = TrimmerLayout(layout: Layout(canvas: Size(width: 800, height: 480)), duration: 6, range: TrimRange(start: 1, end: 4))
        let count = t.thumbnailCount(aspect: 4.0 / 3)
        let boxes = t.thumbnails(count: count)
        #expect(boxes.count == count && boxes.first?.x == t.strip.x && boxes.last?.maxX == t.strip.maxX)
        #expect(zip(boxes, boxes.dropFirst()).allSatisfy { $0.maxX == $1.x })
    }
}
