// Idle reset with a virtual clock: no waiting, every case by table.
import Testing
import KioskCore

@Suite("IdleRule: --idle-timeout with time passed in")
struct IdleRuleTests {
    static let s: Int64 = 1_000_000_000

    /// Looks every 100 ms from `from` to `to` seconds in `mode`; the seconds at which it was due.
    static func due(_ rule: inout IdleRule, _ mode: Mode, paused: Bool = false, playerAlone: Bool = false,
                    from: Double, to: Double) -> [Double] {
        var said: [Double] = []
        var t = from
        while t < to - 1e-9 {
            if rule.isDue(mode: mode, paused: paused, playerAlone: playerAlone, at: Int64((t * 1e9).rounded())) { said.append(t) }
            t = ((t + 0.1) * 10).rounded() / 10
        }
        return said
    }

    @Test("the finished screen untouched for the timeout is due, then again a timeout later; 0 is never")
    func finished() {
        var rule = IdleRule(timeout: 60, now: 0)
        #expect(Self.due(&rule, .finished, from: 0, to: 130) == [60, 120])
        var never = IdleRule(timeout: 0, now: 0)
        #expect(Self.due(&never, .finished, from: 0, to: 1000).isEmpty)
    }

    @Test("a touch starts the clock again; a change of what shows does too (ready, then finished at 10 s)")
    func restarts() {
        var rule = IdleRule(timeout: 60, now: 0)
        #expect(Self.due(&rule, .finished, from: 0, to: 30).isEmpty)
        rule.touched(at: 30 * Self.s)
        #expect(Self.due(&rule, .finished, from: 30, to: 95) == [90])
        var fresh = IdleRule(timeout: 60, now: 0)
        #expect(Self.due(&fresh, .ready, from: 0, to: 10).isEmpty)
        #expect(Self.due(&fresh, .finished, from: 10, to: 75) == [70])
    }

    @Test("a paused review is idle, a playing one is not; ready, countdown and recording never; the player alone never")
    func modes() {
        var paused = IdleRule(timeout: 5, now: 0)
        #expect(Self.due(&paused, .playing, paused: true, from: 0, to: 6) == [5])
        var playing = IdleRule(timeout: 5, now: 0)
        #expect(Self.due(&playing, .playing, from: 0, to: 20).isEmpty)
        // Paused at 20 s: what shows changed, the clock starts there.
        #expect(Self.due(&playing, .playing, paused: true, from: 20, to: 26) == [25])
        for mode in [Mode.ready, .countdown, .recording] {
            var rule = IdleRule(timeout: 5, now: 0)
            #expect(Self.due(&rule, mode, from: 0, to: 20).isEmpty, "\(mode)")
        }
        var alone = IdleRule(timeout: 5, now: 0)
        #expect(Self.due(&alone, .playing, paused: true, playerAlone: true, from: 0, to: 20).isEmpty)
    }
}
