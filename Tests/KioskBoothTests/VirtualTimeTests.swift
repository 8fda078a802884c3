// The booth's loop on a clock the test moves (BoothParts.clock): the loop reads it once a turn and
// every rule of the turn takes that reading, so a minute of the guest's time passes in a step.
import Foundation
import KioskBooth
import KioskContract
import KioskCore
import Testing

@Suite("the booth on virtual time", .serialized)
struct VirtualTimeTests {
    @Test("the finished screen untouched: at 59 virtual seconds nothing, past 60 the take is discarded and the booth is ready again; no real minute passes")
    func idleReset() throws {
        let clock = VirtualClock()
        let h = BoothHarness(session: .loop, clock: clock) { config in
            config.guest.idleTimeout = 60
            config.guest.idleAction = .discard
        }
        #expect(h.startTake())
        h.send(.press(.stop))
        #expect(h.step(until: { h.events.names.contains("recordingFinished") }))
        #expect(h.step(until: { h.screen.rendered.last??.mode == .finished }))
        clock.advance(seconds: 59)
        for _ in 0..<20 { h.turn() }
        #expect(!h.events.names.contains("idleReset"), "\(h.events.names)")
        #expect(h.screen.rendered.last??.mode == .finished)
        clock.advance(seconds: 1.5)
        #expect(h.step(until: { h.events.names.contains("idleReset") }), "\(h.events.names)")
        #expect(h.step(until: { h.screen.rendered.last??.mode == .ready }))
    }

    @Test("the countdown counts virtual seconds: 3 at Start, 2 and 1 only as the clock passes each second, the take after the 1")
    func countdown() {
        let clock = VirtualClock()
        let h = BoothHarness(clock: clock) { $0.guest.countdown = 3 }
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.contains("countdown") }))
        var counted: [Int] { h.events.received.compactMap { line in
            (try? EventEncoder().decode(line: line)).flatMap { if case let .countdown(n) = $0 { n } else { nil } }
        } }
        #expect(counted == [3])
        for _ in 0..<20 { h.turn() }
        #expect(counted == [3], "no virtual time passed")
        for expected in [[3, 2], [3, 2, 1]] {
            clock.advance(seconds: 1)
            #expect(h.step(until: { counted == expected }), "\(counted)")
        }
        #expect(!h.events.names.contains("recordingStarted"))
        clock.advance(seconds: 1)
        #expect(h.step(until: { h.events.names.contains("recordingStarted") }), "\(h.events.names)")
    }
}

extension VirtualTimeTests {
    /// The events emitted so far, read back.
    static func decoded(_ h: BoothHarness) -> [KioskEvent] { h.events.received.compactMap { try? EventEncoder().decode(line: $0) } }

    @Test("a failing --on-take hook backs off on virtual time: tried again 10 s after the first failure, then 20, 40, … s later, never before, across 21 virtual minutes")
    func hookBacksOff() {
        let clock = VirtualClock()
        let h = BoothHarness(session: .loop, clock: clock) { $0.service.onTake = "exit 3" }
        #expect(h.startTake())
        // The twin writes nothing: the take's file, as a writer leaves it (the hook runs only for a take that is there).
        if let path = h.writer?.settings.outputPath { _ = FileManager.default.createFile(atPath: path, contents: Data("take".utf8)) }
        h.send(.press(.stop))
        #expect(h.step(until: { h.events.names.contains("recordingFinished") }))
        h.send(.press(.useVideo))
        var tries: [Int] {
            Self.decoded(h).compactMap { if case let .hookFinished(_, status, attempt, _) = $0, status == 3 { attempt } else { nil } }
        }
        #expect(h.step(until: { tries == [1] }), "\(h.events.names)")
        // The waits after each failure: 10 s doubling (HookBackoff), the first tries' due times.
        for (attempt, wait) in zip(2...8, [10.0, 20, 40, 80, 160, 320, 640]) {
            clock.advance(seconds: wait - 0.5)
            for _ in 0..<10 { h.turn() }
            #expect(tries.count == attempt - 1, "try \(attempt) came before its \(wait) s")
            clock.advance(seconds: 1)
            #expect(h.step(until: { tries.count == attempt }), "try \(attempt) \(wait) s after the last: \(tries)")
        }
        #expect(tries == Array(1...8))
    }

    @Test("a photo no frame comes for is given up 2 virtual seconds after the press, not before; the flash fades in 0.3 s")
    func photoWait() {
        let clock = VirtualClock()
        let h = BoothHarness.photoPressed(clock: clock)
        #expect(h.screen.rendered.last??.flash != nil, "the flash is drawn at the press")
        clock.advance(seconds: 0.31)
        h.turn()
        #expect(h.screen.rendered.last??.flash == nil, "the flash is gone after 0.3 s")
        clock.advance(seconds: 1.6)
        for _ in 0..<20 { h.turn() }
        #expect(h.events.names == ["ready"], "still waiting at 1.9 s")
        clock.advance(seconds: 0.2)
        #expect(h.step(until: { h.events.names.count == 2 }))
        guard case let .error(code, _)? = Self.decoded(h).last else {
            Issue.record("\(h.events.names)")
            return
        }
        #expect(code == .photoFailed)
    }
}

extension VirtualTimeTests {
    @Test("Cancel during the count: ready again; the count's seconds pass on the virtual clock with no tick after it, no take and no cancel event")
    func countdownCancelled() {
        let clock = VirtualClock()
        let h = BoothHarness(clock: clock) { $0.guest.countdown = 5 }
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.contains("countdown") }))
        clock.advance(seconds: 1)
        #expect(h.step(until: { h.events.names.filter { $0 == "countdown" }.count == 2 }), "\(h.events.names)")
        h.send(.press(.cancel))
        #expect(h.step(until: { h.screen.rendered.last??.mode == .ready }))
        for _ in 0..<6 {
            clock.advance(seconds: 1)
            for _ in 0..<5 { h.turn() }
        }
        #expect(h.events.names == ["ready", "countdown", "countdown"], "\(h.events.names)")
        #expect(h.screen.rendered.last??.mode == .ready)
    }
}
