// The booth's figures for a fleet (`--metrics-file`): gathered on the UI thread from where the booth
// already counts (the service's status line, the take's result, the meter, the hooks owed), paced by
// `MetricsPace` (each change, at most once a second), formatted by `MetricsText` and written on a
// worker of their own: the file replaced whole (a new file beside it, renamed over it), so
// node_exporter's textfile collector never reads half of one.
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

/// What the metrics count that no other room does, and the pace of the file.
struct MetricsRoom {
    /// Takes discarded and shared, the pictures the takes lost, when the last take finished (Unix s).
    var discarded = 0, shared = 0, framesDropped = 0
    var lastTake: Double?
    /// The bytes a second of the last take that gave a rate: the disk's seconds count at it.
    var bytesPerSecond: Double?
    /// The take on disk now (this process's, in review) was recorded: discarding it counts.
    var takeCounted = false
    var pace = MetricsPace()
}

/// The metrics file's worker: a serial queue of its own (a slow disk holds up nothing else), and
/// the last failure logged (a folder that is missing is said once, not every second).
final class MetricsWriter: Sendable {
    let path: String
    private let queue: any Executor
    private let failure = Locked<String?>(nil)

    init(path: String, queue: any Executor) {
        self.path = path
        self.queue = queue
    }

    /// Writes `figures` on the worker, with the seconds of recording the disk of `output` holds
    /// (its free space asked there: `statvfs` may wait on a stuck mount).
    func write(_ figures: BoothFigures, output: String, keepFree: Int64, bytesPerSecond: Double?) {
        let (path, failure) = (path, failure)
        queue.async {
            var figures = figures
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
    }

    /// Waits for the writes posted before (at exit).
    func flush() { queue.sync {} }

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

extension Booth {
    /// The figures as the booth has them now (the disk's seconds are the worker's).
    var figures: BoothFigures {
        var f = BoothFigures()
        f.recorded = service.status.takes
        f.used = service.status.used
        f.discarded = service.metrics.discarded
        f.shared = service.metrics.shared
        f.framesDropped = service.metrics.framesDropped
        f.cameraUp = machine.cameraAvailable
        // Whole dB: the file changes with the level, not with its noise.
        if config.capture.microphone != .none { f.microphoneLevel = meter.level(at: now).rounded() }
        f.hooksPending = core.jobs.owed.pending
        f.lastTake = service.metrics.lastTake
        return f
    }

    /// Each turn of the loop: the figures go to the file when `MetricsPace` says so; `final` (at
    /// exit) writes them whatever the pace, and waits for the worker.
    func writeMetrics(final: Bool = false) {
        guard let writer = shared.metrics else { return }
        let figures = figures
        guard service.metrics.pace.due(figures, now: now) || final else { return }
        writer.write(figures, output: outputPath, keepFree: config.limits.minFreeDisk, bytesPerSecond: service.metrics.bytesPerSecond)
        if final { writer.flush() }
    }

    /// A take finished (`recordingFinished`): its lost pictures, its time, its rate.
    func countFinishedTake(_ result: RecordingResult) {
        service.metrics.framesDropped += result.droppedFrames
        service.metrics.takeCounted = result.success
        guard result.success else { return }
        service.metrics.lastTake = Date().timeIntervalSince1970
        // TimeLeft's rate leaves the first second out (headers, the first key frame); a take too
        // short for one counts whole, a little dearer than the next long one will be.
        if let rate = core.take.timeLeft.rate ?? (result.duration >= 1 ? Double(result.bytes) / result.duration : nil) {
            service.metrics.bytesPerSecond = rate
        }
    }

    /// The take in review was discarded (Retake, an idle `discard`).
    func countDiscardedTake() {
        if service.metrics.takeCounted { service.metrics.discarded += 1 }
        service.metrics.takeCounted = false
    }
}
