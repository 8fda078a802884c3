// Holding messages until `ready`, as a value: nothing is answered before `ready`, and `ready` goes
// out once the camera has tried to open (its failure said just before), the microphone has been
// looked at (the same) and the launch's file work (recovered takes, retention) has reported back.
// What came meanwhile is released after it, in the order it came.

public struct ReadyGate<Message> {
    /// What opening the gate hands back: the camera's and the microphone's failures to say before
    /// `ready` (if any), and the messages held until then, in order.
    public struct Opening {
        public let cameraFailure: String?
        public let microphoneFailure: String?
        public let held: [Message]
    }

    /// `ready` went out: messages pass.
    public private(set) var isOpen = false
    private var held: [Message] = []
    /// The camera's first attempt: nil until it came, then its failure (nil inside: it opened).
    private var cameraTried: String??
    private var launchFilesPending: Bool
    /// The microphone's look at launch: nil until it came (or when none is asked for), then its
    /// failure (nil inside: it opened).
    private var microphoneTried: String??

    /// `launchFiles`: the launch has file work (an output folder) that `ready` waits for;
    /// `microphone`: a microphone is asked for, and `ready` waits for the look at it.
    public init(launchFiles: Bool, microphone: Bool = false) {
        launchFilesPending = launchFiles
        if !microphone { microphoneTried = .some(nil) }
    }

    /// Keeps `message` until the gate opens (only while it is closed).
    public mutating func hold(_ message: Message) {
        precondition(!isOpen, "the gate is open: handle the message")
        held.append(message)
    }

    /// The camera's first attempt to open ended (`failure`: why it did not).
    public mutating func cameraTried(failure: String?) -> Opening? {
        cameraTried = .some(failure)
        return openIfDue()
    }

    /// The microphone was opened and closed again at launch (`failure`: why it did not open).
    public mutating func microphoneTried(failure: String?) -> Opening? {
        microphoneTried = .some(failure)
        return openIfDue()
    }

    /// The launch's file work reported back.
    public mutating func launchFilesDone() -> Opening? {
        launchFilesPending = false
        return openIfDue()
    }

    private mutating func openIfDue() -> Opening? {
        guard !isOpen, let failure = cameraTried, let microphoneFailure = microphoneTried, !launchFilesPending else { return nil }
        isOpen = true
        defer { held = [] }
        return Opening(cameraFailure: failure, microphoneFailure: microphoneFailure, held: held)
    }
}

extension ReadyGate: Sendable where Message: Sendable {}
