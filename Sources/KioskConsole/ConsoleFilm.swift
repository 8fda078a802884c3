// The hosts' film made from the console: `kiosk-recorder reel` run as a child of this very program
// through the one launcher of configured commands (ShellCommand: an empty signal mask, default
// dispositions, a process group of its own), at the lowest CPU priority so the booth's takes keep
// theirs; its `--json` lines (and its stderr, on the same pipe) read on a thread of their own into
// FilmJob. The film is one file the console owns, replaced whole by each new one (the reel renames
// it into place), and served whole or by ranges as a take's file is.
import CMicroHTTPD
import FoundationEssentials
import Glibc
import KioskSystem

public final class ConsoleFilm: Sendable {
    /// This program (`/proc/self/exe`), run as `reel`.
    private let executable: String
    /// The booth's folder of takes (`--output-dir`; nil: it keeps none).
    private let takes: String?
    /// The film's file.
    public let output: String
    /// The reel's options every film gets (the booth's language).
    private let options: [String]
    private let job = Locked(FilmJob())

    /// The reel as a shell line: `nice` first, its stderr onto the pipe with its stdout.
    static let command = #"exec nice -n 19 "$0" reel "$@" 2>&1"#

    public init(executable: String, takes: String?, output: String, options: [String] = []) {
        (self.executable, self.takes, self.output, self.options) = (executable, takes, output, options)
    }

    /// Queues the answer to `request` on `connection`; `audit` takes a start's line.
    func reply(_ request: FilmRequest, _ http: ConsoleRequest, on connection: OpaquePointer?, audit: AuditLog) -> MHD_Result {
        switch request {
        case .state: return ConsoleServer.queue(.json(200, state()), on: connection)
        case let .start(ask, address):
            let (response, result) = start(ask)
            audit.append(AuditEntry(time: Date().timeIntervalSince1970, address: address, action: "film", result: result))
            return ConsoleServer.queue(response, on: connection)
        case let .cancel(address):
            // SIGTERM to the reel's process group: the reel stops between packets, writes no film
            // and leaves the last one whole; its end (read by its thread) says `cancelled`.
            let process = job.withLock { $0.cancel() }
            if let process { kill(-process, SIGTERM) }
            let result = process == nil ? "none running" : "cancelled"
            audit.append(AuditEntry(time: Date().timeIntervalSince1970, address: address, action: "filmCancel", result: result))
            if process != nil { Log.info("console: film cancelled by the operator") }
            return ConsoleServer.queue(.json(process == nil ? 409 : 202, state()), on: connection)
        case let .video(download):
            guard hasFilm else { return ConsoleServer.queue(.error(404, "noFilm", "no film has been made yet"), on: connection) }
            let disposition = download ? "attachment; filename=\"film.mp4\"" : "inline"
            return ConsoleLive.file(output, type: "video/mp4", range: http.headers["range"], headers: ["Content-Disposition": disposition], on: connection)
        }
    }

    /// `GET api/film`'s answer.
    func state() -> String {
        let video = hasFilm
        return job.withLock { $0.json(video: video) }
    }

    /// Whether a film is there to fetch (one made before this console started counts).
    private var hasFilm: Bool {
        var info = stat()
        return lstat(output, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The reel started for `ask`, unless one runs: the answer (202 with the state) and the audit
    /// log's result.
    private func start(_ ask: FilmAsk) -> (ConsoleResponse, result: String) {
        guard let takes else { return (ConsoleLive.noFolder, "noTakeFolder") }
        guard job.withLock({ $0.start() }) else { return (ConsoleRules.filmRunning(state()), "refused running") }
        let arguments = [executable, takes, "--output", output, "--json", "--force"] + options + ask.arguments
        let pid: pid_t, raw: Int32
        do throws(SystemError) {
            let pipe = try FileDescriptor.pipe()
            let read = pipe.read, write = pipe.write
            let spawned = ShellCommand.spawn(Self.command, environment: [:], arguments: arguments, stdout: write.rawValue)
            // Ours closed at once: the reel's copy is the only writer, so its end is our end of file.
            _ = consume write
            pid = try spawned.get()
            raw = read.take()
        } catch {
            job.withLock { $0.ended(status: 1, failure: "cannot start reel: \(error)") }
            return (.error(500, "filmNotStarted", "cannot start reel: \(error)"), "failed: \(error)")
        }
        job.withLock { $0.started(process: pid) }
        let job = self.job
        do {
            _ = try WorkerThread(name: "console-film") { _ in Self.follow(FileDescriptor(owning: raw), pid: pid, job: job) }
        } catch {
            // No thread to read it: the reel is ended, its pipe closed with it.
            kill(-pid, SIGKILL)
            _ = ShellCommand.wait(pid)
            _ = FileDescriptor(owning: raw)
            job.withLock { $0.ended(status: 1, failure: "cannot follow reel: \(error)") }
            return (.error(500, "filmNotStarted", "cannot follow reel: \(error)"), "failed: \(error)")
        }
        Log.info("console: film started: \(takes) into \(output)")
        return (.json(202, state()), "started")
    }

    /// The reel's lines read from `fd` into `job` until it closes the pipe; then its end.
    private static func follow(_ fd: consuming FileDescriptor, pid: pid_t, job: Locked<FilmJob>) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(fd.rawValue, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += buffer[..<count]
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let said = job.withLock({ $0.read(line) }) { Log.info("console: film: \(said)") }
            }
            // No line of the reel's is that long: what came is let go rather than kept growing.
            if pending.count > 64 << 10 { pending.removeAll() }
        }
        let status = ShellCommand.wait(pid)
        let said = job.withLock { job in
            job.ended(status: status)
            return job.json(video: status == 0)
        }
        Log.info("console: film ended: \(said)")
    }
}
