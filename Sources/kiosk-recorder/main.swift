// kiosk-recorder: parses the command line and wires the parts together. Logic lives in the libraries;
// KioskBooth's Booth is the UI thread's loop that joins them.
import FoundationEssentials
import Glibc
import KioskBooth
import KioskCapture
import KioskContract
import KioskCore
import KioskOptions
import KioskMedia
import KioskPreflight
import KioskStorage
import KioskSystem
import KioskUI

// The handled signals, before anything else: blocked here, and so in every thread started after
// (one that does not block them would take them with their default action, ending the booth on a
// SIGHUP), with their default actions back whatever the parent passed on.
Booth.takeOverSignals()
// `help [TOPIC]`: the help, on stdout, exit 0.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "help" {
    do throws(UsageError) {
        let topic = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : nil
        _ = writeAll(Data(try OptionParser.help(topic: topic).utf8), to: 1)
        exit(0)
    } catch {
        Log.write("kiosk-recorder: \(Log.escaped(error.message))\nTry 'kiosk-recorder --help'.\n")
        exit(2)
    }
}
// `reel DIR …` (the hosts' film) is a command of its own, with its own options.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "reel" {
    MediaLibraries.quietLogs()
    exit(ReelCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
// `console …` (the operator's console, its own process) and `console password`: no booth, so no
// signal of the booth's: Ctrl-C and SIGTERM end it.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "console" {
    Booth.releaseSignals()
    exit(ConsoleCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}
// systemd's notify socket, next: this takes its variables out of the environment, which is safe
// only before other threads start.
let notifier: ServiceNotifier?
do { notifier = try ServiceNotifier.fromEnvironment() } catch {
    notifier = nil
    Log.info("systemd notify: \(error); not notifying")
}

// Before any thread starts: a long-running booth keeps its heap from spreading over many arenas,
// and its frames' memory mapped for the next frames.
MallocArenas.configure(environment: ProcessInfo.processInfo.environment)
// FFmpeg's own lines: warnings and errors only, each written whole (before any thread can log).
MediaLibraries.quietLogs()
// The KIOSK_* variables, read here once and handed to each part that needs one.
let environment = KioskEnvironment(ProcessInfo.processInfo.environment)
// The watch that tells a stall of the whole process (SIGSTOP, a suspended VM) from a slow encoder.
ProcessStalls.shared.start()
// What values are checked against here (an overlay PNG decoded once, here, and kept for the takes
// in `overlays`), and the file's reader: BoothParser.
let overlays = OverlayFiles(load: OverlayImage.loadKept)
let parser = BoothParser.make(environment: environment, overlays: overlays)
// `config get KEY [options]`: one setting as this parser reads it (the scripts' one reader of kiosk.conf).
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "config" {
    do throws(UsageError) {
        let (key, options) = try SettingQuery.arguments(Array(CommandLine.arguments.dropFirst(2)))
        guard case let .record(configuration) = try parser.parse(options, together: false) else {
            throw UsageError("config get: the options after the key are the booth's own (--config FILE), no mode")
        }
        if let value = try SettingQuery.value(of: key, in: configuration) { LineWriter.standardOutput.enqueue(Data((value + "\n").utf8)) }
        LineWriter.flushStandard()
        exit(0)
    } catch {
        Log.write("kiosk-recorder: \(Log.escaped(error.message))\nTry 'kiosk-recorder --help'.\n")
        LineWriter.flushStandard()
        exit(2)
    }
}
// Kept for SIGHUP: the same command line parsed again reads the config file anew, and its flags
// still win over the file.
let source = ConfigurationSource(parser: parser, arguments: Array(CommandLine.arguments.dropFirst()))
let invocation: Invocation
do {
    invocation = try parser.parse(source.arguments)
} catch {
    Log.write("kiosk-recorder: \(Log.escaped(error.message))\nTry 'kiosk-recorder --help'.\n")
    exit(2)
}

/// The control socket (`--control-socket`), listening; or exit 2 naming what is in its way.
func openControlSocket(_ path: String) -> ControlServer {
    do { return try ControlServer(path: path, log: { Log.info($0) }) } catch {
        Log.write("kiosk-recorder: --control-socket: \(error)\n")
        exit(2)
    }
}

/// The booth `make` builds; a system with no thread to give its workers exits 1, saying so.
func makeBooth(_ make: () throws(SystemError) -> Booth) -> Booth {
    do { return try make() } catch {
        Log.write("kiosk-recorder: cannot start the booth's workers: \(error)\n")
        exit(1)
    }
}

/// Runs the booth with its signals, stdin and control socket until it is done, then exits with
/// its status.
func serve(_ booth: Booth, _ context: SDLContext, control: ControlServer? = nil) -> Never {
    booth.watchSignals()
    booth.readCommands()
    if let control {
        do { try booth.serveControl(control) } catch {
            Log.write("kiosk-recorder: --control-socket: \(error)\n")
            exit(1)
        }
    }
    let status = booth.run()
    // The last events (an outcome, `terminated`) go out to the socket's clients; then it is removed.
    control?.close(flushWithin: 1)
    // Used once more after `run` returned, so both live through it (and the socket's last words):
    // the booth holds the output's lock, the context keeps SDL up.
    withExtendedLifetime((booth, context)) {}
    exit(status)
}

// The modes that run no booth take no signal: Ctrl-C and SIGTERM end them as usual.
switch invocation {
case .record, .play: break
default: Booth.releaseSignals()
}

switch invocation {
case .help:
    _ = writeAll(Data(OptionParser.helpText.utf8), to: 1)
    exit(0)
case .version:
    let ffmpeg = MediaLibraries.versions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    let text = (["kiosk-recorder \(KioskVersion.string)", "SDL \(SDLContext.version)"] + ffmpeg).joined(separator: "\n")
    _ = writeAll(Data((text + "\n").utf8), to: 1)
    exit(0)
case .listCameras:
    EventSink().emit(.cameras(CameraDirectory.cameras(in: environment.videoDeviceFolder)))
    exit(0)
case let .check(config):
    let items = Preflight.run(config, mjpeg: CameraJPEGDecoder.factory, environment: environment)
    Log.write(Preflight.report(items))
    let ok = !items.contains { !$0.ok }
    EventSink().emit(.check(ok: ok, items: items))
    exit(ok ? 0 : 1)
case let .send(request, socket):
    exit(ControlSender.run(request, socket: socket))
case let .play(file, config, player):
    // A file that is missing or no movie is said before anything opens: its `error`, exit 1, no
    // `playbackStarted` first.
    if let problem = MoviePlayer.openingProblem(file) {
        Log.write("kiosk-recorder: --play: \(problem)\n")
        EventSink().emit(.error(code: .playbackFailed, message: problem))
        exit(1)
    }
    let (context, screen, assets) = openScreen(config, environment: environment)
    screen.playbackFit = player.fit
    // The player alone has no camera: the test pattern stands in and is never started.
    let parts = BoothParts(screen: screen, audio: SoundPlayer(assets: assets), camera: TestPattern(size: config.capture.size.planned, fps: 30),
                           makeMicrophone: { _ in nil }, notifier: notifier, environment: environment)
    serve(makeBooth { () throws(SystemError) in try Booth(playing: file, config: config, parts: parts, player: player) }, context)
case let .record(config):
    // The take's path (or with --output-dir, a name in the folder until the first take has its own),
    // locked: one recorder per output (file or folder), for as long as this process lives.
    let (output, folder, lock) = lockedOutput(config.storage, clockTrusted: environment.clockTrusted)
    // A private folder's lock file goes with it, removed by its holder.
    PrivateFolder.holds(lock)
    // Before the display, so that a path in the way exits 2 at once. (`--play` never listens: a
    // booth running with the same config owns the socket.)
    let control = config.service.controlSocket.map(openControlSocket)
    let (context, screen, assets) = openScreen(config, environment: environment)
    let capture = config.capture
    let camera = CameraFactory.makeAll(capture.cameras, size: capture.size, fps: Double(capture.fps),
                                       exec: ExecCameraSettings(format: capture.cameraFormat, delayMilliseconds: capture.cameraDelay),
                                       mjpeg: CameraJPEGDecoder.factory, videoDevices: environment.videoDeviceFolder)
    if camera.sources.count > 1 { Log.info("cameras to switch between: \(camera.sources.map(\.info.name).joined(separator: ", "))") }
    // Every event also goes to the socket's clients.
    var copies: (@Sendable (Data) -> Void)?
    if let control { copies = { line in control.broadcast(line) } }
    var parts = BoothParts(
        screen: screen, audio: SoundPlayer(assets: assets), camera: camera.sources[0], cameraNote: camera.note,
        makeMicrophone: { choice in
            switch choice {
            case .none: nil
            case .test: TestTone()
            case let .pcm(name): ALSAMicrophone(name: name)
            }
        },
        events: EventSink(copies: copies), configurationSource: source, notifier: notifier, environment: environment)
    parts.monitorsMicrophone = true
    parts.moreCameras = Array(camera.sources.dropFirst())
    parts.overlays = overlays
    if config.video.encoder == .auto {
        // Opens the hardware encoders once, before the loop turns (nothing on screen waits yet).
        let choice = EncoderChoice.resolve(.auto, size: capture.size.planned, fps: Double(capture.fps), bitrate: config.video.bitrate,
                                           renderFolder: environment.renderFolder)
        Log.info("video encoder \(choice.reason)")
        parts.autoEncoder = choice
    }
    // The booth holds the lock: it lives until `run` returns, which `serve` never does.
    let booth = makeBooth { () throws(SystemError) in try Booth(config: config, outputPath: output, parts: parts, folder: folder, outputLock: lock) }
    // A suspend of the machine waits (logind's delay inhibitor) until a take in progress is safe.
    booth.watchSystemSleep()
    serve(booth, context, control: control)
}
