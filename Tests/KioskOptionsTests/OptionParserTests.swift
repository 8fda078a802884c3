// The command line and config files: every option, its validation, and where errors point.
import Testing
@testable import KioskCore
@testable import KioskOptions

/// A parser whose files live in a dictionary.
func parser(files: [String: String] = [:]) -> OptionParser {
    OptionParser(readFile: { path in
        guard let text = files[path] else { throw UsageError("No such file or directory") }
        return text
    })
}

func record(_ args: [String], files: [String: String] = [:]) throws -> Configuration {
    guard case let .record(c) = try parser(files: files).parse(args) else {
        throw UsageError("not a record invocation")
    }
    return c
}

func usageError(_ args: [String], files: [String: String] = [:]) -> String? {
    do {
        _ = try parser(files: files).parse(args)
        return nil
    } catch {
        return error.message
    }
}

@Suite("Options")
struct OptionParserTests {
    @Test("defaults are the seed's")
    func defaults() throws {
        let c = try record([])
        #expect(c.capture.camera == .device("/dev/video0"))
        #expect(c.capture.microphone == .pcm("default"))
        #expect(c.capture.size == .auto)
        #expect(c.capture.fps == 30)
        #expect(c.storage.output == nil)
        #expect(c.limits.maxDuration == 1200)
        #expect(c.limits.maxFileSize == 167_772_160)
        #expect(c.limits.minFreeDisk == 1_048_576)
        #expect(c.screen.orientation == nil)
        #expect(c.screen.window == .fullscreen)
        #expect(c.guest.session == .once)
        #expect(c.video.encoder == "auto" && c.video.preset == "veryfast" && c.video.crf == 23 && c.video.bitrate == nil)
        #expect(!c.screen.mirrorPreview && c.capture.cameraRotation == 0)
    }

    @Test("encoder, preview and mount options")
    func encoderOptions() throws {
        let c = try record(["--video-encoder", "h264_v4l2m2m", "--video-preset", "ultrafast", "--video-crf", "30",
                            "--video-bitrate", "4M", "--mirror-preview", "--camera-rotation", "270"])
        #expect(c.video.encoder == "h264_v4l2m2m" && c.video.preset == "ultrafast" && c.video.crf == 30)
        #expect(c.video.bitrate == 4_000_000 && c.screen.mirrorPreview && c.capture.cameraRotation == 3)
        #expect(try record(["--mirror-preview", "no"]).screen.mirrorPreview == false)
        #expect(try record(["--config", "/c"], files: ["/c": "mirror-preview = yes\nvideo-bitrate = 2500k"]).video.bitrate == 2_500_000)
    }

    @Test("--preview-fit: fill or fit as asked; unset, fill without an overlay and fit with one")
    func previewFit() throws {
        let unset = try record([]).screen
        #expect(unset.previewFit == nil)
        #expect(unset.shownPreviewFit(overlay: false) == .fill && unset.shownPreviewFit(overlay: true) == .fit)
        let fill = try record(["--preview-fit", "fill"]).screen
        #expect(fill.previewFit == .fill && fill.shownPreviewFit(overlay: true) == .fill)
        let fit = try record(["--config", "/c"], files: ["/c": "preview-fit = fit"]).screen
        #expect(fit.previewFit == .fit && fit.shownPreviewFit(overlay: false) == .fit)
        #expect(usageError(["--preview-fit", "stretch"]) == "--preview-fit: 'stretch' is not 'fill' or 'fit'")
    }

    @Test("every option sets its value")
    func everyOption() throws {
        let c = try record([
            "--camera", "test", "--microphone", "hw:1,0", "--size", "1280x720", "--fps=25", "--output", "/tmp/a b/x.MP4",
            "--max-duration", "2.5", "--max-file-size", "2M", "--min-free-disk", "10k", "--orientation", "portrait",
            "--windowed", "1024x600", "--session", "loop",
        ])
        #expect(c.capture.camera == .test)
        #expect(c.capture.microphone == .pcm("hw:1,0"))
        #expect(c.capture.size == .exactly(Size(width: 1280, height: 720)))
        #expect(c.capture.fps == 25)
        #expect(c.storage.output == "/tmp/a b/x.MP4")
        #expect(c.limits.maxDuration == 2.5)
        #expect(c.limits.maxFileSize == 2 * 1_048_576)
        #expect(c.limits.minFreeDisk == 10 * 1024)
        #expect(c.screen.orientation == .portrait)
        #expect(c.screen.window == .windowed(Size(width: 1024, height: 600)))
        #expect(c.guest.session == .loop)
        #expect(try record(["--camera", "auto", "--microphone", "none"]).capture.camera == .auto)
        #expect(try record(["--microphone", "test"]).capture.microphone == .test)
        #expect(try record(["--camera", "/dev/video2"]).capture.camera == .device("/dev/video2"))
    }

