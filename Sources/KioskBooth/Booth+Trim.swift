// The trim's file work (`--trim`): on Use Video the take is cut to the part kept
// (TakeTrim) on the file worker, before the hand-over removes its marker, so a kill -9 during the cut
// leaves the whole take for the recovery at the next launch. The outcome then says what was kept.
// `--loudness`'s file work too: the leveled copy made while the guest reviews the take, and renamed
// over it at the hand-over (or the take leveled then, after a cut).
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

extension Booth {
    /// `--loudness`, while the guest reviews the take: its leveled copy made on the file worker
    /// beside it (TakeFiles.levelingPath), for the hand-over to rename over it. A Retake's discard
    /// removes it; a trim makes the hand-over level the cut instead.
    func levelAhead(_ path: String, to target: Double) {
        let ahead = shared.leveledAhead
        onFiles {
            let copy = TakeFiles.levelingPath(for: path)
            do {
                let done = try TakeLoudness.prepare(path, to: target, into: copy)
                ahead.withLock { $0[path] = done }
                if let done { Log.info("loudness: \(path)'s leveled copy made while it is reviewed, in \(String(printf: "%.3f", done.seconds)) s") }
            } catch {
                ahead.withLock { $0[path] = nil }
                Log.info("loudness: \(path)'s leveled copy could not be made ahead (\(error)); the hand-over tries again")
            }
            return []
        }
    }

    /// `--loudness`: the take at `path` set to `target` LUFS, on the file worker, after its cut and
    /// before the hand-over removes its marker: what was measured and done (nil: nothing to do), or
    /// the `error` event saying why it goes as recorded (it is untouched then). The copy made while
    /// the guest reviewed it is renamed over it when there is one (`ahead`: no trim cut it since).
    static func level(_ path: String, to target: Double, ahead: Locked<[String: Leveling]>, cut: Bool) -> (done: Leveling?, failure: KioskEvent?) {
        let copy = TakeFiles.levelingPath(for: path)
        let prepared = ahead.withLock { $0.removeValue(forKey: path) }
        if let prepared, !cut, FileManager.default.fileExists(atPath: copy) {
            let took = Stopwatch()
            if rename(copy, path) == 0 {
                FolderSync.sync(of: path)
                Log.info("loudness: \(path) measured \(String(printf: "%.1f", prepared.measured)) LUFS, true peak \(String(printf: "%.1f", prepared.truePeak)) dBTP; "
                         + "gain \(String(printf: "%.1f", prepared.gain)) dB\(prepared.limited ? " with the limiter" : ""), "
                         + "\(prepared.result.map { String(printf: "%.1f", $0) } ?? "?") LUFS; made during the review in \(String(printf: "%.3f", prepared.seconds)) s, "
                         + "handed over in \(String(printf: "%.3f", took.seconds)) s")
                return (prepared, nil)
            }
            Log.info("loudness: the leveled copy of \(path) could not be renamed over it (\(String(cString: strerror(errno)))); leveling it now")
        }
        unlink(copy)
        do {
            let done = try TakeLoudness.level(path, to: target)
            if let done {
                Log.info("loudness: \(path) measured \(String(printf: "%.1f", done.measured)) LUFS, true peak \(String(printf: "%.1f", done.truePeak)) dBTP; "
                         + "gain \(String(printf: "%.1f", done.gain)) dB\(done.limited ? " with the limiter" : ""), "
                         + "\(done.result.map { String(printf: "%.1f", $0) } ?? "?") LUFS, in \(String(printf: "%.3f", done.seconds)) s")
            } else {
                Log.info("loudness: \(path) left as it is (no sound track, silence, or already at \(target) LUFS)")
            }
            return (done, nil)
        } catch {
            return (nil, .error(code: .loudnessFailed, message: "the take's loudness was not set, so it is handed over as recorded: \(error)"))
        }
    }

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

extension Booth {
    /// The trimmer's pictures: how many along its band, and their long side in pixels (small: a
    /// band is about 60 px tall).
    static let trimPictureCount = 12
    static let trimPictureSide = 160

    /// The finished take's pictures for the trimmer, decoded on the file worker (never the UI
    /// thread), in order with the take's other file work; `trimPictures` brings them back.
    func askTrimPictures(of path: String) {
        takes.trimPictures += 1
        let (serial, inbox) = (takes.trimPictures, inbox)
        shared.files.async {
            inbox.post(.listed(.trimPictures(serial: serial, TakeThumbnails.pictures(of: path, count: Booth.trimPictureCount,
                                                                                    longSide: Booth.trimPictureSide))))
        }
    }

    /// The pictures came: shown while the trimmer that asked for them is still up.
    func trimPicturesDone(serial: Int, _ pictures: [RGBPicture]) {
        guard serial == takes.trimPictures, machine.trimmerView != nil else { return }
        do { try screen.setTrimPictures(pictures) } catch { Log.info("trimmer: its pictures cannot be shown: \(error)") }
        needsDraw = true
    }

    /// The take left the review (Retake, Use Video): its pictures go, and any still coming are dropped.
    func dropTrimPictures() {
        takes.trimPictures += 1
        try? screen.setTrimPictures([])
    }
}

extension KioskEvent {
    /// The hand-over's outcome for a take cut as `cut` says; other events as they are.
    func trimmed(_ cut: TakeTrim.Cut) -> KioskEvent {
        guard case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path) = self else { return self }
        return .videoRecorderDidFinishRecordingTrimmedVideo(outputPath: path, trimmed: TrimRange(start: cut.start, end: cut.end),
                                                            duration: cut.duration)
    }
}
