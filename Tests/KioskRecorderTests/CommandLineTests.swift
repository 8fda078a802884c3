// The real kiosk-recorder binary: exit status 2 with a message naming the option, help and version.
import Foundation
import KioskCore
import KioskTestSupport
import Testing

/// The built kiosk-recorder: beside this test binary in the build folder (or $KIOSK_RECORDER).
let recorderPath: String = {
    if let path = ProcessInfo.processInfo.environment["KIOSK_RECORDER"] { return path }
    return TestEnvironment.buildFolder.appendingPathComponent("kiosk-recorder").path
}()

/// Runs kiosk-recorder with these arguments to its end.
func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProgramRun {
    try runProgram([recorderPath] + arguments, environment: recorderEnvironment(extra), directory: repositoryRoot)
}

/// The environment the recorder runs in here: SDL's dummy drivers (the video one unless the test
/// run names another), and `extra`.
func recorderEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["SDL_VIDEODRIVER"] = environment["SDL_VIDEODRIVER"] ?? "dummy"
    environment["SDL_AUDIODRIVER"] = "dummy"
    // The renderer is the recorder's own choice unless a test names one (`extra`): KioskUITests set
    // SDL_RENDER_DRIVER=software in this very process (`makeContext`), and a recorder started after
    // them inherited it, so the Xvfb test of the booth's own choice over llvmpipe saw no OpenGL tried
    // whenever it ran after them (three launches in a row under a wider pool).
    environment.removeValue(forKey: "SDL_RENDER_DRIVER")
    return environment.merging(extra) { $1 }
}

