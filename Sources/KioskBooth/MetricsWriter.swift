// The booth's figures for a fleet (`--metrics-file`), written: counted and paced by the core
// (BoothCore+Service: each change, at most once a second), formatted by `MetricsText` and written on a
// worker of their own: the file replaced whole (a new file beside it, renamed over it), so
// node_exporter's textfile collector never reads half of one.
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskStorage
import KioskSystem

/// The metrics file's worker: a serial queue of its own (a slow disk holds up nothing else), and
/// the last failure logged (a folder that is missing is said once, not every second).
final class MetricsWriter: Sendable {
    let path: String
    private let queue: any Executor
    private let failure = Locked<String?>(nil)
    /// When the last take that counts finished (Unix s): the figures' `lastTake`.
    private let lastTake = Locked<Double?>(nil)

    init(path: String, queue: any Executor) {
        self.path = path
        self.queue = queue
    }

    /// Writes `figures` on the worker, with the seconds of recording the disk of `output` holds
    /// (its free space asked there: `statvfs` may wait on a stuck mount); `waiting` (as the booth
    /// leaves): returns once it is written.
    func write(_ figures: BoothFigures, output: String, keepFree: Int64, bytesPerSecond: Double?, waiting: Bool) {
        let (path, failure) = (path, failure)
        let lastTake = lastTake.withLock { $0 }
        queue.async {
            var figures = figures
            figures.lastTake = lastTake
            if let free = DiskSpace.available(at: output) {
                figures.diskSeconds = MetricsText.diskSeconds(free: free, keep: keepFree, bytesPerSecond: bytesPerSecond)
            }
            let error = Self.replace(path, with: MetricsText.text(figures))
            failure.withLock { said in
                if let error, error != said { Log.info("metrics: \(error)") }
                if error == nil, said != nil { Log.info("metrics: \(path) is written again") }
                said = error
            }
        }
        if waiting { queue.sync {} }
    }

    /// A take finished: one that succeeded is the last take that counts, from now.
    func takeFinished(_ result: RecordingResult) {
        if result.success { lastTake.withLock { $0 = Date().timeIntervalSince1970 } }
    }

    /// `text` as the whole of `path`: written to `.<name>.new` beside it (NewFile: never through a
    /// link; 0644, node_exporter's user reads it), then renamed over it. Not synced: the file is
    /// rewritten every second or so, and a power cut loses only figures the next start rewrites.
    /// The new file's name does not end in `.prom`: the collector never reads it. A leftover of a
    /// killed run is removed first. The error, or nil.
    static func replace(_ path: String, with text: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".new").path
        unlink(temporary)
        let file: FileDescriptor
        do { file = try NewFile.create(temporary, mode: 0o644) } catch { return "\(error)" }
        if let error = file.writeAll(Array(text.utf8)) {
            _ = consume file
            unlink(temporary)
            return "write(\(temporary)): \(String(cString: strerror(error)))"
        }
        // Closed before the rename, as a replaced file is.
        _ = consume file
        guard rename(temporary, path) == 0 else {
            let failed = "rename(\(temporary), \(path)): \(String(cString: strerror(errno)))"
            unlink(temporary)
            return failed
        }
        return nil
    }
}
