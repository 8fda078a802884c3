// SIGHUP's reload without a process: the command line read again, and what each change does.
import KioskSystem
import Foundation
import Synchronization
import Testing
@testable import KioskCore
@testable import KioskOptions
import KioskScreenText

/// A config file the test rewrites between reads.
final class ConfigFile: Sendable {
    private let text: Locked<String>
    init(_ text: String) { self.text = Locked(text) }
    func write(_ new: String) { text.withLock { $0 = new } }
    var source: ConfigurationSource {
        ConfigurationSource(parser: OptionParser(readFile: { [self] path in
            guard path == "booth.conf" else { throw UsageError("No such file or directory") }
            return text.withLock { $0 }
        }), arguments: ["--config", "booth.conf", "--fps", "15"])
    }
}

@Suite("ConfigurationReload")
struct ConfigurationReloadTests {
    @Test("every setting but the config file's name has its place in the reload table, under its option's name")
    func everySettingClassified() {
        // The settings are the fields of the groups (capture, video, …); configFile is the one
        // field outside them.
        let groups = Mirror(reflecting: Configuration()).children.filter { $0.label != "configFile" }
        let fields = groups.flatMap { group in Mirror(reflecting: group.value).children.compactMap(\.label) }
        // A family (camera.*, label.*) is one field: a dictionary, an entry per option.
        let named = Set(Configuration.reloadSettings.map(\.option))
        #expect(fields.count == named.count)
        #expect(Configuration.reloadSettings.count == named.count - 2 + CameraControl.allCases.count + ScreenText.allCases.count)
        for setting in Configuration.reloadSettings {
            // label.*: the labels, one config key each.
            let names = setting.option == "label.*" ? ScreenText.allCases.map(\.key)
                : setting.option == "camera.*" ? CameraControl.allCases.map(\.key) : [setting.option]
            for name in names { #expect(OptionParser.spec(named: name)?.inConfigFile == true, "\(name)") }
        }
    }

    @Test("a family's members each reloaded on their own: two labels changed are said once as label.*, a camera control alone is seen, an atRestart family member kept as it runs")
    func familyMembers() throws {
        var running = Configuration()
        running.screen.labels[.start] = "Go"
        var reloaded = running
        reloaded.screen.labels[.start] = "Los"
        reloaded.screen.labels[.stop] = "Halt"
        guard case let .accepted(applied, changed, kept) = running.reload(to: reloaded) else { Issue.record("refused"); return }
        #expect(changed == ["label.*"] && kept.isEmpty)
        #expect(applied.screen.labels[.start] == "Los" && applied.screen.labels[.stop] == "Halt")
        var controls = running
        controls.capture.cameraControls[.torch] = try Values.cameraControl("on", .torch)
        guard case let .accepted(_, changedControls, _) = running.reload(to: controls) else { Issue.record("refused"); return }
        #expect(changedControls == ["camera.*"])
        guard case let .accepted(_, none, _) = running.reload(to: running) else { Issue.record("refused"); return }
        #expect(none.isEmpty)
    }

    @Test("the settings stay in groups: neither the configuration nor a group holds more than 20 fields (issue 29)")
    func groupsStaySmall() {
        let configuration = Mirror(reflecting: Configuration())
        #expect(configuration.children.count <= 20)
        for group in configuration.children where group.label != "configFile" {
            #expect(Mirror(reflecting: group.value).children.count <= 20, "\(group.label ?? "?")")
        }
    }

    @Test("the file is read again and the command line's flags still win over it")
    func readAgain() throws {
        let file = ConfigFile("max-duration = 10\nfps = 60\n")
        let first = try file.source.read()
        #expect(first.limits.maxDuration == 10 && first.capture.fps == 15 && first.configFile == "booth.conf")
        file.write("max-duration = 1.5\nfps = 60\n")
        let second = try file.source.read()
        #expect(second.limits.maxDuration == 1.5 && second.capture.fps == 15)
        // A bad file names its line; a broken combination is refused as at launch.
        file.write("max-duration = 1.5\nmax-duration = soon\n")
        #expect(throws: UsageError("booth.conf:2: max-duration: 'soon' is not a number of seconds above 0 and at most 86400 (seconds, or with a unit: 500ms, 90s, 2min, 12h, 7d)")) {
            try file.source.read()
        }
        file.write("max-takes = 5\n")
        #expect(throws: UsageError("--max-takes needs --output-dir (takes handed to a parent are the parent's)")) {
            try file.source.read()
        }
    }

    @Test("a change to where takes go or to the control socket is refused, naming it", arguments: [
        ("output = /tmp/other.mov", "output"), ("control-socket = /run/kiosk.sock", "control-socket"),
    ])
    func refused(line: String, option: String) throws {
        let running = try ConfigFile("max-duration = 10\n").source.read()
        let reloaded = try ConfigFile("max-duration = 2\n\(line)\n").source.read()
        #expect(running.reload(to: reloaded) == .refused(message: "\(option) cannot change while the booth runs; restart it to change it"))
    }

    @Test("output and output-dir swapped: both named")
    func refusedBoth() throws {
        let running = try ConfigFile("output = /tmp/a.mov\n").source.read()
        let reloaded = try ConfigFile("output-dir = /tmp/takes\n").source.read()
        #expect(running.reload(to: reloaded) == .refused(message: "output, output-dir cannot change while the booth runs; restart it to change them"))
    }

    @Test("the camera, its format and the window are kept until a restart; the rest applies in ready")
    func accepted() throws {
        let running = try ConfigFile("camera = test\nsize = 640x480\nmax-duration = 10\n").source.read()
        let reloaded = try ConfigFile("""
            camera = /dev/video2
            size = 1280x720
            windowed = yes
            max-duration = 1.5
            max-file-size = 1M
            microphone = none
            session = loop
            video-crf = 30
            """).source.read()
        guard case let .accepted(applied, changed, kept) = running.reload(to: reloaded) else {
            Issue.record("refused"); return
        }
        #expect(kept == ["camera", "size", "windowed"])
        #expect(changed == ["microphone", "max-duration", "max-file-size", "session", "video-crf"])
        var expected = reloaded
        expected.capture.camera = .test
        expected.capture.size = .exactly(Size(width: 640, height: 480))
        expected.screen.window = .fullscreen
        #expect(applied == expected)
        #expect(running.reload(to: running) == .accepted(running, changed: [], keptUntilRestart: []))
    }
    /// docs/interface.md, beside the sources.
    static let interface: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/interface.md"), encoding: .utf8)) ?? ""
    }()

    /// The options a bullet of docs/interface.md's "Reload" names in backquotes, up to its first
    /// sentence's end.
    static func named(inBulletStarting start: String) -> Set<String> {
        guard let from = interface.range(of: start) else { return [] }
        let rest = interface[from.upperBound...]
        let end = ["are set up once", "(where takes go"].compactMap { rest.range(of: $0)?.lowerBound }.min() ?? rest.endIndex
        let text = rest[..<end]
        return Set(text.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
    }

    @Test("docs/interface.md's reload rules name exactly the settings the code keeps until a restart and refuses")
    func docsMatchTheTable() {
        let atRestart = Set(Configuration.reloadSettings.filter { $0.effect == .atRestart }.map(\.option))
        let refused = Set(Configuration.reloadSettings.filter { $0.effect == .refused }.map(\.option))
        #expect(Self.named(inBulletStarting: "- **Kept until a restart**:") == atRestart)
        #expect(Self.named(inBulletStarting: "changes `output`") .union(["output"]) == refused)
    }

    @Test("--windowed's default size is the one --help and docs/interface.md give")
    func windowedDefault() {
        let size = "\(WindowMode.defaultSize.width)x\(WindowMode.defaultSize.height)"
        #expect(OptionParser.helpText.replacing("\n" + String(repeating: " ", count: 32), with: " ").contains("or \(size) (shrunk to fit) without one"))
        let row = Self.interface.split(separator: "\n").first { $0.hasPrefix("| `--windowed` |") } ?? ""
        #expect(row.contains("`\(size)` when no size is given"), "\(row)")
    }
}
