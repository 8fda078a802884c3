// `kiosk-recorder --send COMMAND`: the command line the shell's one-shot sender puts on the control
// socket, and the rule for when the booth has answered it (docs/interface.md, "Control socket").
import FoundationEssentials
import KioskContract
import KioskCore

/// One command for a running booth, checked here before it is sent, with the rule for its answer.
///
/// The answer rule, one for every command (docs/interface.md, "Control socket"): `send` puts a
/// `state` query right after the command (except after `state` and `quit`), prints every event line
/// it receives, and stops at the first of:
/// - an `error` whose code is one a command is refused or fails with (`notAllowed`, `badCommand`,
///   `unknownCommand`, `recordingFailed`, `diskFull`, `playbackFailed`, `screenshotFailed`,
///   `photoFailed`): not carried out, exit 1;
/// - the `state` reply: the booth's state once the command was handled (the commands of one
///   client are handled in the order sent, and a refusal goes out while its command is handled,
///   so before the reply), exit 0. It comes at once: what a command leads to later (a take after
///   the countdown, a hand-over, a camera switched) is printed when it comes first, never waited for;
/// - `quit`: the booth closing the connection as it exits; and so for the commands that end a once
///   session (`cancel`, `useVideo`, `done`), when that comes before the reply.
/// The socket carries every client's events, so another client's `state` or refusal at the same
/// moment can end the wait early.
public struct SendRequest: Equatable, Sendable {
    /// The command as the booth will read it.
    public let command: Command
    /// The lines to send, without their newlines: the command, then the `state` query if it needs one.
    public let lines: [String]

    /// How long `--send` waits for the answer before it gives up (no answer: exit 1).
    public static let answerTimeout: Double = 5

    /// The error codes that answer a command: it was refused, or failed.
    static let answeringErrors: Set<String> = [
        ErrorCode.notAllowed, .badCommand, .unknownCommand, .recordingFailed, .diskFull, .playbackFailed, .screenshotFailed,
        .photoFailed,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    /// What an event line is to the wait.
    public enum Reply: Equatable, Sendable {
        /// Not the answer: printed, and the wait goes on.
        case passed
        /// The answer: the command was carried out (exit 0).
        case answered
        /// An `error` refusing the command or saying it failed (exit 1): its code and message.
        case refused(code: String, message: String)
    }

    /// How the booth answers a command. Every command the socket takes has one.
    public enum Answer: Equatable, Sendable {
        /// The `state` reply to the query sent after it.
        case stateReply
        /// The `state` reply, or the booth closing the connection as it exits: the command ends a
        /// once session (Cancel, Use Video, Done), and the booth may be gone before the query.
        case stateReplyOrExit
        /// The booth closing the connection as it exits (`quit`).
        case connectionClosed
        /// `reloaded` once the settings are read again and accepted, or the `badConfig` that refuses
        /// them (`reload`: the `state` reply comes before the file is read).
        case reloaded
    }

    /// The answer rule for `command`.
    public static func answer(to command: Command) -> Answer {
        switch command {
        case .quit: .connectionClosed
        case .reload: .reloaded
        case .press(.cancel), .press(.useVideo), .press(.done): .stateReplyOrExit
        case .press, .start, .rotate, .background, .foreground, .tap, .focus, .screenshot, .seek, .pause, .trim, .state, .pick,
             .closeBooth, .openBooth, .take, .consentChoice, .calibrate: .stateReply
        }
    }

    /// `argument` is a JSON command line (`{"command":"rotate","orientation":"portrait"}`) or just a
    /// command's name (`start`, `state`), which becomes `{"command":"start"}`. Either is parsed as
    /// stdin's lines are; a line the booth would refuse is a usage error here.
    public init(_ argument: String) throws(UsageError) {
        let text = argument.trimmingWhitespace
        let line: String
        if text.hasPrefix("{") {
            // One line on the wire: a newline can only be whitespace between JSON tokens (a string
            // may not hold a raw one), so it becomes a space.
            line = String(text.map { $0 == "\n" || $0 == "\r\n" || $0 == "\r" ? " " : $0 })
        } else {
            guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber }) else {
                throw UsageError("--send: '\(argument)' is neither a command name (like start or state) nor a JSON command line")
            }
            line = Self.jsonLine(command: text)
        }
        // The booth reads a line of at most 64 KiB; a longer one would be refused there, after a connect.
        let limit = CommandLineSplitter().limit
        guard line.utf8.count <= limit else {
            throw UsageError("--send: the command has \(line.utf8.count) bytes; a command line may have at most \(limit) (64 KiB)")
        }
        switch CommandParser().parse(line: line) {
        case let .success(command):
            self.command = command
        case let .failure(error):
            throw UsageError("--send: \(error.message)")
        }
        // `state` is its own query; `quit` is answered by the connection's end.
        lines = command == .state || command == .quit ? [line] : [line, Self.jsonLine(command: "state")]
    }

    /// `{"command":"NAME"}`, by JSONEncoder.
    private static func jsonLine(command name: String) -> String {
        struct Line: Encodable { let command: String }
        guard let data = try? JSONEncoder().encode(Line(command: name)) else {
            preconditionFailure("a string always encodes")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// How the booth answers this request's command.
    public var answer: Answer { Self.answer(to: command) }

    /// Whether the booth closing the connection answers the command (`quit`, the end of a once session).
    public var answeredByClosing: Bool { answer == .connectionClosed || answer == .stateReplyOrExit }

    /// What `line` (an event line as the booth sent it) is to the wait. Only `event`, `code` and
    /// `message` are read, so events a newer booth adds are printed and passed over, never a failure.
    public func reply(to line: String) -> Reply {
        struct Head: Decodable {
            let event: String
            let code: String?
            let message: String?
        }
        guard let head = try? JSONDecoder().decode(Head.self, from: Data(line.utf8)) else { return .passed }
        if head.event == "error", let code = head.code, Self.answeringErrors.contains(code) || (answer == .reloaded && code == ErrorCode.badConfig.rawValue) {
            return .refused(code: code, message: head.message ?? "")
        }
        if answer == .reloaded { return head.event == "reloaded" ? .answered : .passed }
        return head.event == "state" && answer != .connectionClosed ? .answered : .passed
    }
}
