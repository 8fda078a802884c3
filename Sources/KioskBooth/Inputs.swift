// The booth's inputs from outside the screen: stdin commands, the control socket's commands,
// signals and the machine's sleep, each read on a thread of its own and posted to the inbox.
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskSleep
import KioskSystem

extension Booth {
    /// The signals the booth handles.
    public static let handledSignals = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGTSTP, SIGCONT]

    /// Reads stdin on a thread of its own; each line becomes a command or a `badCommand` error,
    /// and a line over 64 KiB is a `badCommand` with the rest of it discarded.
    public func readCommands() {
        let inbox = inbox
        let started = Result { () throws(SystemError) in try WorkerThread(name: "kiosk-stdin") { _ in
            var reader = CommandReader()
            var buffer = [UInt8](repeating: 0, count: 16 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                // End of stdin (or an error): the parent may still send signals; nothing to do.
                guard count > 0 else { return }
                reader.feed(buffer.prefix(count)).forEach(inbox.post)
            }
        } }
        if case let .failure(error) = started { Log.info("stdin will not be read: \(error)") }
    }

    /// Serves the control socket's clients: each one's lines are read exactly as stdin's (a
    /// `CommandReader` of its own) and posted to the same inbox, in the order they arrive.
    public func serveControl(_ server: ControlServer) throws(SystemError) {
        let inbox = inbox
        try server.start {
            var reader = CommandReader()
            return { bytes in reader.feed(bytes).forEach(inbox.post) }
        }
    }

    /// Takes the handled signals over from the parent (call first thing in main, before any
    /// thread starts, whatever the mode): their default actions back, and blocked in this thread
    /// and every thread started after it, so that only the signal watcher's thread takes them,
    /// with sigwait: nothing runs in an asynchronous handler at all. A parent's mask and SIG_IGN
    /// (systemd resets both; a shell, nohup or a Python parent may not) change nothing.
    public static func takeOverSignals() {
        do { try SignalWatcher.takeOver(handledSignals) } catch { Log.info("signals: \(error)") }
    }

    /// For the modes that run no booth (`send`, `check`, `--help`): the handled signals act as
    /// their defaults again (Ctrl-C ends them).
    public static func releaseSignals() {
        do { try SignalWatcher.release(handledSignals) } catch { Log.info("signals: \(error)") }
    }

    /// A thread that takes the blocked signals and posts each to the inbox.
    public func watchSignals() {
        let inbox = inbox
        do {
            signalWatcher = try SignalWatcher(signals: Booth.handledSignals) { inbox.post(.signal($0)) }
        } catch {
            Log.info("signals will not be handled: \(error)")
        }
    }

    /// Holds the machine's sleep off through logind (`SystemSleep`, a thread of its own) and posts
    /// each PrepareForSleep to the inbox. Without a system bus or logind nothing changes (said
    /// once on stderr).
    public func watchSystemSleep() {
        let inbox = inbox
        sleepInhibitor = SystemSleep { inbox.post(.input(.service(.sleep($0)))) }
    }
}

/// Command lines as they arrive in bytes, from stdin or a control socket client, into inbox
/// messages: each line a command or a `badCommand` error, a line over 64 KiB one `badCommand` with
/// the rest of it ignored, blank lines skipped.
struct CommandReader {
    private let parser = CommandParser()
    private var splitter = CommandLineSplitter()

    mutating func feed(_ bytes: some Collection<UInt8>) -> [BoothMessage] {
        splitter.feed(bytes).compactMap { piece -> BoothMessage? in
            switch piece {
            case let .line(line):
                if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return nil }
                switch parser.parse(line: line) {
                case let .success(command): return .command(command)
                case let .failure(error): return .input(.say([error.event]))
                }
            case .overlong:
                return .input(.say([CommandError(
                    code: .badCommand, message: "a command line longer than \(splitter.limit / 1024) KiB; the rest of it is ignored").event]))
            }
        }
    }
}
