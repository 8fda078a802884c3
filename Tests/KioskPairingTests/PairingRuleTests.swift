// Pairing from the booth's screen by table on a virtual clock: the corner opens only the keyboard,
// no tap or long run of taps anywhere shows a code, a wrong password closes it and counts, the
// limit, the code's 2 minutes, the keyboard's pages and keys.
import KioskCore
import KioskPairing
import Testing

@Suite("PairingRule: the keyboard, the password's check and the code, on a virtual clock")
struct PairingRuleTests {
    static let s: Int64 = 1_000_000_000
    static let canvas = Size(width: 800, height: 480)
    static let corner = Point(x: 10, y: 10)

    /// The centre of `key` on `page`.
    static func point(of key: PairingKey, page: Int = 0) -> Point {
        PairingKeyboard.layout(page: page, canvas: canvas).keys.first { $0.key == key }!.frame.center
    }

    /// Five corner taps 0.1 s apart from `at`: the keyboard opens.
    static func open(_ rule: inout PairingRule, at: Int64 = 0) -> [Bool] {
        (0..<5).map { rule.tap(at: corner, canvas: canvas, now: at + Int64($0) * s / 10).taken }
    }

    /// Types `text` (lower case and digits, page 0) then Enter at `at`; the effects of Enter.
    static func type(_ text: String, _ rule: inout PairingRule, at: Int64) -> [PairingEffect] {
        for c in text { _ = rule.tap(at: point(of: .character(c)), canvas: canvas, now: at) }
        return rule.tap(at: point(of: .enter), canvas: canvas, now: at).effects
    }

    @Test("five corner taps within 3 s open the keyboard and nothing else; the first four are the booth's")
    func corner() {
        var rule = PairingRule(origin: "http://10.42.0.1")
        #expect(Self.open(&rule) == [false, false, false, false, true])
        #expect(rule.view == .keyboard(page: 0, typed: 0))
        var slow = PairingRule(origin: "http://10.42.0.1")
        for i in 0..<10 { _ = slow.tap(at: Self.corner, canvas: Self.canvas, now: Int64(i) * Self.s) }
        #expect(slow.view == nil, "one tap a second is never five in 3 s")
        var broken = PairingRule(origin: "http://10.42.0.1")
        for i in 0..<9 {
            let point = i == 3 ? Point(x: 400, y: 240) : Self.corner
            _ = broken.tap(at: point, canvas: Self.canvas, now: Int64(i) * Self.s / 10)
        }
        #expect(broken.view == .keyboard(page: 0, typed: 0), "a tap elsewhere starts the count again: taps 5 to 9")
        var recording = PairingRule(origin: "http://10.42.0.1")
        for i in 0..<10 { _ = recording.tap(at: Self.corner, canvas: Self.canvas, now: Int64(i) * Self.s / 10, mayOpen: false) }
        #expect(recording.view == nil, "never over a screen the keyboard may not cover (a guest's take)")
    }

    @Test("no run of taps anywhere, however long or wherever held, shows a code without the password",
          arguments: [Point(x: 10, y: 10), Point(x: 400, y: 240), Point(x: 790, y: 470), Point(x: 790, y: 10), Point(x: 10, y: 470)])
    func noCodeWithoutPassword(_ point: Point) {
        var rule = PairingRule(origin: "http://10.42.0.1")
        for i in 0..<2000 {
            let effects = rule.tap(at: point, canvas: Self.canvas, now: Int64(i) * Self.s / 50).effects
            #expect(!effects.contains { if case .check = $0 { true } else { false } })
            if case .code = rule.view { Issue.record("a code shown by taps alone") }
        }
    }

    @Test("the keyboard types, turns pages, deletes; Enter asks for the check with the code's 2 minutes; Cancel closes")
    func typing() {
        var rule = PairingRule(origin: "http://10.42.0.1")
        _ = Self.open(&rule)
        _ = rule.tap(at: Self.point(of: .character("a")), canvas: Self.canvas, now: Self.s)
        _ = rule.tap(at: Self.point(of: .page(1)), canvas: Self.canvas, now: Self.s)
        #expect(rule.view == .keyboard(page: 1, typed: 1))
        _ = rule.tap(at: Self.point(of: .character("B"), page: 1), canvas: Self.canvas, now: Self.s)
        _ = rule.tap(at: Self.point(of: .page(2), page: 1), canvas: Self.canvas, now: Self.s)
        _ = rule.tap(at: Self.point(of: .character("#"), page: 2), canvas: Self.canvas, now: Self.s)
        _ = rule.tap(at: Self.point(of: .character("~"), page: 2), canvas: Self.canvas, now: Self.s)
        _ = rule.tap(at: Self.point(of: .backspace, page: 2), canvas: Self.canvas, now: Self.s)
        _ = rule.tap(at: Self.point(of: .character(" "), page: 2), canvas: Self.canvas, now: Self.s)
        let enter = rule.tap(at: Self.point(of: .enter, page: 2), canvas: Self.canvas, now: 2 * Self.s).effects
        #expect(enter == [.check(password: "aB# ", until: 122 * Self.s)])
        #expect(rule.view == .keyboard(page: 2, typed: 4), "the keyboard stays, deaf, while the password is checked")
        #expect(rule.tap(at: Self.point(of: .character("x")), canvas: Self.canvas, now: 2 * Self.s).taken)
        var cancelled = PairingRule(origin: "http://10.42.0.1")
        _ = Self.open(&cancelled)
        _ = cancelled.tap(at: Self.point(of: .cancel), canvas: Self.canvas, now: Self.s)
        #expect(cancelled.view == nil)
        var empty = PairingRule(origin: "http://10.42.0.1")
        _ = Self.open(&empty)
        #expect(empty.tap(at: Self.point(of: .enter), canvas: Self.canvas, now: Self.s).effects.isEmpty, "Enter with nothing typed checks nothing")
    }

