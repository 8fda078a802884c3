// The operator's console in two real browser engines, Chromium and WebKit (Safari's, as iPhones
// run it), through WebDriver: Tests/Browsers/console_browser.py drives the page at a phone's
// 360 px beside a real booth and console on loopback, while this test starts the take on the
// booth's stdin and checks the booth, the folder and the audit log after. The driver also opens a
// page of another origin against the signed-in console: nothing it sends gets through.
import Foundation
import Testing
import KioskTestSupport

/// The browsers, their WebDriver servers and the display WebKit needs. With CI set
/// (`TestEnvironment.isCI`) a missing one fails the test instead of skipping it.
enum BrowserEngines {
    static let driver = repositoryRoot.appendingPathComponent("Tests/Browsers/console_browser.py").path
    static let programs = ["/usr/bin/python3", "/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/WebKitWebDriver",
                           "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser", "/usr/bin/Xvfb"]
    static let missing = programs.filter { !FileManager.default.isExecutableFile(atPath: $0) }
    static let skipNote: Comment = "needs chromium, chromium-driver, webkit2gtk-driver and xvfb (kiosk/setup --test)"
}

@Suite("kiosk-recorder console in Chromium and WebKit over WebDriver, 360 px wide",
       .enabled(if: BrowserEngines.missing.isEmpty || TestEnvironment.isCI, BrowserEngines.skipNote))
struct ConsoleBrowserEndToEndTests {
    let password = "booth operator 1"

    /// A take through the consent screen (share and film offered, film turned on, Agree) by a booth
    /// on `config` with `--consent`, which then quits: the take's name.
    static func consentedTake(_ folder: URL, config: String) throws -> String {
        let (consent, _) = try ConsentEndToEndTests.consentFile(folder)
        let asking = try RecorderProcess(booth + ["--config", config, "--consent", consent, "--consent-choice", "share", "--consent-choice", "film"])
        try #require(asking.wait(for: "ready") != nil, "\(asking.stderr)")
        asking.command("start")
        asking.send(#"{"command":"consentChoice","choice":"film","on":true}"#)
        asking.command("agree")
        try asking.recordedASecondAndUsed()
        let line = try #require(asking.rawLines.last { $0.hasPrefix(#"{"event":"videoRecorderDidFinishRecordingVideoWithOutputPath""#) })
        let path = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["outputPath"] as? String)
        #expect(line.contains(#""choices":["film"]"#), "\(line)")
        asking.command("quit")
        #expect(asking.exitStatus(timeout: 30) == 0, "\(asking.stderr)")
        return URL(fileURLWithPath: path).lastPathComponent
    }

    @Test("the page: only the form before sign-in, a wrong password's message, the form in Japanese, Status's figures and the Settings view in German, Status live as a take starts at the booth (within 1 s of start written to it, measured in the page), the booth closed (after a confirm) and opened and its settings reloaded from Status, a refused reload's warning on Status, the film made on Film (its progress bar, downloaded, played: to its end in Chromium), Takes played, hidden, shown and deleted after its confirm, a take a guest agreed to (film only) shown with its consent, a page of another origin refused (403, nothing started), Log, Devices (the booth's screen refreshed, a test take, Calibrate), sign-out; a screenshot of each",
          arguments: ["chromium", "webkit"])
    func console(engine: String) throws {
        try #require(BrowserEngines.missing.isEmpty, "\(BrowserEngines.missing) not found (CI is set, so this test does not skip): \(BrowserEngines.skipNote)")
        let folder = try testFolder("console-browser-\(engine)")
        let live = ConsoleLiveEndToEndTests()
        let (config, _, takes) = try live.config(folder, extra: "countdown = 0\n")
        // A take a guest agreed to with film only, on the consent screen of the booth before this
        // one (same folder): Takes shows that consent beside it, and the film has it.
        let consented = try Self.consentedTake(folder, config: config)
        let r = try RecorderProcess(booth + ["--config", config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let console = try live.consoleWithPassword(folder, config: config, tcp: true)
        defer { console.stop() }
        // A take before the page's: the film the page makes has two.
        _ = try live.take(r, count: 1)
        let shots = folder.appendingPathComponent("shots").path
        let browser = try RecorderProcess([BrowserEngines.driver, "--engine", engine, "--base", console.base, "--password", password, "--shots", shots,
                                           "--break-config", config, "--consented", consented, "--film-takes", "3"],
                                          executable: "/usr/bin/python3")
        func said(_ line: String) -> Bool { browser.rawLines.contains(line) }
        func ended() -> Bool { browser.rawLines.contains { $0.hasPrefix("FAIL:") || $0.hasPrefix("figure: \(engine): ") && $0.contains(" s, CPU ") } }

        // The driver is on Status, signed in: the take starts at the booth, and the page is told
        // when start was written to the booth (the measure's start) and when the booth wrote
        // recordingStarted (its line's arrival here), as Unix ms.
        try #require(browser.waitForOutput(timeout: 240) { said("cue: start") || ended() }, "\(browser.rawLines) \(browser.stderr)")
        try #require(said("cue: start"), "\(browser.rawLines) \(browser.stderr)")
        let asked = Date().timeIntervalSince1970
        r.command("start")
        try #require(r.wait(for: "recordingStarted", count: 2) != nil, "\(r.rawLines)")
        let started = try #require(r.timedEvents.last { $0.event.name == "recordingStarted" }?.at)
        let stamp = Date().timeIntervalSince1970 - (ProcessInfo.processInfo.systemUptime - started)
        browser.send("\(Int((stamp * 1000).rounded())) \(Int((asked * 1000).rounded()))")
        #expect(r.waitRecorded(1))
        r.command("stop")
        try #require(r.wait(for: "recordingFinished", count: 2) != nil)
        r.command("useVideo")
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: 2) != nil)
        let line = try #require(r.rawLines.last { $0.hasPrefix(#"{"event":"videoRecorderDidFinishRecordingVideoWithOutputPath""#) })
        let path = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["outputPath"] as? String)
        let name = URL(fileURLWithPath: path).lastPathComponent
        browser.send("taken \(name)")

