// Test-only: the one launcher for every program a test starts (the recorder above all), starting it
// as systemd does: an empty signal mask, every signal's default action, a process group of its own.
// Foundation's Process passes on the test runner's mask, in which SIGHUP, SIGTERM and the rest are
// blocked: a recorder started so behaved as documented while the one users start died on SIGHUP.
import CLinux
import Foundation
import KioskCore
import KioskSystem
import Testing

/// How the parent a child is started from left its signals.
public enum ParentSignals: Sendable {
    /// As systemd, a shell or Python's subprocess start a program: an empty mask, default actions.
    case clean
    /// A careless parent: every signal the booth handles blocked and ignored (SIG_IGN survives
    /// exec), as `nohup` does to SIGHUP. The booth must behave the same.
    case blockedAndIgnored
    /// `nohup`'s way, for every handled signal: ignored (SIG_IGN), not blocked. A thread that
    /// does not block such a signal lets the kernel discard it.
    case ignored

    /// The signals the booth handles (Booth.handledSignals).
    public static let handled = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGTSTP, SIGCONT]

    /// `.clean`, unless KIOSK_TEST_PARENT asks for the whole run from another parent
    /// (`blocked-ignored`, `ignored`).
    public static var standard: ParentSignals {
        switch ProcessInfo.processInfo.environment["KIOSK_TEST_PARENT"] {
        case "blocked-ignored": .blockedAndIgnored
        case "ignored": .ignored
        default: .clean
        }
    }
}

/// Where one of a child's first three descriptors comes from.
public enum ChildDescriptor: Sendable {
    /// /dev/null.
    case null
    /// The test runner's own.
    case inherit
    /// This descriptor (left open in the test; the child gets its own copy).
    case descriptor(Int32)
}

