// Preview statistics for bench/preview: with KIOSK_STATS=1 in the environment, the booth writes a
// JSON line to stderr at start, on each tap command, on each present that shows a new mode, and
// at exit. Stderr, and only when asked, so the stdout contract (events only) is untouched.
import FoundationEssentials
import KioskCapture
import KioskContract
import KioskCore
import KioskSystem

/// Counters kept by the UI loop (UI thread only), and the lines that report them.
struct PreviewStats {
    /// `KioskEnvironment.stats` (`KIOSK_STATS=1`).
    let enabled: Bool
    /// The slot the camera fills; it counts the frames it drops.
    let frames: FrameSlot
    var presents = 0
    var previewFrames = 0
    private var shownMode: Mode?

    /// `enabled`: `KIOSK_STATS` (the booth's `parts.environment.stats`).
    init(frames: FrameSlot, enabled: Bool) {
        self.frames = frames
        self.enabled = enabled
    }

    /// Writes a line (when enabled).
    func write(_ stat: String, mode: Mode, renderer: String? = nil, at now: Int64) {
        guard enabled else { return }
        let line = PreviewStatsLine(stat: stat, mode: mode.rawValue, t: Double(now) / 1e9, presents: presents,
                        previewFrames: previewFrames, droppedPreviewFrames: frames.dropped, renderer: renderer)
        guard let data = try? JSONEncoder().encode(line) else { return }
        Log.write(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// A player's picture put on screen: its position in its play and the play (`--loop`).
    func picture(position: Double, play: Int, at now: Int64) {
        guard enabled else { return }
        var line = PreviewStatsLine(stat: "picture", mode: Mode.playing.rawValue, t: Double(now) / 1e9, presents: presents,
                                    previewFrames: previewFrames, droppedPreviewFrames: frames.dropped)
        line.position = position
        line.play = play
        guard let data = try? JSONEncoder().encode(line) else { return }
        Log.write(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// Counts a present; reports it when it is the first to show `mode`.
    mutating func presented(mode: Mode, at now: Int64) {
        presents += 1
        guard mode != shownMode else { return }
        shownMode = mode
        write("mode", mode: mode, at: now)
    }
}
