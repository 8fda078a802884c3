// A call another thread makes to wake a waiting loop, which its owner can replace: the frame slot's
// and the inbox's wake-up of the UI loop.
//
// The closure is kept inside a struct, never as `Locked`'s value itself. A function value held
// directly in a generic container is stored at the generic abstraction; `withLock` hands it to its
// body as `inout`, so every access turns it into the concrete form and back, and each turn wraps it
// in a new reabstraction thunk that is written back. The stored call then grows by two thunks per
// access. The booth's camera slot held its wake-up that way and called it once a frame: heaptrack
// over bench/soak showed 32 bytes per frame never freed, and a program making the same call grew
// its heap by 12.8 MB over 100,000 calls, each call going one level deeper through the thunks,
// until the 738,000th overflowed its 8 MiB stack: under 7 hours of a 30 fps camera, sooner on a
// thread with a smaller stack. A struct's field keeps the closure's own form: nothing is rewrapped.
public final class WakeCall: Sendable {
    private struct Call: Sendable { let run: @Sendable () -> Void }
    private let call = Locked(Call(run: {}))

    public init() {}

    /// Replaces the call (until then, calling does nothing).
    public func set(_ run: @escaping @Sendable () -> Void) { call.withLock { $0 = Call(run: run) } }

    /// Makes the call, outside the lock.
    public func callAsFunction() { call.withLock { $0 }.run() }
}
