// The booth's preview statistics line (KIOSK_STATS=1, on stderr): written by kiosk-recorder, read
// by kiosk-bench's preview bench and by the tests. One type, so the writer and its readers agree.
/// One stderr stats line. `t` is CLOCK_MONOTONIC in seconds, the clock a bench on the same machine
/// reads, so it can time its own commands against what the booth drew.
public struct PreviewStatsLine: Codable, Sendable, Equatable {
    /// start | tap | mode | exit | picture
    public let stat: String
    public let mode: String
    public let t: Double
    /// Frames presented (`SDL_RenderPresent`).
    public let presents: Int
    /// Camera frames put on screen.
    public let previewFrames: Int
    /// Camera frames replaced in the slot before the UI took them.
    public let droppedPreviewFrames: Int
    /// The SDL renderer, on the start line.
    public var renderer: String?
    /// `picture` lines (the player's, one per picture put on screen): its position in its play
    /// (seconds from the file's start) and the play it belongs to (1, 2, … with `--loop`).
    public var position: Double?
    public var play: Int?

    public init(stat: String, mode: String, t: Double, presents: Int, previewFrames: Int, droppedPreviewFrames: Int,
                renderer: String? = nil) {
        self.stat = stat
        self.mode = mode
        self.t = t
        self.presents = presents
        self.previewFrames = previewFrames
        self.droppedPreviewFrames = droppedPreviewFrames
        self.renderer = renderer
    }
}
