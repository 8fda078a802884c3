// How stdin and the control socket frame their commands: lines of at most 64 KiB, LF or CRLF
// (docs/interface.md); what a line says is KioskCore's (CommandParser).

/// Cuts stdin's bytes into command lines of at most `limit` bytes. A longer line is reported once,
/// as soon as it passes the limit, and the rest of it (up to its newline) is dropped: a parent
/// that sends a 100 MiB line costs 64 KiB, not 100 MiB.
public struct CommandLineSplitter: Sendable {
    public enum Piece: Equatable, Sendable {
        case line(String)
        /// A line longer than the limit (its first `limit` bytes were seen).
        case overlong
    }

    public let limit: Int
    private var pending: [UInt8] = []
    private var discarding = false

    public init(limit: Int = 64 << 10) { self.limit = limit }

    /// The lines (without their LF or CRLF) that `bytes` completes, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Piece] {
        var pieces: [Piece] = []
        for byte in bytes {
            if byte == 10 {
                if !discarding {
                    if pending.last == 13 { pending.removeLast() }
                    pieces.append(.line(String(decoding: pending, as: UTF8.self)))
                }
                pending.removeAll(keepingCapacity: true)
                discarding = false
            } else if !discarding {
                pending.append(byte)
                if pending.count > limit {
                    pieces.append(.overlong)
                    pending.removeAll()
                    discarding = true
                }
            }
        }
        return pieces
    }
}
