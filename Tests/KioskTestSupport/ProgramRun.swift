// Test-only, shared by the test targets: the one way the tests run another program (ffmpeg, ffprobe,
// GStreamer, pactl, mount, xdotool, a shell, kiosk-recorder itself) to its end, and what they ask
// of the machine they run on.
import Foundation
import KioskCore
import KioskSystem

/// A program's run to its end.
public struct ProgramRun: Sendable {
    public let status: Int32
    /// What it wrote there ("" unless captured).
    public let stdout: String
    public let stderr: String
}

/// Where a program's stdout or stderr goes.
public enum ProgramOutput: Sendable, Equatable {
    /// Read into the result.
    case capture
    /// To /dev/null.
    case discard
    /// To the test run's own, as it is.
    case inherit
}

/// Runs `command` to its end, started by the one launcher (`ChildProcess`: an empty signal mask,
/// default dispositions, as systemd starts a program): its first element is the program (an
/// absolute path, or else found by env(1): on PATH, or a relative path from `directory`), the rest
/// its arguments; stdin is /dev/null. `environment` is the whole environment (nil: the test's own),
/// `directory` where it runs (nil: here), `parent` how the signals are left to it. Captured stdout
/// and stderr are read at the same time, so a program that fills one pipe while we wait on the
/// other cannot stall.
public func runProgram(_ command: [String], environment: [String: String]? = nil, directory: URL? = nil,
                       stdout: ProgramOutput = .capture, stderr: ProgramOutput = .capture,
                       parent: ParentSignals = .standard) throws -> ProgramRun {
    precondition(!command.isEmpty, "runProgram needs a program")
    let out = try connect(stdout)
    let err = try connect(stderr)
    let child: ChildProcess
    do {
        child = try ChildProcess(command, environment: environment ?? ProcessInfo.processInfo.environment, directory: directory,
                                 stdout: out?.child ?? (stdout == .inherit ? .inherit : .null),
                                 stderr: err?.child ?? (stderr == .inherit ? .inherit : .null), parent: parent)
    } catch {
        try out?.write.close()
        try err?.write.close()
        throw error
    }
    // The child has its own copies of the write ends: the reads end when it does.
    try out?.write.close()
    try err?.write.close()
    // stderr on a thread of its own while this one reads stdout.
    let errText = TextReader()
    let errReader = try err.map { pipe in
        try WorkerThread(name: "test-stderr") { _ in errText.read(pipe.read) }
    }
    let outText = TextReader()
    if let out { outText.read(out.read) }
    errReader?.join()
    child.waitUntilExit()
    return ProgramRun(status: child.terminationStatus, stdout: outText.text, stderr: errText.text)
}

/// Starts a server (Xvfb, dbus-daemon, a mock) that the test ends later with `stopServer`:
/// `arguments[0]` is found on PATH (posix_spawnp), the signal mask is empty. Foundation's Process
/// passes on the mask of the thread that starts it, and the test runner's threads block SIGTERM:
/// a server started so ignores the SIGTERM that ends it (and cleans up after it). `environment` is
/// added to the test's own; stdout and stderr go to these fds (-1: /dev/null), stdin is /dev/null.
public func startServer(_ arguments: [String], environment: [String: String] = [:],
                        stdout: Int32 = -1, stderr: Int32 = -1) throws(ServerStartFailure) -> pid_t {
    precondition(!arguments.isEmpty, "startServer needs a program")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    for (fd, target) in [(stdout, Int32(1)), (stderr, 2)] {
        if fd >= 0 {
            posix_spawn_file_actions_adddup2(&actions, fd, target)
        } else {
            posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
        }
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { variables.forEach { free($0) } }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, variables)
    guard result == 0 else { throw ServerStartFailure(program: arguments[0], errno: result) }
    return pid
}

/// A server `startServer` could not start: the program and posix_spawnp's errno.
public struct ServerStartFailure: Error, CustomStringConvertible {
    public let program: String
    public let errno: Int32
    public var description: String { "cannot run \(program): \(String(cString: strerror(errno)))" }
}

/// SIGTERM to a server `startServer` started, then waits for it to end.
public func stopServer(_ pid: pid_t) {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
}

/// What a pipe gave until it closed, read on one thread and taken on another.
private final class TextReader: Sendable {
    private let result = Locked("")
    func read(_ handle: FileHandle) {
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        result.withLock { $0 = text }
    }
    var text: String { result.withLock { $0 } }
}

/// The pipe for an output that is captured (nil otherwise); the child gets its write end.
private func connect(_ output: ProgramOutput) throws -> (read: FileHandle, write: FileHandle, child: ChildDescriptor)? {
    guard output == .capture else { return nil }
    let pipe = try ChildPipe()
    return (pipe.read, pipe.write, .descriptor(pipe.write.fileDescriptor))
}

/// What the machine the tests run on offers.
public enum TestEnvironment {
    /// CI is set: a test whose tools or servers are missing fails instead of skipping, so a CI
    /// image without them cannot pass silently.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false }

    /// Whether a PulseAudio server answers (kiosk/test starts one: Tests/KioskCaptureTests/audio/start-pulse).
    public static let pulseAnswers: Bool =
        (try? runProgram(["pactl", "info"], stdout: .discard, stderr: .discard).status == 0) ?? false

    /// The build folder of this test run (`.build/debug`, or `.build-thread/debug` for
    /// `kiosk/test --sanitize thread`): the test runner sits there beside the recorder and the
    /// test-only plugins built with it, so a sanitized run loads its own build's plugins.
    public static let buildFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()

    /// The fake microphone (Tests/FakeALSAMicrophone), an alsa-lib PCM plugin built with the package.
    public static let fakeMicrophonePlugin = buildFolder.appendingPathComponent("libKioskFakeALSAMicrophone.so").path
}

/// Whether `done` holds within `seconds`, looked at every millisecond: for what a program or a worker
/// does after the event that asked for it (a retaken take is deleted on the booth's file worker, after
/// `orientationChanged` went out).
public func eventually(_ seconds: Double = 5, _ done: () -> Bool) -> Bool {
    let deadline = ProcessInfo.processInfo.systemUptime + seconds
    while ProcessInfo.processInfo.systemUptime < deadline {
        if done() { return true }
        usleep(1000)
    }
    return done()
}
