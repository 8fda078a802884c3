// The files of a take beside the take itself: its marker while it is written, its cut while it is
// trimmed, the hand-over's rename and a dead run's take moved aside.
import FoundationEssentials
import Glibc
import KioskSystem

/// The files of a take: deleting the previous one before a new take, as the seed does, unless the
/// previous run was cut off mid-take, in which case that clip is moved aside and reported.
public enum TakeFiles {
    /// The marker beside a take being written (`.NAME.recording`): while it is there, the take is
    /// unfinished, and a launch that finds it recovers the take or deletes it.
    public static func markerPath(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".recording").path
    }

    /// Where a take's cut (`--trim`) is written before it is renamed over the take.
    public static func trimmingPath(for take: String) -> String {
        let url = URL(fileURLWithPath: take)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.deletingPathExtension().lastPathComponent + ".trimming."
            + url.pathExtension).path
    }

    /// Where a take's leveled copy (`--loudness`) is made while the guest reviews it, to be renamed
    /// over the take at the hand-over.
    public static func levelingPath(for take: String) -> String {
        let url = URL(fileURLWithPath: take)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.deletingPathExtension().lastPathComponent + ".leveled."
            + url.pathExtension).path
    }

    /// Where a take's library thumbnail is kept: beside it, hidden.
    public static func thumbnailPath(of take: String) -> String {
        let url = URL(fileURLWithPath: take)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".thumb.jpg").path
    }

    /// A clip that was moved aside.
    public struct Recovered: Sendable, Equatable {
        public var path: String
        public var duration: Double
    }

    /// The take is used (Use Video): the parent owns it from now on, so its marker goes. In a loop
    /// session it is first renamed `<name>-YYYYMMDD-HHMMSS.<ext>` beside the output, so the next
    /// guest's take cannot replace it. The path the parent gets, and what went wrong if the rename
    /// failed: the take then stays where it is with its marker, so the next Start moves it aside as
    /// recovered rather than deleting it.
    public static func handOver(_ output: String, rename: Bool, now: Date = Date()) -> (path: String, failure: String?) {
        var path = output
        if rename {
            let url = URL(fileURLWithPath: output)
            let stem = url.deletingPathExtension().path + "-" + LocalTime.stamp("%Y%m%d-%H%M%S", at: now)
            var target = stem + "." + url.pathExtension
            var n = 2
            while FileManager.default.fileExists(atPath: target) {
                target = stem + "-\(n)." + url.pathExtension
                n += 1
            }
            guard Glibc.rename(output, target) == 0 else {
                let failure = "could not hand over \(output) as \(target): \(String(cString: strerror(errno))); it stays where it is and the next Start keeps it as recovered"
                Log.info(failure)
                return (output, failure)
            }
            path = target
        }
        if unlink(markerPath(for: output)) != 0 && errno != ENOENT {
            Log.info("could not remove the marker of \(output): \(String(cString: strerror(errno)))")
        }
        FolderSync.sync(of: path)
        return (path, nil)
    }

    /// Retake, or a new take after this process's own finished one (nobody wanted it): the take and
    /// its marker go.
    public static func discard(_ output: String) {
        for path in [output, markerPath(for: output), levelingPath(for: output)] where unlink(path) != 0 && errno != ENOENT {
            Log.info("could not delete \(path): \(String(cString: strerror(errno)))")
        }
        FolderSync.sync(of: output)
    }

    /// Before a take (and on Retake): recover an interrupted take, or delete the old file.
    public static func discardPrevious(at output: String, now: Date = Date(), playable: (String) -> Double?) -> Recovered? {
        let marker = markerPath(for: output)
        let fm = FileManager.default
        defer { try? fm.removeItem(atPath: marker) }
        // A cut a kill stopped (`--trim`), a leveled copy never handed over: the take is whole without them.
        unlink(trimmingPath(for: output))
        unlink(levelingPath(for: output))
        guard fm.fileExists(atPath: marker) else {
            try? fm.removeItem(atPath: output)
            return nil
        }
        guard fm.fileExists(atPath: output), let duration = playable(output) else {
            // The marker without a playable file: nothing worth keeping.
            try? fm.removeItem(atPath: output)
            return nil
        }
        let url = URL(fileURLWithPath: output)
        let stamp = LocalTime.stamp("%Y%m%d-%H%M%S", at: now)
        var target = url.deletingPathExtension().path + ".recovered-" + stamp + "." + url.pathExtension
        var n = 2
        while fm.fileExists(atPath: target) {
            target = url.deletingPathExtension().path + ".recovered-" + stamp + "-\(n)." + url.pathExtension
            n += 1
        }
        guard (try? fm.moveItem(atPath: output, toPath: target)) != nil else { return nil }
        FolderSync.sync(of: target)
        return Recovered(path: target, duration: duration)
    }
}
