// Finds the assets folder (font, sounds) at run time, wherever the program was installed or built.
import FoundationEssentials
import KioskCore
import KioskSystem

/// The assets folder and the files the screen uses from it.
public struct Assets: Equatable, Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The overlay's font (DejaVu Sans Bold, licence in fonts/LICENSE-DejaVu.txt).
    public var boldFont: String { directory + "/fonts/DejaVuSans-Bold.ttf" }

    /// The begin / end sound (ours, made by sounds/make-sounds).
    public func sound(_ sound: Sound) -> String { directory + "/sounds/\(sound.rawValue).wav" }

    /// The folder was not found: names every place looked at.
    public struct NotFound: Error, Equatable, CustomStringConvertible, Sendable {
        public let searched: [String]
        public var description: String {
            "no assets folder (with fonts/ inside) found; looked in: " + searched.joined(separator: ", ")
                + ". Set KIOSK_ASSETS to the folder."
        }
    }

    /// Where the assets are, first match wins:
    /// 1. `$KIOSK_ASSETS` (when set it must be right: a wrong setting is an error, not skipped);
    /// 2. `<executable dir>/../share/kiosk-recorder/assets` (an installed copy);
    /// 3. `assets/` in the executable's folder or any folder above it (so `.build/debug/kiosk-recorder`
    ///    finds the repository's own).
    public static func locate(environment: KioskEnvironment, executable: String = Assets.executablePath(),
                              hasFonts: (String) -> Bool = Assets.hasFonts) throws(NotFound) -> Assets {
        if let forced = environment.assets {
            guard hasFonts(forced) else { throw NotFound(searched: ["$KIOSK_ASSETS=\(forced)"]) }
            return Assets(directory: forced)
        }
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent().standardizedFileURL
        var candidates = [folder.appendingPathComponent("../share/kiosk-recorder/assets").standardizedFileURL.path]
        var dir = folder
        while true {
            candidates.append(dir.appendingPathComponent("assets").path)
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
        if let found = candidates.first(where: hasFonts) { return Assets(directory: found) }
        throw NotFound(searched: candidates)
    }

    /// Whether `directory/fonts` exists.
    public static func hasFonts(_ directory: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: directory + "/fonts", isDirectory: &isDirectory) && isDirectory
    }

    /// This program's own file, from /proc/self/exe (argv[0] may be a bare name found on PATH).
    public static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
