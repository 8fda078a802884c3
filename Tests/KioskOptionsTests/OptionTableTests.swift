// The option table is the one place a setting is declared, and `Configuration()` the one place its
// default is written: the table shows that default as the command line writes it, and the reload's
// rules are the table's.
import Testing
@testable import KioskCore
@testable import KioskOptions
import KioskScreenText

@Suite("Option table")
struct OptionTableTests {
    static let settings = OptionParser.options.filter(\.inConfigFile)

    @Test("a default declared as a value is the configuration's own: given on the command line or in a file, it changes nothing",
          arguments: settings.compactMap { spec in
              if case let .value(value) = spec.defaultValue { (spec.name, value) } else { nil }
          })
    func declaredValue(name: String, value: String) throws {
        #expect(try record(["--\(name)=\(value)"]) == Configuration(), "--\(name)=\(value)")
        var fromFile = Configuration()
        fromFile.configFile = "/k.conf"
        #expect(try record(["--config", "/k.conf"], files: ["/k.conf": "\(name) = \(value)\n"]) == fromFile, "\(name) = \(value)")
    }

    @Test("a setting's default is said from the configuration, as the command line writes it: the seed's values, each unit's largest whole suffix")
    func shownFromTheConfiguration() throws {
        let shown = Dictionary(uniqueKeysWithValues: Self.settings.compactMap { spec in
            if case let .value(value) = spec.defaultValue { (spec.name, value) } else { nil }
        })
        #expect(shown["fps"] == "30" && shown["max-duration"] == "1200" && shown["camera"] == "/dev/video0")
        #expect(shown["max-file-size"] == "160M" && shown["min-free-disk"] == "1M" && shown["file-mode"] == "0600")
        #expect(shown["share-max-age"] == "7d" && shown["windowed"] == "no" && shown["trim"] == "no" && shown["size"] == "auto")
        #expect(OptionText.bytes(1536) == "1536" && OptionText.bytes(3 << 30) == "3G" && OptionText.bytes(0) == "0")
        #expect(OptionText.duration(90) == "90s" && OptionText.duration(5400) == "90min" && OptionText.duration(0.5) == "0.5s")
        for (text, seconds) in [(OptionText.duration(90), 90.0), (OptionText.duration(5400), 5400), (OptionText.duration(0.5), 0.5)] {
            #expect(try Values.duration(text) == seconds, "\(text)")
        }
        #expect(try Values.bytes(OptionText.bytes(1536), atLeast: 0) == 1536)
        #expect(OptionText.window(.windowed(Size(width: 800, height: 480))) == "800x480")
    }

    @Test("a default declared unset is a field the configuration leaves nil or empty",
          arguments: settings.filter { if case .unset = $0.defaultValue { true } else { false } }.map(\.name))
    func declaredUnset(name: String) throws {
        let value = try #require(OptionParser.spec(named: name)?.setting).read(Configuration())
        let mirror = Mirror(reflecting: value)
        #expect([.optional, .dictionary].contains(mirror.displayStyle) && mirror.children.isEmpty, "\(name): \(value)")
    }

    @Test("every setting declares a default; of the command line's own options only --fit has one, and it is the player's")
    func everySettingHasADefault() throws {
        for spec in Self.settings { #expect(spec.defaultValue != nil, "\(spec.name)") }
        let others = OptionParser.options.filter { !$0.inConfigFile && $0.defaultValue != nil }
        #expect(others.map(\.name) == ["fit"])
        guard case let .play(_, _, player) = try parser().parse(["play", "x.mov", "--fit=fit"]) else { Issue.record("not play"); return }
        #expect(player == PlayerOptions())
    }

    @Test("the reload's rules are the table's: each setting's effect, a family's members under its name")
    func reloadFromTheTable() {
        for spec in Self.settings {
            let setting = Configuration.reloadSettings.first { $0.option == spec.setting?.option }
            #expect(setting?.effect == spec.setting?.effect, "\(spec.name)")
        }
        // A family: an entry each, under one name.
        #expect(Configuration.reloadSettings.filter { $0.option == "camera.*" }.count == CameraControl.allCases.count)
        #expect(Configuration.reloadSettings.filter { $0.option == "label.*" }.count == ScreenText.allCases.count)
    }

    @Test("--help says each declared default after the option's help, with its unit")
    func helpDefaults() {
        // Each option's text as one line again (the help wraps it at 100 columns).
        let help = OptionParser.helpText.replacing("\n" + String(repeating: " ", count: 32), with: " ")
        #expect(OptionParser.helpText.split(separator: "\n").allSatisfy { $0.count <= 100 })
        #expect(help.contains("frames per second, 1-240 (default 30)\n"))
        #expect(help.contains("longest take, 0 < SECONDS <= 86400 (default 1200 s)\n"))
        #expect(help.contains("(default \"default\")\n"))
        #expect(help.contains("(default: the display's own)\n"))
        for spec in OptionParser.options where spec.defaultValue != nil && spec.listed {
            #expect(help.contains(spec.help + spec.defaultPhrase + "\n"), "\(spec.name)")
            // No default written by hand inside the help ("the camera's default" is the camera's).
            #expect(!["(default", ", default", "default:"].contains { spec.help.contains($0) }, "\(spec.name): \(spec.help)")
        }
    }
}
