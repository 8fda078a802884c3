// The options of the booth's rooms, tested beside their rules until the table left KioskCore: the
// boomerang's, the player's (`--loop`, `--fit`), the language, the `label.*` and `camera.*`
// families, the photo's, the guestbook's, and the machine's part of a configuration.
import KioskSystem
import Testing
@testable import KioskCore
@testable import KioskOptions
import KioskContract

@Suite("Options of the rooms")
struct FamilyOptionsTests {
    @Test("--boomerang-button, --boomerang-seconds, --boomerang-speed: defaults, values, and bad values named (exit 2)")
    func boomerangOptions() throws {
        let plain = try record([])
        #expect(plain.boomerang == BoomerangSettings())
        #expect(!plain.boomerang.button && plain.boomerang.seconds == 1 && plain.boomerang.speed == 1)
        let set = try record(["--boomerang-button", "--boomerang-seconds", "2.5", "--boomerang-speed", "0.5"])
        #expect(set.boomerang.button && set.boomerang.seconds == 2.5 && set.boomerang.speed == 0.5)
        for (option, bad) in [("--boomerang-seconds", "0.4"), ("--boomerang-seconds", "3.5"), ("--boomerang-seconds", "x"),
                              ("--boomerang-speed", "0.25"), ("--boomerang-speed", "2")] {
            #expect(throws: UsageError.self, "\(option) \(bad)") { try record([option, bad]) }
            do { _ = try record([option, bad]) } catch let error as UsageError {
                #expect(error.message.contains(option) && error.message.contains("'\(bad)'"), "\(error.message)")
            } catch { Issue.record("\(error)") }
        }
    }

