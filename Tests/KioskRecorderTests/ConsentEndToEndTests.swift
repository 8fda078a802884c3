// The guest's say before a take (`--consent`), through the binary: Start shows the consent screen and
// no countdown starts; No thanks goes back to ready with no file; Agree with only `film` switched on
// records the take, whose outcome names the consent file's SHA-256 (as `sha256sum` computes it) and
// the choices, whose file carries them in its comment tag, whose consent line is in the log by the
// time the outcome is said (and said to have failed before it when it cannot be written); it gets no
// share page and no QR code, the library does not list it, the film has it, after a restart too.
// The shutter asks the same way, and its photo is taken (not a video) under the choices agreed to.
// A guest's taps at the switches' and Agree's places on screen set what the take is made under.
// docs/screenshots/make-consent makes the docs' pictures of the screen from the booth itself.
import Foundation
import Testing
import KioskContract
import KioskCore
import KioskTestSupport

@Suite("consent before the take, end to end", .serialized)
struct ConsentEndToEndTests {
    static let text = """
        # Before we record

        This booth records **your face** and your voice.
        You choose what happens to the video.

        - You can ask us to delete it at any time.
        """

    /// The consent file in `folder` and its SHA-256 as `sha256sum` prints it.
    static func consentFile(_ folder: URL) throws -> (path: String, sha: String) {
        let path = folder.appendingPathComponent("consent.md").path
        try Self.text.write(toFile: path, atomically: true, encoding: .utf8)
        let sum = try runTool(["sha256sum", path])
        let sha = String(sum.stdout.prefix(while: { $0 != " " }))
        try #require(sha.count == 64, "\(sum.stdout) \(sum.stderr)")
        return (path, sha)
    }

    /// The booth on `takes` with sharing, the library and a consent screen offering share and film.
    /// A test's folder, its takes' and share folders in it, and the consent file with its SHA-256.
    static func world(_ name: String) throws -> (folder: URL, takes: String, shares: String, consent: String, sha: String) {
        let folder = try testFolder(name)
        let (consent, sha) = try consentFile(folder)
        return (folder, folder.appendingPathComponent("takes").path, folder.appendingPathComponent("share").path, consent, sha)
    }

    static func started(_ folder: URL, takes: String, shares: String, consent: String, _ extra: [String] = []) throws -> RecorderProcess {
        let r = try RecorderProcess(booth + ["--countdown", "1", "--output-dir", takes, "--session", "loop", "--library",
                                             "--share-dir", shares, "--share-url", ShareEndToEndTests.template,
                                             "--consent", consent, "--consent-choice", "share", "--consent-choice", "film"] + extra)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        return r
    }

    /// The last `state` reply's consent switches (nil: none said) and its mode and buttons.
    static func consentState(_ r: RecorderProcess) -> (mode: String, buttons: [Button], switches: ConsentSwitches?)? {
        guard let reply = r.stateReply() else { return nil }
        var switches: ConsentSwitches?
        if case let .consented(_, .screen(s)) = reply.unasked { switches = s }
        guard case let .state(mode, _, buttons, _, _, _, _, _, _, _, _) = reply.unasked.unconsented else { return nil }
        return (mode, buttons, switches)
    }

