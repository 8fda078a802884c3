// The booth's figures in Prometheus' text exposition format (0.0.4), for node_exporter's textfile
// collector (`--metrics-file`), and the pace of their writing: at each change, at most once a
// second. Pure: the booth gathers the figures on its UI thread, a worker looks at the disk and
// writes the text.
//
// The takes are separate counters, not one `kiosk_takes_total{outcome=…}`: Prometheus asks that the
// sum over a metric's labels mean something, and here it would not (a used take was recorded first,
// a shared take is a used one: the sum counts one take up to three times). `kiosk_takes_total` is
// every take recorded; `kiosk_takes_used_total`, `…_discarded_total` and `…_shared_total` are the
// takes that went each way, so `rate(kiosk_takes_used_total[1h]) / rate(kiosk_takes_total[1h])` is
// the share of takes guests kept.

/// What the booth has done since it started, and how it is now.
public struct BoothFigures: Equatable, Sendable {
    /// Takes finished with a picture; of them, handed over (Use Video, an idle `use`), discarded
    /// (Retake, an idle `discard`) and shared (their share folder written).
    public var recorded = 0, used = 0, discarded = 0, shared = 0
    /// Pictures the takes lost (each `recordingFinished`'s `droppedFrames`).
    public var framesDropped = 0
    /// The booth has its camera (not lost, not missing).
    public var cameraUp = false
    /// The microphone's peak level (dBFS, −100 for silence); nil without a microphone.
    public var microphoneLevel: Double?
    /// Seconds of recording the output's disk still holds at the last take's rate; nil until a
    /// take gave a rate, or when the disk cannot be asked.
    public var diskSeconds: Double?
    /// `--on-take` hooks owed: waiting or running.
    public var hooksPending = 0
    /// When the last take finished (Unix seconds); nil before the first.
    public var lastTake: Double?
    public var version = KioskVersion.string

    public init() {}
}

public enum MetricsText {
    /// One family: its name, what it is, its type and its samples (labels, value).
    struct Family {
        let name: String
        let help: String
        let type: String
        let samples: [(labels: [(String, String)], value: Double)]

        init(_ name: String, _ type: String, _ help: String, _ value: Double?, labels: [(String, String)] = []) {
            self.name = name
            self.type = type
            self.help = help
            samples = value.map { [(labels, $0)] } ?? []
        }
    }

    /// The exposition: `# HELP`, `# TYPE` and the sample of each family that has one, ending in a
    /// newline. A figure not known (nil) leaves its family out.
    public static func text(_ f: BoothFigures) -> String {
        let families = [
            Family("kiosk_build_info", "gauge", "The booth's version, as a label; always 1.", 1, labels: [("version", f.version)]),
            Family("kiosk_takes_total", "counter", "Takes recorded (finished with a picture) since the booth started.", Double(f.recorded)),
            Family("kiosk_takes_used_total", "counter", "Takes handed over (Use Video, or an idle reset's use).", Double(f.used)),
            Family("kiosk_takes_discarded_total", "counter", "Takes discarded (Retake, or an idle reset's discard).", Double(f.discarded)),
            Family("kiosk_takes_shared_total", "counter", "Takes whose share folder was written (--share-dir).", Double(f.shared)),
            Family("kiosk_frames_dropped_total", "counter", "Pictures the takes lost (recordingFinished's droppedFrames).", Double(f.framesDropped)),
            Family("kiosk_camera_up", "gauge", "1 while the booth has its camera, 0 while it is lost or missing.", f.cameraUp ? 1 : 0),
            Family("kiosk_microphone_level_dbfs", "gauge", "The microphone's peak over the last 100 ms, in dBFS (-100: silence).", f.microphoneLevel),
            Family("kiosk_disk_remaining_seconds", "gauge", "Seconds of recording the output's disk still holds at the last take's rate, above --min-free-disk.", f.diskSeconds),
            Family("kiosk_hooks_pending", "gauge", "--on-take hooks waiting or running.", Double(f.hooksPending)),
            Family("kiosk_last_take_timestamp_seconds", "gauge", "When the last take finished, in Unix seconds.", f.lastTake),
        ]
        var out = ""
        for family in families where !family.samples.isEmpty {
            out += "# HELP \(family.name) \(escaped(family.help, quotes: false))\n# TYPE \(family.name) \(family.type)\n"
            for sample in family.samples {
                let labels = sample.labels.isEmpty ? "" : "{" + sample.labels.map { "\($0.0)=\"\(escaped($0.1, quotes: true))\"" }.joined(separator: ",") + "}"
                out += "\(family.name)\(labels) \(number(sample.value))\n"
            }
        }
        return out
    }

    /// A value as Prometheus reads it: whole numbers without a point, others with at most three
    /// decimals (a millisecond, a thousandth of a dB), the special values by their names.
    static func number(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        guard abs(v) < 1e15 else { return "\(v)" }
        let rounded = (v * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int64(rounded)) : "\(rounded)"
    }

    /// HELP text escapes `\` and newlines; a label's value escapes `"` too.
    static func escaped(_ s: String, quotes: Bool) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\"" where quotes: out += "\\\""
            default: out.append(c)
            }
        }
        return out
    }

    /// Seconds of recording `free` bytes hold at `bytesPerSecond`, keeping `keep` bytes free (the
    /// take stops there: `--min-free-disk`); nil without a rate.
    public static func diskSeconds(free: Int64, keep: Int64, bytesPerSecond: Double?) -> Double? {
        guard let rate = bytesPerSecond, rate > 0 else { return nil }
        return Double(max(free - keep, 0)) / rate
    }
}

/// When the metrics file is written: a change is written at once unless the last write was less
/// than `interval` ago (then at the first turn after), and figures that did not change are written
/// again every `refresh` (the disk's free space, looked at when writing, changes on its own).
public struct MetricsPace: Equatable, Sendable {
    public static let interval: Int64 = 1_000_000_000
    public static let refresh: Int64 = 10_000_000_000
    private var written: BoothFigures?
    private var at: Int64?

    public init() {}

    /// Whether `figures` are to be written now (CLOCK_MONOTONIC ns); when true they count as written.
    public mutating func due(_ figures: BoothFigures, now: Int64) -> Bool {
        if let at {
            guard now - at >= Self.interval, figures != written || now - at >= Self.refresh else { return false }
        }
        written = figures
        at = now
        return true
    }
}
