// What the screen shows and what `state` says, decided once: the machine's view with what the core's
// rules add (Saving…, the silent microphone, the new camera's name, the photo's flash, the attract
// screen's pulse, the tap-to-focus box: BoothCore+Screen) and what the booth measured or read this
// turn (ViewFacts: the meter's levels, the notes its devices and settings give). The booth draws the
// model it gets.
import KioskContract
import KioskScreenText

extension BoothCore {
    /// A tap-to-focus box shows this long.
    public static let focusBoxLength: Int64 = 1_000_000_000

    /// What the booth measured or read for the picture, this turn.
    public struct ViewFacts: Sendable {
        /// `--camera auto` found no camera yet (and none is open): "no camera found" rather than
        /// "camera unavailable".
        public var noCameraFound: Bool
        /// `--prompt`, shown in ready.
        public var prompt: String?
        /// The meter: the loudest sound of the last 100 ms and of the last 1.5 s (dBFS); nil when no
        /// microphone is asked for.
        public var levels: (now: Double, held: Double)?
        /// The `WIFI:` payload of the booth's hotspot, for the share screen's first code.
        public var wifi: String?
        /// `--consent`'s text, for the consent screen.
        public var consentText: [ConsentText.Block] = []

        public init(noCameraFound: Bool = false, prompt: String? = nil, levels: (now: Double, held: Double)? = nil, wifi: String? = nil) {
            (self.noCameraFound, self.prompt, self.levels, self.wifi) = (noCameraFound, prompt, levels, wifi)
        }
    }

    /// The model to draw at `now`.
    public func viewModel(_ facts: ViewFacts, at now: Int64) -> ViewModel {
        var model = machine.viewModel
        let live = model.mode.live
        if model.message == .cameraUnavailable, facts.noCameraFound { model.message = .noCameraFound }
        if model.mode == .ready { model.prompt = facts.prompt }
        if model.consent != nil { model.consentText = facts.consentText }
        // The guestbook's question: large before the take (under the prompt in ready), small during it.
        if let question = guestbook.current, model.mode.live { model.question = (question, model.mode != .recording) }
        if model.message == nil, model.mode == .ready, listener.missing { model.message = .noMicrophone }
        if let levels = facts.levels, live {
            // In half-decibel steps: a level that wavers in the noise does not redraw the screen.
            model.microphoneLevel = ((levels.now * 2).rounded() / 2, (levels.held * 2).rounded() / 2)
            model.microphoneSilent = listener.silence.reported && model.mode == .recording
            if model.microphoneSilent, model.message == nil { model.message = .microphoneSilent }
        }
        if model.mode == .recording, take.saving { model.message = .saving }
        if model.mode == .ready, let name = ring.bannerName(at: now) { model.cameraName = name }
        if model.share != nil, let wifi = facts.wifi { model.share?.wifi = wifi }
        if let (point, since) = screen.focusBox, live {
            let progress = Double(now - since) / Double(Self.focusBoxLength)
            if progress < 1 { model.focusBox = (point, (progress * 30).rounded() / 30) }
        }
        model.flash = photo.flash(at: now)
        if attracting {
            // The pulse: a 2 s cycle, in 30 steps a second.
            let t = Double(now / 33_333_333) / 60
            model.attract = t - t.rounded(.down)
        }
        return model
    }

    /// The machine's `state` reply with what the core adds: the hooks still owed (with `--on-take`),
    /// the microphone's level as the last turn measured it (with a microphone asked for) and the
    /// figures (the metrics file's, the last take's rate, the uptime and camera the last turn gave).
    func completed(_ event: KioskEvent) -> KioskEvent {
        guard case let .state(mode, timer, buttons, orientation, remaining, _, _, trim, library, leftOut, review) = event else { return event }
        let state = KioskEvent.state(mode: mode, timer: timer, buttons: buttons, orientation: orientation, remaining: remaining,
                                     microphoneLevel: settings.microphone ? listener.level : nil,
                                     hooksPending: hookCommands.isEmpty ? nil : jobs.owed.pending, trim: trim, library: library,
                                     libraryLeftOut: leftOut, review: review)
        return .figured(machine.consentSwitches.map { .consented(state, .screen($0)) } ?? state, figures: StateFigures(figures, bytesPerSecond: service.bytesPerSecond, running: service.running))
    }
}
