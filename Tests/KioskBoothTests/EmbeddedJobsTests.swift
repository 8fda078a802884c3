// The booth's outstanding work on the embedded booth: file jobs and hooks whose reports come late
// and out of order (a microphone slow to close, a hook that ends while the guest retakes), the exit
// that waits for all of them, and the hooks a killed booth still owed, run by the next.
import Foundation
import KioskBooth
import KioskContract
import KioskCore
import Testing

@Suite("the embedded booth: late reports, the exit and owed hooks", .serialized)
struct EmbeddedJobsTests {
    static func decoded(_ h: BoothHarness) -> [KioskEvent] { VirtualTimeTests.decoded(h) }

    /// The take's file as a writer leaves it (the twin writes nothing): `text` at its path.
    static func takeFile(_ h: BoothHarness, _ text: String) throws -> String {
        let path = try #require(h.writer?.settings.outputPath)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// Records take number `count` of `h` (in ready) and stops it: its file.
    static func record(_ h: BoothHarness, count: Int, text: String) throws -> String {
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.filter { $0 == "recordingStarted" }.count == count }), "\(h.events.names)")
        let path = try takeFile(h, text)
        h.send(.press(.stop))
        #expect(h.step(until: { h.booth.machine.mode == .finished }))
        return path
    }

    /// The paths handed over so far (the delegate's outcome event).
    static func handedOver(_ h: BoothHarness) -> [String] {
        decoded(h).compactMap { if case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path) = $0 { path } else { nil } }
    }

    static func hooksFinished(_ h: BoothHarness) -> [(path: String, status: Int)] {
        decoded(h).compactMap { if case let .hookFinished(path, status, _, _) = $0 { (path, status) } else { nil } }
    }

    @Test("a once session's exit waits for the running hook: Use Video, then many turns with the hook running and no exit; the hook ends, hookFinished, then the exit")
    func exitWaitsForHook() throws {
        let h = BoothHarness(configure: { $0.service.onTake = "exit 0" })
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        _ = try Self.record(h, count: 1, text: "take")
        // The hooks worker is busy (an upload): the hook waits there until the test lets it run.
        h.executors.hold("kiosk-hooks")
        h.send(.press(.useVideo))
        #expect(h.step(until: { Self.handedOver(h).count == 1 }))
        for _ in 0..<50 { h.turn() }
        #expect(!h.booth.isFinished, "the hook has not ended")
        #expect(Self.hooksFinished(h).isEmpty)
        h.executors.hold("kiosk-hooks", false)
        #expect(h.step(until: { h.booth.isFinished }), "\(h.events.names)")
        #expect(Self.hooksFinished(h).map(\.status) == [0])
        #expect(h.booth.finish() == 0)
    }

    @Test("the microphone's close reported after Use Video: the hand-over waits its turn on the file worker and hands over the right take; the next take opens after it")
    func lateMicrophoneClose() throws {
        let h = BoothHarness(session: .loop, configure: { $0.capture.microphone = .test })
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        _ = try Self.record(h, count: 1, text: "first")
        // The microphone's close is on the file worker, which waits (a device slow to close).
        #expect(h.microphone?.log.map(\.0) == ["start"])
        h.executors.hold("kiosk-files")
        h.send(.press(.useVideo))
        for _ in 0..<30 { h.turn() }
        #expect(Self.handedOver(h).isEmpty, "behind the microphone's close")
        #expect(h.microphone?.log.map(\.0) == ["start"])
        h.executors.hold("kiosk-files", false)
        #expect(h.step(until: { Self.handedOver(h).count == 1 }))
        #expect(h.microphone?.log.map(\.0) == ["start", "stop"])
        let path = try #require(Self.handedOver(h).first)
        #expect(FileManager.default.contents(atPath: path) == Data("first".utf8))
        #expect(h.step(until: { h.booth.machine.mode == .ready }))
        _ = try Self.record(h, count: 2, text: "second")
        h.send(.press(.useVideo))
        #expect(h.step(until: { Self.handedOver(h).count == 2 }))
        #expect(Self.handedOver(h).last.flatMap { FileManager.default.contents(atPath: $0) } == Data("second".utf8))
        #expect(!h.events.names.contains("error"), "\(h.events.names)")
    }

    @Test("a hook ending while the guest retakes the next take: hookFinished for the first take, the retaken file deleted, the first kept, the booth ready")
    func hookEndsDuringRetake() throws {
        let h = BoothHarness(session: .loop, configure: { $0.service.onTake = "exit 0" })
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        _ = try Self.record(h, count: 1, text: "first")
        h.executors.hold("kiosk-hooks")
        h.send(.press(.useVideo))
        #expect(h.step(until: { Self.handedOver(h).count == 1 && h.booth.machine.mode == .ready }))
        let first = try #require(Self.handedOver(h).first)
        let second = try Self.record(h, count: 2, text: "second")
        #expect(Self.hooksFinished(h).isEmpty)
        h.send(.press(.retake))
        h.turn()
        h.executors.hold("kiosk-hooks", false)
        #expect(h.step(until: { Self.hooksFinished(h).count == 1 && !FileManager.default.fileExists(atPath: second) }), "\(h.events.names)")
        #expect(Self.hooksFinished(h).first?.path == first)
        #expect(Self.hooksFinished(h).first?.status == 0)
        #expect(FileManager.default.contents(atPath: first) == Data("first".utf8))
        #expect(h.step(until: { h.booth.machine.mode == .ready }))
        #expect(!h.events.names.contains("error"), "\(h.events.names)")
    }

    @Test("a hook the booth still owed when it was killed: the next booth on the folder runs it at launch, its attempt counted on")
    func hookSurvivesRestart() throws {
        let folder = NSTemporaryDirectory() + "kiosk-booth-\(getpid())-restart"
        try? FileManager.default.removeItem(atPath: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = VirtualClock()
        var name = ""
        do {
            let h = BoothHarness(session: .loop, clock: clock, folder: folder, configure: { $0.service.onTake = "exit 3" })
            h.booth.start()
            #expect(h.step(until: { h.events.names == ["ready"] }))
            _ = try Self.record(h, count: 1, text: "take")
            h.send(.press(.useVideo))
            #expect(h.step(until: { Self.hooksFinished(h).count == 1 }), "\(h.events.names)")
            name = try #require(Self.hooksFinished(h).first?.path)
            // Saved with its attempt counted; then the booth is gone as a kill -9 leaves it (no exit).
            let queue = folder + "/.output.mov.hooks"
            #expect(h.step(until: { (try? String(contentsOfFile: queue, encoding: .utf8)).map { HookQueue.entries(from: $0).first?.attempts == 1 } == true }),
                    "\((try? String(contentsOfFile: queue, encoding: .utf8)) ?? "no queue")")
        }
        let again = BoothHarness(session: .loop, clock: clock, folder: folder, configure: { $0.service.onTake = "exit 0" })
        again.booth.start()
        #expect(again.step(until: { Self.hooksFinished(again).count == 1 }), "\(again.events.names)")
        guard case let .hookFinished(ran, status, attempt, _)? = Self.decoded(again).first(where: { $0.name == "hookFinished" }) else { return }
        #expect(ran == name && status == 0 && attempt == 2, "\(ran) \(status) \(attempt)")
    }
}
