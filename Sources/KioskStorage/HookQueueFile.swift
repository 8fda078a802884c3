// The saved copy of the `--on-take` hooks still owed (HookQueue): with `--output-dir`,
// `.kiosk-recorder.hooks` in the folder; with a single `--output` file, `.NAME.hooks` beside it.
// It is replaced whole, atomically and durably (written beside, synced, renamed), before each try
// and when a hook succeeds, so a restart, a power cut or a kill -9 finds what is owed.
//
// Blocking file work: called on the booth's file worker (and by `--check`), never on the UI thread.
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskSystem

public enum HookQueueFile {
    static let folderName = ".kiosk-recorder.hooks"

    /// Where the queue of `--output-dir` `folder` is kept.
    public static func path(folder: String) -> String { folder + "/" + folderName }

    /// Where the queue of the single take file `output` is kept: a dot-file beside it.
    public static func path(output: String) -> String {
        let slash = output.lastIndex(of: "/")
        let folder = slash.map { String(output[...$0]) } ?? ""
        let name = slash.map { String(output[output.index(after: $0)...]) } ?? output
        return folder + "." + name + ".hooks"
    }

    /// The entries saved at `path` (none when there is no file), and how many lines did not read
    /// (a file that is not UTF-8 at all counts as one).
    public static func read(_ path: String) -> (entries: [HookQueue.Entry], unreadable: Int) {
        guard let data = FileManager.default.contents(atPath: path) else { return ([], 0) }
        guard let text = String(data: data, encoding: .utf8) else {
            // Damage that is not UTF-8: the lines that still are may read.
            let parsed = HookQueue.parse(String(decoding: data, as: UTF8.self))
            return (parsed.entries, max(parsed.unreadable, 1))
        }
        return HookQueue.parse(text)
    }

    /// At launch: the entries saved at `path` the booth may run. A file with lines that do not read
    /// is kept aside (renamed `…hooks.damaged-YYYYmmdd-HHMMSS`, for a person to look at) and
    /// rebuilt from those that do; an entry whose take is not directly in the output folder (or
    /// whose share folder is not in `shareFolder`) is refused; one whose take is gone is dropped.
    /// Each is said in the log; the file is saved with what is kept.
    public static func load(_ path: String, shareFolder: String?) -> [HookQueue.Entry] {
        let (saved, unreadable) = read(path)
        if unreadable > 0 {
            let aside = path + ".damaged-" + Self.stamp()
            if rename(path, aside) == 0 {
                Log.info("--on-take: \(unreadable) line\(unreadable == 1 ? "" : "s") of \(path) could not be read; the file is kept as \(aside) "
                         + "and the queue rebuilt from the \(saved.count) that could; look there for hooks owed that were lost")
            } else {
                Log.info("--on-take: \(unreadable) line\(unreadable == 1 ? "" : "s") of \(path) could not be read, and it could not be kept aside "
                         + "(\(String(cString: strerror(errno)))); the queue is rebuilt from the \(saved.count) that could")
            }
        }
        let takeFolder = PathText.folder(of: path)
        let kept = saved.filter { entry in
            if let problem = entry.problem(takeFolder: takeFolder, shareFolder: shareFolder) {
                Log.info("--on-take: \(path) names a hook the booth refuses to run: \(problem)")
                return false
            }
            if entry.kind == .delete || FileManager.default.fileExists(atPath: entry.path) { return true }
            Log.info("--on-take: \(entry.path) is gone; its hook (\(entry.attempts) tries so far) is dropped")
            return false
        }
        if kept.count != saved.count || unreadable > 0 {
            var queue = HookQueue()
            queue.load(kept, now: 0)
            save(queue.text, to: path)
        }
        return kept
    }

    /// Copies of a damaged queue kept aside beside `path` (their paths, oldest first).
    public static func keptAside(_ path: String) -> [String] {
        let folder = PathText.folder(of: path), name = PathText.name(of: path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix(name + ".damaged-") }.sorted().map { folder + "/" + $0 }
    }

    /// The local time now as YYYYmmdd-HHMMSS.
    static func stamp() -> String {
        var seconds = time(nil)
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y%m%d-%H%M%S", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Replaces the file at `path` with `text` (the queue's `text`); an empty queue removes it.
    public static func save(_ text: String, to path: String) {
        if text.isEmpty {
            if unlink(path) == 0 { FolderSync.sync(of: path) }
            return
        }
        if !TakeFolder.replace(path, with: text) { Log.info("--on-take: could not save the hooks owed in \(path)") }
    }
}
extension HookQueue.Entry {
    /// Why this entry may not run its hook (nil: it may): its take must be a file directly in
    /// `takeFolder` (the booth's output folder) and its share folder, if it names one, directly in
    /// `shareFolder` (`--share-dir`). Anyone who can write the queue file must not be able to hand
    /// the hook (an upload, say) any other file the booth's user can read.
    public func problem(takeFolder: String, shareFolder: String?) -> String? {
        func directlyIn(_ folder: String, _ path: String) -> Bool {
            let standard = URL(fileURLWithPath: folder).standardizedFileURL.path
            let parent = standard.hasSuffix("/") ? standard : standard + "/"
            guard path.hasPrefix(parent) else { return false }
            return TakeName.isSafe(String(path.dropFirst(parent.count)))
        }
        guard directlyIn(takeFolder, path) else { return "its take \(TakeName.printable(path)) is not in the output folder \(takeFolder)" }
        if let folder = self.shareFolder {
            guard let shareFolder, directlyIn(shareFolder, folder) else {
                return "its share folder \(TakeName.printable(folder)) is not in --share-dir\(shareFolder.map { " \($0)" } ?? " (none is set)")"
            }
        }
        return nil
    }
}
