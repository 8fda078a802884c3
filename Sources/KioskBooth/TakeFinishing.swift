// A take's file work around its review, on the file worker: `--trim`'s cut (TakeTrim) and
// `--loudness`'s leveling (TakeLoudness), both before the hand-over removes the take's marker, so a
// kill -9 during either leaves the whole take for the recovery at the next launch; the leveled copy
// made while the guest reviews the take, renamed over it at the hand-over; and the trimmer's
// pictures. When each is done is the core's (the effects `.file(.levelAhead)`, `.file(.trimPictures)`).
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem
import Synchronization

/// `--loudness`: the takes whose leveled copy the file worker made while the guest reviewed them
/// (TakeFiles.levelingPath), and what it did; the file worker's alone.
final class TakeLeveling: Sendable {
    private let ahead = Locked<[String: Leveling]>([:])

    /// While the guest reviews the take at `path`: its copy leveled to `target` beside it, for the
    /// hand-over to rename over it. A Retake's discard removes it; a trim makes the hand-over level
    /// the cut instead.
    func prepare(_ path: String, to target: Double) {
        let copy = TakeFiles.levelingPath(for: path)
        do {
            let done = try TakeLoudness.prepare(path, to: target, into: copy)
            ahead.withLock { $0[path] = done }
            if done.changed { Log.info("loudness: \(path)'s leveled copy made while it is reviewed, in \(String(printf: "%.3f", done.seconds)) s") }
        } catch {
            ahead.withLock { $0[path] = nil }
            Log.info("loudness: \(path)'s leveled copy could not be made ahead (\(error)); the hand-over tries again")
        }
    }

    /// `--loudness`: the take at `path` set to `target` LUFS, on the file worker, after its cut and
    /// before the hand-over removes its marker: what was measured and done (its `result` saying which
    /// case applied), and when it failed the `error` event saying why it goes as recorded (it is
    /// untouched then). The copy made while the guest reviewed it is renamed over it when there is
    /// one (`cut` false: no trim cut it since).
    func level(_ path: String, to target: Double, cut: Bool) -> (done: Leveling, failure: KioskEvent?) {
        let copy = TakeFiles.levelingPath(for: path)
        let prepared = ahead.withLock { $0.removeValue(forKey: path) }
        if let prepared, !cut, !prepared.changed {
            Log.info(Self.left(path, prepared, target: target))
            return (prepared, nil)
        }
        if let prepared, !cut, FileManager.default.fileExists(atPath: copy) {
            let took = Stopwatch()
            if rename(copy, path) == 0 {
                FolderSync.sync(of: path)
                Log.info(Self.done(path, prepared) + "; made during the review in \(String(printf: "%.3f", prepared.seconds)) s, "
                         + "handed over in \(String(printf: "%.3f", took.seconds)) s")
                return (prepared, nil)
            }
            Log.info("loudness: the leveled copy of \(path) could not be renamed over it (\(String(cString: strerror(errno)))); leveling it now")
        }
        unlink(copy)
        do {
            let done = try TakeLoudness.level(path, to: target)
            Log.info(done.changed ? Self.done(path, done) + ", in \(String(printf: "%.3f", done.seconds)) s" : Self.left(path, done, target: target))
            return (done, nil)
        } catch {
            return (Leveling(.failed), .error(code: .loudnessFailed, message: "the take's loudness was not set, so it is handed over as recorded: \(error)"))
        }
    }

    /// The log's line for a take whose sound was changed.
    private static func done(_ path: String, _ done: Leveling) -> String {
        let tenth = { (x: Double?) in x.map { String(printf: "%.1f", $0) } ?? "?" }
        return "loudness: \(path) measured \(tenth(done.measured)) LUFS, true peak \(tenth(done.truePeak)) dBTP; "
            + "gain \(tenth(done.gain)) dB\(done.limited ? " with the limiter" : ""), \(tenth(done.reached)) LUFS (\(done.result.rawValue))"
    }

    /// The log's line for a take left as recorded, saying which case applied.
    private static func left(_ path: String, _ done: Leveling, target: Double) -> String {
        let why = switch done.result {
        case .noSound: "it has no sound track"
        case .silence: "its sound is silence (nothing above -70 LUFS)"
        case .atTarget: String(printf: "it is already at %.1f LUFS (measured %.1f LUFS)", target, done.measured ?? target)
        case .leveled, .limited, .failed: done.result.rawValue
        }
        return "loudness: \(path) left as it is: \(why) (\(done.result.rawValue))"
    }
}

/// `--trim`'s cut at the hand-over.
enum TakeCut {
    /// The take at `path` cut to `range`, on the file worker: what was delivered, or the `error`
    /// event saying why the whole take goes instead (it is untouched then).
    static func cut(_ path: String, to range: TrimRange) -> (done: TakeTrim.Cut?, failure: KioskEvent?) {
        let took = Stopwatch()
        do {
            let cut = try TakeTrim.cut(path, start: range.start, end: range.end)
            Log.info("trim: \(path) cut to [\(cut.start), \(cut.end)] s in \(took.seconds) s"
                + " (\(cut.videoPackets) video and \(cut.audioPackets) audio packets, \(cut.bytes) bytes, sync \(cut.syncSeconds) s)")
            return (cut, nil)
        } catch {
            return (nil, .error(code: .trimFailed, message: "the take was not trimmed, so it is handed over whole: \(error)"))
        }
    }
}

/// The trimmer's pictures (`--trim`): the finished take's, decoded on the file worker (never the UI
/// thread), in order with the take's other file work; those of an older request are dropped.
final class TrimPictures: Sendable {
    /// How many along the trimmer's band, and their long side in pixels (small: a band is about
    /// 60 px tall).
    static let count = 12
    static let side = 160
    private let files: any Executor
    /// The request asked for last.
    private let serial = Atomic<Int>(0)

    init(files: any Executor) {
        self.files = files
    }

    /// The pictures of the take at `path`, posted to `inbox` as `.listed(.trimPictures)`.
    func ask(_ path: String, inbox: Inbox) {
        let serial = serial.wrappingAdd(1, ordering: .relaxed).newValue
        files.async {
            inbox.post(.listed(.trimPictures(serial: serial, TakeThumbnails.pictures(of: path, count: Self.count, longSide: Self.side))))
        }
    }

    /// Those still coming are dropped.
    func drop() { serial.wrappingAdd(1, ordering: .relaxed) }

    /// Whether `serial`'s pictures are those asked for last.
    func isLatest(_ serial: Int) -> Bool { serial == self.serial.load(ordering: .relaxed) }
}

extension KioskEvent {
    /// The hand-over's outcome for a take cut as `cut` says; other events as they are.
    func trimmed(_ cut: TakeTrim.Cut) -> KioskEvent {
        guard case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path) = self else { return self }
        return .videoRecorderDidFinishRecordingTrimmedVideo(outputPath: path, trimmed: TrimRange(start: cut.start, end: cut.end),
                                                            duration: cut.duration)
    }
}
