// The parent example, the install kit and the docs agree with the binary.
import Foundation
import Testing
import KioskCore
import KioskOptions
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
        // An option's line starts "  --NAME"; a wrapped text's lines are indented further.
        guard line.hasPrefix("  --") else { return nil }
        let trimmed = line.dropFirst(2)
        return String(trimmed.prefix { $0 != " " })
    }
}

/// The lines of README.md's shell blocks (```sh) that run an example parent, as a reader copies them.
let readmeParentCommands: [String] = {
    let readme = (try? String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    var block: Substring?
    var commands: [String] = []
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```") {
            block = block == nil ? line.dropFirst(3) : nil
        } else if block == "sh", line.hasPrefix("examples/") {
            commands.append(String(line))
        }
    }
    return commands
}()

/// The test's PATH as a machine where kiosk-recorder is not installed has it: each of its folders
/// stands in as a folder of links to that folder's programs, kiosk-recorder left out. A parent finds
/// every tool but no recorder on it, whatever is installed meanwhile (kiosk/test-package and
/// kiosk/test-readme install /usr/bin/kiosk-recorder during a run), and a recorder in /usr/bin does
/// not take python3 and bash off it with the folder.
let pathWithoutRecorder: String = {
    let fm = FileManager.default
    let root = fm.temporaryDirectory.appendingPathComponent("path-without-recorder-\(getpid())")
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
    return folders.enumerated().map { index, folder in
        let standIn = root.appendingPathComponent("\(index)")
        try? fm.createDirectory(at: standIn, withIntermediateDirectories: true)
        for name in (try? fm.contentsOfDirectory(atPath: folder)) ?? [] where name != "kiosk-recorder" {
            try? fm.createSymbolicLink(atPath: standIn.appendingPathComponent(name).path, withDestinationPath: folder + "/" + name)
        }
        return standIn.path
    }.joined(separator: ":")
}()

/// A checkout in `folder` as a user has one: the examples, and `recorders` (`release`, `debug`) as
/// `.build/<kind>/kiosk-recorder`, each a link to the given file. Its root.
func scratchCheckout(in folder: URL, recorders: [String: String]) throws -> URL {
    let checkout = folder.appendingPathComponent("checkout")
    let fm = FileManager.default
    try fm.createDirectory(at: checkout, withIntermediateDirectories: true)
    try fm.copyItem(at: repositoryRoot.appendingPathComponent("examples"), to: checkout.appendingPathComponent("examples"))
    for (kind, target) in recorders {
        let build = checkout.appendingPathComponent(".build/\(kind)")
        try fm.createDirectory(at: build, withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: build.appendingPathComponent("kiosk-recorder").path, withDestinationPath: target)
    }
    return checkout
}

@Suite("Deployment and examples")
struct DeploymentTests {
    @Test("README's parent examples, run as written in a checkout kiosk/run built (kiosk-recorder not on PATH): each takes a take to its end, driven through its stdin or by --auto, and copies the clip",
          needsFakeCamera, arguments: readmeParentCommands)
    func readmeParents(command: String) throws {
        let folder = try testFolder("readme-" + String(command.unicodeScalars.filter(CharacterSet.alphanumerics.contains).map(Character.init)).prefix(40))
        let checkout = try scratchCheckout(in: folder, recorders: ["release": recorderPath])
        // The user's home (for ~/clips), where ALSA's default microphone is the fake one.
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try """
            pcm_type.kiosk_fake_microphone { lib "\(TestEnvironment.fakeMicrophonePlugin)" }
            pcm.!default { type kiosk_fake_microphone }
            """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        // The camera `auto` finds.
        let devices = folder.appendingPathComponent("dev")
        try FileManager.default.createDirectory(at: devices, withIntermediateDirectories: true)
        _ = try fakeCamera(in: devices, "card=Booth Cam\n")
        let parent = try RecorderProcess(["bash", "-c", command], environment: ["HOME": home.path, "PATH": pathWithoutRecorder,
                                                                                "KIOSK_VIDEO_DEVICE_DIR": devices.path],
                                         executable: "/usr/bin/env", directory: checkout)
        try #require(parent.wait(for: "ready", timeout: 20) != nil, "\(parent.rawLines) \(parent.stderr)")
        if !command.contains(" --auto ") {
            // The guest, here through the parent's stdin: Record, Stop after 1.5 s, Use Video.
            parent.command("start")
            try #require(parent.wait(for: "recordingStarted") != nil, "\(parent.rawLines) \(parent.stderr)")
            try #require(parent.waitRecorded(1.5), "\(parent.rawLines) \(parent.stderr)")
            parent.command("stop")
            try #require(parent.wait(for: "recordingFinished") != nil)
            parent.command("useVideo")
        }
        #expect(parent.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", timeout: 20) != nil, "\(parent.rawLines) \(parent.stderr)")
        #expect(parent.exitStatus() == 0, "\(parent.stderr)")
        #expect(parent.events.contains { if case let .recordingFinished(result) = $0 { result.success } else { false } }, "\(parent.rawLines)")
        let clips = home.appendingPathComponent("clips")
        let copied = try FileManager.default.contentsOfDirectory(atPath: clips.path)
        #expect(copied.count == 1 && copied[0].hasPrefix("clip-") && copied[0].hasSuffix(".mov"), "\(copied)")
        if let name = copied.first { #expect(try decodesCleanly(clips.appendingPathComponent(name).path)) }
    }

    @Test("README shows the example parents and names --recorder")
    func readmeNamesParents() throws {
        #expect(readmeParentCommands.contains { $0.hasPrefix("examples/parent.py ") } && readmeParentCommands.contains { $0.hasPrefix("examples/parent.sh ") },
                "\(readmeParentCommands)")
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("--recorder PATH"))
    }

    @Test("the example parents find the recorder as a user has it: on PATH, else the checkout's .build/release, else .build/debug; --recorder over all; none found is said, with where it looked",
          arguments: ["parent.py", "parent.sh"])
    func parentFindsRecorder(example: String) throws {
        let folder = try testFolder("find-recorder-" + example)
        /// A recorder standing in for the real one: its one event names it.
        func standIn(_ name: String) throws -> String {
            let path = folder.appendingPathComponent("stand-ins/\(name)/kiosk-recorder").path
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try "#!/bin/sh\necho '{\"event\":\"videoRecorderDidCancelRecordingVideo\",\"from\":\"\(name)\"}'\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            return path
        }
        let checkout = try scratchCheckout(in: folder, recorders: ["release": try standIn("release"), "debug": try standIn("debug")])
        let onPath = (try standIn("path") as NSString).deletingLastPathComponent
        let given = try standIn("given")
        let clips = folder.appendingPathComponent("clips").path
        func run(path: String, recorder: String? = nil) throws -> ProgramRun {
            let options = recorder.map { ["--recorder", $0] } ?? []
            let arguments = example == "parent.py" ? options + ["--copy-to", clips] : options + [clips]
            return try runTool([example == "parent.py" ? "python3" : "bash", checkout.appendingPathComponent("examples/\(example)").path] + arguments,
                               environment: ["PATH": path])
        }
        /// Which stand-in the parent ran: the `from` of the event it printed.
        func ran(_ r: ProgramRun) -> String? {
            guard r.status == 0, let line = r.stdout.split(separator: "\n").first(where: { $0.hasPrefix("event: ") }) else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(7).utf8)) as? [String: Any])?["from"] as? String
        }
        // Each run's whole result in the message: one under load (CI's wide pass) once gave no
        // `debug` after 105 s, with nothing to say why.
        let fromPath = try run(path: onPath + ":" + pathWithoutRecorder)
        #expect(ran(fromPath) == "path", "\(fromPath)")
        let fromGiven = try run(path: onPath + ":" + pathWithoutRecorder, recorder: given)
        #expect(ran(fromGiven) == "given", "\(fromGiven)")
        let fromRelease = try run(path: pathWithoutRecorder)
        #expect(ran(fromRelease) == "release", "\(fromRelease)")
        try FileManager.default.removeItem(at: checkout.appendingPathComponent(".build/release"))
        let fromDebug = try run(path: pathWithoutRecorder)
        #expect(ran(fromDebug) == "debug", "\(fromDebug)")
        try FileManager.default.removeItem(at: checkout.appendingPathComponent(".build/debug"))
        let none = try run(path: pathWithoutRecorder)
        #expect(none.status == 1 && none.stdout.isEmpty, "\(none)")
        #expect(none.stderr.contains("kiosk-recorder not found") && none.stderr.contains(".build/release/kiosk-recorder")
                && none.stderr.contains(".build/debug/kiosk-recorder") && none.stderr.contains("--recorder PATH"), "\(none.stderr)")
        let missing = try run(path: pathWithoutRecorder, recorder: folder.appendingPathComponent("nowhere").path)
        #expect(missing.status == 1 && missing.stderr.contains("nowhere"), "\(missing.stderr)")
    }

    @Test("examples/parent.py records a take through the real binary and copies the clip")
    func parentExample() throws {
        let clips = try testFolder("parent-clips")
        let r = try runTool(["python3", "examples/parent.py", "--recorder", recorderPath, "--auto", "1.5", "--copy-to", clips.path,
                             "--", "--camera", "test", "--microphone", "test", "--windowed"])
        #expect(r.status == 0, "\(r.stderr)")
        let events = r.stdout.split(separator: "\n").compactMap { RecorderProcess.event(String($0))?.name }
        #expect(events.first == "ready" && events.contains("videoRecorderDidFinishRecordingVideoWithOutputPath"), "\(r.stdout)")
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
        try #require(parent.waitRecorded(1.5), "\(parent.rawLines) \(parent.stderr)")
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
                     "etc/systemd/system/kiosk-recorder.service", "usr/local/share/doc/kiosk-recorder/interface.md",
                     "etc/systemd/system/kiosk-recorder-console.service", "etc/polkit-1/rules.d/kiosk-recorder.rules",
                     "usr/local/share/kiosk-recorder/console/index.html", "usr/local/share/kiosk-recorder/console/console.js",
                     "usr/local/share/kiosk-recorder/console/console.css"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(path)")
        }
        // The service keeps its takes in its state directory: the installed config says so and parses.
        let conf = try String(contentsOf: root.appendingPathComponent("etc/kiosk-recorder/kiosk.conf"), encoding: .utf8)
        #expect(conf.contains("\noutput-dir = /var/lib/kiosk-recorder\n") && conf.contains("\nidle-timeout = 60\n"), "\(conf)")
        // The console drives the booth through its control socket: the installed config sets it.
        #expect(conf.contains("\ncontrol-socket = /run/kiosk-recorder/control\n"), "\(conf)")
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
        // The console's unit beside it: systemd-analyze accepts it too, and both keep the runtime
        // folder their sockets share when they stop.
        let console = try String(contentsOf: root.appendingPathComponent("etc/systemd/system/kiosk-recorder-console.service"), encoding: .utf8)
        #expect(console.contains("\nExecStart=/usr/local/bin/kiosk-recorder console --config /etc/kiosk-recorder/kiosk.conf\n"))
        for text in [installedUnit, console] {
            #expect(text.contains("\nRuntimeDirectory=kiosk-recorder\n") && text.contains("\nRuntimeDirectoryPreserve=yes\n"))
        }
        try console.replacingOccurrences(of: "/usr/local/bin/kiosk-recorder", with: binary)
            .write(to: check.appendingPathComponent("kiosk-recorder-console.service"), atomically: true, encoding: .utf8)
        let verifyConsole = try runTool(["systemd-analyze", "verify", check.appendingPathComponent("kiosk-recorder-console.service").path])
        #expect(verifyConsole.status == 0 && verifyConsole.stderr.isEmpty, "\(verifyConsole.stderr)")
    }

    @Test("kiosk/install --share lays out nginx's share site (enabled, Debian's default site disabled, said) and the share folder; nginx -t accepts the site; a wrong option exits 2")
    func installShare() throws {
        let root = try testFolder("install-share-root")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("etc/nginx/sites-enabled"), withIntermediateDirectories: true)
        try Data().write(to: root.appendingPathComponent("etc/nginx/sites-enabled/default"))
        let r = try runTool(["kiosk/install", "--share"], environment: ["DESTDIR": root.path, "KIOSK_BINARY": recorderPath])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("disabled nginx's default site"), "\(r.stderr)")
        let site = root.appendingPathComponent("etc/nginx/sites-available/kiosk-recorder-share")
        #expect(try String(contentsOf: site, encoding: .utf8) == String(contentsOf: repositoryRoot.appendingPathComponent("kiosk/share/nginx-site.conf"), encoding: .utf8))
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: root.appendingPathComponent("etc/nginx/sites-enabled/kiosk-recorder-share").path)
        #expect(link == "../sites-available/kiosk-recorder-share")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("etc/nginx/sites-enabled/default").path))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("srv/kiosk-recorder/share").path)[.posixPermissions] as? Int)
        #expect(mode == 0o755)
        // nginx itself checks the site as installed (inside a minimal main config).
        let conf = try testFolder("install-share-nginx").appendingPathComponent("nginx.conf")
        try "events {}\nhttp { include \(site.path); }\n".write(to: conf, atomically: true, encoding: .utf8)
        let test = try runTool(["/usr/sbin/nginx", "-t", "-c", conf.path, "-e", "/dev/stderr"])
        #expect(test.status == 0, "\(test.stderr)")
        let wrong = try runTool(["kiosk/install", "--shared"], environment: ["DESTDIR": root.path, "KIOSK_BINARY": recorderPath])
        #expect(wrong.status == 2 && wrong.stderr.contains("--shared"), "\(wrong.stderr)")
    }

    @Test("the set-up script is installed beside the files it installs (the package's /usr/share/kiosk-recorder/setup): run from there it lays out the same share site and folder; hotspot without the network's name exits 2 naming the keys; an unknown part exits 2 naming it")
    func installedSetup() throws {
        let root = try testFolder("installed-setup-root")
        let r = try runTool(["kiosk/install"], environment: ["DESTDIR": root.path, "KIOSK_BINARY": recorderPath])
        #expect(r.status == 0, "\(r.stderr)")
        let share = root.appendingPathComponent("usr/local/share/kiosk-recorder")
        for name in ["nginx-site.conf", "dnsmasq-hotspot.conf"] {
            #expect(try Data(contentsOf: share.appendingPathComponent(name)) == Data(contentsOf: repositoryRoot.appendingPathComponent("kiosk/share/\(name)")), "\(name)")
        }
        let setup = share.appendingPathComponent("setup").path
        #expect(FileManager.default.isExecutableFile(atPath: setup))
        let site = root.appendingPathComponent("etc/nginx/sites-available/kiosk-recorder-share")
        #expect(!FileManager.default.fileExists(atPath: site.path), "kiosk/install without --share installs no site")
        let shared = try runTool([setup, "share"], environment: ["DESTDIR": root.path, "KIOSK_BINARY": recorderPath])
        #expect(shared.status == 0, "\(shared.stderr)")
        #expect(try String(contentsOf: site, encoding: .utf8) == String(contentsOf: repositoryRoot.appendingPathComponent("kiosk/share/nginx-site.conf"), encoding: .utf8))
        #expect(try String(contentsOf: site, encoding: .utf8).contains("alias /srv/kiosk-recorder/share/;"))
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("srv/kiosk-recorder/share").path))
        let hotspot = try runTool([setup, "hotspot"], environment: ["DESTDIR": root.path, "KIOSK_BINARY": recorderPath])
        #expect(hotspot.status == 2 && hotspot.stderr.contains("share-wifi-ssid and share-wifi-password"), "\(hotspot.stderr)")
        let wrong = try runTool([setup, "wifi"], environment: ["DESTDIR": root.path, "KIOSK_BINARY": recorderPath])
        #expect(wrong.status == 2 && wrong.stderr.contains("unknown part 'wifi'"), "\(wrong.stderr)")
    }

    @Test("the installed README links only what is installed beside it (deploy.md, interface.md, …); docs/screens.md and the screenshots are left as words")
    func installedReadmeLinks() throws {
        let root = try testFolder("installed-readme-root")
        let r = try runTool(["kiosk/install"], environment: ["DESTDIR": root.path, "KIOSK_BINARY": recorderPath])
        #expect(r.status == 0, "\(r.stderr)")
        let docs = root.appendingPathComponent("usr/local/share/doc/kiosk-recorder")
        let readme = try String(contentsOf: docs.appendingPathComponent("README.md"), encoding: .utf8)
        let links = try Regex(#"\]\(([^)#\s]+)"#)
        var local: [String] = []
        for match in readme.matches(of: links) {
            let target = String(match.output[1].substring ?? "")
            if target.contains(":") { continue }
            local.append(target)
            #expect(FileManager.default.fileExists(atPath: docs.appendingPathComponent(target).path), "README.md links \(target), not installed")
        }
        #expect(local.contains("deploy.md") && local.contains("interface.md"), "\(local)")
        #expect(!readme.contains("](docs/") && readme.contains("docs/screens.md (in the source tree)"))
    }
}
