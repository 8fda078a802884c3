// The booth's outstanding work, as a value: file-worker jobs posted and not yet reported back, the
// `--on-take` hooks and the takes they protect from retention, and the exit the machine asked for.
// The process leaves only once the machine said exit and every file job and hook has reported
// back: a take being handed over or uploaded is never cut off by the exit.

public struct BoothJobs: Equatable, Sendable {
    /// The exit status the machine asked for; nil: not leaving.
    public var exitCode: Int32?
    /// File-worker jobs posted and not yet reported back.
    public private(set) var fileJobs = 0
    /// Hooks started and not yet reported back.
    public private(set) var hooks = 0
    /// Takes (file names) retention must not delete: their hook is waiting, running, or did not
    /// exit 0.
    public private(set) var protectedTakes: Set<String> = []
    /// A signal ended the booth and the running hook was asked to end (once).
    private var hooksStopped = false

    public init() {}

    /// True once the machine said exit and every file job and hook has reported back.
    public var isFinished: Bool { exitCode != nil && fileJobs == 0 && hooks == 0 }

    public mutating func filePosted() { fileJobs += 1 }

    public mutating func fileDone() {
        precondition(fileJobs > 0, "a file job reported back twice")
        fileJobs -= 1
    }

    /// What a hook for an accepted take is run with.
    public struct HookRun: Equatable, Sendable {
        public let command: String
        public let environment: [String: String]

        public init(command: String, environment: [String: String]) {
            self.command = command
            self.environment = environment
        }
    }

    /// A take (`path`, `duration` s) was accepted: its hook, if `command` is set; the take is
    /// protected from retention until the hook exits 0.
    public mutating func accepted(path: String, duration: Double, command: String?) -> HookRun? {
        guard let command else { return nil }
        protectedTakes.insert(Self.name(path))
        hooks += 1
        return HookRun(command: command, environment: ["KIOSK_TAKE_PATH": path,
                                                       "KIOSK_TAKE_DURATION": String(KioskEvent.milliseconds(duration))])
    }

    /// The hook of `path` ended: `status` its exit status (nil: it never ran), `failure` why it
    /// could not run. The events to emit; only an exit 0 frees the take for retention.
    public mutating func hookEnded(path: String, status: Int?, failure: String?) -> [KioskEvent] {
        precondition(hooks > 0, "a hook reported back twice")
        hooks -= 1
        if status == 0 { protectedTakes.remove(Self.name(path)) }
        return (failure.map { [KioskEvent.error(code: .hookFailed, message: $0)] } ?? [])
            + (status.map { [KioskEvent.hookFinished(path: path, status: $0)] } ?? [])
    }

    /// Whether the running hook is to be asked to end now: a signal is ending the booth
    /// (`signalled`) while a hook runs. True once.
    public mutating func stopHooks(signalled: Bool) -> Bool {
        guard signalled, hooks > 0, !hooksStopped else { return false }
        hooksStopped = true
        return true
    }

    private static func name(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }
}