    @Test("exec:COMMAND is a camera (the command kept whole, spaces and quotes), with --camera-format and --camera-delay")
    func execCamera() throws {
        let c = try record(["--camera", "exec:rpicam-vid -t 0 --codec mjpeg -o - --width 1280 --height 720", "--camera", "/dev/video0",
                            "--camera-format", "NV12", "--camera-delay=120"])
        #expect(c.capture.cameras == [.exec("rpicam-vid -t 0 --codec mjpeg -o - --width 1280 --height 720"), .device("/dev/video0")])
        #expect(c.capture.cameraFormat == .nv12 && c.capture.cameraDelay == 120)
        let defaults = try record([])
        #expect(defaults.capture.cameraFormat == .mjpeg && defaults.capture.cameraDelay == 0)
        #expect(usageError(["--camera", "exec:"])?.hasPrefix("--camera: 'exec:': exec: needs a command") == true)
        #expect(usageError(["--camera-format", "h264"])?.hasPrefix("--camera-format: 'h264' is not one of mjpeg, i420, nv12, yuyv") == true)
        #expect(usageError(["--camera-delay", "-3"])?.hasPrefix("--camera-delay: '-3'") == true)
        #expect(usageError(["--camera-delay", "2001"])?.hasPrefix("--camera-delay: '2001'") == true)
    }

    @Test("--windowed takes a size only when one follows")
    func windowed() throws {
        #expect(try record(["--windowed"]).screen.window == .windowed(nil))
        #expect(try record(["--windowed", "--fps", "15"]).screen.window == .windowed(nil))
        #expect(try record(["--windowed", "--fps", "15"]).capture.fps == 15)
        #expect(try record(["--windowed=640x480"]).screen.window == .windowed(Size(width: 640, height: 480)))
        #expect(usageError(["--windowed=big"])?.hasPrefix("--windowed: 'big'") == true)
    }

    @Test("byte counts take K, M, G suffixes", arguments: [
        ("65536", Int64(65536)), ("64K", 65536), ("64k", 65536), ("160M", 167_772_160), ("2G", 2_147_483_648),
        ("1.5M", 1_572_864), ("512KiB", 524_288),
    ])
    func byteCounts(text: String, bytes: Int64) throws {
        #expect(try record(["--max-file-size", text]).limits.maxFileSize == bytes)
    }

    @Test("a bad value exits naming the option", arguments: [
        (["--max-duration", "-5"], "--max-duration: '-5'"), (["--max-duration", "0"], "--max-duration: '0'"),
        (["--max-duration", "nan"], "--max-duration: 'nan'"), (["--max-duration", "1e9"], "--max-duration: '1e9'"),
        (["--size", "12"], "--size: '12'"), (["--size", "0x0"], "--size: '0x0'"), (["--size", "353x288"], "--size: '353x288'"),
        (["--size", "99999x100"], "--size: '99999x100'"),
        (["--orientation", "sideways"], "--orientation: 'sideways'"), (["--fps", "0"], "--fps: '0'"),
        (["--fps", "29.97"], "--fps: '29.97'"), (["--fps", "1000"], "--fps: '1000'"),
        (["--camera", "video0"], "--camera: 'video0'"), (["--microphone", ""], "--microphone: ''"),
        (["--output", "/tmp/x.avi"], "--output: '/tmp/x.avi'"), (["--output", "/tmp/.mov"], "--output: '/tmp/.mov'"),
        (["--max-file-size", "1K"], "--max-file-size: '1K'"), (["--max-file-size", "lots"], "--max-file-size: 'lots'"),
        (["--min-free-disk", "-1"], "--min-free-disk: '-1'"), (["--session", "twice"], "--session: 'twice'"),
        (["--fps"], "--fps needs a value"), (["--frobnicate"], "unknown option '--frobnicate'"),
        (["extra"], "unexpected argument 'extra'"), (["--help=yes"], "--help takes no value"),
        (["--play", "a.mov", "--list-cameras"], "--play and --list-cameras cannot be used together"),
        (["--video-encoder", "x264; rm"], "--video-encoder: 'x264; rm'"), (["--video-preset", "turbo"], "--video-preset: 'turbo'"),
        (["--video-crf", "52"], "--video-crf: '52'"), (["--video-bitrate", "5"], "--video-bitrate: '5'"),
        (["--mirror-preview=maybe"], "--mirror-preview: 'maybe'"), (["--camera-rotation", "45"], "--camera-rotation: '45'"),
    ])
    func badValues(args: [String], prefix: String) {
        let message = usageError(args)
        #expect(message?.hasPrefix(prefix) == true, "\(args) → \(message ?? "accepted")")
    }

