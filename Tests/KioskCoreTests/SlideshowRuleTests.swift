// The attract screen's slideshow with a virtual clock: listed when the attract screen begins, the
// takes in turn and round again, the longest a take plays, a failed take skipped for good, none left,
// a stale listing, and the attract screen's end stopping it (its option: KioskOptionsTests).
import Testing
import KioskCore

@Suite("SlideshowRule: --attract-slideshow with time passed in")
struct SlideshowRuleTests {
    static let s: Int64 = 1_000_000_000
    typealias A = SlideshowRule.Action

    @Test("the attract screen begins: a listing; the newest take plays, then the next, round again; a take plays 20 s at most; its end stops it")
    func inTurn() {
        var rule = SlideshowRule(enabled: true)
        #expect(rule.look(attract: false, at: 0).isEmpty)
        #expect(rule.look(attract: true, at: 1 * Self.s) == [.list(serial: 1)])
        #expect(rule.look(attract: true, at: 2 * Self.s).isEmpty, "listed once an attract screen")
        #expect(rule.listed(["c", "b", "a"], serial: 1, at: 2 * Self.s) == [.play("c")])
        #expect(rule.playing == "c" && rule.takes == ["c", "b", "a"])
        #expect(rule.ended(failed: false, at: 5 * Self.s) == [.play("b")])
        #expect(rule.ended(failed: false, at: 8 * Self.s) == [.play("a")])
        #expect(rule.ended(failed: false, at: 9 * Self.s) == [.play("c")], "round again from the newest")
        // A long take: the next one after 20 s of it.
        #expect(rule.look(attract: true, at: 28 * Self.s).isEmpty)
        #expect(rule.look(attract: true, at: 29 * Self.s) == [.play("b")])
        // The attract screen ends: stopped at once, and its end or listing no longer counts.
        #expect(rule.look(attract: false, at: 30 * Self.s) == [.stop])
        #expect(rule.playing == nil && rule.takes.isEmpty)
        #expect(rule.ended(failed: false, at: 31 * Self.s).isEmpty)
        #expect(rule.look(attract: false, at: 32 * Self.s).isEmpty)
        // The next attract screen lists again (newer takes may have come).
        #expect(rule.look(attract: true, at: 40 * Self.s) == [.list(serial: 2)])
        #expect(rule.listed(["d", "c"], serial: 2, at: 41 * Self.s) == [.play("d")])
    }

    @Test("a take that fails is skipped and not tried again on this attract screen; every one failed: stopped; the next attract screen tries them again")
    func failures() {
        var rule = SlideshowRule(enabled: true)
        _ = rule.look(attract: true, at: 0)
        #expect(rule.listed(["c", "b", "a"], serial: 1, at: 0) == [.play("c")])
        #expect(rule.ended(failed: true, at: 1 * Self.s) == [.play("b")])
        #expect(rule.ended(failed: false, at: 2 * Self.s) == [.play("a")])
        #expect(rule.ended(failed: false, at: 3 * Self.s) == [.play("b")], "c is passed over")
        #expect(rule.ended(failed: true, at: 4 * Self.s) == [.play("a")])
        #expect(rule.ended(failed: false, at: 5 * Self.s) == [.play("a")], "the only one left plays again")
        #expect(rule.ended(failed: true, at: 6 * Self.s) == [.stop], "none left: the attract screen as without it")
        #expect(rule.playing == nil)
        #expect(rule.look(attract: true, at: 100 * Self.s).isEmpty, "nothing plays; no new listing on the same attract screen")
        #expect(rule.look(attract: false, at: 101 * Self.s).isEmpty, "nothing to stop")
        #expect(rule.look(attract: true, at: 102 * Self.s) == [.list(serial: 2)])
        #expect(rule.listed(["c"], serial: 2, at: 102 * Self.s) == [.play("c")])
    }

    @Test("no takes: nothing plays; a listing for an ended or older attract screen is dropped; at most 10 takes, each once")
    func listings() {
        var rule = SlideshowRule(enabled: true)
        _ = rule.look(attract: true, at: 0)
        #expect(rule.listed([], serial: 1, at: 0).isEmpty && rule.playing == nil)
        _ = rule.look(attract: false, at: 1)
        #expect(rule.listed(["a"], serial: 1, at: 2).isEmpty, "the attract screen ended before the listing came")
        #expect(rule.look(attract: true, at: 3) == [.list(serial: 2)])
        #expect(rule.listed(["old"], serial: 1, at: 4).isEmpty, "an older listing")
        let many = (0..<14).map { "t\($0)" }
        #expect(rule.listed(many + ["t0"], serial: 2, at: 5) == [.play("t0")])
        #expect(rule.takes == Array(many.prefix(SlideshowRule.newest)))
        #expect(rule.listed(["x"], serial: 2, at: 6).isEmpty, "a listing again while one plays changes nothing")
    }

    @Test("off: nothing, whatever the attract screen; turned off (a reload) while playing: stopped")
    func off() {
        var rule = SlideshowRule(enabled: false)
        #expect(rule.look(attract: true, at: 0).isEmpty)
        rule.enabled = true
        #expect(rule.look(attract: true, at: 1) == [.list(serial: 1)])
        #expect(rule.listed(["a"], serial: 1, at: 2) == [.play("a")])
        rule.enabled = false
        #expect(rule.look(attract: true, at: 3) == [.stop])
        #expect(rule.look(attract: true, at: 4).isEmpty)
    }

    @Test("a deleted take leaves the list at once: the one playing gives way to the next, one waiting is never played; the last one gone: stopped")
    func deleted() {
        var rule = SlideshowRule(enabled: true)
        _ = rule.look(attract: true, at: 0)
        #expect(rule.listed(["c", "b", "a"], serial: 1, at: 0) == [.play("c")])
        #expect(rule.deleted("a", at: 1 * Self.s).isEmpty && rule.takes == ["c", "b"] && rule.playing == "c")
        #expect(rule.deleted("c", at: 2 * Self.s) == [.play("b")], "the playing take gives way at once")
        #expect(rule.ended(failed: false, at: 3 * Self.s) == [.play("b")], "round again: only b is left")
        #expect(rule.deleted("x", at: 4 * Self.s).isEmpty)
        #expect(rule.deleted("b", at: 5 * Self.s) == [.stop])
        #expect(rule.playing == nil && rule.takes.isEmpty)
    }
}
