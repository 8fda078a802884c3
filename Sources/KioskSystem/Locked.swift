// The one lock the project uses around shared state: a pthread mutex, which ThreadSanitizer
// understands. Synchronization.Mutex is not used: on Linux, when it is contended, it waits on a
// futex and takes the lock inside the Swift runtime, which is not instrumented, so TSan misses
// that acquisition and reports what the Mutex guards as a race (see CONTRIBUTING.md, Sanitizers).
import Glibc

/// A value that one thread at a time reads or writes, through `withLock`. The same shape as
/// `Synchronization.Mutex`: the value goes in and out as `sending`, so the compiler keeps a
/// non-Sendable value from being used both inside and outside the lock.
///
/// `@unchecked Sendable` is sound: the value lives behind `value`, which nothing but `withLock`
/// uses (it is `@usableFromInline` only so that `withLock` is inlined and specialized where it is
/// called), and `withLock` touches it only between `pthread_mutex_lock` and `pthread_mutex_unlock`
/// on `mutex`: no two threads ever access it at once.
///
/// `Value` may be `~Copyable` (a `FileDescriptor` that one thread closes while others use it).
///
/// Never a function type as `Value` (nor an optional or tuple of one): `withLock` would rewrap the
/// closure in a thunk on every access, so that it grows without end (see `WakeCall`, which keeps a
/// closure in a struct). `kiosk/test` refuses such a declaration.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    // Both on the heap, each at an address of its own: a pthread mutex must never move, and
    // the value behind a pointer has no exclusivity check at run time (the mutex is that check).
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    public init(_ initialValue: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // A normal mutex with default attributes: glibc's init, lock and unlock return 0 for it
        // (they report errors only for error-checking and robust mutexes).
        pthread_mutex_init(mutex, nil)
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held (`pthread_mutex_lock` / `pthread_mutex_unlock`).
    /// Not reentrant: `body` must not take the same lock again.
    @inlinable
    public func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