    @Test("a right password shows the code's address for 2 minutes, then it is withdrawn; a tap on it closes it at once")
    func code() {
        var rule = PairingRule(origin: "http://10.42.0.1")
        _ = Self.open(&rule)
        _ = Self.type("secret12", &rule, at: Self.s)
        _ = rule.checked(code: "CODE", until: 121 * Self.s, now: Self.s)
        #expect(rule.view == .code(url: "http://10.42.0.1/console/api/pair/CODE"))
        #expect(rule.look(at: 121 * Self.s - 1).isEmpty)
        #expect(rule.look(at: 121 * Self.s).first == .withdraw)
        #expect(rule.view == nil)
        var tapped = PairingRule(origin: "http://x")
        _ = Self.open(&tapped)
        _ = Self.type("secret12", &tapped, at: Self.s)
        _ = tapped.checked(code: "CODE", until: 121 * Self.s, now: Self.s)
        #expect(tapped.tap(at: Point(x: 400, y: 240), canvas: Self.canvas, now: 2 * Self.s).effects.first == .withdraw)
        #expect(tapped.view == nil)
    }

    @Test("a wrong password closes the keyboard, shows nothing and counts: 5 in a minute, and the corner opens nothing until it has passed")
    func wrong() {
        var rule = PairingRule(origin: "http://10.42.0.1")
        for attempt in 0..<5 {
            let t = Int64(attempt) * 5 * Self.s
            #expect(Self.open(&rule, at: t).last == true)
            _ = Self.type("guess\(attempt)", &rule, at: t + Self.s)
            _ = rule.checked(code: nil, until: t + 121 * Self.s, now: t + Self.s)
            #expect(rule.view == nil)
        }
        _ = Self.open(&rule, at: 30 * Self.s)
        #expect(rule.view == nil, "the sixth try within the minute finds no keyboard")
        _ = Self.open(&rule, at: 62 * Self.s)
        #expect(rule.view == .keyboard(page: 0, typed: 0), "a minute after the first wrong one, one try is free again")
    }

    @Test("the booth leaving ready (a take started from stdin) closes the keyboard, and a code, withdrawn")
    func leaves() {
        var rule = PairingRule(origin: "http://10.42.0.1")
        _ = Self.open(&rule)
        #expect(rule.look(at: Self.s, mayShow: false).count == 1)
        #expect(rule.view == nil)
        _ = Self.open(&rule, at: 2 * Self.s)
        _ = Self.type("secret12", &rule, at: 3 * Self.s)
        _ = rule.checked(code: "CODE", until: 123 * Self.s, now: 3 * Self.s)
        #expect(rule.look(at: 4 * Self.s, mayShow: false).first == .withdraw)
        #expect(rule.view == nil)
        #expect(rule.look(at: 5 * Self.s, mayShow: false).isEmpty, "said once")
    }

    @Test("the keyboard left alone a minute closes; a check's answer after that is withdrawn")
    func timeout() {
        var rule = PairingRule(origin: "http://10.42.0.1")
        _ = Self.open(&rule)
        #expect(rule.look(at: 59 * Self.s).isEmpty)
        _ = rule.look(at: 61 * Self.s)
        #expect(rule.view == nil)
        #expect(rule.checked(code: "LATE", until: 200 * Self.s, now: 62 * Self.s) == [.withdraw])
    }

    @Test("the address's origin from the share template", arguments: [
        ("http://10.42.0.1/s/{token}/", "http://10.42.0.1"), ("https://booth.example:8443/share/{token}", "https://booth.example:8443"),
        ("http://host", "http://host"),
    ])
    func origin(_ template: String, _ origin: String) {
        #expect(PairingRule.origin(ofTemplate: template) == origin)
    }

    @Test("every key of every page lies inside the canvas, none over another, in landscape and portrait",
          arguments: [Size(width: 800, height: 480), Size(width: 480, height: 800), Size(width: 1920, height: 1080)])
    func layout(_ canvas: Size) {
        for page in 0..<PairingKeyboard.pages {
            let keys = PairingKeyboard.layout(page: page, canvas: canvas).keys
            for (i, a) in keys.enumerated() {
                #expect(a.frame.x >= 0 && a.frame.y >= 0 && a.frame.maxX <= canvas.width && a.frame.maxY <= canvas.height)
                for b in keys[(i + 1)...] { #expect(!a.frame.intersects(b.frame), "\(a.key) and \(b.key) on page \(page)") }
                #expect(PairingKeyboard.key(at: a.frame.center, page: page, canvas: canvas) == a.key)
            }
            #expect(keys.contains { $0.key == .enter } && keys.contains { $0.key == .cancel } && keys.contains { $0.key == .backspace })
        }
    }
}
