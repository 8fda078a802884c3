// kiosk-recorder: parses the command line and wires the parts together. Logic lives in the libraries.
import Foundation
import KioskCapture
import KioskCore
import KioskMedia
import KioskUI

let parser = OptionParser(readFile: { try String(contentsOfFile: $0, encoding: .utf8) })
let invocation: Invocation
do {
    invocation = try parser.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Log.write("kiosk-recorder: \(error.message)\nTry 'kiosk-recorder --help'.\n")
    exit(2)
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
case .play, .record:
    // The player (issue 6) and the booth screen (issue 5) are not
    // built yet; say so plainly rather than pretend.
    Log.info("this build validates the configuration only; the booth screen and the player are not built yet")
    exit(1)
}
