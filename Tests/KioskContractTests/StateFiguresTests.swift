// `state`'s figures (StateFigures): the metrics file's counts under their names, the last take's
// rate, the uptime and the camera, as one object after the state's own fields (and before the
// guestbook's question); read back, the line gives the state alone. The camera's measured rate
// (FrameRateMeter) by table, on a virtual clock.
import Foundation
import Testing
@testable import KioskContract

@Suite("StateFigures: the booth's figures in its state reply")
struct StateFiguresTests {
    let encoder = EventEncoder()
    let state = KioskEvent.state(mode: "ready", timer: "00:00", buttons: [.cancel, .start], orientation: .portrait, hooksPending: 1)

    func booth() -> BoothFigures {
        var f = BoothFigures()
        (f.recorded, f.used, f.discarded, f.shared, f.framesDropped, f.hooksPending, f.cameraUp) = (7, 4, 2, 3, 12, 1, true)
        f.microphoneLevel = -23
        return f
    }

    /// The line's `figures` object, read back; and the line with it taken out (JSONEncoder on Linux
    /// does not keep a nested object's key order, so it is compared as values).
    func split(_ line: String) throws -> (figures: StateFigures, keys: Set<String>, rest: String) {
        let start = try #require(line.range(of: #","figures":"#))
        var depth = 0, end = start.upperBound
        for index in line[start.upperBound...].indices {
            if line[index] == "{" { depth += 1 }
            if line[index] == "}" { depth -= 1 }
            if depth == 0 { end = line.index(after: index); break }
        }
        let object = String(line[start.upperBound..<end])
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(object.utf8)) as? [String: Any]).keys
        return (try JSONDecoder().decode(StateFigures.self, from: Data(object.utf8)), Set(keys), String(line[..<start.lowerBound] + line[end...]))
    }

    @Test("the figures follow the state's fields, the camera with its rate asked and measured (to 0.1), the rate whole, the uptime and the microphone's held peak to 0.1; the question last; read back, the state alone")
    func line() throws {
        let camera = StateFigures.Camera(name: "/dev/video0", width: 1280, height: 720, fps: 30, measuredFps: 29.96)
        let figures = StateFigures(booth(), bytesPerSecond: 312_345.4, running: StateFigures.Running(uptime: 3725.46, camera: camera,
                                                                                                                  microphonePeak: -6.04))
        let line = encoder.line(for: .asked(.figured(state, figures: figures), question: "Why?"))
        let (read, keys, rest) = try split(line)
        #expect(rest == #"{"event":"state","mode":"ready","timer":"00:00","buttons":["cancel","start"],"orientation":"portrait","hooksPending":1,"question":"Why?"}"# + "\n")
        #expect(keys == ["takes", "used", "discarded", "shared", "framesDropped", "hooksPending", "cameraUp", "bytesPerSecond", "uptime", "camera", "microphonePeak"])
        var expected = figures
        (expected.takes, expected.used, expected.discarded, expected.shared, expected.framesDropped, expected.hooksPending) = (7, 4, 2, 3, 12, 1)
        (expected.cameraUp, expected.bytesPerSecond, expected.uptime) = (true, 312_345, 3725.5)
        expected.camera = StateFigures.Camera(name: "/dev/video0", width: 1280, height: 720, fps: 30, measuredFps: 30)
        expected.microphonePeak = -6
        #expect(figures == expected && read == expected)
        #expect(line.contains(#""measuredFps":30"#) && line.contains(#""bytesPerSecond":312345"#) && line.contains(#""uptime":3725.5"#), "\(line)")
        #expect(try encoder.decode(line: line) == .asked(state, question: "Why?"))
        #expect(KioskEvent.figured(state, figures: figures).name == "state")
        #expect(KioskEvent.asked(.figured(state, figures: figures), question: "Why?").unasked.unfigured == state)
    }

    @Test("before a take gave a rate, and before the shell measured anything: those figures are left out")
    func unknown() throws {
        let (_, keys, _) = try split(encoder.line(for: .figured(state, figures: StateFigures(BoothFigures(), bytesPerSecond: nil, running: nil))))
        #expect(keys == ["takes", "used", "discarded", "shared", "framesDropped", "hooksPending", "cameraUp"])
        let waiting = StateFigures.Running(uptime: 1, camera: StateFigures.Camera(name: "test", width: 352, height: 288, fps: 30, measuredFps: nil))
        let (read, withCamera, _) = try split(encoder.line(for: .figured(state, figures: StateFigures(BoothFigures(), bytesPerSecond: nil, running: waiting))))
        #expect(withCamera == ["takes", "used", "discarded", "shared", "framesDropped", "hooksPending", "cameraUp", "uptime", "camera"])
        #expect(read.camera == waiting.camera && read.camera?.measuredFps == nil)
    }

    /// (count, at seconds) → the rate said after it.
    @Test("the measured rate: a whole window of at least 2 s gives it, the next window starts there; a count that goes back starts again",
          arguments: [
            ([(0, 0.0), (30, 1.0), (59, 1.9)], [nil, nil, nil] as [Double?]),
            ([(0, 0.0), (60, 2.0)], [nil, 30.0]),
            ([(100, 10.0), (160, 12.0), (175, 13.0), (220, 14.0)], [nil, 30.0, 30.0, 30.0]),
            ([(0, 0.0), (50, 2.5), (100, 5.0)], [nil, 20.0, 20.0]),
            // The camera stopped: the next window says 0.
            ([(0, 0.0), (60, 2.0), (60, 4.0)], [nil, 30.0, 0.0]),
            // A count that went back (a new slot) starts a new window and keeps the last rate.
            ([(0, 0.0), (60, 2.0), (5, 3.0), (35, 5.0)], [nil, 30.0, 30.0, 15.0]),
          ] as [([(Int, Double)], [Double?])])
    func meter(looks: [(Int, Double)], rates: [Double?]) {
        var meter = FrameRateMeter()
        let said = looks.map { meter.look(count: $0.0, at: Int64($0.1 * 1e9)) }
        #expect(said == rates)
    }
}
