// Pairing a phone with the console from the booth's screen, through the real binaries: a booth
// with `--console-pairing` beside `kiosk-recorder console`, touched with the `tap` command (routed as
// a finger's touch) and, under Xvfb, long presses of a real mouse; what shows is read from the
// booth's own screenshots by zbarimg, and the code is given to the console as the phone would.
import Foundation
import Glibc
import KioskCore
import KioskPairing
import Testing
import KioskTestSupport

@Suite("pairing a phone from the booth's screen", .serialized)
struct PairingEndToEndTests {
    static let password = "booth operator 1"
    static let canvas = Size(width: 800, height: 480)

    /// A booth with pairing and its console, the password set.
    static func start(_ folder: URL, environment: [String: String]? = nil) throws -> (RecorderProcess, ConsoleUnderTest, socket: String) {
        let socket = folder.appendingPathComponent("booth.sock").path
        let passwordFile = folder.appendingPathComponent("console-password").path
        let set = try setConsolePassword(password, file: passwordFile)
        try #require(set.status == 0, "\(set.stderr)")
        let arguments = booth + ["--output", folder.appendingPathComponent("take.mov").path, "--control-socket", socket,
                                 "--console-pairing", passwordFile]
        let r = try environment.map { try RecorderProcess(arguments, environment: $0) } ?? RecorderProcess(arguments)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        return (r, try ConsoleUnderTest.start(folder, boothSocket: socket), socket)
    }