@Suite("kiosk-recorder command line")
struct CommandLineTests {
    @Test("help [MODE] and reel --help exit 0 with the usage (--help: no line over 100 columns) on stdout; help on an unknown word exits 2 naming it")
    func helpSubcommand() throws {
        let help = try run(["help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: kiosk-recorder [options]") && help.stdout.contains("kiosk-recorder help [MODE]"),
                "\(help.stderr)")
        let dashed = try run(["--help"])
        #expect(dashed.status == 0 && dashed.stdout == help.stdout)
        #expect(dashed.stdout.split(separator: "\n").filter { $0.count > 100 }.isEmpty, "\(dashed.stdout)")
        for arguments in [["help", "reel"], ["reel", "--help"], ["reel", "-h"]] {
            let reel = try run(arguments)
            #expect(reel.status == 0 && reel.stdout.hasPrefix("Usage: kiosk-recorder reel DIR") && reel.stdout.contains("--title TEXT"),
                    "\(arguments): \(reel.stderr)")
        }
        for mode in ["send", "check", "play", "list-cameras", "config"] {
            let mode = try run(["help", mode])
            #expect(mode.status == 0 && mode.stdout == help.stdout, "\(mode.stderr)")
        }
        let unknown = try run(["help", "sned"])
        #expect(unknown.status == 2 && unknown.stdout.isEmpty && unknown.stderr.hasPrefix("kiosk-recorder: help: no help on 'sned': did you mean send?"),
                "\(unknown.stderr)")
    }

    @Test("a bad option exits 2 naming it, with nothing on stdout", arguments: [
        (["--max-duration", "-5"], "--max-duration"), (["--size", "12"], "--size"),
        (["--orientation", "sideways"], "--orientation"), (["--bogus"], "--bogus"),
        (["--max-file-size", "huge"], "--max-file-size"), (["--file-mode", "0644x"], "--file-mode"),
        (["--file-mode", "0400"], "--file-mode"), (["--file-mode", "0755"], "--file-mode"),
    ])
    func badOption(arguments: [String], name: String) throws {
        let r = try run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("kiosk-recorder: \(name)") || r.stderr.contains("'\(name)'"), "\(r.stderr)")
        #expect(r.stderr.contains("--help"))
        #expect(r.stdout.isEmpty)
    }

    @Test("a config file with an unknown key exits 2 naming the file and the line")
    func badConfig() throws {
        let dir = try testFolder("cli")
        let file = dir.appendingPathComponent("kiosk.conf")
        try "# booth\nfps = 30\ncolour = red\n".write(to: file, atomically: true, encoding: .utf8)
        let r = try run(["--config", file.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(file.path):3: unknown key 'colour'"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test("every config file that cannot be read exits 2 with a message naming the file and the real cause (the line where there is one): missing, a folder, a FIFO, /dev/zero, /dev/null, not UTF-8, too big, a 900 KB key")
    func unreadableConfigs() throws {
        let dir = try testFolder("cli-configs")
        let fifo = dir.appendingPathComponent("fifo.conf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let latin1 = dir.appendingPathComponent("latin1.conf")
        try Data("fps = 30\n# Café\nprompt = Caf".utf8 + [0xE9] + Data("\n".utf8)).write(to: latin1)
        let big = dir.appendingPathComponent("big.conf")
        try Data(repeating: 0x23, count: 2 << 20).write(to: big)
        let longKey = dir.appendingPathComponent("long-key.conf")
        try ("fps = 30\n" + String(repeating: "k", count: 900_000) + " = 1\n").write(to: longKey, atomically: true, encoding: .utf8)
        let missing = dir.appendingPathComponent("missing.conf").path
        let cases: [(String, String)] = [
            (missing, "--config: '\(missing)' does not exist"),
            (dir.path, "--config: '\(dir.path)' is a folder, not a text file"),
            (fifo, "--config: '\(fifo)' is a named pipe (FIFO), not a text file"),
            ("/dev/zero", "--config: '/dev/zero' is a device, not a text file"),
            ("/dev/null", "--config: '/dev/null' is a device, not a text file"),
            (latin1.path, "--config: \(latin1.path):3: not UTF-8 text (byte 0xE9 at column 13); save the file as UTF-8"),
            (big.path, "--config: '\(big.path)' has 2097152 bytes; at most 1048576 (1 MiB) are read"),
            (longKey.path, "\(longKey.path):2: unknown key 'kkk"),
        ]
        for (path, message) in cases {
            let r = try run(["--config", path])
            #expect(r.status == 2, "\(path)")
            #expect(r.stderr.hasPrefix("kiosk-recorder: ") && r.stderr.contains(message), "\(path): \(r.stderr.excerpt(400))")
            #expect(!r.stderr.contains("NSCocoaErrorDomain") && !r.stderr.contains("Permission denied"), "\(r.stderr.excerpt(400))")
            #expect(r.stderr.utf8.count < 1_000, "\(path): \(r.stderr.utf8.count) bytes on stderr")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("config get prints a setting as the booth reads the file (an inline comment, quotes, spaces, CR-only line ends, a default); an unknown key, a bad value and a missing key exit 2")
    func configGet() throws {
        let dir = try testFolder("cli-config-get")
        let conf = dir.appendingPathComponent("kiosk.conf")
        try Data("share-wifi-ssid =   Anna booth   # the guests' network\rshare-wifi-password = \"secret123 # kept\"\rfps = 25\r".utf8).write(to: conf)
        for (key, value) in [("share-wifi-ssid", "Anna booth\n"), ("share-wifi-password", "secret123 # kept\n"), ("fps", "25\n"),
                             ("countdown", "3\n"), ("share-url", "")] {
            let r = try run(["config", "get", key, "--config", conf.path])
            #expect(r.status == 0 && r.stdout == value && r.stderr.isEmpty, "\(key): '\(r.stdout)' \(r.stderr)")
        }
        let unknown = try run(["config", "get", "share-wifi-sid", "--config", conf.path])
        #expect(unknown.status == 2 && unknown.stderr.contains("'share-wifi-sid' is no setting: did you mean share-wifi-ssid?") && unknown.stdout.isEmpty)
        try Data("share-wifi-ssid = \(String(repeating: "愛", count: 32))\n".utf8).write(to: conf)
        let long = try run(["config", "get", "share-wifi-ssid", "--config", conf.path])
        #expect(long.status == 2 && long.stderr.contains("1 to 32 bytes") && long.stdout.isEmpty, "\(long.stderr)")
        let bare = try run(["config", "get"])
        #expect(bare.status == 2 && bare.stderr.contains("kiosk-recorder config get KEY"), "\(bare.stderr)")
    }

    @Test("--output-dir on a read-only file system exits 2 calling it so, with a fix that fits (not a chown)")
    func readOnlyOutputFolder() throws {
        let folder = try testFolder("cli-ro")
        let mount = try runProgram(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", folder.path], stdout: .inherit, stderr: .inherit)
        try #require(mount.status == 0, "mounting a read-only tmpfs needs root")
        defer { _ = try? runProgram(["umount", folder.path], stdout: .inherit, stderr: .inherit) }
        let r = try run(["--camera", "test", "--microphone", "none", "--output-dir", folder.path])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--output-dir: the folder '\(folder.path)' is on a read-only file system; mount it read-write"), "\(r.stderr)")
        let file = try run(["--camera", "test", "--microphone", "none", "--output", folder.appendingPathComponent("take.mov").path])
        #expect(file.status == 2)
        #expect(file.stderr.contains("--output: the folder \(folder.path) is on a read-only file system"), "\(file.stderr)")
    }

    @Test("the modes as subcommands (play FILE, check, send COMMAND, list-cameras) do what their old flags do; a player's flag without play, a mode without its operand or an unknown word exits 2 naming what it needs")
    func subcommands() throws {
        let (booth, take, _) = try recordingBooth("cli-modes", arguments: ["--control-socket", "/tmp/kiosk-modes-\(getpid()).sock"])
        let socket = "/tmp/kiosk-modes-\(getpid()).sock"
        try #require(booth.waitRecorded(1), "\(booth.stderr)")
        // send: the booth answers through its socket.
        let stop = try run(["send", "stop", "--control-socket", socket])
        #expect(stop.status == 0 && stop.stdout.contains(#""event":"state""#), "\(stop.stdout) \(stop.stderr)")
        try #require(booth.wait(for: "recordingFinished") != nil, "\(booth.stderr)")
        let state = try run(["send", "state", "--control-socket", socket])
        #expect(state.status == 0 && state.stdout.hasPrefix(#"{"event":"state","mode":"finished""#), "\(state.stdout)")
        #expect(try run(["send", "quit", "--control-socket", socket]).status == 0)
        #expect(booth.exitStatus() == 0)
        // play: the player alone, with its own flags after it.
        let player = try RecorderProcess(["play", take, "--fit", "fit", "--windowed", "640x480"])
        #expect(player.wait(for: "playbackStarted") != nil, "\(player.stderr)")
        player.command("closePlayer")
        #expect(player.exitStatus() == 0)
        #expect(player.names.contains("playbackFinished"), "\(player.names)")
        // check and list-cameras.
        // Its verdict is this machine's speed at the default size (the encoding trial), which is not
        // this test's to judge: the check event, and the exit status that goes with its verdict.
        let check = try run(["check", "--camera", "test", "--microphone", "test", "--output", take + ".check.mov"])
        let verdict: Int32? = check.stdout.hasPrefix(#"{"event":"check","ok":true"#) ? 0 : check.stdout.hasPrefix(#"{"event":"check","ok":false"#) ? 1 : nil
        #expect(verdict != nil && check.status == verdict, "\(check.status) \(check.stdout) \(check.stderr)")
        let cameras = try run(["list-cameras"])
        #expect(cameras.status == 0 && cameras.stdout.hasPrefix(#"{"event":"cameras""#), "\(cameras.stdout)")
        // Misuse.
        for (arguments, message) in [
            (["--loop"], "--loop belongs to the play mode: kiosk-recorder play FILE --loop"),
            (["play"], "play needs a file: kiosk-recorder play FILE"),
            (["send", "--control-socket", socket], "send needs a command: kiosk-recorder send COMMAND"),
            (["record"], "unexpected argument 'record' (a mode is one of play, check, send, list-cameras, reel"),
            (["play", take, "--check"], "--play and --check cannot be used together"),
        ] {
            let r = try run(arguments)
            #expect(r.status == 2 && r.stderr.contains(message), "\(arguments): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("--help exits 0 and lists every option of the contract")
    func help() throws {
        let r = try run(["--help"])
        #expect(r.status == 0)
        for option in ["--camera", "--microphone", "--size", "--fps", "--output", "--max-duration", "--max-file-size",
                       "--min-free-disk", "--orientation", "--windowed", "--session", "--play", "--list-cameras",
                       "--config", "--help", "--version"] {
            #expect(r.stdout.contains(option), "\(option)")
        }
    }

    @Test("--version names the program and the libraries it runs on")
    func version() throws {
        let r = try run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("kiosk-recorder "))
        #expect(r.stdout.contains("SDL 2.") && r.stdout.contains("libavcodec "))
    }
}

@Suite("kiosk-recorder --list-cameras", needsFakeCamera)
struct ListCamerasTests {
    @Test("lists the fake camera with its formats, sizes and rates as one JSON line")
    func listsFakeCamera() throws {
        let folder = try testFolder("list")
        let device = folder.appendingPathComponent("video3")
        try Data().write(to: device)
        try "card=Booth Cam\nbus=usb-booth-1\nformat=YUYV 640x480@30/15\nformat=MJPG 1280x720@30\n"
            .write(to: URL(fileURLWithPath: device.path + ".conf"), atomically: true, encoding: .utf8)
        // A file that is not a camera is left out.
        try Data("not a camera".utf8).write(to: folder.appendingPathComponent("video9"))

        let r = try run(["--list-cameras"], environment: ["KIOSK_VIDEO_DEVICE_DIR": folder.path])
        #expect(r.status == 0)
        #expect(r.stdout.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "cameras")
        let cameras = try #require(object["cameras"] as? [[String: Any]])
        #expect(cameras.count == 1)
        let camera = try #require(cameras.first)
        #expect(camera["path"] as? String == device.path)
        #expect(camera["name"] as? String == "Booth Cam")
        #expect(camera["bus"] as? String == "usb-booth-1")
        let formats = try #require(camera["formats"] as? [[String: Any]])
        #expect(formats.compactMap { $0["fourcc"] as? String } == ["YUYV", "MJPG"])
        let yuyvSizes = try #require(formats.first?["sizes"] as? [[String: Any]])
        #expect(yuyvSizes.first?["width"] as? Int == 640 && yuyvSizes.first?["height"] as? Int == 480)
        #expect(yuyvSizes.first?["fps"] as? [Double] == [30, 15])
    }
}

@Suite("kiosk-recorder without a display")
struct NoDisplayTests {
    @Test("no display at all: exit 3 with a message that says what to do, nothing on stdout")
    func exitsThree() throws {
        var environment = ProcessInfo.processInfo.environment
        for key in ["SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"] { environment[key] = nil }
        environment["XDG_RUNTIME_DIR"] = "/nonexistent"
        let r = try runProgram([recorderPath, "--camera", "test", "--microphone", "none"], environment: environment)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("no display") && r.stderr.contains("Xvfb"))
    }

    @Test("KMSDRM asked for and not to be had: exit 3 with what KMSDRM needs (the KMS driver, DRM master, SDL_KMSDRM_DEVICE_INDEX)")
    func kmsdrm() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SDL_VIDEODRIVER"] = "KMSDRM"
        let r = try runProgram([recorderPath, "--camera", "test", "--microphone", "none"], environment: environment)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        // This machine has no /dev/dri: the message says which is missing.
        let hasCards = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []).contains { $0.hasPrefix("card") }
        #expect(r.stderr.contains(hasCards ? "DRM master" : "there is no /dev/dri/card*, so the GPU's KMS driver is not loaded"), "\(r.stderr)")
    }
}