    @Test("--loop and --fit go with --play; fit is the default; a bad value or either without --play exits 2 naming it")
    func playerOptions() throws {
        guard case let .play(_, _, player) = try parser().parse(["--play", "/tmp/x.mov", "--loop", "--fit", "fill"]) else {
            Issue.record("not play"); return
        }
        #expect(player == PlayerOptions(loop: true, fit: .fill))
        guard case let .play(_, _, plain) = try parser().parse(["--play", "/tmp/x.mov"]) else { Issue.record("not play"); return }
        #expect(plain.fit == .fit && !plain.loop)
        #expect(throws: UsageError("--fit: 'stretch' is not 'fill' or 'fit'")) { try parser().parse(["--play", "x.mov", "--fit", "stretch"]) }
        #expect(throws: UsageError("--loop belongs to the play mode: kiosk-recorder play FILE --loop (or --play FILE)")) { try parser().parse(["--loop"]) }
        #expect(throws: UsageError("--fit belongs to the play mode: kiosk-recorder play FILE --fit fill|fit (or --play FILE)")) {
            try parser().parse(["--fit", "fit"])
        }
        #expect(throws: UsageError("/c:1: 'loop' is a command-line option only, not a config key")) {
            try parser(files: ["/c": "loop = yes\n"]).parse(["--config", "/c", "--play", "x.mov"])
        }
    }

    @Test("--language takes the six tags (and the usual spellings of zh-Hans); anything else names itself")
    func language() throws {
        #expect(try record([]).screen.language == .en)
        #expect(try record(["--language", "ja"]).screen.language == .ja)
        #expect(try record(["--language", "zh-Hans"]).screen.language == .zhHans)
        #expect(try record(["--language", "zh_hans"]).screen.language == .zhHans)
        #expect(try record(["--language=de"]).screen.words[.start] == "Aufnehmen")
        #expect(try record(["--config", "k.conf"], files: ["k.conf": "language = fr\n"]).screen.words[.retake] == "Refaire")
        #expect(usageError(["--language", "klingon"])
            == "--language: 'klingon' is not a language of the booth (one of en, ja, zh-Hans, de, fr, es)")
    }

    @Test("label.start and label.stop (the record and stop circles show no words) are still read, with a warning naming where, and offered nowhere: not in --help, the example config or the docs' table")
    func unlistedLabels() throws {
        let warnings = Locked<[String]>([])
        let parser = OptionParser(readFile: { _ in "label.stop = Halt\n" }, warn: { line in warnings.withLock { $0.append(line) } })
        _ = try parser.parse(["--label.start", "Go", "--config", "k.conf"])
        let said = warnings.withLock { $0 }
        #expect(said.count == 2 && said.allSatisfy { $0.contains("changes nothing") }, "\(said)")
        #expect(said.contains { $0.hasPrefix("--label.start: label.start changes nothing: the record button is a circle") }, "\(said)")
        #expect(said.contains { $0.contains("k.conf:1") && $0.contains("label.stop changes nothing") }, "\(said)")
        #expect(!OptionParser.helpText.contains("--label.start") && !OptionParser.helpText.contains("--label.stop"))
        #expect(OptionParser.helpText.contains("--label.cancel"))
        let example = ExampleConfig.text()
        #expect(!example.contains("label.start") && !example.contains("label.stop") && example.contains("label.cancel"))
        // The other labels warn of nothing.
        warnings.withLock { $0 = [] }
        _ = try parser.parse(["--label.cancel", "Back"])
        #expect(warnings.withLock { $0 }.isEmpty)
    }

    @Test("label.* in the config or on the command line replaces one text, in any language; the flag wins over the file; the old camelCase keys still work")
    func labels() throws {
        let file = "language = ja\nlabel.use-video = \"Keep it #1\"\nlabel.camera-unavailable = Kamera?\n"
        let c = try record(["--config", "k.conf", "--label.use-video", "Send"], files: ["k.conf": file])
        let old = "language = ja\nlabel.useVideo = \"Keep it #1\"\nlabel.cameraUnavailable = Kamera?\n"
        #expect(try record(["--config", "k.conf", "--label.useVideo", "Send"], files: ["k.conf": old]) == c)
        let warnings = Locked<[String]>([])
        let warned = OptionParser(readFile: { _ in old }, warn: { line in warnings.withLock { $0.append(line) } })
        _ = try warned.parse(["--config", "k.conf"])
        #expect(warnings.withLock { $0 } == ["'label.useVideo' is spelled 'label.use-video' now; the old spelling still works",
                                              "'label.cameraUnavailable' is spelled 'label.camera-unavailable' now; the old spelling still works"])
        #expect(c.screen.words[.useVideo] == "Send")
        #expect(c.screen.words[.cameraUnavailable] == "Kamera?")
        #expect(c.screen.words[.retake] == "撮り直す")
        #expect(c.screen.words.title(of: Button.start) == "録画")
        #expect(try record(["--config", "k.conf"], files: ["k.conf": file]).screen.words[.useVideo] == "Keep it #1")
        #expect(usageError(["--config", "k.conf"], files: ["k.conf": "label.bogus = x\n"]) == "k.conf:1: unknown key 'label.bogus'")
        #expect(usageError(["--label.stop", ""]) == "--label.stop: must be one line of 1 to 80 characters")
        #expect(usageError(["--label.stop", String(repeating: "x", count: 81)]) == "--label.stop: must be one line of 1 to 80 characters")
    }

    @Test("camera.* options: auto or a whole number, the torch on or off, in the config and on the command line")
    func cameraControls() throws {
        let c = try record(["--camera.focus", "auto", "--camera.exposure=250", "--config", "k.conf"],
                           files: ["k.conf": "camera.white-balance = 4500\ncamera.torch = on\ncamera.focus = 10\n"])
        #expect(c.capture.cameraControls == [.focus: .auto, .exposure: .value(250), .whiteBalance: .value(4500), .torch: .value(1)])
        #expect(usageError(["--camera.torch", "auto"]) == "--camera.torch: 'auto' is not on or off")
        #expect(usageError(["--camera.brightness", "99999999999"]) == "--camera.brightness: '99999999999' is not auto or a whole number")
        #expect(usageError(["--camera.zoom", "2"]) == "unknown option '--camera.zoom'")
    }

    @Test("--send seek waits for the state that follows, as for tap")
    func sendSeek() throws {
        let seek = try SendRequest(#"{"command":"seek","position":1}"#)
        #expect(seek.answer == .stateReply && seek.lines.count == 2)
    }

    @Test("the machine's part of a configuration: the session, sharing, the trimmer, the countdown, the warning, the orientation")
    func machineSettings() {
        #expect(Configuration().machineSettings
            == MachineSettings(session: .once, shares: false, trims: false, countdown: 3, warnRemaining: 10, orientation: nil))
        var c = Configuration()
        c.guest.session = .loop
        c.share.folder = "/srv/share"
        c.guest.trim = true
        c.guest.countdown = 0
        c.limits.warnRemaining = 5
        c.screen.orientation = .portrait
        #expect(c.machineSettings == MachineSettings(session: .loop, shares: true, trims: true, countdown: 0, warnRemaining: 5, orientation: .portrait))
    }

    @Test("--photo-button and --photo-template: defaults, values, and bad templates named")
    func photoOptions() throws {
        let plain = try record([])
        #expect(!plain.screen.photoButton && plain.storage.photoTemplate == "photo-%Y%m%d-%H%M%S-{n}.jpg")
        let set = try record(["--photo-button", "--photo-template", "booth-{n}.jpeg"])
        #expect(set.screen.photoButton && set.storage.photoTemplate == "booth-{n}.jpeg")
        for bad in ["photo.png", "a/b.jpg", ".hidden.jpg", "{n}-{n}.jpg", ""] {
            let message = usageError(["--photo-template", bad])
            #expect(message?.contains("--photo-template") == true, "'\(bad)': \(message ?? "accepted")")
        }
    }

    @Test("--questions reads the file as it parses (at launch, and so again at each reload); a file with no question or none at all is a bad option, as is an order that is neither")
    func questionOptions() throws {
        let c = try record(["--questions", "q.txt", "--question-order", "shuffle"], files: ["q.txt": "# ours\nOne?\nTwo?\n"])
        #expect(c.guest.questions == QuestionList(path: "q.txt", lines: ["One?", "Two?"], lineNumbers: [2, 3]) && c.guest.questionOrder == .shuffle)
        #expect(try record([]).guest.questionOrder == .order)
        #expect(usageError(["--questions", "empty.txt"], files: ["empty.txt": "\n# nothing\n"])?.hasPrefix("--questions: 'empty.txt' has no question") == true)
        #expect(usageError(["--questions", "gone.txt"])?.hasPrefix("--questions: cannot read 'gone.txt'") == true)
        // As long as the prompt: 200 characters (letters, not bytes), a longer one named by its line.
        let cjk = String(repeating: "愛", count: 200)
        #expect(try record(["--questions", "q.txt"], files: ["q.txt": "One?\n\(cjk)\n"]).guest.questions?.lines == ["One?", cjk])
        #expect(usageError(["--questions", "long.txt"], files: ["long.txt": "# first\r\nOne?\r\n\(String(repeating: "x", count: 5_000))\r\n"])
                == "--questions: 'long.txt':3: a question of 5000 characters; each may have at most 200, as the prompt")
        #expect(usageError(["--question-order", "random"])?.contains("--question-order") == true)
    }
}