    @Test("help, version, play and list-cameras")
    func modes() throws {
        #expect(try parser().parse(["--help"]) == .help)
        #expect(try parser().parse(["--fps", "10", "--version"]) == .version)
        // --help wins even over a bad value later on the line? No: parsing stops at the bad value.
        guard case let .play(file, c, player) = try parser().parse(["--play", "/tmp/x.mov", "--windowed"]), player == PlayerOptions() else {
            Issue.record("not play"); return
        }
        #expect(file == "/tmp/x.mov" && c.screen.window == .windowed(nil))
        guard case .listCameras = try parser().parse(["--list-cameras"]) else { Issue.record("not list"); return }
        #expect(OptionParser.helpText.contains("--max-file-size BYTES"))
        for option in OptionParser.options where option.listed { #expect(OptionParser.helpText.contains("--" + option.name)) }
    }

    @Test("a config file sets keys; comments, quotes and blank lines are fine; flags win")
    func configFile() throws {
        let conf = """
            # booth at the wedding
            camera = test
            size=1280x720   # the camera's best
            fps = 25
            output = "/srv/clips/guest #1.mov"
            windowed = yes

              session = loop
            max-file-size = 50M\r
            """
        let c = try record(["--config", "/etc/k.conf", "--fps", "15"], files: ["/etc/k.conf": conf])
        #expect(c.capture.camera == .test)
        #expect(c.capture.size == .exactly(Size(width: 1280, height: 720)))
        #expect(c.capture.fps == 15)
        #expect(c.storage.output == "/srv/clips/guest #1.mov")
        #expect(c.screen.window == .windowed(nil))
        #expect(c.guest.session == .loop)
        #expect(c.limits.maxFileSize == 50 * 1_048_576)
        #expect(try record(["--config", "/c"], files: ["/c": "windowed = no"]).screen.window == .fullscreen)
        // Saved on Windows: CRLF line ends, and an error names the right line.
        let windows = try record(["--config", "/c"], files: ["/c": "# booth\r\ncamera = test\r\nfps = 20\r\n"])
        #expect(windows.capture.camera == .test && windows.capture.fps == 20)
        #expect(throws: UsageError("/c:2: unknown key 'colour'")) {
            try record(["--config", "/c"], files: ["/c": "fps = 20\r\ncolour = red\r\n"])
        }
        #expect(try record(["--config", "/c"], files: ["/c": "windowed = 640x480"]).screen.window == .windowed(Size(width: 640, height: 480)))
    }

    @Test("config errors name the file and line", arguments: [
        ("fps = 30\nfoo = 1", "/k.conf:2: unknown key 'foo'"),
        ("\n\nmax-duration = -5", "/k.conf:3: max-duration: '-5'"),
        ("camera test", "/k.conf:1: expected 'key = value'"),
        ("= 5", "/k.conf:1: missing key"),
        ("output = \"/x.mov", "/k.conf:1: output: unterminated quote"),
        ("output = \"/x.mov\" trailing", "/k.conf:1: output: unexpected text"),
        ("help = yes", "/k.conf:1: 'help' is a command-line option only"),
        ("config = /other", "/k.conf:1: 'config' is a command-line option only"),
        ("orientation = sideways", "/k.conf:1: orientation: 'sideways'"),
    ])
    func configErrors(text: String, prefix: String) {
        let message = usageError(["--config", "/k.conf"], files: ["/k.conf": text])
        #expect(message?.hasPrefix(prefix) == true, "\(message ?? "accepted")")
    }

    @Test("an unreadable config file is named")
    func missingConfig() {
        #expect(usageError(["--config", "/nope.conf"])?.hasPrefix("--config: cannot read '/nope.conf'") == true)
    }
}

@Suite("time settings")
struct TimeUnitTests {
    @Test("every time setting takes seconds or a unit (ms, s, min or m, h, d); --camera-delay stays milliseconds",
          arguments: [("--max-duration", "90s", 90.0), ("--max-duration", "1.5min", 90), ("--warn-remaining", "500ms", 0.5),
                      ("--idle-timeout", "2m", 120), ("--attract-after", "1h", 3600), ("--max-age", "7d", 604_800),
                      ("--max-duration", "12", 12)])
    func units(option: String, value: String, seconds: Double) throws {
        let parser = OptionParser(readFile: { _ in "" })
        let extra = option == "--max-age" ? ["--output-dir", "/tmp/takes"] : []
        guard case let .record(c) = try parser.parse([option, value] + extra) else { Issue.record("not a booth"); return }
        let read: Double? = switch option {
        case "--max-duration": c.limits.maxDuration
        case "--warn-remaining": c.limits.warnRemaining
        case "--idle-timeout": c.guest.idleTimeout
        case "--attract-after": c.guest.attractAfter
        default: c.storage.maxAge
        }
        #expect(read == seconds)
    }

    @Test("a time that is not one names its units")
    func bad() {
        let parser = OptionParser(readFile: { _ in "" })
        #expect(throws: UsageError("--idle-timeout: '5 parsecs' is not a number of seconds from 0 (never) to 86400 (seconds, or with a unit: 500ms, 90s, 2min, 12h, 7d)")) {
            try parser.parse(["--idle-timeout", "5 parsecs"])
        }
        #expect(throws: UsageError("--max-duration: '2d' is not a number of seconds above 0 and at most 86400 (seconds, or with a unit: 500ms, 90s, 2min, 12h, 7d)")) {
            try parser.parse(["--max-duration", "2d"])
        }
    }
}
