// The booth's events on stdout: each encoded as one JSON line (KioskContract's EventEncoder) and queued
// on stdout's line writer (KioskSystem's LineWriter, which knows lines, not events).
import FoundationEssentials
import KioskContract
import KioskCore
import KioskSystem

/// Writes events to stdout, one line each, through `LineWriter.standardOutput`: any thread may
/// emit, the caller never waits, and the lines leave in the order they were emitted. Each line also
/// goes to `copies` (the control socket's clients), which must not wait either.
public final class EventSink: Sendable {
    private let encoder = EventEncoder()
    private let writer: any LineOutput
    private let copies: (@Sendable (Data) -> Void)?

    /// `copies`: given every event's line (with its newline) just before stdout's writer queues it.
    public init(writer: any LineOutput = LineWriter.standardOutput, copies: (@Sendable (Data) -> Void)? = nil) {
        self.writer = writer
        self.copies = copies
    }

    /// Calls `handler` once when the parent is gone (it closed its end of stdout).
    public func onReaderGone(_ handler: @escaping @Sendable () -> Void) { writer.onReaderGone(handler) }

    /// Queues the event's line. A `state` reply may be dropped (counted on stderr) while more than
    /// the writer's bound waits for a parent that does not read; every other event is kept.
    public func emit(_ event: KioskEvent) {
        let droppable = if case .state = event.unasked.unfigured { true } else { false }
        let line = Data(encoder.line(for: event).utf8)
        // The copies first: whoever connects after reading an event on stdout never gets it again.
        copies?(line)
        writer.enqueue(line, droppable: droppable)
    }

    /// Waits up to `timeout` seconds for the queued events to reach the reader (before the process
    /// stops itself: a stopped process writes nothing). True when everything went out.
    @discardableResult
    public func flush(timeout: Double) -> Bool { writer.flush(timeout: timeout) }
}
