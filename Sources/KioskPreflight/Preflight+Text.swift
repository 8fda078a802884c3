// `check`'s word on the text the screen shows: the characters no installed font can draw (an
// emoji without an emoji font, a noncharacter), named with where each text comes from. A warning,
// not a failure: the booth starts and leaves them out. A `--font` that is no font fails, as the
// launch does.
import KioskContract
import KioskOptions
import KioskScreenText
import KioskSystem
import KioskUI

extension Preflight {
    static func text(_ config: Configuration, environment: KioskEnvironment) -> CheckItem {
        let texts = config.shownTexts
        let undrawable: [UndrawableText]
        do {
            let assets = try Assets.locate(environment: environment)
            undrawable = try TextCoverage.undrawable(texts, primary: assets.boldFont, language: config.screen.language, font: config.screen.font)
        } catch {
            return CheckItem(name: "text", ok: false, detail: "\(error)", fix: "name a TrueType or OpenType font with --font, or leave it out")
        }
        guard let summary = Glyphs.summary(undrawable) else {
            return CheckItem(name: "text", ok: true, detail: "every character of the \(texts.count) texts on screen can be drawn")
        }
        return CheckItem(name: "text", ok: true, detail: summary, fix: Glyphs.fix, warning: true)
    }
}
