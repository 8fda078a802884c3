// The strings table, `--language` and the operator's `label.*` overrides.
import KioskSystem
import Testing
@testable import KioskCore

@Suite("Screen text")
struct ScreenTextTests {
    @Test("every language has every text, translated: no English left in the others' buttons or messages")
    func tableComplete() {
        for language in Language.allCases {
            var seen = Set<String>()
            for text in ScreenText.allCases {
                let words = text.text(in: language)
                #expect(!words.isEmpty && words == words.trimmingWhitespace, "\(language) \(text)")
                #expect(!words.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(language) \(text)")
                // Two buttons with the same words would leave a guest guessing.
                #expect(seen.insert(words).inserted, "\(language): '\(words)' twice")
                if language != .en { #expect(words != text.text(in: .en), "\(language) \(text) is English") }
            }
        }
    }

    @Test("each button's text is named as its command; each text's config key is label.<name in kebab-case>, the old camelCase spelling kept beside it")
    func keys() {
        for button in Button.allCases {
            #expect(ScreenText(button).rawValue == button.rawValue)
        }
        #expect(ScreenText.useVideo.key == "label.use-video" && ScreenText.useVideo.oldKey == "label.useVideo")
        #expect(ScreenText.noCameraFound.key == "label.no-camera-found")
        #expect(ScreenText.stop.key == "label.stop" && ScreenText.stop.oldKey == nil)
        #expect(Set(ScreenText.allCases.map(\.key)).count == ScreenText.allCases.count)
        #expect(ScreenText.allCases.allSatisfy { $0.key == $0.key.lowercased() })
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

    @Test("everything the screen can show: every text with its overrides, the prompt, the timers' characters")
    func allTexts() {
        let words = ScreenWords(language: .de, overrides: [.stop: "Halt"])
        let all = words.all(prompt: "Hallo")
        #expect(all.contains("Halt") && !all.contains("Stopp"))
        #expect(all.contains("Hallo") && all.contains("Aufnehmen"))
        let timers = TimerText.playback(position: 3723, duration: 3723) + TimerText.format(seconds: 59)
        #expect(timers.unicodeScalars.allSatisfy { scalar in all.contains { $0.unicodeScalars.contains(scalar) } })
        #expect(words.all(prompt: nil).count == ScreenText.allCases.count + 1)
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
}
