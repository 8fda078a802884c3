// The booth's loop on a clock the test moves (BoothParts.clock): the loop reads it once a turn and
// every rule of the turn takes that reading, so a minute of the guest's time passes in a step.
import Foundation
import KioskBooth
import KioskCore
import Testing

@Suite("the booth on virtual time", .serialized)
struct VirtualTimeTests {
    @Test("the finished screen untouched: at 59 virtual seconds nothing, past 60 the take is discarded and the booth is ready again; no real minute passes")
    func idleReset() throws {
        let clock = VirtualClock()
        let h = BoothHarness(session: .loop, clock: clock.read) { config in
            config.guest.idleTimeout = 60
            config.guest.idleAction = .discard
        }
        #expect(h.startTake())
        h.send(.press(.stop))
        #expect(h.step(until: { h.events.names.contains("recordingFinished") }))
        #expect(h.step(until: { h.screen.rendered.last??.mode == .finished }))
        clock.advance(seconds: 59)
        for _ in 0..<20 { h.booth.step() }
        #expect(!h.events.names.contains("idleReset"), "\(h.events.names)")
        #expect(h.screen.rendered.last??.mode == .finished)
        clock.advance(seconds: 1.5)
        #expect(h.step(until: { h.events.names.contains("idleReset") }, seconds: 5), "\(h.events.names)")
        #expect(h.step(until: { h.screen.rendered.last??.mode == .ready }, seconds: 5))
    }

    @Test("the countdown counts virtual seconds: 3 at Start, 2 and 1 only as the clock passes each second, the take after the 1")
    func countdown() {
        let clock = VirtualClock()
        let h = BoothHarness(clock: clock.read) { $0.guest.countdown = 3 }
        h.booth.start()
        #expect(h.step(until: { h.events.names == ["ready"] }))
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.contains("countdown") }))
        var counted: [Int] { h.events.received.compactMap { line in
            (try? EventEncoder().decode(line: line)).flatMap { if case let .countdown(n) = $0 { n } else { nil } }
        } }
        #expect(counted == [3])
        for _ in 0..<20 { h.booth.step() }
        #expect(counted == [3], "no virtual time passed")
        for expected in [[3, 2], [3, 2, 1]] {
            clock.advance(seconds: 1)
            #expect(h.step(until: { counted == expected }, seconds: 5), "\(counted)")
        }
        #expect(!h.events.names.contains("recordingStarted"))
        clock.advance(seconds: 1)
        #expect(h.step(until: { h.events.names.contains("recordingStarted") }, seconds: 5), "\(h.events.names)")
    }
}
