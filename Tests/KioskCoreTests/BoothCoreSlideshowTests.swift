// The attract screen's slideshow and systemd's watchdog as the core times them (BoothCore+Slideshow,
// BoothCore+Service), on a virtual clock: the listing as the attract screen begins, each take's
// play and its 20 s, a failed take skipped, a touch or the review's player stopping it; WATCHDOG=1
// at once, then once an interval, before `ready` too. (SlideshowRuleTests hold the rule alone.)
import Testing
import KioskContract
@testable import KioskCore

@Suite("BoothCore: the attract slideshow's and the watchdog's timing")
struct BoothCoreSlideshowTests {
    static let s: Int64 = 1_000_000_000
    typealias E = BoothCore.Effect

    static func core(slideshow: Bool = true) -> BoothCore {
        var core = BoothCore(machine: RecorderMachine(session: .loop, outputPath: "/tmp/x.mov", orientation: .landscapeRight),
                             settings: BoothCore.Settings(attractAfter: 30, attractSlideshow: slideshow), now: 0)
        _ = core.handle(.start, at: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 0)
        return core
    }

    /// The slideshow's effects and log lines among `effects`, in order.
    static func show(_ effects: [E]) -> [E] {
        effects.filter {
            switch $0 {
            case .slideshow: true
            case let .log(line): line.hasPrefix("slideshow:")
            default: false
            }
        }
    }

    enum Step {
        case turn(Int64, reviewPlays: Bool = false)
        case listed([String], serial: Int, at: Int64)
        case ended(String?, at: Int64)
        case touch(at: Int64)
    }

    static func run(_ core: inout BoothCore, _ step: Step) -> [E] {
        switch step {
        case let .turn(t, reviewPlays): show(core.handle(.turn(BoothCore.Turn(reviewPlays: reviewPlays)), at: t * s))
        case let .listed(paths, serial, t): show(core.handle(.slideshow(.listed(paths, serial: serial)), at: t * s))
        case let .ended(failure, t): show(core.handle(.slideshow(.ended(failure: failure)), at: t * s))
        case let .touch(t): show(core.handle(.touch(swallow: true), at: t * s))
        }
    }

    @Test("listed when the attract screen begins; the newest plays, the next after 20 s or at its end, a failed one skipped; a touch stops it in its turn")
    func timing() {
        var core = Self.core()
        let table: [(Step, [E])] = [
            (.turn(29), []),
            (.turn(30), [.slideshow(.list(serial: 1))]),
            (.turn(31), []),
            (.listed(["/c", "/b", "/a"], serial: 1, at: 31),
             [.log("slideshow: 3 takes to play"), .log("slideshow: playing /c (silent)"), .slideshow(.play("/c"))]),
            (.turn(50), []),
            (.turn(51), [.log("slideshow: playing /b (silent)"), .slideshow(.play("/b"))]),
            (.ended(nil, at: 52), [.log("slideshow: playing /a (silent)"), .slideshow(.play("/a"))]),
            (.ended("cannot decode", at: 53),
             [.log("slideshow: /a skipped: cannot decode"), .log("slideshow: playing /c (silent)"), .slideshow(.play("/c"))]),
            // A listing while one plays is dropped (it is still logged).
            (.listed(["/z"], serial: 1, at: 54), [.log("slideshow: 1 takes to play")]),
            (.touch(at: 55), []),
            (.turn(55), [.slideshow(.stop(newestFrame: true)), .log("slideshow: stopped")]),
            (.turn(56), []),
            (.ended(nil, at: 56), []),
            // The next attract screen, a full wait after the touch, lists again.
            (.turn(85), [.slideshow(.list(serial: 2))]),
            (.listed(["/d"], serial: 1, at: 85), [.log("slideshow: 1 takes to play")]),
            (.listed(["/d"], serial: 2, at: 86), [.log("slideshow: 1 takes to play"), .log("slideshow: playing /d (silent)"), .slideshow(.play("/d"))]),
            // The review's player takes the surface.
            (.turn(87, reviewPlays: true), [.slideshow(.stop(newestFrame: true)), .log("slideshow: stopped")]),
        ]
        for (step, said) in table {
            #expect(Self.run(&core, step) == said, "\(step)")
        }
    }

    @Test("off (--attract-slideshow unset): the attract screen shows, nothing is listed")
    func off() {
        var core = Self.core(slideshow: false)
        #expect(Self.run(&core, .turn(30)).isEmpty)
        #expect(core.attracting)
    }

    @Test("in the background nobody sees the screen: it stops, and lists again on the way back")
    func background() {
        var core = Self.core()
        #expect(Self.run(&core, .turn(30)) == [.slideshow(.list(serial: 1))])
        _ = Self.run(&core, .listed(["/a"], serial: 1, at: 30))
        _ = core.handle(.event(.background), at: 31 * Self.s)
        #expect(Self.run(&core, .turn(31)) == [.slideshow(.stop(newestFrame: true)), .log("slideshow: stopped")])
    }

    @Test("the watchdog: WATCHDOG=1 at the first pass, then once an interval, before ready too; none without one; nothing else said", arguments: [
        // (interval ns, passes at ns, the passes that ping)
        (Int64?(100), [Int64(1000), 1099, 1100, 1150, 1200, 5000], [true, false, true, false, true, true]),
        (nil, [1000, 2000], [false, false]),
    ])
    func watchdog(interval: Int64?, passes: [Int64], pings: [Bool]) {
        var core = BoothCore(machine: RecorderMachine(session: .loop, outputPath: "/tmp/x.mov", orientation: .landscapeRight),
                             now: 0, watchdogInterval: interval)
        for (t, ping) in zip(passes, pings) {
            #expect(core.handle(.service(.alive), at: t) == (ping ? [.service(.watchdog)] : []), "at \(t)")
        }
    }
}