/// A program a test started (posix_spawn), reaped on a thread of its own.
public final class ChildProcess: Sendable {
    public let processIdentifier: pid_t
    /// The wait status once the child ended.
    private let waitStatus = Locked<Int32?>(nil)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts `arguments` (its first element an absolute path, or else found by env(1) on the
    /// child's PATH or as a path relative to `directory`) with exactly `environment`, in
    /// `directory` (nil: here), its own process group, and the signals as `parent` leaves them.
    public init(_ arguments: [String], environment: [String: String], directory: URL? = nil,
                stdin: ChildDescriptor = .null, stdout: ChildDescriptor = .null, stderr: ChildDescriptor = .null,
                parent: ParentSignals = .standard) throws(ChildStartFailure) {
        precondition(!arguments.isEmpty, "a child needs a program")
        ChildProcess.ignoreBrokenPipes
        // env(1) finds a bare name on the child's PATH, and with -C runs it in `directory` (a
        // relative path found from there).
        var command = arguments
        if let directory {
            command = ["/usr/bin/env", "-C", directory.path] + arguments
        } else if !arguments[0].hasPrefix("/") {
            command = ["/usr/bin/env"] + arguments
        }
        if parent != .clean {
            // A Python parent that ignored (and blocked) them, then exec'd: exec keeps both SIG_IGN
            // and the mask. (Not sh: dash clears its mask as it starts.)
            let numbers = ParentSignals.handled.map(String.init).joined(separator: ",")
            let block = parent == .blockedAndIgnored ? "signal.pthread_sigmask(signal.SIG_BLOCK, (\(numbers)))\n" : ""
            let script = "import os, signal, sys\nfor n in (\(numbers)): signal.signal(n, signal.SIG_IGN)\n"
                + block + "os.execv(sys.argv[1], sys.argv[1:])\n"
            command = ["/usr/bin/python3", "-c", script] + command
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in [(stdin, Int32(0)), (stdout, 1), (stderr, 2)] {
            switch source {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .inherit: break
            case let .descriptor(fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        // Nothing else of the test runner's: a descriptor another test opened without
        // close-on-exec (a file being written, a pipe) must not live on in this child.
        clinux_spawn_addclosefrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t(), all = sigset_t()
        sigemptyset(&mask)
        if parent == .blockedAndIgnored { ParentSignals.handled.forEach { sigaddset(&mask, $0) } }
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { variables.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, &attributes, argv, variables)
        guard result == 0 else { throw ChildStartFailure(program: arguments[0], errno: result) }
        processIdentifier = pid
        let (status, ended, child) = (waitStatus, ended, pid)
        let cpuLine = ChildProcess.cpuLog.map { log in
            (log, (Test.current.map { "\($0.id)" } ?? "-") + "\t" + arguments.prefix(6).joined(separator: " "))
        }
        do {
            _ = try WorkerThread(name: "test-reaper") { _ in
                var raw: Int32 = 0
                var usage = rusage()
                while wait4(child, &raw, 0, &usage) == -1 && errno == EINTR {}
                if let (log, line) = cpuLine {
                    let seconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
                    let fd = Glibc.open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
                    if fd >= 0 {
                        let text = String(format: "%.3f", seconds) + "\t" + line.replacingOccurrences(of: "\n", with: " ") + "\n"
                        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
                        _ = FileDescriptor(owning: fd)
                    }
                }
                status.withLock { $0 = raw }
                ended.signal()
            }
        } catch {
            kill(pid, SIGKILL)
            throw ChildStartFailure(program: arguments[0], errno: error.errno)
        }
    }

    /// A child that died leaves its stdin's pipe without a reader: writing to it must be an EPIPE
    /// the test sees, not a SIGPIPE that ends the whole test run (it did, with a booth that died
    /// on SIGHUP). Set once, before the first child starts.
    private static let ignoreBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    /// The test's own environment with `extra` added.
    public static func environment(adding extra: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(extra) { $1 }
    }

    /// KIOSK_TEST_CPU_LOG: a file each child's CPU time is appended to when it is reaped (its test,
    /// its first words), to find where a pass's CPU goes (kiosk/test-cpu).
    private static let cpuLog = ProcessInfo.processInfo.environment["KIOSK_TEST_CPU_LOG"]

    public var isRunning: Bool { waitStatus.withLock { $0 == nil } }

    /// Waits for the child to end.
    public func waitUntilExit() {
        ended.wait()
        ended.signal()
    }

    /// Waits at most `seconds` for the child to end; whether it did.
    public func wait(within seconds: Double) -> Bool {
        guard ended.wait(timeout: .now() + seconds) == .success else { return false }
        ended.signal()
        return true
    }

    /// How it ended: its exit status, or the signal that ended it (as Foundation's Process says it).
    public var termination: Termination? {
        waitStatus.withLock { raw in
            raw.map { raw in raw & 0x7f == 0 ? .exit((raw >> 8) & 0xff) : .signal(raw & 0x7f) }
        }
    }

    /// Its exit status, or the signal's number when a signal ended it; -1 while it runs.
    public var terminationStatus: Int32 {
        switch termination {
        case let .exit(status)?, let .signal(status)?: status
        case nil: -1
        }
    }

    /// SIGTERM, as Foundation's `terminate` sends.
    public func terminate() { kill(processIdentifier, SIGTERM) }

    public func signal(_ number: Int32) { kill(processIdentifier, number) }

    public enum Termination: Equatable, Sendable {
        case exit(Int32)
        case signal(Int32)
    }
}

/// A program `ChildProcess` could not start: the program and posix_spawn's errno.
public struct ChildStartFailure: Error, CustomStringConvertible {
    public let program: String
    public let errno: Int32
    public var description: String { "cannot run \(program): \(String(cString: strerror(errno)))" }
}

/// A pipe for a child's stdin, stdout or stderr: both ends close-on-exec (`FileDescriptor.pipe`),
/// so a program a parallel test starts cannot hold an end open; the child gets its own copy
/// (`ChildDescriptor.descriptor`), and the test closes that end once the child runs.
public struct ChildPipe: Sendable {
    public let read: FileHandle
    public let write: FileHandle

    public init() throws {
        let fds = try FileDescriptor.pipe()
        let readEnd = fds.read, writeEnd = fds.write
        // Each FileHandle owns its end from now on.
        read = FileHandle(fileDescriptor: readEnd.take(), closeOnDealloc: true)
        write = FileHandle(fileDescriptor: writeEnd.take(), closeOnDealloc: true)
    }
}
