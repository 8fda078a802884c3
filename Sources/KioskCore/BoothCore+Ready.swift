// The booth core's gate before `ready` (ReadyGate's rule): `ready` goes out once the camera has
// tried to open, the microphone has been looked at (when one is asked for) and the launch's file
// work has reported back, in any order, the failures said just before it. The booth holds every
// other message until the core says `.ready` (its queue, not the core's: the messages are the
// booth's) and handles them after it, in order; a camera report after `ready` is a failure said,
// or a camera lost earlier that is back.
import KioskContract

extension BoothCore {
    /// `ready` went out: messages are handled as they come.
    public var readyOut: Bool { gate.isOpen }

    /// What a message that arrives is to the gate.
    public enum Arrival: Sendable {
        /// What the gate waits for: the camera's start, the look at the microphone, the launch's
        /// file work.
        case awaited
        /// The camera's own report that it is lost or back: in its first attempt, part of that
        /// attempt (its thread says so before the start returns).
        case cameraReport
        /// logind's sleep or resume.
        case sleep
        /// Anything else: a command, a signal, a worker's report.
        case other
    }

    /// What the booth does with a message that arrives.
    public enum Admission: Equatable, Sendable {
        /// Handled now.
        case handle
        /// Kept in the booth's queue until `.ready`, then handled in order.
        case hold
        /// Fed to the core now (nothing records before `ready`: a sleep need not wait) and held too:
        /// handed in again after `ready`, it reaches the machine in its order.
        case feedAndHold
    }

    /// Before `ready` only what the gate waits for and a camera's own report are handled (so a
    /// failed first attempt says `cameraUnavailable` before `ready`, never after it); a sleep is let
    /// go at once and held; the rest is held. After `ready` everything is handled as it comes.
    public func admits(_ arrival: Arrival) -> Admission {
        guard !readyOut else { return .handle }
        switch arrival {
        case .awaited, .cameraReport: return .handle
        case .sleep: return .feedAndHold
        case .other: return .hold
        }
    }

    /// A start of the camera in use ended (`failure`: why it did not; `open`: the camera is open
    /// now). Before `ready` it is the first attempt the gate waits for; after it, a failure is
    /// said, and a camera lost before (in a take that then finished) and open again now is back
    /// for the machine: its thread is new and has no loss to report back from.
    mutating func cameraStarted(failure: String?, open: Bool) -> [Effect] {
        guard gate.isOpen else { return opening(gate.cameraTried(failure: failure)) }
        var effects: [Effect] = []
        if let failure { effects.append(.emit(.error(code: .cameraUnavailable, message: failure))) }
        if failure == nil && open && !machine.cameraAvailable { effects += handle(.cameraBack) }
        return effects
    }

    /// The microphone opened as `name` (at launch, then closed again; or for a take), or did not
    /// (`failure`: why). At launch it is what the gate waits for.
    mutating func microphoneTried(name: String?, failure: String?) -> [Effect] {
        (listener.name, listener.missing) = (name ?? listener.name, failure != nil)
        return opening(gate.microphoneTried(failure: failure))
    }

    /// The launch's file work reported back (a file job): the events it found (takes recovered or
    /// deleted by retention) and the hooks a previous run still owed (`owed`, due now).
    /// (The job itself is counted done as its report is taken, as every file job's is.)
    mutating func launchFilesDone(_ found: [KioskEvent], owed: [HookQueue.Entry], at now: Int64) -> [Effect] {
        jobs.owed.load(owed, now: now)
        return found.map(Effect.emit) + opening(gate.launchFilesDone())
    }

    /// The gate opened: the camera's and the microphone's failures, then `ready`.
    private func opening(_ opening: ReadyGate<Never>.Opening?) -> [Effect] {
        guard let opening else { return [] }
        var effects: [Effect] = []
        if let failure = opening.cameraFailure { effects.append(.emit(.error(code: .cameraUnavailable, message: failure))) }
        if let failure = opening.microphoneFailure {
            effects.append(.emit(.error(code: .microphoneUnavailable,
                                        message: "\(failure); takes are recorded without sound until it opens (it is tried again at each Start)")))
        }
        return effects + [.ready(encoder: nextEncoder, microphone: settings.microphone && !listener.missing ? listener.name : "none")]
    }
}
