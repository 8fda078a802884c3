// A command an operator configured (`--on-take`), run through /bin/sh -c as a child of its own: stdin
// /dev/null, its stdout and stderr on ours (stdout carries only our events), the signal mask and
// dispositions reset (the booth blocks and ignores signals its children must not inherit), in a
// process group of its own so it can be ended with everything it started. `run` blocks: call it on
// a worker, never the UI thread.
import Glibc

public enum ShellCommand {
    /// Starts `command` with `environment` added to ours; its pid (the leader of its new process
    /// group), or the error. `stdout` is the descriptor its stdout goes to (ours for stderr when
    /// nil); `fd3` one more descriptor it gets as its fd 3 (every other one of ours is
    /// close-on-exec). `arguments` follow the command as its $0, $1, ….
    public static func spawn(_ command: String, environment extra: [String: String], arguments more: [String] = [],
                             stdout: Int32? = nil, fd3: Int32? = nil) -> Result<pid_t, SystemError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout ?? 2, 1)
        if let fd3 { posix_spawn_file_actions_adddup2(&actions, fd3, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var environment: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let key = text.prefix { $0 != "=" }
            if extra[String(key)] == nil { environment.append(text) }
            index += 1
        }
        environment += extra.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }

        let arguments = ["/bin/sh", "-c", command] + more
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        guard result == 0 else { return .failure(SystemError(call: "posix_spawn(/bin/sh)", errno: result)) }
        return .success(pid)
    }

    /// Waits for `pid`: its exit status, or 128 + the signal that ended it.
    public static func wait(_ pid: pid_t) -> Int {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return 128 + Int(SIGKILL) }
        }
        let low = status & 0x7f
        return low == 0 ? Int((status >> 8) & 0xff) : 128 + Int(low)
    }
}
