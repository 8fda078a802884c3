// The microphone's rule between and during takes, a rule of the booth core: the listening microphone
// (for the meter) runs in ready and the countdown while the camera runs, never while a take opens or
// records (the take's own microphone feeds the meter then) nor on the way out; while recording a
// video (a boomerang has no sound), 3 s under -60 dBFS is `microphoneSilent`, once until sound comes
// back (SilenceWatch), but not just after the whole process stood still (nothing could be heard
// meanwhile).

public struct MicrophoneRule: Sendable {
    /// The listening microphone runs (as last said with `.listen`).
    public private(set) var listening = false
    /// Silence in the take, and whether it was said.
    public private(set) var silence = SilenceWatch()
    /// The level reported when nothing was heard (dBFS): a number, never −∞.
    public static let floor = -100.0
    /// The meter's level as the last turn measured it (dBFS), for `state`.
    public private(set) var level = MicrophoneRule.floor
    /// The microphone the launch's look opened (for `ready`), and whether the one asked for has not
    /// opened (at launch, nor at a Start since): the guest is told the video will have no sound.
    var name: String?
    public internal(set) var missing = false

    public init() {}

    /// A take begins: the listening microphone closes first, at once.
    mutating func takeBegins() -> [BoothCore.Effect] {
        guard listening else { return [] }
        listening = false
        return [.listen(false)]
    }

    /// The turn's look at `now`: the listening microphone started or stopped, silence said.
    /// `opening`: a take is being opened (its microphone is the same device).
    mutating func look(machine: RecorderMachine, settings: BoothCore.Settings, _ facts: BoothCore.Turn, opening: Bool,
                       at now: Int64) -> [BoothCore.Effect] {
        var effects: [BoothCore.Effect] = []
        if let measured = facts.level { level = measured }
        let mode = machine.mode
        let wanted = settings.listensBetweenTakes && settings.microphone && machine.cameraRunning
            && (mode == .ready || mode == .countdown) && facts.take == nil && !opening && !machine.exiting
        if wanted != listening {
            listening = wanted
            effects.append(.listen(wanted))
        }
        // A boomerang opens no microphone: its silence is no news.
        guard mode == .recording, settings.microphone, facts.take != nil, machine.takeKind == .video else {
            silence.reset()
            return effects
        }
        if !facts.stallAftermath, silence.heard(lastSound: facts.lastSound, at: now) {
            effects += [.emit(.microphoneSilent), .log("microphone: no sound for 3 s")]
        }
        return effects
    }
}
