// The option table is the one place a setting is declared: its declared defaults are what the booth
// runs with, and the reload's rules are the table's.
import Testing
@testable import KioskCore

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
        let help = OptionParser.helpText
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
