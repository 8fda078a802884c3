// The slow-disk warning of one take, from its opening to its end, as a value: a sync that has kept
// the take waiting `SlowDisk.slowAfter` is said once (`error` `storageSlow`), in the words that fit
// where the take is; while it goes on, systemd's status line follows it.
import FoundationEssentials
import KioskContract

public struct SlowDisk: Equatable, Sendable {
    /// A sync (a fragment made safe) that keeps the take waiting this long (s) is a slow disk:
    /// the writer's `SyncClock`, the booth's `storageSlow` and `check`'s storage item all go by it.
    public static let slowAfter = 2.0

    /// Where the take is when the disk keeps it waiting.
    public enum Phase: Equatable, Sendable {
        /// Its file is being made: it begins once the disk has it.
        case opening
        /// It records: it goes on, but what is not synced yet may be lost to a power cut.
        case recording
        /// It was stopped: it is reported once the disk has its end.
        case finishing
    }

    /// What to do after a look.
    public enum Outcome: Equatable, Sendable {
        case nothing
        /// Say it (once a take): the message, and how long the sync has waited.
        case say(String, waited: Double)
        /// Said already; the sync is still waiting this long.
        case stillWaiting(Double)
    }

    public private(set) var told = false

    public init() {}

    /// A look at the take's oldest sync still waiting (`waited` seconds; nil: none waits).
    public mutating func look(waited: Double?, phase: Phase) -> Outcome {
        guard let waited, waited >= Self.slowAfter else { return .nothing }
        guard !told else { return .stillWaiting(waited) }
        told = true
        let seconds = String(printf: "%.1f", waited)
        let message = switch phase {
        case .opening: "the disk has kept the take's start waiting \(seconds) s; it begins once the disk has its file"
        case .recording: "the disk has kept a sync of the take waiting \(seconds) s; the take goes on, but a power cut now may lose its last seconds"
        case .finishing: "the disk has kept the take's end waiting \(seconds) s; it is reported once the disk has it"
        }
        return .say(message, waited: waited)
    }
}
