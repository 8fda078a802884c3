// The two output channels: stdout carries only JSON events; everything for people goes to stderr.
import Foundation

/// Writes lines to stderr (unbuffered, so logs interleave correctly with a parent's reading).
public enum Log {
    public static func info(_ message: String) { write("kiosk-recorder: " + message + "\n") }

    public static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Writes events to stdout, one line each, flushed at once so a parent sees them immediately.
/// Only the UI thread emits; the lock makes a stray second caller safe rather than interleaved.
public final class EventSink: Sendable {
    private let encoder = EventEncoder()
    private let lock = NSLock()

    public init() {}

    public func emit(_ event: KioskEvent) {
        let data = Data(encoder.line(for: event).utf8)
        lock.lock()
        defer { lock.unlock() }
        FileHandle.standardOutput.write(data)
    }
}
