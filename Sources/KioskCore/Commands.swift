// The stdin contract: one JSON object per line, each command exactly a press or a request.
import FoundationEssentials
import KioskContract

/// A command read from stdin.
public enum Command: Equatable, Sendable {
    /// Exactly a press of that button; refused with `notAllowed` when it is not on screen.
    case press(Button)
    /// `{"command":"start","countdown":N}`: Start with its own countdown (0: none) instead of
    /// `--countdown`'s.
    case start(countdown: Int)
    case rotate(Orientation)
    case background
    case foreground
    /// A touch at display (physical) coordinates, mapped through the orientation like a real touch.
    case tap(Point)
    /// `{"command":"focus","x":…,"y":…}`: what a tap on the picture there does in ready, the
    /// countdown or a take: the focus box, and the camera asked to focus.
    case focus(Point)
    case screenshot(path: String)
    /// The player: go to `position` seconds from the start (the progress bar's drag).
    case seek(position: Double)
    /// The player: pause (`true`) or resume (`false`).
    case pause(Bool)
    /// `--trim`, in finished: Use Video delivers only [start, end] seconds of the take.
    case trim(TrimRange)
    case state
    case quit
    /// `{"command":"pick","path":P}` (`--library`): that take's review, as a tap on its cell.
    case pick(path: String)
    /// The operator's: the booth closed to guests ("back soon"), or open again.
    case closeBooth, openBooth
    /// The operator's: a take of the output folder hidden, shown again or deleted (BoothCore+Share).
    case take(TakeChange)
    /// The operator's: the settings read again, as SIGHUP does (the booth's shell asks for the reload).
    case reload
    /// `--consent`: a switch of the consent screen set (`{"command":"consentChoice","choice":"film","on":true}`).
    case consentChoice(ConsentChoice, on: Bool)
    /// `--key auto`: the key measured again from the backdrop (in ready, with no one in front).
    case calibrate

    /// Every command name the parser accepts, for messages and docs.
    public static let names: [String] =
        Button.allCases.map(\.rawValue) + ["rotate", "background", "foreground", "tap", "focus", "screenshot", "seek", "pause", "trim", "state", "quit", "pick", "closeBooth", "openBooth", "hideTake", "showTake", "deleteTake", "reload", "consentChoice", "calibrate"]
}

extension Command {
    /// The machine's event for the command (nil: the screen's: a tap, a focus point, a screenshot).
    var event: RecorderEvent? {
        switch self {
        case let .press(button): .press(button)
        case let .start(seconds): .start(countdown: seconds)
        case let .rotate(o): .rotate(o)
        case .background: .background
        case .foreground: .foreground
        case let .seek(position): .seek(position: position)
        case let .trim(range): .trim(range)
        case let .pause(paused): .pause(paused)
        case .state: .stateQuery
        case .quit: .quit
        case let .pick(path): .pick(path: path)
        case .closeBooth: .closeBooth
        case .openBooth: .openBooth
        case let .consentChoice(choice, on): .consentChoice(choice, on: on)
        case .tap, .focus, .screenshot, .take, .reload, .calibrate: nil
        }
    }
}

/// Parses stdin lines into commands.
public struct CommandParser: Sendable {
    public init() {}

    private struct Raw: Decodable {
        let command: String?
        let orientation: String?
        let x: Double?
        let y: Double?
        let path: String?
        let countdown: Double?
        let position: Double?
        let paused: Bool?
        let start: Double?
        let end: Double?
        let reason: String?
        let token: String?
        let choice: String?
        let on: Bool?
    }

    public func parse(line: String) -> Result<Command, CommandError> {
        let raw: Raw
        do {
            raw = try JSONDecoder().decode(Raw.self, from: Data(line.utf8))
        } catch {
            if let word = CommandLineText.nonFiniteWord(in: line) {
                return .failure(bad("\(word) is no number in JSON (every number in a command is finite): \(clip(line))"))
            }
            return .failure(bad("not a JSON object with a \"command\" string: \(clip(line))"))
        }
        // Readers differ on a key given twice (this decoder keeps the first, Python's and
        // JavaScript's the last): a proxy that filters commands could be shown one and let the other by.
        if let key = CommandLineText.repeatedKey(in: line) {
            return .failure(bad("\"\(key)\" is given twice; a command names each key once: \(clip(line))"))
        }
        guard let name = raw.command else {
            return .failure(bad("missing \"command\": \(clip(line))"))
        }
        if name == Button.start.rawValue, let seconds = raw.countdown {
            guard seconds >= 0, seconds <= 10, seconds == seconds.rounded() else {
                return .failure(bad("start: \"countdown\" must be a whole number of seconds from 0 to 10"))
            }
            return .success(.start(countdown: Int(seconds)))
        }
        if let button = Button(rawValue: name) { return .success(.press(button)) }
        switch name {
        case "rotate":
            guard let value = raw.orientation else { return .failure(bad("rotate needs \"orientation\"")) }
            guard let o = Orientation(argument: value) else {
                let valid = Orientation.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(bad("rotate: unknown orientation '\(value)' (one of \(valid))"))
            }
            return .success(.rotate(o))
        case "background": return .success(.background)
        case "foreground": return .success(.foreground)
        case "tap", "focus":
            guard let x = raw.x, let y = raw.y, x.isFinite, y.isFinite else {
                return .failure(bad("\(name) needs numbers \"x\" and \"y\" (display pixels)"))
            }
            return .success(name == "tap" ? .tap(Point(x: x, y: y)) : .focus(Point(x: x, y: y)))
        case "screenshot", "pick":
            guard let path = raw.path, !path.isEmpty else { return .failure(bad("\(name) needs \"path\"")) }
            return .success(name == "pick" ? .pick(path: path) : .screenshot(path: path))
        case "seek":
            guard let position = raw.position, position.isFinite, position >= 0 else {
                return .failure(bad("seek needs \"position\": seconds from the start, 0 or more"))
            }
            return .success(.seek(position: position))
        case "pause": return .success(.pause(raw.paused ?? true))
        case "trim":
            guard let start = raw.start, let end = raw.end, start.isFinite, end.isFinite else {
                return .failure(bad("trim needs numbers \"start\" and \"end\": seconds from the take's start"))
            }
            return .success(.trim(TrimRange(start: start, end: end)))
        case "state", "quit", "reload": return .success(name == "state" ? .state : name == "quit" ? .quit : .reload)
        case "closeBooth", "openBooth": return .success(name == "closeBooth" ? .closeBooth : .openBooth)
        case "calibrate": return .success(.calibrate)
        case "consentChoice":
            guard let choice = raw.choice.flatMap(ConsentChoice.init(rawValue:)), let on = raw.on else {
                return .failure(bad("consentChoice needs \"choice\" (\(ConsentChoice.allCases.map(\.rawValue).joined(separator: ", "))) and \"on\" (true or false)"))
            }
            return .success(.consentChoice(choice, on: on))
        case "hideTake", "showTake", "deleteTake":
            return TakeChange.read(name, path: raw.path, reason: raw.reason, token: raw.token).map(Command.take).mapError { bad($0.message) }
        default:
            return .failure(CommandError(
                code: .unknownCommand,
                message: "unknown command '\(name)' (one of \(Command.names.joined(separator: ", ")))"))
        }
    }

    private func bad(_ message: String) -> CommandError { CommandError(code: .badCommand, message: message) }

    /// Enough of a bad line to recognise it in a message, not a whole megabyte of it.
    private func clip(_ line: String) -> String {
        line.count <= 120 ? line : String(line.prefix(120)) + "…"
    }
}
