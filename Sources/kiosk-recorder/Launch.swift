// What the executable opens before the booth runs, each ending the process with its exit status
// and one line when it cannot: the screen (exit 3 without a display) and the take's output, locked.
import FoundationEssentials
import Glibc
import KioskBooth
import KioskCore
import KioskMedia
import KioskOptions
import KioskScreenText
import KioskPreflight
import KioskStorage
import KioskSystem
import KioskUI

/// SDL and the window, or exit 3 with a hint.
func openScreen(_ config: Configuration, environment: KioskEnvironment) -> (SDLContext, Screen, Assets) {
    let assets: Assets
    do { assets = try Assets.locate(environment: environment) } catch {
        Log.write("kiosk-recorder: \(error)\n")
        exit(1)
    }
    do {
        let context = try SDLContext()
        // SDL falls back to its offscreen driver when there is no display at all; a booth that
        // nobody can see is no booth. Only an explicit SDL_VIDEODRIVER (tests, benchmarks) may
        // choose it.
        let driver = context.videoDriver
        if ["offscreen", "dummy"].contains(driver), environment.videoDriver == nil {
            Log.write("kiosk-recorder: no display: SDL found none and fell back to its '\(driver)' driver\n\(Screen.noDisplayHint)\n")
            exit(3)
        }
        let shown = config.screen
        let screen = try Screen(context: context, window: shown.window, orientation: shown.orientation, fontPath: assets.boldFont,
                                mirrorPreview: shown.mirrorPreview, cameraMount: config.capture.cameraRotation)
        screen.highContrast = shown.highContrast
        screen.largeText = shown.largeText
        screen.extras.photo = shown.photoButton
        screen.extras.boomerang = config.boomerang.button
        // With an overlay the preview shows the whole picture by default: the frame's edges where the take has them.
        screen.previewFit = shown.shownPreviewFit(overlay: config.video.overlay != nil)
        do {
            // A character no installed font has is left out, named once: the booth starts.
            let undrawable = try screen.setWords(shown.words, texts: config.shownTexts, font: shown.font)
            if let warning = Glyphs.warning(undrawable) { Log.info("warning: \(warning)") }
        } catch {
            // A --font that is no font is a configuration to fix.
            Log.write("kiosk-recorder: \(error)\n")
            exit(2)
        }
        Log.info("display: \(driver) \(screen.outputSize), renderer \(screen.rendererName)")
        // Under KMSDRM touches come from evdev: without read access there are none and no error.
        if driver == "KMSDRM", let problem = Preflight.inputProblem(folder: environment.inputFolder) { Log.info("input: \(problem)") }
        return (context, screen, assets)
    } catch {
        let cards = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []).filter { $0.hasPrefix("card") }.sorted()
        let hint = Screen.noDisplayHint(error: "\(error)", requestedDriver: environment.videoDriver,
                                        devices: cards.map { "/dev/dri/" + $0 })
        Log.write("kiosk-recorder: no display: \(error)\n\(hint)\n")
        exit(3)
    }
}

/// The take's path (with `--output-dir`, a name in the folder until the first take has its own),
/// its folder, and the lock that makes this the one recorder on it; or exit 2 naming the option.
func lockedOutput(_ storage: Configuration.Storage, clockTrusted: Bool) -> (String, TakeFolder?, OutputLock) {
    let output: String
    var folder: TakeFolder?
    if let directory = storage.outputDirectory {
        if let problem = TakeFolder.prepare(directory) {
            Log.write("kiosk-recorder: --output-dir: \(problem)\n")
            exit(2)
        }
        let path = URL(fileURLWithPath: directory).standardizedFileURL.path
        folder = TakeFolder(path: path, template: storage.nameTemplate, clockTrusted: clockTrusted)
        output = path + "/" + storage.nameTemplate
    } else {
        switch TakeOutput.path(storage.output) {
        case let .success(path): output = path
        case let .failure(problem):
            Log.write("kiosk-recorder: \(problem.message)\n")
            exit(problem.status)
        }
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
    return (output, folder, lock)
}

/// The booth's parser, as the booth and its console both read the booth's settings: the files by
/// KioskSystem's reader (whose error the parser says as a config file's), and values checked against
/// this machine: a folder named as --output, the encoders this FFmpeg has, an overlay PNG (decoded by
/// `overlays`, which keeps it), the booth's own Wi-Fi, and whether `--console-settings`' file is there;
/// `--consent`'s version hashed by FFmpeg's SHA-256.
enum BoothParser {
    static func make(environment: KioskEnvironment, overlays: OverlayFiles) -> OptionParser {
        var host = HostFacts(isFolder: { path in
            var folder = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder
        }, videoEncoders: EncoderChoice.offered(testEncoders: environment.testEncoders), overlayProblem: { overlays.problem($0) },
           hotspot: FileManager.default.fileExists(atPath: environment.hotspotConnection),
           fileExists: { path in var info = stat(); return lstat(path, &info) == 0 },
           backgroundProblem: { path in
               if case let .failure(error) = BackgroundPicture.load(path) { return error.message }
               return nil
           })
        host.digest = { SHA256.hex($0) }
        return OptionParser(readFile: { path in
            do throws(ConfigFile.ReadError) { return try ConfigFile.read(path) } catch { throw ConfigFileError(error.description) }
        }, host: host, warn: { Log.info($0) })
    }
}
