// The two output channels: stdout carries only JSON events; everything for people goes to stderr.
// Neither ever makes the caller wait: lines go into a queue that a writer thread of its own empties
// into the pipe, so a parent that stops reading (or a full pipe) cannot stall the booth.
import Dispatch
import FoundationEssentials
import Glibc

/// Writes lines to stderr through `LineWriter.standardError` (a stalled reader never blocks the
/// caller; lines past its bound are dropped and counted).
public enum Log {
    /// A message longer than this keeps its start and its end: stderr's writer drops what it cannot
    /// queue whole (its bound is 1 MiB), and a message that names a 1 MiB config key was lost so.
    public static let maxMessageBytes = 16 << 10

    /// One line: `from`, then `message` with its control characters escaped (`escaped`), so that a
    /// name with a newline in it (a file's, a camera's) cannot forge a second line.
    public static func info(_ message: String, from: String = "kiosk-recorder") { write(from + ": " + escaped(message) + "\n") }

    /// `text` with each control character written as JSON writes it (`\n`, `\r`, `\t`, `\b`, `\f`,
    /// `\u001b`; DEL as `\u007f`): one line, whatever names it holds.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0..<0x20, 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    public static func write(_ text: String) {
        LineWriter.standardError.enqueue(Data(trimmed(text).utf8))
    }

    /// `text` whole, or past `maxMessageBytes` its first 12 KiB and last 2 KiB around how much was
    /// left out (a character cut at either edge shows as U+FFFD).
    static func trimmed(_ text: String) -> String {
        let bytes = text.utf8
        guard bytes.count > maxMessageBytes else { return text }
        let head = String(decoding: bytes.prefix(12 << 10), as: UTF8.self)
        let tail = String(decoding: bytes.suffix(2 << 10), as: UTF8.self)
        return head + " … (\(bytes.count - (14 << 10)) bytes left out) … " + tail
    }
}

/// A queue of lines in front of a file descriptor, emptied by a thread of its own.
///
/// Overflow rule: while fewer than `limit` bytes wait, every line is queued. Past it, a line marked
/// droppable is dropped and counted; a line that is not droppable is queued anyway when
/// `keepsUndroppable` (stdout: the parent's events are never lost while it lives), and dropped
/// otherwise (stderr: logs are not worth unbounded memory). When the queue drains, the number
/// dropped is reported on stderr.
/// Where lines go, never waiting: stdout's `LineWriter`, or a test's twin that keeps them.
public protocol LineOutput: AnyObject, Sendable {
    /// Queues `line`; a `droppable` one may be dropped past the output's bound.
    func enqueue(_ line: Data, droppable: Bool)
    /// Calls `handler` once when the reader is gone.
    func onReaderGone(_ handler: @escaping @Sendable () -> Void)
    /// Waits up to `timeout` seconds for what was queued to reach the reader; true when it did.
    @discardableResult
    func flush(timeout: Double) -> Bool
}

public final class LineWriter: LineOutput, Sendable {
    /// Bytes that may wait before droppable lines are dropped.
    public let limit: Int
    private let fd: Int32
    private let name: String
    private let keepsUndroppable: Bool

    private struct State {
        var lines: [Data] = []
        /// Bytes queued or being written.
        var bytes = 0
        /// Dropped since the last report, and in all.
        var dropped = (recent: 0, total: 0)
        var written = 0
        /// A write failed (the reader is gone): later lines are discarded.
        var broken = false
        /// Told once when the reader is found gone.
        var onReaderGone: (@Sendable () -> Void)?
    }

    private let state = Locked(State())
    private let available = DispatchSemaphore(value: 0)

    /// The process's stdout: 16 MiB, past which only droppable lines (state replies) are dropped.
    public static let standardOutput = LineWriter(fd: 1, name: "stdout", limit: 16 << 20, keepsUndroppable: true)
    /// The process's stderr: 1 MiB of logs, past which log lines are dropped and counted.
    public static let standardError = LineWriter(fd: 2, name: "stderr", limit: 1 << 20, keepsUndroppable: false)

    /// Starts the writer's thread.
    public init(fd: Int32, name: String, limit: Int, keepsUndroppable: Bool) {
        self.fd = fd
        self.name = name
        self.limit = limit
        self.keepsUndroppable = keepsUndroppable
        Self.registerExitFlush
        // Runs for the life of the process (the standard writers are never released). Without a
        // thread the line could never go out: a process that cannot start one at launch ends here.
        do { _ = try WorkerThread(name: "kiosk-\(name)") { [self] _ in run() } } catch {
            preconditionFailure("the \(name) writer's thread: \(error)")
        }
    }

