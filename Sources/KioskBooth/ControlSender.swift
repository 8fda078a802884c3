// `kiosk-recorder --send COMMAND`: the shell's one-shot client of a booth's control socket. It sends
// one command, prints the event lines that come back until the one that answers it (SendRequest's
// rule), and exits: 0 once the command was carried out, 1 when the booth refused it (or it failed),
// could not be reached, or gave no answer (the connection closed first, or nothing answered in
// time): a script must not take a command that was dropped or refused for one that was done.
import FoundationEssentials
import Glibc
import KioskCore
import KioskOptions
import KioskSystem

public enum ControlSender {
    /// How an exchange with the booth ended.
    public enum Exchange: Equatable, Sendable {
        /// The answer came: carried out.
        case answered
        /// The booth refused the command or it failed: the `error`'s code and message.
        case refused(code: String, message: String)
        /// Nothing listens at the socket (or may not be reached): connect's error.
        case unreachable(SystemError)
        /// The booth closed the connection before the command was taken.
        case notTaken(SystemError)
        /// The booth closed the connection before answering (which answers `quit`, and may answer
        /// the commands that end a once session).
        case closed
        case timedOut
    }

    /// Sends `request` to the booth listening at `socket` and waits for its answer (SendRequest's
    /// rule), handing each event line received to `line`. The console asks the booth this way too.
    public static func exchange(_ request: SendRequest, socket: String, line: (String) -> Void) -> Exchange {
        let client: ControlClient
        do { client = try ControlClient(path: socket) } catch { return .unreachable(error) }
        for (index, line) in request.lines.enumerated() {
            do { try client.send(line: line) } catch {
                // The command itself not sent: not taken. A later line (the `state` query) refused
                // by a booth that closed after the command (the end of a once session: ci62 saw
                // `send cancel` exit 1 so): what it said before it closed is read below.
                if index == 0 { return .notTaken(error) }
                break
            }
        }
        let deadline = MonotonicClock.after(seconds: SendRequest.answerTimeout)
        while true {
            switch client.receive(until: deadline) {
            case let .line(text):
                line(text)
                switch request.reply(to: text) {
                case .passed: continue
                case .answered: return .answered
                case let .refused(code, message): return .refused(code: code, message: message)
                }
            case .closed: return .closed
            case .timedOut: return .timedOut
            }
        }
    }

    /// Sends `request` to the booth listening at `socket`; returns the exit status.
    public static func run(_ request: SendRequest, socket: String) -> Int32 {
        let exchanged = exchange(request, socket: socket) { line in LineWriter.standardOutput.enqueue(Data((line + "\n").utf8)) }
        switch exchanged {
        case .answered: return 0
        case let .refused(code, message):
            Log.write("kiosk-recorder: --send: not carried out (\(code)): \(Log.escaped(message))\n")
            return 1
        case let .unreachable(error):
            Log.write("kiosk-recorder: --send: cannot reach a booth at \(socket): \(error)\(hint(error.errno, socket))\n")
            return 1
        case let .notTaken(error):
            Log.write("kiosk-recorder: --send: the booth at \(socket) closed the connection before taking the command: \(error)\n")
            return 1
        case .closed:
            // `quit` is answered so, and the end of a once session: the booth exits. Otherwise it
            // ended, or dropped us.
            if request.answeredByClosing { return 0 }
            Log.write("kiosk-recorder: --send: the booth at \(socket) closed the connection before answering; the command may not have been carried out\n")
            return 1
        case .timedOut:
            Log.write("kiosk-recorder: --send: no answer within \(Int(SendRequest.answerTimeout)) s; the command may not have been carried out\n")
            return 1
        }
    }

    /// What to do about a socket that cannot be reached, by connect's errno.
    public static func hint(_ errno: Int32, _ socket: String) -> String {
        switch errno {
        case ENOENT: "\nIs kiosk-recorder running with --control-socket \(socket)?"
        case ECONNREFUSED: "\nNobody listens there: a socket left by a booth that has ended, or not a socket at all."
        case EACCES: "\nThe socket is mode 0660: run as its owner or a member of its group."
        default: ""
        }
    }
}
