// The console's settings file (`--console-settings`) as the booth's parser reads it, and the
// console's pure side of it: the listing made from the table, and a change checked as the booth
// would read it.
import Foundation
import Testing
@testable import KioskCore
@testable import KioskOptions

@Suite("Console settings")
struct ConsoleSettingsTests {
    /// Files that are there for the parser (the console's file is read only when it is).
    static func host(_ files: [String: String]) -> HostFacts {
        HostFacts(fileExists: { files[$0] != nil })
    }

    static func configuration(_ arguments: [String], _ files: [String: String]) throws -> Configuration {
        guard case let .record(c) = try parser(host: host(files), files: files).parse(arguments) else { throw UsageError("no booth") }
        return c
    }

    static let files = ["k.conf": "# mine\ncountdown = 3\nconsole-settings = c.conf\n", "c.conf": "countdown = 5\nprompt = Hello\n"]

    @Test("read after --config (its lines win), before the flags (which win over both); only with --config or the option; missing is none; it may not name itself")
    func readOrder() throws {
        #expect(try Self.configuration(["--config", "k.conf"], Self.files).guest.countdown == 5)
        #expect(try Self.configuration(["--config", "k.conf", "--countdown", "7"], Self.files).guest.countdown == 7)
        #expect(try Self.configuration(["--config", "k.conf"], ["k.conf": Self.files["k.conf"]!]).guest.countdown == 3)
        // Without --config the default file is not read; named on the command line it is.
        #expect(try Self.configuration([], ["/var/lib/kiosk-recorder/console.conf": "countdown = 9\n"]).guest.countdown == 3)
        #expect(try Self.configuration(["--console-settings", "c.conf"], Self.files).guest.countdown == 5)
        let bad = usageError(["--config", "k.conf"], host: Self.host(Self.files), files: ["k.conf": "console-settings = c.conf\n", "c.conf": "countdown = 99\n"])
        #expect(bad?.hasPrefix("c.conf:1: countdown: '99'") == true, "\(bad ?? "")")
        let itself = usageError(["--config", "k.conf"], host: Self.host(Self.files), files: ["k.conf": "console-settings = c.conf\n", "c.conf": "console-settings = d.conf\n"])
        #expect(itself?.contains("belongs in the --config file") == true, "\(itself ?? "")")
    }

    func settings(_ files: [String: String] = Self.files) -> ConsoleSettings {
        ConsoleSettings(parser: parser(host: Self.host(files), files: files), arguments: ["--config", "k.conf"])
    }

    func entries(_ json: String) throws -> [String: [String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let list = try #require(object["settings"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { ($0["name"] as! String, $0) })
    }

    @Test("the listing: every setting a config file takes, once, with where its value comes from, its kind, group and when it applies; each value shown reads back as itself")
    func listing() throws {
        let json = try settings().listing()
        let entries = try entries(json)
        #expect(Set(entries.keys) == Set(OptionParser.options.filter { $0.inConfigFile && $0.listed }.map(\.name)))
        #expect(entries["countdown"]?["source"] as? String == "console" && entries["countdown"]?["value"] as? String == "5")
        #expect(entries["console-settings"]?["source"] as? String == "config" && entries["console-settings"]?["fixed"] is String)
        #expect(entries["fps"]?["source"] as? String == "default" && entries["fps"]?["applies"] as? String == "restart")
        #expect(entries["fps"]?["min"] as? Int == 1 && entries["fps"]?["max"] as? Int == 240 && entries["fps"]?["group"] as? String == "Camera and microphone")
        #expect(entries["trim"]?["type"] as? String == "flag" && entries["idle-action"]?["choices"] as? [String] == ["use", "discard"])
        #expect(entries["max-takes"]?["value"] is NSNull && entries["max-takes"]?["defaultIsValue"] as? Bool == false)
        // A kind whose value is itself optional is null while unset, never the word "nil".
        #expect(entries["loudness"]?["value"] is NSNull && entries["share-title"]?["value"] is NSNull)
        #expect(entries["prompt"]?["value"] as? String == "Hello")
        // Each value as shown, given back as that option, reads as the same setting.
        let running = try Self.configuration(["--config", "k.conf"], Self.files)
        for (name, entry) in entries {
            guard let value = entry["value"] as? String, let spec = OptionParser.spec(named: name), let current = spec.current else { continue }
            var again = Configuration()
            #expect(throws: Never.self, "\(name): '\(value)'") { try spec.apply(&again, value) }
            #expect(current(again) == current(running), "\(name): '\(value)'")
        }
    }

    @Test("a change: the console's file with the line, checked as the booth reads it; the parser's message when refused; null removes; what cannot change while running, an unknown name and a value no line holds are refused")
    func change() throws {
        let s = settings()
        let text = try s.changed([("countdown", "6"), ("question-order", "shuffle")], current: Self.files["c.conf"])
        #expect(text.hasPrefix("# Written by the operator's console"))
        #expect(text.hasSuffix("countdown = 6\nprompt = Hello\nquestion-order = shuffle\n"), "\(text)")
        func refusal(_ changes: [(name: String, value: String?)]) -> String {
            do { _ = try s.changed(changes, current: Self.files["c.conf"]); return "" } catch { return error.message }
        }
        #expect(refusal([("countdown", "99")]).hasPrefix("c.conf:3: countdown: '99'"), "\(refusal([("countdown", "99")]))")
        #expect(refusal([("output", "/tmp/x.mov")]).contains("cannot change while the booth runs"))
        #expect(refusal([("countdwn", "4")]).contains("did you mean countdown?"))
        #expect(refusal([("prompt", "two\nlines")]).contains("one line"))
        #expect(refusal([("share-url", "http://x/{token}/")]).contains("--share-url needs --share-dir"))
        let removed = try s.changed([("countdown", nil)], current: Self.files["c.conf"])
        #expect(!removed.contains("countdown") && removed.contains("prompt = Hello"))
        #expect(try s.changed([("prompt", "a # not a comment")], current: nil).contains("prompt = \"a # not a comment\""))
        // A console file with a line the parser refuses is still found, and a save mends it.
        var broken = Self.files
        broken["c.conf"] = "no equals sign\ncountdown = 5\n"
        let mending = settings(broken)
        #expect(try mending.consoleFile() == "c.conf")
        #expect(try mending.changed([("countdown", "4")], current: broken["c.conf"]).hasSuffix("\ncountdown = 4\n"))
    }
}