        let status = browser.exitStatus(timeout: 400)
        let output = browser.rawLines
        // Each step with its time since the driver began (its stderr), and what it measured.
        print(browser.stderr.split(separator: "\n").filter { $0.contains(" s  ") }.map { "\(engine): \($0)" }.joined(separator: "\n"))
        #expect(status == 0, "\(output.joined(separator: "\n")) \(browser.stderr)")
        for check in ["the page is 360 px wide", "before sign-in: only the sign-in form", "before sign-in: every API answers the page 401", "a wrong password: 'wrong password'",
                      "Status shows recording", "Takes lists \(name)", "hidden (marked on the page and in api/takes)", "shown again",
                      "deleted once confirmed", "signed out: the form again, api/state 401",
                      "Takes shows \(consented)'s consent: film only, and none beside \(name)"] {
            #expect(output.contains("ok: " + check), "\(check): \(output)")
        }
        // (readyState at least 2, HAVE_CURRENT_DATA: the driver waits for it.)
        #expect(output.contains { $0.hasPrefix("ok: the take plays in the page (readyState ") })
        if engine == "chromium" { #expect(output.contains { $0.hasPrefix("ok: played to its end") }) }
        // Devices: the booth's screen (its 800x480 window) as a picture, fetched again and again.
        #expect(output.contains { $0.hasPrefix("ok: Devices: the booth's screen 800x480, refreshed") }, "\(output)")
        #expect(output.contains { $0.hasPrefix("ok: Devices: a test take: ") && $0.contains("dBFS") }, "\(output)")
        #expect(output.contains { $0.hasPrefix("ok: a page of another origin") && $0.contains("read=blocked forgedHeader=blocked") })
        #expect(output.contains { $0.hasPrefix("ok: a forged form from another origin is refused") && $0.contains("foreignOrigin") })
        // Live: the page showed the take within 1 s of start written to the booth (the driver fails
        // past it too). The event's figure after it may be negative: the page's state, asked twice a
        // second, can show the take before the booth writes recordingStarted (once the disk has its file).
        let liveFigure = output.first { $0.hasPrefix("figure: \(engine): recordingStarted shown ") && $0.contains(" ms after start was written, ") }
        let delay = liveFigure.flatMap { Int($0.dropFirst("figure: \(engine): recordingStarted shown ".count).prefix { $0 != " " }) }
        #expect(delay.map { $0 <= 1000 } == true, "\(String(describing: liveFigure))")
        // The page before sign-in in the phone's language (Japanese); Status's control of the booth:
        // closed (after a dismissed confirm that sent nothing) and opened, its settings reloaded, a
        // bad line's reload refused with its warning on Status.
        #expect(output.contains("ok: sign-in in Japanese: ['ブースのコンソール', 'ブースのコンソール', 'オペレーターのパスワード', 'サインイン', 'パスワードが違います']"), "\(output)")
        for check in ["Close the booth asks first", "Open the booth: the booth's state and Status say ready again", "Reload settings: ",
                      "a refused reload: ", "the settings put back, reloaded: "] {
            #expect(output.contains { $0.hasPrefix("ok: " + check) }, "\(check): \(output)")
        }
        #expect(output.contains { $0.hasPrefix("ok: a refused reload: ") && $0.contains("Settings refused: ") }, "\(output)")
        #expect(r.count(of: "boothClosed") == 1 && r.count(of: "boothOpened") == 1, "\(r.rawLines)")
        #expect(r.rawLines.contains { $0.hasPrefix(#"{"event":"error","code":"badConfig""#) && $0.contains("many") }, "\(r.rawLines)")
        // The meter: the test tone's beeps (-6 dBFS), as the booth holds them.
        let heard = output.first { $0.hasPrefix("ok: the meter hears the test tone: ") }.flatMap { Double($0.split(separator: " ")[7]) }
        #expect(heard.map { (-7.5)...(-4.5) ~= $0 } == true, "\(output)")
        // Status's figures (api/figures and state's), the disk in minutes once a take gave its rate,
        // and the Settings view in the phone's other language.
        #expect(output.contains { $0.hasPrefix("ok: Status's figures: disk ") && $0.contains("measured") }, "\(output)")
        #expect(output.contains { $0.hasPrefix("ok: Status: free disk ") && $0.contains("min of video") }, "\(output)")
        #expect(output.contains("ok: Settings in German: ['Einstellungen', 'Speichern und neu laden', 'Standard', 'Overlay (PNG mit Alpha)']"), "\(output)")
        // A screenshot of each view, a phone's width.
        // The film: made from the page, its progress shown, downloaded whole (the console's file), played.
        let film = try #require(output.first { $0.hasPrefix("ok: the film downloads from the page's link: ") }, "\(output)")
        let bytes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("console-film.mp4").path)[.size] as? Int
        #expect(film.contains(": \(bytes ?? -1) bytes, attachment"), "\(film) \(String(describing: bytes))")
        #expect(output.contains { $0.hasPrefix("ok: the film's progress bar: ") })
        #expect(output.contains { $0.hasPrefix("ok: the film plays in the page") })
        if engine == "chromium" { #expect(output.contains { $0.hasPrefix("ok: the film played to its end") }) }
        #expect(console.auditLines.contains { $0.contains(#""action":"film""#) && $0.contains(#""result":"started""#) })
        for view in ["sign-in", "sign-in-ja", "status", "status-control", "settings-de", "film", "takes", "log", "devices"] {
            let png = "\(shots)/console-\(view)-\(engine).png"
            let size = try runProgram(["ffprobe", "-v", "error", "-show_entries", "stream=width", "-of", "csv=p=0", png])
            #expect(size.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "360", "\(png): \(size.stdout) \(size.stderr)")
        }

        // The booth: the film's first take, the take and the page's test take only (the other
        // origin started none), the take deleted through the page with its files.
        #expect(r.count(of: "recordingStarted") == 3, "\(r.rawLines)")
        #expect(r.rawLines.contains { $0.hasPrefix(#"{"event":"takeDeleted""#) && $0.contains(name) && $0.contains(#""reason":"operator""#) })
        #expect(!FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: takes + "/." + name + ".thumb.jpg"))
        // The audit log: the browser's wrong password, the other origin's refusals, the page's changes.
        let audit = console.auditLines
        #expect(audit.contains { $0.contains(#""action":"signIn""#) && $0.contains("wrongPassword") }, "\(audit)")
        #expect(audit.filter { $0.contains(#""result":"refused 403""#) }.count >= 2, "\(audit)")
        for action in ["hideTake \(name)", "showTake \(name)", "deleteTake \(name)", "trial", "signOut", "command closeBooth", "command openBooth"] {
            #expect(audit.contains { $0.contains(#""action":"\#(action)""#) && $0.contains(#""result":"ok""#) }, "\(action): \(audit)")
        }
        // Closed once (the dismissed confirm sent nothing); reloaded twice, refused once between.
        #expect(audit.filter { $0.contains(#""action":"command closeBooth""#) }.count == 1, "\(audit)")
        #expect(audit.filter { $0.contains(#""action":"command reload""#) && $0.contains(#""result":"ok""#) }.count == 2, "\(audit)")
        #expect(audit.filter { $0.contains(#""action":"command reload""#) && $0.contains(#""result":"refused badConfig""#) }.count == 1, "\(audit)")
        // The confirm cancelled first sent nothing: one delete only.
        #expect(audit.filter { $0.contains(#""action":"deleteTake \#(name)""#) }.count == 1, "\(audit)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("the page of a console with no password set: how to set one and no form, in the phone's language (English, then Spanish as its languages change)",
          arguments: ["chromium", "webkit"])
    func noPassword(engine: String) throws {
        try #require(BrowserEngines.missing.isEmpty, "\(BrowserEngines.missing) not found (CI is set, so this test does not skip): \(BrowserEngines.skipNote)")
        let folder = try testFolder("console-no-password-\(engine)")
        let (config, _, _) = try ConsoleLiveEndToEndTests().config(folder)
        // No password file: the console's /console/ is no-password.html (no booth is needed for it).
        let console = try ConsoleUnderTest.start(folder, booth: ["--config", config], tcp: true)
        defer { console.stop() }
        let shots = folder.appendingPathComponent("shots").path
        let browser = try RecorderProcess([BrowserEngines.driver, "--engine", engine, "--base", console.base, "--no-password-page", "--shots", shots],
                                          executable: "/usr/bin/python3")
        let status = browser.exitStatus(timeout: 240)
        let output = browser.rawLines
        #expect(status == 0, "\(output.joined(separator: "\n")) \(browser.stderr)")
        #expect(output.contains("ok: no password: the page says 'No console password is set, so the console opens nothing.' and holds no form"), "\(output)")
        #expect(output.contains("ok: no password, in Spanish: ['Consola de la cabina', 'No hay contraseña de consola, así que la consola no abre nada.', "
                                + "'En la cabina, ejecuta sudo -u kiosk kiosk-recorder console password y escribe la contraseña dos veces; luego recarga esta página.']"),
                "\(output)")
        #expect(FileManager.default.fileExists(atPath: "\(shots)/console-no-password-es-\(engine).png"))
    }
}
