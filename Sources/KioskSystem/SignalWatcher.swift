// Signals as plain calls on a thread of their own: the signals are blocked in every thread and one
// thread takes them with sigwait, so no code runs in an asynchronous signal handler at all.
import Glibc

/// A thread that waits for a set of blocked signals (`sigwait`) and hands each to a closure.
///
/// Call `SignalWatcher.takeOver` first thing in main, before any thread starts: threads inherit the
/// mask of the thread that starts them, and a signal a thread does not block gets its default
/// action there (SIGTERM ends the process) instead of reaching the watcher.
public final class SignalWatcher: Sendable {
    private let thread: WorkerThread
    /// Sent to the watcher's own thread to wake its sigwait on `stop`.
    private let wakeSignal: Int32

    /// Takes the process's signals over from whatever the parent passed on (call first thing in
    /// main, before any thread starts): `signals` get their default action back (a parent's SIG_IGN
    /// would make the kernel discard them before sigwait could take them, and `nohup` ignores
    /// SIGHUP) and become the calling thread's whole mask, so every thread started from now on
    /// blocks exactly them, and a signal the parent had blocked (SIGSEGV, SIGALRM) is blocked no
    /// more. SIGCHLD gets its default too (ignored, the kernel reaps a hook before we can read its
    /// status); SIGPIPE is ignored (a closed pipe is an EPIPE where we write, handled there).
    public static func takeOver(_ signals: [Int32]) throws(SystemError) {
        var set = try signalSet(signals)
        // signal() fails only for a number that is no signal, which `signalSet` refused already.
        for number in signals + [SIGCHLD] { _ = signal(number, SIG_DFL) }
        _ = signal(SIGPIPE, SIG_IGN)
        let result = pthread_sigmask(SIG_SETMASK, &set, nil)
        guard result == 0 else { throw SystemError(call: "pthread_sigmask", errno: result) }
    }

    /// Lets `signals` act as their defaults again in the calling thread (a subcommand that runs no
    /// watcher: Ctrl-C ends `send` or `check`). Threads started before keep blocking them, so the
    /// kernel gives such a signal to this thread.
    public static func release(_ signals: [Int32]) throws(SystemError) {
        var set = try signalSet(signals)
        let result = pthread_sigmask(SIG_UNBLOCK, &set, nil)
        guard result == 0 else { throw SystemError(call: "pthread_sigmask", errno: result) }
    }

    /// The signals the calling thread blocks, of `signals`.
    public static func blocked(of signals: [Int32]) -> [Int32] {
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        return signals.filter { sigismember(&mask, $0) == 1 }
    }

    /// Starts the thread that takes `signals` and calls `handler` with each, in order, on that
    /// thread: it must hand over and return quickly. The thread starts with `signals` blocked
    /// whatever the caller's mask; the caller's own mask is left as it was. Keep the watcher:
    /// releasing it stops the watching.
    public init(signals: [Int32], name: String = "kiosk-signals",
                handler: @escaping @Sendable (Int32) -> Void) throws(SystemError) {
        precondition(!signals.isEmpty, "a signal watcher needs a signal to watch")
        wakeSignal = signals[0]
        var set = try Self.signalSet(signals)
        var previous = sigset_t()
        let blocked = pthread_sigmask(SIG_BLOCK, &set, &previous)
        guard blocked == 0 else { throw SystemError(call: "pthread_sigmask", errno: blocked) }
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let watched = set
        thread = try WorkerThread(name: name) { thread in
            var set = watched
            while true {
                var number: Int32 = 0
                // sigwait fails only for a set it cannot wait on, which `signalSet` refused already.
                guard sigwait(&set, &number) == 0 else { return }
                if thread.isStopping { return }
                handler(number)
            }
        }
    }

    deinit { stop() }

    /// Ends the watching: raises the thread's stop flag, wakes its sigwait with one of the watched
    /// signals sent to that thread alone, and joins it. Never call it from the handler.
    public func stop() {
        thread.requestStop()
        thread.signal(wakeSignal)
        thread.join()
    }

    /// Hands `number` (one of the watched signals) to the watcher as if the process had received
    /// it, by sending it to the watcher's thread alone (`pthread_kill`). For tests: a signal sent to
    /// the whole process (kill) may be taken by any thread that does not block it.
    /// The name `terminate` gives a signal that ends the booth.
    public static func name(of number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        default: "SIG\(number)"
        }
    }

    public func raise(_ number: Int32) { thread.signal(number) }

    private static func signalSet(_ signals: [Int32]) throws(SystemError) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals where sigaddset(&set, number) != 0 {
            throw SystemError(call: "sigaddset(\(number))", errno: EINVAL)
        }
        return set
    }
}
