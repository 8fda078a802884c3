// The attract screen with a virtual clock: when it begins, what ends it, and that the touch waking it
// is spent.
import Testing
import KioskCore

@Suite("AttractRule: --attract-after with time passed in")
struct AttractRuleTests {
    static let s: Int64 = 1_000_000_000

    /// Looks (eligible or not) at each of `seconds`; for each, whether what shows changed and whether
    /// it shows after.
    static func looks(_ rule: inout AttractRule, eligible: Bool = true, at seconds: [Int64]) -> [(changed: Bool, showing: Bool)] {
        seconds.map { t in
            let changed = rule.look(eligible: eligible, at: t * s)
            return (changed, rule.showing)
        }
    }

    @Test("ready untouched for the time: it begins once; a touch wakes it (spent) and the clock starts again; a touch without it is not spent")
    func beginsAndWakes() {
        var rule = AttractRule(after: 30, now: 0)
        let first = Self.looks(&rule, at: [29, 30, 31])
        #expect(first.map(\.changed) == [false, true, false] && first.map(\.showing) == [false, true, true])
        let woke = rule.touched(at: 40 * Self.s)
        #expect(woke && !rule.showing, "the touch only wakes it")
        #expect(Self.looks(&rule, at: [69, 70]).map(\.changed) == [false, true], "30 s after the touch")
        _ = rule.touched(at: 71 * Self.s)
        let spent = rule.touched(at: 72 * Self.s)
        #expect(!spent, "a touch on the booth itself is not spent")
    }

    @Test("any other mode ends it and holds the clock; 0 never shows it, and a reload to 0 ends it")
    func endsAndNever() {
        var rule = AttractRule(after: 10, now: 0)
        #expect(Self.looks(&rule, at: [10]).map(\.showing) == [true])
        let other = Self.looks(&rule, eligible: false, at: [11, 100])
        #expect(other.map(\.changed) == [true, false] && other.map(\.showing) == [false, false], "a take began: it ended")
        #expect(Self.looks(&rule, at: [109, 110]).map(\.changed) == [false, true], "counted from the return to ready")
        rule.after = 0
        let off = Self.looks(&rule, at: [111, 10_000])
        #expect(off.map(\.changed) == [true, false] && off.map(\.showing) == [false, false])
    }
}
