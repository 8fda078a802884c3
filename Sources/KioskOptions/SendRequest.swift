// `kiosk-recorder --send COMMAND`: the command line the shell's one-shot sender puts on the control
// socket, and the rule for when the booth has answered it (docs/interface.md, "Control socket").
import FoundationEssentials
import KioskContract
import KioskCore

/// One command for a running booth, checked here before it is sent, with the event that answers it.
///
/// The answer rule: the sender prints every event line it receives and stops after the first line
/// that answers the command:
/// - an `error` whose code is one a command is refused or fails with (`notAllowed`, `badCommand`,
///   `unknownCommand`, `recordingFailed`, `diskFull`, `playbackFailed`, `screenshotFailed`, `photoFailed`);
/// - otherwise the event the command leads to: `state` → `state`; `start` → `recordingStarted`;
///   `stop` → `recordingFinished`; `cancel` → `videoRecorderDidCancelRecordingVideo`; `useVideo` →
///   `videoRecorderDidFinishRecordingVideoWithOutputPath`; `playVideo` → `playbackStarted`;
///   `closePlayer` → `playbackFinished`; `photo` → `photoTaken`; `quit` → the booth closing the
///   connection as it exits;
/// - the commands that announce nothing of their own (`retake`, `rotate`, `background`,
///   `foreground`, `tap`, `screenshot`) are followed by a `state` query, and its `state` reply is
///   the answer: the booth's state once the command was handled (commands of one client are
///   handled in the order sent).
/// The socket carries every client's events, so another client's `state` or refusal at the same
/// moment can end the wait early; what follows later (a take a `background` stops) is not waited for.
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
        lines = Self.needsStateQuery(command) ? [line, Self.jsonLine(command: "state")] : [line]
    }

    /// `{"command":"NAME"}`, by JSONEncoder.
    private static func jsonLine(command name: String) -> String {
        struct Line: Encodable { let command: String }
        guard let data = try? JSONEncoder().encode(Line(command: name)) else {
            preconditionFailure("a string always encodes")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether the command announces nothing of its own, so that a `state` query follows it.
    static func needsStateQuery(_ command: Command) -> Bool {
        switch command {
        case .press(.retake), .press(.openLibrary), .press(.back), .pick, .rotate, .background, .foreground, .tap, .focus, .screenshot, .seek,
             .pause, .trim: true
        case .press, .start, .state, .quit: false
        }
    }

    /// The event name that answers the command when it succeeds (nil: only the connection's end).
    var answeringEvent: String? {
        if Self.needsStateQuery(command) { return "state" }
        switch command {
        case .state: return "state"
        case .press(.start), .start: return "recordingStarted"
        case .press(.stop): return "recordingFinished"
        case .press(.cancel): return "videoRecorderDidCancelRecordingVideo"
        case .press(.useVideo): return "videoRecorderDidFinishRecordingVideoWithOutputPath"
        case .press(.playVideo): return "playbackStarted"
        case .press(.closePlayer): return "playbackFinished"
        case .press(.switchCamera): return "cameraChanged"
        case .press(.photo): return "photoTaken"
        default: return nil
        }
    }

    /// Whether this event line (as the booth sent it) ends the wait. Only `event` and `code` are
    /// read, so events a newer booth adds are printed and passed over, never a failure.
    public func isAnswer(line: String) -> Bool {
        struct Head: Decodable {
            let event: String
            let code: String?
        }
        guard let head = try? JSONDecoder().decode(Head.self, from: Data(line.utf8)) else { return false }
        if head.event == "error", let code = head.code { return Self.answeringErrors.contains(code) }
        return head.event == answeringEvent
    }
}
