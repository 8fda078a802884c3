// The saved copy of the `--on-take` hooks still owed (HookQueue): with `--output-dir`,
// `.kiosk-recorder.hooks` in the folder; with a single `--output` file, `.NAME.hooks` beside it.
// It is replaced whole, atomically and durably (written beside, synced, renamed), before each try
// and when a hook succeeds, so a restart, a power cut or a kill -9 finds what is owed.
//
// Blocking file work: called on the booth's file worker (and by `--check`), never on the UI thread.
import Foundation
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

    /// The entries saved at `path` (none when there is no file).
    public static func read(_ path: String) -> [HookQueue.Entry] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return HookQueue.entries(from: text)
    }

    /// At launch: the entries saved at `path` whose take is still there; one whose take is gone is
    /// dropped, said in the log, and the file saved without it.
    public static func load(_ path: String) -> [HookQueue.Entry] {
        let saved = read(path)
        let kept = saved.filter { entry in
            if FileManager.default.fileExists(atPath: entry.path) { return true }
            Log.info("--on-take: \(entry.path) is gone; its hook (\(entry.attempts) tries so far) is dropped")
            return false
        }
        if kept.count != saved.count {
            var queue = HookQueue()
            queue.load(kept, now: 0)
            save(queue.text, to: path)
        }
        return kept
    }

    /// Replaces the file at `path` with `text` (the queue's `text`); an empty queue removes it.
    public static func save(_ text: String, to path: String) {
        if text.isEmpty {
            if unlink(path) == 0 { FileSink.syncFolder(of: path) }
            return
        }
        if !TakeFolder.replace(path, with: text) { Log.info("--on-take: could not save the hooks owed in \(path)") }
    }
}