    static func tap(_ r: RecorderProcess, _ p: Point) { r.send(#"{"command":"tap","x":\#(p.x),"y":\#(p.y)}"#) }

    /// Five taps in the top-left corner: the keyboard's gesture.
    static func openKeyboard(_ r: RecorderProcess) { for _ in 0..<5 { tap(r, Point(x: 12, y: 12)) } }

    /// `text` typed on the keyboard's first page (lower case, digits, space), then Enter.
    static func type(_ r: RecorderProcess, _ text: String) {
        let keys = PairingKeyboard.layout(page: 0, canvas: canvas).keys
        for c in text { tap(r, keys.first { $0.key == .character(c) }!.frame.center) }
        tap(r, keys.first { $0.key == .enter }!.frame.center)
    }

    /// The codes zbarimg reads on the booth's screen now.
    static func codesOnScreen(_ r: RecorderProcess, _ folder: URL, _ name: String) throws -> [String] {
        try ShareEndToEndTests.codes(in: try ShareEndToEndTests.screenshot(r, folder.appendingPathComponent(name + ".bmp").path))
    }

    /// Whether the keyboard is on the booth's screen now: its Enter key's blue (KioskUI's primary)
    /// where the layout puts it, and its dark digit keys.
    static func keyboardOnScreen(_ r: RecorderProcess, _ folder: URL, _ name: String) throws -> Bool {
        let shot = try PromptEndToEndTests.take(r, folder.appendingPathComponent(name + "-keys.bmp").path)
        let keys = PairingKeyboard.layout(page: 0, canvas: canvas).keys
        func at(_ key: PairingKey, dx: Int = 0) -> (Int, Int, Int) {
            let frame = keys.first { $0.key == key }!.frame
            return shot.rgb(x: frame.x + 4 + dx, y: frame.y + 4)
        }
        return at(.enter) == (10, 132, 255) && at(.character("5")) == (72, 72, 74)
    }

    @Test("taps anywhere show no code, the corner only the keyboard (in ready, never during a take); a wrong password shows nothing; the right one a QR code the console takes once, for a session; used and expired codes are refused as wrong ones")
    func pairing() throws {
        let folder = try testFolder("pairing")
        let (r, console, socket) = try Self.start(folder)
        defer { console.stop() }
        let codeFile = (socket as NSString).deletingLastPathComponent + "/console-pairing"

        // Taps everywhere but on the booth's buttons (the bottom panel's), on a grid, three rounds: never a code.
        for _ in 0..<3 {
            for x in stride(from: 40.0, to: 800, by: 120) {
                for y in stride(from: 40.0, to: 300, by: 100) { Self.tap(r, Point(x: x, y: y)) }
            }
        }
        #expect(try Self.codesOnScreen(r, folder, "taps") == [])
        #expect(try !Self.keyboardOnScreen(r, folder, "taps"))
        // During a take the corner opens nothing (the keyboard never covers a guest's Stop).
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.names)")
        Self.openKeyboard(r)
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.names)")
        r.command("retake")
        #expect(r.waitForState { mode, _ in mode == "ready" })
        #expect(!r.stderr.contains("pairing: the operator's keyboard opened"))
        // The corner's five taps: the keyboard, and no code; its keys pressed at random (no Enter): no code.
        Self.openKeyboard(r)
        #expect(eventually(10) { r.stderr.contains("pairing: the operator's keyboard opened") }, "\(r.stderr)")
        for x in stride(from: 100.0, to: 800, by: 150) { Self.tap(r, Point(x: x, y: 300)) }
        #expect(try Self.codesOnScreen(r, folder, "keyboard") == [])
        #expect(try Self.keyboardOnScreen(r, folder, "keyboard"), "the keyboard is what the corner opens")
        #expect(!FileManager.default.fileExists(atPath: codeFile))
        // Its Cancel closes it; the booth's buttons answer again.
        let keys = PairingKeyboard.layout(page: 0, canvas: Self.canvas).keys
        Self.tap(r, keys.first { $0.key == .cancel }!.frame.center)
        #expect(eventually(10) { r.stderr.contains("pairing: the keyboard closed") })
        // A take started by the parent closes it: the screen is the guest's again.
        Self.openKeyboard(r)
        #expect(eventually(10) { r.stderr.components(separatedBy: "pairing: the operator's keyboard opened").count == 3 })
        r.command("start")
        try #require(r.wait(for: "recordingStarted", count: 2) != nil, "\(r.names)")
        #expect(eventually(10) { r.stderr.contains("pairing: closed: the booth's screen is a guest's again") }, "\(r.stderr)")
        #expect(try !Self.keyboardOnScreen(r, folder, "take"))
        r.command("stop")
        try #require(r.wait(for: "recordingFinished", count: 2) != nil, "\(r.names)")
        r.command("retake")
        #expect(r.waitForState { mode, _ in mode == "ready" })

        // A wrong password: the keyboard closes, nothing shows, no code is written.
        Self.openKeyboard(r)
        Self.type(r, "not the password")
        #expect(eventually(10) { r.stderr.contains("pairing: a wrong password on the screen's keyboard (1 in the last minute)") }, "\(r.stderr)")
        #expect(try Self.codesOnScreen(r, folder, "wrong") == [])
        #expect(try !Self.keyboardOnScreen(r, folder, "wrong"), "a wrong password closes the keyboard")
        #expect(!FileManager.default.fileExists(atPath: codeFile))
        #expect(!r.stderr.contains("not the password"), "the typed password is never logged")

        // The right one: a QR code of the console's pairing address, its code in a 0600 file.
        Self.openKeyboard(r)
        Self.type(r, Self.password)
        #expect(eventually(10) { r.stderr.contains("pairing: a one-time code for the console shown") }, "\(r.stderr)")
        let codes = try Self.codesOnScreen(r, folder, "code")
        try #require(codes.count == 1, "\(codes)")
        let prefix = "http://10.42.0.1/console/api/pair/"
        try #require(codes[0].hasPrefix(prefix), "\(codes[0])")
        let code = String(codes[0].dropFirst(prefix.count))
        #expect(code.count == 32 && code.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "\(code): 192 bits")
        var st = stat()
        #expect(stat(codeFile, &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(!r.stderr.contains(code), "the code is never logged")

        // A wrong code first (counted as a wrong password), then the right one: 303 and a session.
        let wrong = try console.curl("GET", "/console/api/pair/" + String(code.reversed()))
        #expect(wrong.status == 401)
        let paired = try console.curl("GET", "/console/api/pair/" + code)
        #expect(paired.status == 303 && paired.header("location") == "/console/", "\(paired.status) \(paired.body)")
        let cookie = try #require(paired.header("set-cookie"))
        #expect(cookie.hasSuffix("; Path=/console/; Max-Age=43200; HttpOnly; SameSite=Strict"), "\(cookie)")
        let session = "Cookie: " + String(cookie.split(separator: ";")[0])
        let state = try console.curl("GET", "/console/api/state", headers: [session])
        #expect(state.status == 200 && state.body.contains(#""event":"state""#), "\(state.status) \(state.body)")
        #expect(try console.curl("GET", "/console/api/session", headers: [session]).body.contains("csrf"))
        #expect(!FileManager.default.fileExists(atPath: codeFile), "a spent code's file is gone")
        // Used: answered exactly as a wrong code.
        let again = try console.curl("GET", "/console/api/pair/" + code)
        #expect(again.status == 401 && again.body == wrong.body, "\(again.status) \(again.body)")
        // Expired: a code whose time (the booth's monotonic clock) has passed, answered as a wrong one.
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let expired = "ExpiredCodeExpiredCodeExpiredCod"
        let monotonic = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        try "\(expired) \(monotonic - 1)\n".write(toFile: codeFile, atomically: true, encoding: .utf8)
        let late = try console.curl("GET", "/console/api/pair/" + expired)
        #expect(late.status == 401 && late.body == wrong.body, "\(late.status) \(late.body)")
        // The same code with time left would have been taken: the file is read as the console reads it.
        try "\(expired) \(monotonic + 120_000_000_000)\n".write(toFile: codeFile, atomically: true, encoding: .utf8)
        #expect(try console.curl("GET", "/console/api/pair/" + expired).status == 303)
        let audit = console.auditLines.filter { $0.contains(#""action":"pair""#) }.map { $0.contains(#""result":"ok""#) ? "ok" : "badCode" }
        #expect(audit == ["badCode", "ok", "badCode", "badCode", "ok"], "\(console.auditLines)")

        // On the booth's screen a code stays until its 2 minutes or a tap: a tap closes it (the first
        // tap then, not a corner tap) and withdraws it: a fresh code's file goes.
        #expect(try Self.codesOnScreen(r, folder, "still") == codes, "a spent code stays on screen until a tap or its time")
        func closed(_ n: Int) -> Bool { r.stderr.components(separatedBy: "pairing: the code was closed on the screen").count == n + 1 }
        Self.tap(r, Point(x: 400, y: 240))
        #expect(eventually(10) { closed(1) })
        #expect(try Self.codesOnScreen(r, folder, "closed") == [])
        Self.openKeyboard(r)
        Self.type(r, Self.password)
        #expect(eventually(10) { r.stderr.components(separatedBy: "pairing: a one-time code for the console shown").count == 3 }, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: codeFile))
        Self.tap(r, Point(x: 12, y: 12))
        #expect(eventually(10) { closed(2) })
        #expect(try Self.codesOnScreen(r, folder, "closed-again") == [])
        #expect(eventually(5) { !FileManager.default.fileExists(atPath: codeFile) }, "a withdrawn code's file is gone")
    }

    @Test("under Xvfb, long presses of a real mouse (1.5 s held) anywhere but the buttons, the corner's too, show no code",
          .enabled(if: XvfbTools.missing.isEmpty || TestEnvironment.isCI, XvfbTools.skipNote))
    func longPresses() throws {
        try XvfbTools.require()
        let x = try XvfbServer()
        let folder = try testFolder("pairing-xvfb")
        let (r, console, socket) = try Self.start(folder, environment: x.recorderEnvironment)
        defer { console.stop() }
        let window = try x.window(pid: r.process.processIdentifier, title: "Kiosk Recorder")
        for p in [Point(x: 10, y: 10), Point(x: 10, y: 10), Point(x: 400, y: 200), Point(x: 790, y: 10), Point(x: 10, y: 240), Point(x: 10, y: 10)] {
            try x.xdotool(["mousemove", "--window", window.id, "\(Int(p.x))", "\(Int(p.y))", "mousedown", "1", "sleep", "1.5", "mouseup", "1"])
        }
        #expect(try Self.codesOnScreen(r, folder, "long") == [])
        #expect(!FileManager.default.fileExists(atPath: (socket as NSString).deletingLastPathComponent + "/console-pairing"))
        #expect(!r.stderr.contains("one-time code"))
    }
}