    /// Queues `line` (never waits). See the type's overflow rule.
    public func enqueue(_ line: Data, droppable: Bool = false) {
        let queued = state.withLock { s -> Bool in
            if s.broken { return false }
            if s.bytes + line.count > limit && (droppable || !keepsUndroppable) {
                s.dropped.recent += 1
                s.dropped.total += 1
                return false
            }
            s.lines.append(line)
            s.bytes += line.count
            return true
        }
        if queued { available.signal() }
    }

    /// Calls `handler` once (on the writer's thread) when the reader is gone: a write failed (EPIPE,
    /// with SIGPIPE ignored), or the pipe reports its read end closed (polled every half second
    /// while idle, so a reader that leaves is found without a line to write).
    public func onReaderGone(_ handler: @escaping @Sendable () -> Void) {
        let gone = state.withLock { s -> Bool in
            s.onReaderGone = handler
            return s.broken
        }
        if gone { handler() }
    }

    /// Whether the reader is gone (a write failed, or its end of the pipe closed).
    public var readerGone: Bool { state.withLock { $0.broken } }

    /// Bytes queued and not yet written.
    public var pendingBytes: Int { state.withLock { $0.bytes } }
    /// Bytes written to the descriptor since the start.
    public var bytesWritten: Int { state.withLock { $0.written } }
    /// Lines dropped by the overflow rule since the start.
    public var droppedLines: Int { state.withLock { $0.dropped.total } }

    /// Waits until everything queued is written, or `timeout` seconds pass (a reader that never
    /// reads must not keep the process from ending). True when everything went out.
    @discardableResult
    public func flush(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while state.withLock({ !$0.broken && $0.bytes > 0 }) {
            if Date() >= deadline { return false }
            usleep(1000)
        }
        return true
    }

    /// Flushes both standard writers: called at exit (`atexit`) so no exit path loses a line.
    public static func flushStandard() {
        if !standardOutput.readerGone && !standardOutput.flush(timeout: 10) {
            standardError.enqueue(Data("kiosk-recorder: stdout not read for 10 s at exit; \(standardOutput.pendingBytes) bytes of events not delivered\n".utf8))
        }
        standardError.flush(timeout: 2)
    }

    /// Marks the reader gone (later lines are discarded) and tells the handler, once.
    private func readerLeft() {
        let handler = state.withLock { s -> (@Sendable () -> Void)? in
            guard !s.broken else { return nil }
            s.broken = true
            s.lines.removeAll()
            s.bytes = 0
            return s.onReaderGone
        }
        handler?()
    }

    /// Whether `fd` is a pipe or socket whose other end is closed (poll's POLLERR / POLLHUP on a
    /// write end). A file or a terminal never says so.
    private func readEndClosed() -> Bool {
        var p = pollfd(fd: fd, events: 0, revents: 0)
        return poll(&p, 1, 0) == 1 && p.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// Registered once, when the first writer starts.
    private static let registerExitFlush: Void = { atexit { LineWriter.flushStandard() } }()

    private func run() {
        while true {
            if available.wait(timeout: .now() + 0.5) == .timedOut {
                if readEndClosed() { readerLeft() }
                continue
            }
            let batch = state.withLock { s -> [Data] in
                let lines = s.lines
                s.lines.removeAll(keepingCapacity: true)
                return lines
            }
            if batch.isEmpty { continue }
            var chunk = Data()
            chunk.reserveCapacity(batch.reduce(0) { $0 + $1.count })
            for line in batch { chunk.append(line) }
            let failed: Bool
            failed = writeAll(chunk, to: fd) != nil
            if failed { readerLeft() }
            let dropped = state.withLock { s -> Int in
                s.bytes = max(s.bytes - chunk.count, 0)
                if !failed { s.written += chunk.count }
                // Report drops once the backlog is gone (the reader is back).
                guard s.bytes == 0, s.dropped.recent > 0 else { return 0 }
                defer { s.dropped.recent = 0 }
                return s.dropped.recent
            }
            if dropped > 0 {
                let what = keepsUndroppable ? "state replies" : "log lines"
                Log.write("kiosk-recorder: \(name) was not read: \(dropped) \(what) dropped past \(limit >> 20) MiB queued\n")
            }
        }
    }
}
