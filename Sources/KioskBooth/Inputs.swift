// The booth's inputs from outside the screen: stdin commands and signals, each read on a thread
// of its own and posted to the inbox.
import Foundation
import KioskCore
import KioskSystem

extension Booth {
    /// The signals the booth handles.
    public static let handledSignals = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, SIGTSTP, SIGCONT]

    /// Reads stdin lines on a thread of its own; each becomes a command or a `badCommand` error.
    public func readCommands() {
        let inbox = inbox
        let thread = Thread {
            let parser = CommandParser()
            while let line = readLine(strippingNewline: true) {
                if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
                switch parser.parse(line: line) {
                case let .success(command): inbox.post(.command(command))
                case let .failure(error): inbox.post(.badCommand(error))
                }
            }
            // stdin closed: the parent may still send signals; nothing to do.
        }
        thread.name = "kiosk-stdin"
        thread.start()
    }

    /// Blocks the handled signals in this thread and every thread started after it (call first
    /// thing in main), so that only the signal watcher's thread takes them, with sigwait: nothing
    /// runs in an asynchronous handler at all.
    public static func blockSignals() {
        // A parent that closes its end of a pipe is an EPIPE where we write, handled there.
        signal(SIGPIPE, SIG_IGN)
        do { try SignalWatcher.block(handledSignals) } catch { Log.info("signals: \(error)") }
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
}
