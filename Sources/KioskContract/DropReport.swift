// Where a finished take's missing pictures went, for the log: a pure rule of the take's counts.

/// Where a finished take's missing pictures went, for whoever reads the log: the encoder behind,
/// the backlog just after the whole process stood still, the camera; and the preview's pictures
/// left undrawn to give the encoder the time.
public struct DropReport: Equatable, Sendable {
    /// Every picture the take lost, the camera's included (the take's `droppedFrames`).
    public let total: Int
    public let lines: [String]

    /// `result`: the writer's account; `cameraDropped`: what the camera delivered too late or not
    /// at all during the take; `stalls`: the lengths (ns) of the process's stalls in the take;
    /// `previewLeft`: the preview's pictures undrawn (nil: the preview never yielded).
    public init(result: RecordingResult, cameraDropped: Int, stalls: [Int64], previewLeft: Int?) {
        let byStall = result.droppedAfterStall, byEncoder = result.droppedFrames - byStall
        var lines: [String] = []
        if !stalls.isEmpty {
            lines.append("the whole process stood still \(stalls.count) time(s), for "
                         + stalls.map { "\($0 / 1_000_000_000).\($0 / 100_000_000 % 10) s" }.joined(separator: ", ")
                         + " (SIGSTOP, or the machine or VM suspended or starved): nothing was captured meanwhile")
        }
        if let previewLeft {
            let why = stalls.isEmpty ? "the encoder fell behind" : "the encoder had the backlog after the stall to catch up on"
            lines.append("\(why); the preview left \(previewLeft) of the camera's pictures undrawn to give it the time")
        }
        total = byStall + byEncoder + cameraDropped
        if total > 0 {
            lines.append("\(total) pictures dropped: \(byEncoder) while the encoder was behind "
                         + "(its queue full), \(byStall) in the backlog just after the process stood still, "
                         + "\(cameraDropped) the camera delivered too late or not at all")
        }
        self.lines = lines
    }
}
