// kiosk-bench: benchmarks of the real writer and player, run by the bench/ scripts.
import Foundation
import KioskCore
import KioskMedia

let usage = """
    Usage: kiosk-bench COMMAND
      versions      print the linked FFmpeg libraries
    (encode and decode arrive with the movie writer and player)

    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "versions":
    for (name, version) in MediaLibraries.versions.sorted(by: { $0.key < $1.key }) {
        FileHandle.standardOutput.write(Data("\(name) \(version)\n".utf8))
    }
case "--help", "-h":
    FileHandle.standardOutput.write(Data(usage.utf8))
default:
    Log.write("kiosk-bench: unknown or missing command\n" + usage)
    exit(2)
}
