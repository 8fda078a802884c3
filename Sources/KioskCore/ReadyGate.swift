// Holding messages until `ready`, as a value: nothing is answered before `ready`, and `ready` goes
// out once the camera has tried to open (its failure said just before) and the launch's file work
// (recovered takes, retention) has reported back. What came meanwhile is released after it, in the
// order it came.

public struct ReadyGate<Message> {
    /// What opening the gate hands back: the camera's failure to say before `ready` (if any), and
    /// the messages held until then, in order.
    public struct Opening {
        public let cameraFailure: String?
        public let held: [Message]
    }

    /// `ready` went out: messages pass.
    public private(set) var isOpen = false
    private var held: [Message] = []
    /// The camera's first attempt: nil until it came, then its failure (nil inside: it opened).
    private var cameraTried: String??
    private var launchFilesPending: Bool

    /// `launchFiles`: the launch has file work (an output folder) that `ready` waits for.
    public init(launchFiles: Bool) {
        launchFilesPending = launchFiles
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

    /// The launch's file work reported back.
    public mutating func launchFilesDone() -> Opening? {
        launchFilesPending = false
        return openIfDue()
    }

    private mutating func openIfDue() -> Opening? {
        guard !isOpen, let failure = cameraTried, !launchFilesPending else { return nil }
        isOpen = true
        defer { held = [] }
        return Opening(cameraFailure: failure, held: held)
    }
}
