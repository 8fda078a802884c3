// How long the disk has kept a take's syncs waiting. A sync cannot be cut short, so a slow or stalled
// disk (a worn SD card, a stuck network mount) holds a take's end back for as long as it takes; what
// the booth can do is say so: the operator hears of it (`storageSlow`) and the guest sees the take is
// being saved instead of a screen that stopped answering.
import Glibc
import KioskCore
import KioskSystem

/// The syncs of one take that are running now, each from when it began: the fragments' (on
/// `FileSyncer`'s thread) and the writer's own (the header's, the end's). Any thread may read it.
public final class SyncClock: Sendable {
    /// Who waits: the fragments' thread, or the writer's.
    public enum Role: Sendable { case fragments, writer }

    /// A sync waiting this long is slow (`storageSlow`, and `--check`'s storage item fails). A
    /// healthy SD card's sync of a fragment takes milliseconds; a worn one's can take seconds, and a
    /// stuck network mount's never ends.
    public static let slowAfter = SlowDisk.slowAfter

    private let starts = Locked<[Role: Int64]>([:])

    public init() {}

    /// Runs `sync` (a call that waits for the disk) timed as `role`'s; errno is as `sync` left it.
    @discardableResult
    public func timing<T>(_ role: Role, _ sync: () -> T) -> T {
        starts.withLock { $0[role] = MonotonicClock.now() }
        let result = sync()
        let error = errno
        starts.withLock { $0[role] = nil }
        errno = error
        return result
    }

    /// Seconds the oldest sync running now has waited, at `now`; nil when none runs.
    public func waited(at now: Int64 = MonotonicClock.now()) -> Double? {
        starts.withLock { $0.values.min() }.map { Double(max(now - $0, 0)) / 1e9 }
    }
}
