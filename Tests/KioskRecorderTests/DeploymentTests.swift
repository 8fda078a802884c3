// The parent example, the install kit and the docs agree with the binary.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

/// The repository's root, from this file's place in it.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs a tool found on PATH (or a path) from the repository root, in the recorder's environment.
func runTool(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProgramRun {
    try runProgram(arguments, environment: recorderEnvironment(extra), directory: repositoryRoot)
}

/// Every option --help lists.
func helpOptions() throws -> [String] {
    let help = try run(["--help"]).stdout
    return help.split(separator: "\n").compactMap { line in
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix("--") else { return nil }
        return String(trimmed.prefix { $0 != " " })
    }
}

@Suite("Deployment and examples")
struct DeploymentTests {
    @Test("examples/parent.py records a take through the real binary and copies the clip")
    func parentExample() throws {
        let clips = try testFolder("parent-clips")
        let r = try runTool(["python3", "examples/parent.py", "--recorder", recorderPath, "--auto", "1.5", "--copy-to", clips.path,
                             "--", "--camera", "test", "--microphone", "test", "--windowed"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("event: ready") && r.stdout.contains("event: videoRecorderDidFinishRecordingVideoWithOutputPath"))
        let copied = try FileManager.default.contentsOfDirectory(atPath: clips.path)
        #expect(copied.count == 1 && copied[0].hasPrefix("clip-") && copied[0].hasSuffix(".mov"))
        if let name = copied.first { #expect(try decodesCleanly(clips.appendingPathComponent(name).path)) }
    }

    @Test("examples/parent.sh runs the real binary from PATH, passes its stdin through, and copies the accepted clip")
    func shellParentExample() throws {
        let clips = try testFolder("shell-clips")
        let binFolder = URL(fileURLWithPath: recorderPath).deletingLastPathComponent().path
        let path = binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let parent = try RecorderProcess(["bash", "examples/parent.sh", clips.path, "--camera", "test", "--microphone", "test", "--windowed", "--countdown", "0"],
                                         environment: ["PATH": path], executable: "/usr/bin/env")
        try #require(parent.wait(for: "ready") != nil, "\(parent.rawLines) \(parent.stderr)")
        parent.command("start")
        try #require(parent.wait(for: "recordingStarted") != nil)
        Thread.sleep(forTimeInterval: 1.5)
        parent.command("stop")
        try #require(parent.wait(for: "recordingFinished") != nil)
        parent.command("useVideo")
        #expect(parent.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath") != nil)
        #expect(parent.exitStatus() == 0, "\(parent.stderr)")
        #expect(parent.rawLines.allSatisfy { $0.hasPrefix("event: ") || $0.hasPrefix("copied ") }, "\(parent.rawLines)")
        #expect(parent.rawLines.last?.hasPrefix("copied ") == true)
        let copied = try FileManager.default.contentsOfDirectory(atPath: clips.path)
        #expect(copied.count == 1 && copied[0].hasPrefix("clip-") && copied[0].hasSuffix(".mov"), "\(copied)")
        if let name = copied.first { #expect(try decodesCleanly(clips.appendingPathComponent(name).path)) }
    }

    @Test("every option of --help is in docs/interface.md and in kiosk/kiosk.conf.example")
    func optionsDocumented() throws {
        let options = try helpOptions()
        #expect(options.count >= 20)
        let interface = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/interface.md"), encoding: .utf8)
        let example = try String(contentsOf: repositoryRoot.appendingPathComponent("kiosk/kiosk.conf.example"), encoding: .utf8)
        let commandLineOnly: Set = ["--config", "--play", "--loop", "--fit", "--list-cameras", "--check", "--send", "--help", "--version"]
        for option in options {
            #expect(interface.contains("`\(option)`"), "\(option) missing from docs/interface.md")
            if !commandLineOnly.contains(option) {
                let key = option.dropFirst(2)
                #expect(example.contains("\n\(key) = ") || example.contains("\n# \(key) = "), "\(key) missing from kiosk.conf.example")
            }
        }
    }

    @Test("the example config is a valid config: every key parses")
    func exampleConfigParses() throws {
        let folder = try testFolder("conf")
        var text = try String(contentsOf: repositoryRoot.appendingPathComponent("kiosk/kiosk.conf.example"), encoding: .utf8)
        // Uncomment every key, as an operator would, and point the output somewhere that exists.
        text = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let body = line.dropFirst(2)
            let key = body.prefix { $0.isLowercase || $0 == "-" }
            return line.hasPrefix("# ") && !key.isEmpty && body.dropFirst(key.count).hasPrefix(" = ") ? String(body) : String(line)
        }.joined(separator: "\n").replacingOccurrences(of: "/srv/booth/take.mov", with: folder.appendingPathComponent("t.mov").path)
        // output and output-dir exclude each other (and retention needs output-dir): each is checked
        // with the other left out.
        for excluded in [["output"], ["output-dir", "max-takes", "max-age", "keep-free"]] {
            let config = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { line in !excluded.contains { line.hasPrefix($0 + " = ") } }.joined(separator: "\n")
            let parser = OptionParser(readFile: { _ in config })
            guard case let .record(c) = try parser.parse(["--config", "kiosk.conf"]) else { Issue.record("not a record invocation"); return }
            #expect((c.storage.output == nil) == (excluded[0] == "output") && (c.storage.outputDirectory == nil) == (excluded[0] == "output-dir"))
        }
    }

    @Test("kiosk/install lays out the files under a scratch root and systemd-analyze accepts the unit")
    func install() throws {
        let root = try testFolder("install-root")
        let r = try runTool(["kiosk/install"], environment: ["DESTDIR": root.path, "KIOSK_BINARY": recorderPath])
        #expect(r.status == 0, "\(r.stderr)")
        for path in ["usr/local/bin/kiosk-recorder", "usr/local/share/kiosk-recorder/assets/fonts/DejaVuSans-Bold.ttf",
                     "usr/local/share/kiosk-recorder/assets/fonts/LICENSE-DejaVu.txt", "usr/local/share/kiosk-recorder/assets/sounds/begin.wav",
                     "usr/local/share/kiosk-recorder/assets/sounds/end.wav", "usr/local/share/kiosk-recorder/assets/sounds/tick.wav",
                     "etc/kiosk-recorder/kiosk.conf",
                     "etc/systemd/system/kiosk-recorder.service", "usr/local/share/doc/kiosk-recorder/interface.md"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(path)")
        }
        // The service keeps its takes in its state directory: the installed config says so and parses.
        let conf = try String(contentsOf: root.appendingPathComponent("etc/kiosk-recorder/kiosk.conf"), encoding: .utf8)
        #expect(conf.contains("\noutput-dir = /var/lib/kiosk-recorder\n") && conf.contains("\nidle-timeout = 60\n"), "\(conf)")
        guard case let .record(config) = try OptionParser(readFile: { _ in conf }).parse(["--config", "kiosk.conf"]) else {
            Issue.record("the installed config is not a record invocation"); return
        }
        #expect(config.storage.outputDirectory == "/var/lib/kiosk-recorder" && config.storage.output == nil && config.guest.session == .loop)
        let installedUnit = try String(contentsOf: root.appendingPathComponent("etc/systemd/system/kiosk-recorder.service"), encoding: .utf8)
        #expect(installedUnit.contains("\nStateDirectory=kiosk-recorder\n"))
        // The installed binary finds its installed assets (not the repository's): it starts.
        let binary = root.appendingPathComponent("usr/local/bin/kiosk-recorder").path
        let version = try runTool([binary, "--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("kiosk-recorder "))
        // systemd-analyze checks that ExecStart exists: point it at the scratch root's binary.
        var unit = try String(contentsOf: root.appendingPathComponent("etc/systemd/system/kiosk-recorder.service"), encoding: .utf8)
        // Readiness and liveness through the notify protocol, reload by SIGHUP, back after any end.
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for line in ["Type=notify", "NotifyAccess=main", "WatchdogSec=10s", "ExecReload=/bin/kill -HUP $MAINPID", "Restart=always"] {
            #expect(lines.contains(line), "\(line) missing from the unit")
        }
        unit = unit.replacingOccurrences(of: "/usr/local/bin/kiosk-recorder", with: binary)
        let check = try testFolder("unit")
        try unit.write(to: check.appendingPathComponent("kiosk-recorder.service"), atomically: true, encoding: .utf8)
        let verify = try runTool(["systemd-analyze", "verify", check.appendingPathComponent("kiosk-recorder.service").path])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify.stderr)")
    }
}
