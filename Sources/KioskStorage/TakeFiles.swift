// The files of a take beside the take itself: its marker while it is written, its cut while it is
// trimmed, the hand-over's rename and a dead run's take moved aside.
import FoundationEssentials
import Glibc
import KioskContract
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

    /// A boomerang's mark, there from its capture's start until its loop is in place: a
    /// launch that finds it makes the loop from the pictures the capture kept.
    public static func boomerangPendingPath(for take: String) -> String {
        let url = URL(fileURLWithPath: take)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".boomerang").path
    }

    /// Where a boomerang's loop is written before it is renamed over its capture.
    public static func boomerangLoopPath(for take: String) -> String {
        let url = URL(fileURLWithPath: take)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.deletingPathExtension().lastPathComponent + ".looping."
            + url.pathExtension).path
    }

    /// A take's hidden companions a kill may leave: its cut, its leveled copy, a boomerang's loop
    /// being written.
    static func companions(of take: String) -> [String] {
        [trimmingPath(for: take), levelingPath(for: take), boomerangLoopPath(for: take)]
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
        for path in [output, markerPath(for: output), boomerangPendingPath(for: output)] + companions(of: output)
            where unlink(path) != 0 && errno != ENOENT {
            Log.info("could not delete \(path): \(String(cString: strerror(errno)))")
        }
        FolderSync.sync(of: output)
    }

    /// What a launch did with a boomerang a kill cut before its loop was in place.
    public enum BoomerangRecovery: Equatable {
        /// No boomerang's mark there.
        case none
        /// Its loop made from the pictures its capture kept: the loop's length.
        case made(Double)
        /// Nothing of it could be made: the capture is gone.
        case removed
    }

    /// A take whose boomerang mark is there (a kill cut it while it captured or while its loop was
    /// written): its loop is made from the pictures the capture kept (`remake`, which gives the
    /// loop's length, or nil when it cannot), or the capture is removed. Either is said on stderr.
    public static func recoverBoomerang(_ take: String, remake: (String) -> Double?) -> BoomerangRecovery {
        let pending = boomerangPendingPath(for: take)
        guard access(pending, F_OK) == 0 else { return .none }
        unlink(boomerangLoopPath(for: take))
        if access(take, F_OK) == 0, let duration = remake(take) {
            unlink(pending)
            Log.info("recovery: the boomerang \(take) was cut before its loop was made; made its loop (\(String(printf: "%.2f", duration)) s) from the pictures its capture kept")
            return .made(duration)
        }
        unlink(take)
        unlink(pending)
        FolderSync.sync(of: take)
        Log.info("recovery: the boomerang \(take) was cut before any of its pictures was safe; removed")
        return .removed
    }

    /// Before a take (and on Retake): recover an interrupted take, or delete the old file.
    /// `boomerang`: remakes a cut boomerang's loop (`recoverBoomerang`).
    public static func discardPrevious(at output: String, now: Date = Date(), playable: (String) -> Double?,
                                       boomerang: (String) -> Double? = { _ in nil }) -> Recovered? {
        let marker = markerPath(for: output)
        let fm = FileManager.default
        defer { try? fm.removeItem(atPath: marker) }
        // A cut a kill stopped (`--trim`), a leveled copy never handed over: the take is whole without them.
        companions(of: output).forEach { unlink($0) }
        if fm.fileExists(atPath: marker), recoverBoomerang(output, remake: boomerang) == .removed { return nil }
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
