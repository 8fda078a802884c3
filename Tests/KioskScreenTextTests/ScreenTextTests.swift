// The strings table and the words with the operator's overrides (`--language` and `label.*` as
// options: KioskOptionsTests' FamilyOptionsTests).
import Testing
@testable import KioskScreenText
import KioskContract

@Suite("Screen text")
struct ScreenTextTests {
    @Test("every language has every text, translated: no English left in the others' buttons or messages")
    func tableComplete() {
        let ends: Set<Character> = [" ", "\t", "\r"]  // the blanks KioskCore's `trimmingWhitespace` takes off
        for language in Language.allCases {
            var seen = Set<String>()
            for text in ScreenText.allCases {
                let words = text.text(in: language)
                #expect(!words.isEmpty && !ends.contains(words.first!) && !ends.contains(words.last!), "\(language) \(text)")
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

}

@Suite("a day written out in each language (the film's title card)")
struct LongDateTests {
    @Test("each language's order and words: the day, the month by name (or number) and the year", arguments: [
        (Language.en, 14, 11, "14 November 2023"), (.de, 14, 11, "14. November 2023"), (.fr, 14, 11, "14 novembre 2023"),
        (.fr, 1, 8, "1er août 2023"), (.es, 14, 11, "14 de noviembre de 2023"), (.ja, 14, 11, "2023年11月14日"),
        (.zhHans, 3, 2, "2023年2月3日"), (.de, 1, 3, "1. März 2023"), (.en, 31, 12, "31 December 2023"),
    ])
    func written(language: Language, day: Int, month: Int, expected: String) {
        #expect(language.longDate(day: day, month: month, year: 2023) == expected)
    }
}