    static func movies(in takes: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: takes)) ?? []).filter { $0.hasSuffix(".mov") && !$0.hasPrefix(".") }
    }

    @Test("Start shows the consent screen (no countdown); No thanks: ready, no file; Agree with film: the take, consent {version = sha256sum, [film]} in its outcome, its log line there when the outcome comes, its comment tag; no share page or QR; not in the library; in the film; after a restart too")
    func agreeFilmOnly() throws {
        let (folder, takes, shares, consent, sha) = try Self.world("consent")
        var r = try Self.started(folder, takes: takes, shares: shares, consent: consent)

        // Start: the consent screen, every switch off; no countdown.
        r.command("start")
        let asked = try #require(Self.consentState(r))
        #expect(asked.mode == "consent" && asked.buttons == [.decline, .agree], "\(asked)")
        #expect(asked.switches == ConsentSwitches(offered: [.share, .film]))
        #expect(!r.names.contains("countdown") && !r.names.contains("recordingStarted"), "\(r.names)")

        // No thanks: ready, nothing recorded.
        r.command("decline")
        #expect(Self.consentState(r)?.mode == "ready")
        #expect(!r.names.contains("recordingStarted") && Self.movies(in: takes).isEmpty, "\(r.names)")

        // Start again, film on (slideshow is not offered: refused), Agree: the countdown, then the take.
        r.command("start")
        r.send(#"{"command":"consentChoice","choice":"film","on":true}"#)
        r.send(#"{"command":"consentChoice","choice":"slideshow","on":true}"#)
        let set = try #require(Self.consentState(r))
        var filmOnly = ConsentSwitches(offered: [.share, .film])
        filmOnly.film = true
        #expect(set.mode == "consent" && set.switches == filmOnly)
        #expect(r.events.contains { if case let .error(code, message) = $0 { code == .badCommand && message.contains("'slideshow' is not offered") } else { false } })
        r.command("agree")
        #expect(r.wait(for: "countdown") != nil)
        try r.recordedASecondAndUsed()
        // Read as soon as the outcome is seen.
        let logged = ConsentLogLines.read(takes)
        let outcome = try #require(r.events.first { $0.handedOverPath != nil })
        let take = try #require(outcome.handedOverPath)
        guard case let .consented(_, .take(given)) = outcome else { Issue.record("no consent in \(outcome)"); return }
        #expect(given == Consent(version: sha, choices: [.film]))
        let name = URL(fileURLWithPath: take).lastPathComponent
        #expect(logged.contains { $0["take"] as? String == name && $0["version"] as? String == sha && $0["choices"] as? [String] == ["film"] },
                "\(logged)")
        #expect(try ffprobe(take, "format_tags=comment").contains("consent=film"))
        let list = try String(contentsOfFile: takes + "/.kiosk-recorder.takes", encoding: .utf8)
        #expect(list.contains("\t" + name + "\t") && list.contains("consent:film"), "\(list)")

        // No share screen, no share folder: back to ready.
        #expect(Self.consentState(r)?.mode == "ready")
        #expect(!r.names.contains("takeShared"), "\(r.names)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: shares)) ?? []).filter { !$0.hasPrefix(".") }.isEmpty)

        // The library does not list it; the film has it; the same after a restart.
        for round in 0..<2 {
            if round == 1 {
                r.command("quit")
                #expect(r.exitStatus() == 0)
                r = try Self.started(folder, takes: takes, shares: shares, consent: consent)
            }
            r.command("openLibrary")
            #expect(OperatorTakesEndToEndTests.library(r, shows: []), "round \(round)")
            r.command("back")
            #expect(try OperatorTakesEndToEndTests.filmed(takes, folder) == 1, "round \(round)")
        }
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    static func photos(in takes: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: takes)) ?? []).filter { $0.hasSuffix(".jpg") && !$0.hasPrefix(".") }.sorted()
    }

    /// The share folders written so far (not the hidden ones).
    static func shareFolders(_ shares: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: shares)) ?? []).filter { !$0.hasPrefix(".") }
    }

    @Test("the shutter asks as Start does: photo shows the consent screen; No thanks: ready, no file; Agree with film alone: the photo (no take), photoTaken with its consent, its log line, list entry and JPEG comment, no share page; Agree with share: its share page")
    func photoAsks() throws {
        let (folder, takes, shares, consent, sha) = try Self.world("consent-photo")
        let r = try Self.started(folder, takes: takes, shares: shares, consent: consent, ["--photo-button", "--share-seconds", "1"])

        // The shutter: the consent screen, every switch off; no photo, no flash's take.
        r.command("photo")
        let asked = try #require(Self.consentState(r))
        #expect(asked.mode == "consent" && asked.buttons == [.decline, .agree], "\(asked)")
        #expect(asked.switches == ConsentSwitches(offered: [.share, .film]))
        #expect(!r.names.contains("photoTaken"), "\(r.names)")

        // No thanks: ready, no photo written.
        r.command("decline")
        #expect(Self.consentState(r)?.mode == "ready")
        #expect(!r.names.contains("photoTaken") && Self.photos(in: takes).isEmpty, "\(r.names)")

        // Film alone, Agree: the photo, not a video; its consent said, logged and listed; no share page.
        r.command("photo")
        r.send(#"{"command":"consentChoice","choice":"film","on":true}"#)
        r.command("agree")
        try #require(r.wait(for: "photoTaken") != nil, "\(r.names) \(r.stderr)")
        let logged = ConsentLogLines.read(takes)
        let taken = try #require(r.events.first { $0.name == "photoTaken" })
        guard case let .consented(.photoTaken(path, _, _), .take(given)) = taken else { Issue.record("no consent in \(taken)"); return }
        #expect(given == Consent(version: sha, choices: [.film]))
        let name = URL(fileURLWithPath: path).lastPathComponent
        #expect(Self.photos(in: takes) == [name] && Self.movies(in: takes).isEmpty)
        #expect(!r.names.contains("recordingStarted") && !r.names.contains("countdown"), "\(r.names)")
        #expect(logged.contains { $0["take"] as? String == name && $0["version"] as? String == sha && $0["choices"] as? [String] == ["film"] },
                "\(logged)")
        let list = try String(contentsOfFile: takes + "/.kiosk-recorder.takes", encoding: .utf8)
        #expect(list.contains("\t" + name + "\t") && list.contains("consent:film"), "\(list)")
        // The JPEG carries the choices in its comment segment, and ffmpeg decodes it whole.
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(jpeg.starts(with: [0xFF, 0xD8]) && String(decoding: jpeg.prefix(4096), as: UTF8.self).contains("consent=film"))
        let decoded = try runProgram(["ffmpeg", "-v", "error", "-i", path, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(decoded.stderr)")
        #expect(Self.consentState(r)?.mode == "ready")
        #expect(!r.names.contains("takeShared") && Self.shareFolders(shares).isEmpty, "\(r.names)")

        // With share on: its share folder and QR code, as without --consent.
        r.command("photo")
        r.send(#"{"command":"consentChoice","choice":"share","on":true}"#)
        r.command("agree")
        try #require(r.wait(for: "takeShared") != nil, "\(r.names) \(r.stderr)")
        let shared = try #require(r.events.first { $0.name == "takeShared" })
        guard case let .takeShared(_, _, _, sharedPhoto?) = shared else { Issue.record("\(shared)"); return }
        #expect(r.events.contains { if case let .consented(.photoTaken(p, _, _), .take(c)) = $0 { p == sharedPhoto && c.choices == [.share] } else { false } })
        #expect(Self.shareFolders(shares).count == 1)
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    /// The pixels of the switch's pill in `row` that are its "on" green (none while it is off: grey
    /// over the darkened picture).
    static func green(_ shot: PromptEndToEndTests.Bitmap, pillOf row: Rect) -> Int {
        green(pillOf: row) { shot.rgb(x: $0, y: $1) }
    }

    static func green(pillOf row: Rect, _ rgb: (Int, Int) -> (Int, Int, Int)) -> Int {
        let pill = Rect(x: row.maxX - row.height * 2 - row.height / 4, y: row.y + row.height / 4, width: row.height * 2, height: row.height / 2)
        var n = 0
        for y in pill.y..<pill.maxY { for x in pill.x..<pill.maxX { let (r, g, b) = rgb(x, y); if g > 180 && g > r + 100 && g > b + 60 { n += 1 } } }
        return n
    }

    @Test("taps on the consent screen as a guest makes them: a tap on a switch's row turns it over (its pill goes green), Agree at its place; the take's consent is what the switches said")
    func tapsSwitches() throws {
        let (folder, takes, shares, consent, sha) = try Self.world("consent-taps")
        let r = try Self.started(folder, takes: takes, shares: shares, consent: consent)
        let layout = Layout(canvas: Size(width: 800, height: 480))
        // Share, then film: the rows top to bottom.
        let rows = layout.consentRows(count: 2)
        func tap(_ p: Point) { r.send(#"{"command":"tap","x":\#(p.x),"y":\#(p.y)}"#) }
        func switches() -> ConsentSwitches? { Self.consentState(r)?.switches }
        func shot(_ name: String) throws -> PromptEndToEndTests.Bitmap { try PromptEndToEndTests.take(r, folder.appendingPathComponent(name).path) }

        r.command("start")
        #expect(switches() == ConsentSwitches(offered: [.share, .film]))
        let off = try shot("off.bmp")
        #expect(Self.green(off, pillOf: rows[0]) < 20 && Self.green(off, pillOf: rows[1]) < 20)

        // Film's row: on, its pill green, share's not.
        tap(rows[1].center)
        var filmOnly = ConsentSwitches(offered: [.share, .film])
        filmOnly.film = true
        #expect(switches() == filmOnly)
        let film = try shot("film.bmp")
        let pillArea = rows[1].height * 2 * (rows[1].height / 2)
        #expect(Self.green(film, pillOf: rows[1]) > pillArea / 4 && Self.green(film, pillOf: rows[0]) < 20,
                "\(Self.green(film, pillOf: rows[1])) of \(pillArea)")
        // Share's row twice: on, then off again (its pill grey once more).
        tap(rows[0].center)
        var both = filmOnly
        both.share = true
        #expect(switches() == both)
        #expect(Self.green(try shot("both.bmp"), pillOf: rows[0]) > pillArea / 4)
        tap(rows[0].center)
        #expect(switches() == filmOnly)
        #expect(Self.green(try shot("film-again.bmp"), pillOf: rows[0]) < 20)

        // Agree where it is drawn: the take, under film alone.
        tap(layout.frame(of: .agree).center)
        try r.recordedASecondAndUsed()
        let outcome = try #require(r.events.first { $0.handedOverPath != nil })
        guard case let .consented(_, .take(given)) = outcome else { Issue.record("no consent in \(outcome)"); return }
        #expect(given == Consent(version: sha, choices: [.film]))
        #expect(!r.names.contains("takeShared"), "\(r.names)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("the consent line is written before the outcome is said: a log that cannot be written is said (error) before the outcome")
    func logBeforeOutcome() throws {
        let (folder, takes, shares, consent, _) = try Self.world("consent-log")
        // A folder where the log goes: it cannot be opened for writing.
        try FileManager.default.createDirectory(atPath: takes + "/.kiosk-recorder.consent", withIntermediateDirectories: true)
        let r = try Self.started(folder, takes: takes, shares: shares, consent: consent)
        r.command("start")
        r.command("agree")
        try r.recordedASecondAndUsed()
        let names = r.names
        let failed = r.events.firstIndex { if case let .error(_, message) = $0 { message.contains("consent log") } else { false } }
        let said = try #require(names.firstIndex(of: "videoRecorderDidFinishRecordingVideoWithOutputPath"))
        #expect(failed != nil && failed! < said, "\(names)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("a take cut by kill -9 keeps its guest's choices: recovered at the restart with them (its comment tag), so the library still leaves it out")
    func killedTakeKeepsConsent() throws {
        let (folder, takes, shares, consent, _) = try Self.world("consent-kill")
        var r = try Self.started(folder, takes: takes, shares: shares, consent: consent)
        r.command("start")
        r.send(#"{"command":"consentChoice","choice":"film","on":true}"#)
        r.command("agree")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        try #require(r.waitRecorded(1))
        r.kill(SIGKILL)
        _ = r.exitStatus()
        r = try Self.started(folder, takes: takes, shares: shares, consent: consent)
        #expect(r.names.contains("recordingRecovered"), "\(r.names)")
        let list = try String(contentsOfFile: takes + "/.kiosk-recorder.takes", encoding: .utf8)
        #expect(list.contains("consent:film"), "\(list)")
        r.command("openLibrary")
        #expect(OperatorTakesEndToEndTests.library(r, shows: []))
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("docs/screenshots/make-consent, as docs/screens.md names it, into a scratch folder: the booth's own consent screen, English landscape 800x480 and German portrait 480x800 turned upright, unlike each other, the film switch on (its pill green) and share's off")
    func docScreenshots() throws {
        let folder = try testFolder("consent-screens")
        let made = try runTool(["docs/screenshots/make-consent", folder.path])
        try #require(made.status == 0, "\(made.stderr)")
        var pictures: [[UInt8]] = []
        for (name, size) in [("consent-landscape", Size(width: 800, height: 480)), ("de-consent-portrait", Size(width: 480, height: 800))] {
            let rgbPath = folder.appendingPathComponent("\(name).rgb").path
            let decoded = try runProgram(["ffmpeg", "-v", "error", "-y", "-i", folder.appendingPathComponent("\(name).png").path,
                                          "-f", "rawvideo", "-pix_fmt", "rgb24", rgbPath], stdout: .discard)
            let rgb = try [UInt8](Data(contentsOf: URL(fileURLWithPath: rgbPath)))
            try #require(decoded.status == 0 && rgb.count == size.width * size.height * 3, "\(name): \(rgb.count) bytes, not \(size)")
            // Share, slideshow, film: the rows top to bottom, where the upright screen has them.
            let rows = Layout(canvas: size).consentRows(count: 3)
            let at = { (x: Int, y: Int) in let o = (y * size.width + x) * 3; return (Int(rgb[o]), Int(rgb[o + 1]), Int(rgb[o + 2])) }
            let pill = rows[2].height * 2 * (rows[2].height / 2)
            #expect(Self.green(pillOf: rows[2], at) > pill / 4 && Self.green(pillOf: rows[0], at) < 20, "\(name)")
            #expect(!pictures.contains(rgb))
            pictures.append(rgb)
        }
    }
}

/// The consent log's lines as JSON objects.
enum ConsentLogLines {
    static func read(_ folder: String) -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: folder + "/.kiosk-recorder.consent", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}
