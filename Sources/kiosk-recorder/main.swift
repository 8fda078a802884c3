// kiosk-recorder: parses the command line and wires the parts together. Logic lives in the libraries;
// KioskBooth's Booth is the UI thread's loop that joins them.
import Foundation
import KioskBooth
import KioskCapture
import KioskCore
import KioskMedia
import KioskSystem
import KioskUI

let parser = OptionParser(readFile: { try String(contentsOfFile: $0, encoding: .utf8) })
let invocation: Invocation
do {
    invocation = try parser.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Log.write("kiosk-recorder: \(error.message)\nTry 'kiosk-recorder --help'.\n")
    exit(2)
}

/// The take's path: --output (its folder must exist and be writable), or output.mov in a private
/// temporary folder made now.
func outputPath(_ configured: String?) -> String {
    if let configured {
        let url = URL(fileURLWithPath: configured)
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            Log.write("kiosk-recorder: --output: the folder \(folder) does not exist\n")
            exit(2)
        }
        guard access(folder, W_OK) == 0 else {
            Log.write("kiosk-recorder: --output: the folder \(folder) is not writable\n")
            exit(2)
        }
        // A take replaces only a take: a folder, a link or a device there is refused, not deleted.
        if let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType,
           type != .typeRegular {
            let what = type == .typeDirectory ? "a folder" : type == .typeSymbolicLink ? "a symbolic link" : "not a regular file"
            Log.write("kiosk-recorder: --output: '\(url.path)' is \(what); name a file that is new or a take\n")
            exit(2)
        }
        return url.path
    }
    var template = Array((NSTemporaryDirectory() + "kiosk-recorder-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
        Log.write("kiosk-recorder: cannot make a temporary folder: \(String(cString: strerror(errno)))\n")
        exit(1)
    }
    return String(cString: made) + "/output.mov"
}

/// SDL and the window, or exit 3 with a hint.
func openScreen(_ config: Configuration) -> (SDLContext, Screen, Assets) {
    let assets: Assets
    do { assets = try Assets.locate() } catch {
        Log.write("kiosk-recorder: \(error)\n")
        exit(1)
    }
    do {
        let context = try SDLContext()
        // SDL falls back to its offscreen driver when there is no display at all; a booth that
        // nobody can see is no booth. Only an explicit SDL_VIDEODRIVER (tests, benchmarks) may
        // choose it.
        let driver = context.videoDriver
        if ["offscreen", "dummy"].contains(driver), ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] == nil {
            Log.write("kiosk-recorder: no display: SDL found none and fell back to its '\(driver)' driver\n\(Screen.noDisplayHint)\n")
            exit(3)
        }
        let screen = try Screen(context: context, window: config.window, orientation: config.orientation, fontPath: assets.boldFont,
                                mirrorPreview: config.mirrorPreview, cameraMount: config.cameraRotation)
        Log.info("display: \(driver) \(screen.outputSize), renderer \(screen.rendererName)")
        return (context, screen, assets)
    } catch {
        Log.write("kiosk-recorder: no display: \(error)\n\(Screen.noDisplayHint)\n")
        exit(3)
    }
}

/// Runs the booth with its signals and stdin until it is done, then exits with its status.
func serve(_ booth: Booth, _ context: SDLContext) -> Never {
    booth.watchSignals()
    booth.readCommands()
    let status = booth.run()
    withExtendedLifetime(context) {}
    exit(status)
}

switch invocation {
case .help:
    FileHandle.standardOutput.write(Data(OptionParser.helpText.utf8))
    exit(0)
case .version:
    let ffmpeg = MediaLibraries.versions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    let text = (["kiosk-recorder \(KioskVersion.string)", "SDL \(SDLContext.version)"] + ffmpeg).joined(separator: "\n")
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
    exit(0)
case .listCameras:
    EventSink().emit(.cameras(CameraDirectory.cameras()))
    exit(0)
case let .play(file, config):
    Booth.blockSignals()
    let (context, screen, assets) = openScreen(config)
    // The player alone has no camera: the test pattern stands in and is never started.
    let parts = BoothParts(screen: screen, audio: SoundPlayer(assets: assets), camera: TestPattern(size: config.size, fps: 30),
                           makeMicrophone: { nil })
    serve(Booth(playing: file, config: config, parts: parts), context)
case let .record(config):
    Booth.blockSignals()
    // The take's path (or with --output-dir, a name in the folder until the first take has its own).
    let output: String
    var folder: TakeFolder?
    if let directory = config.outputDirectory {
        if let problem = TakeFolder.prepare(directory) {
            Log.write("kiosk-recorder: --output-dir: \(problem)\n")
            exit(2)
        }
        let path = URL(fileURLWithPath: directory).standardizedFileURL.path
        folder = TakeFolder(path: path, template: config.nameTemplate, fileMode: config.fileMode)
        output = path + "/" + config.nameTemplate
    } else {
        output = outputPath(config.output)
    }
    // One recorder per output (file or folder), for as long as this process lives.
    let lock: OutputLock
    do throws(OutputLock.Failure) {
        if let folder { lock = try OutputLock(folder: folder.path) } else { lock = try OutputLock(beside: output) }
    } catch {
        let option = folder == nil ? "--output" : "--output-dir"
        let target = folder?.path ?? output
        switch error {
        case let .held(pid): Log.write("kiosk-recorder: \(option): another kiosk-recorder\(pid.map { " (pid \($0))" } ?? "") records to \(target)\n")
        case let .failed(why): Log.write("kiosk-recorder: \(option): cannot lock \(target): \(why)\n")
        }
        exit(2)
    }
    let (context, screen, assets) = openScreen(config)
    let camera = CameraFactory.make(config.camera, size: config.size, fps: Double(config.fps), mjpeg: VideoDecoder.mjpeg)
    let microphone = config.microphone
    let parts = BoothParts(
        screen: screen, audio: SoundPlayer(assets: assets), camera: camera.source, cameraNote: camera.note,
        makeMicrophone: {
            switch microphone {
            case .none: nil
            case .test: TestTone()
            case let .pcm(name): ALSAMicrophone(name: name)
            }
        })
    let booth = Booth(config: config, outputPath: output, parts: parts, folder: folder)
    // A suspend of the machine waits (logind's delay inhibitor) until a take in progress is safe.
    booth.watchSystemSleep()
    withExtendedLifetime(lock) { serve(booth, context) }
}
