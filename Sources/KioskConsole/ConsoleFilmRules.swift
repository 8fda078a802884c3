// The hosts' film made from the console, as values: its routes (`api/film`: the state, a start,
// the film itself), what a start may ask (a title, a size; never a path), and the film's state as
// the reel's `--json` lines and its end move it (idle, running with its progress, finished, failed,
// cancelled; one at a time). Pure: ConsoleFilm runs `reel` and feeds its lines here; tests drive it by table.
import FoundationEssentials

/// A film request the rules let through to the film's maker (ConsoleFilm).
public enum FilmRequest: Sendable, Equatable {
    /// `GET api/film`: the film's state.
    case state
    /// `POST api/film`: a film started with what the body asks, audited as `film`.
    case start(FilmAsk, address: String)
    /// `GET api/film/video` (to play) or `api/film/download` (as an attachment).
    case video(download: Bool)
    /// `POST api/film/cancel`: the film being made stopped (its reel sent SIGTERM, which writes no
    /// film and leaves the last one as it was), audited as `filmCancel`.
    case cancel(address: String)
}

/// What a start may ask of the film: the title card's words and the pictures' size, each checked
/// here (the reel checks the size's range and says so).
public struct FilmAsk: Sendable, Equatable {
    public var title: String?
    public var size: String?

    public init(title: String? = nil, size: String? = nil) {
        (self.title, self.size) = (title, size)
    }

    /// The longest title (the reel breaks it over lines on its card).
    public static let titleLimit = 200

    /// Why a body asks for no film: the answer (400).
    public struct Refusal: Error, Equatable {
        public let response: ConsoleResponse
        init(_ response: ConsoleResponse) { self.response = response }
    }

    /// The body's ask (empty, or a JSON object with the strings `title` and `size`), or why not.
    public static func read(_ body: [UInt8]) throws(Refusal) -> FilmAsk {
        guard !body.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }) else { return FilmAsk() }
        struct Fields: Decodable {
            var title: String?
            var size: String?
        }
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(body)) else {
            throw Refusal(.error(400, "badRequest", "the body is empty or {\"title\": TEXT, \"size\": \"WxH\"}, each optional"))
        }
        let title = fields.title.map { String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }
            .flatMap { $0.isEmpty ? nil : $0 }
        if let title, title.count > titleLimit || title.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw Refusal(.error(400, "badTitle", "the title is one line of at most \(titleLimit) characters"))
        }
        if let size = fields.size {
            let sides = size.split(separator: "x", omittingEmptySubsequences: false)
            guard sides.count == 2, sides.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
                throw Refusal(.error(400, "badSize", "the size is WxH, e.g. 1280x720"))
            }
        }
        return FilmAsk(title: title, size: fields.size)
    }

    /// The reel's options for it (after the folder).
    public var arguments: [String] {
        (title.map { ["--title", $0] } ?? []) + (size.map { ["--size", $0] } ?? [])
    }
}

/// The film's state: one at a time, moved by the reel's `--json` lines and its end.
public struct FilmJob: Sendable {
    public enum Phase: Sendable, Equatable {
        case idle
        /// `done` of `total` takes (0 of 0 until the reel has counted them).
        case running(done: Int, total: Int)
        /// The film: its length in seconds, the takes in it, those left out.
        case finished(duration: Double, takes: Int, skipped: Int)
        /// Why there is no new film (the reel's own last words).
        case failed(String)
        /// The operator stopped it (`cancel`): no new film, the last one kept.
        case cancelled
    }

    public private(set) var phase = Phase.idle
    private var skipped = 0
    private var finished: (duration: Double, takes: Int)?
    /// The reel's last line that was no event (its stderr: why it stopped).
    private var lastWords: String?
    /// The running reel's process (its group's leader), while it runs; and whether it was cancelled.
    private var process: Int32?
    private var cancelling = false

    public init() {}

    public var isRunning: Bool {
        if case .running = phase { return true }
        return false
    }

    /// A film starts: false while one runs (one at a time).
    public mutating func start() -> Bool {
        guard !isRunning else { return false }
        (phase, skipped, finished, lastWords, process, cancelling) = (.running(done: 0, total: 0), 0, nil, nil, nil, false)
        return true
    }

    /// The started reel's process (`start` was true): what `cancel` stops.
    public mutating func started(process: Int32) {
        if isRunning { self.process = process }
    }

    /// The operator stops the film: the process to signal (nil: none runs, or it is stopping
    /// already, so there is nothing to do). Its end then says `cancelled`, whatever status it has.
    public mutating func cancel() -> Int32? {
        guard isRunning, !cancelling, let process else { return nil }
        cancelling = true
        return process
    }


    /// One line of the reel's output (its stdout and stderr together): an event moves the state;
    /// anything else is returned, for the console's log, and kept as the reel's last words.
    public mutating func read(_ line: String) -> String? {
        guard isRunning else { return nil }
        guard line.hasPrefix("{"), let parsed = try? JSONDecoder().decode(BoothLine.self, from: Data(line.utf8)) else {
            let words = line.hasPrefix("kiosk-recorder reel: ") ? String(line.dropFirst("kiosk-recorder reel: ".count)) : line
            if !words.allSatisfy(\.isWhitespace) { lastWords = String(words.prefix(500)) }
            return line
        }
        switch parsed.event {
        case "reelProgress":
            if let done = parsed.done, let total = parsed.total, done >= 0, total >= done { phase = .running(done: done, total: total) }
        case "reelSkipped": skipped += 1
        case "reelFinished":
            if let duration = parsed.duration, let takes = parsed.takes { finished = (duration, takes) }
        default: break
        }
        return nil
    }

    /// The reel ended with `status` (128 + N: ended by signal N), or could not start (`failure`).
    public mutating func ended(status: Int, failure: String? = nil) {
        guard isRunning else { return }
        process = nil
        if cancelling {
            phase = .cancelled
        } else if let failure {
            phase = .failed(failure)
        } else if status == 0, let finished {
            phase = .finished(duration: finished.duration, takes: finished.takes, skipped: skipped)
        } else {
            let how = status > 128 ? "reel was ended by signal \(status - 128)" : "reel exited with status \(status)"
            phase = .failed(lastWords ?? how)
        }
    }

    /// `GET api/film`'s answer: `{"state":…}` and the phase's figures; `video`: a film can be fetched.
    public func json(video: Bool) -> String {
        let fields: String
        switch phase {
        case .idle: fields = #""state":"idle""#
        case let .running(done, total): fields = #""state":"running","done":\#(done),"total":\#(total)"#
        case let .finished(duration, takes, skipped):
            fields = #""state":"finished","duration":\#((duration * 1000).rounded() / 1000),"takes":\#(takes),"skipped":\#(skipped)"#
        case let .failed(message): fields = #""state":"failed","message":\#(JSONText.string(message))"#
        case .cancelled: fields = #""state":"cancelled""#
        }
        return "{" + fields + ",\"video\":\(video)}"
    }
}

extension ConsoleRules {
    static let filmPath = "/console/api/film"

    /// Whether `path` is one of the film's.
    static func isFilm(_ path: String) -> Bool { path == filmPath || path.hasPrefix(filmPath + "/") }

    /// The decision for a film path (`isFilm`): signed in to read it, and a start is a change
    /// (`change`: why it is refused, nil: allowed), audited as `film`.
    static func decideFilm(_ request: ConsoleRequest, now: Double, signedIn: Bool, address: String,
                           change: (String) -> ConsoleResponse?) -> ConsoleDecision {
        guard signedIn else { return .answer(signInFirst, audit: nil) }
        let read = request.method == "GET" || request.method == "HEAD"
        switch (request.path, request.method) {
        case (filmPath, "GET"): return .film(.state)
        case (filmPath, "POST"):
            if let refused = change("film") {
                return .answer(refused, audit: AuditEntry(time: now, address: address, action: "film", result: "refused \(refused.status)"))
            }
            do throws(FilmAsk.Refusal) {
                return .film(.start(try FilmAsk.read(request.body), address: address))
            } catch {
                return .answer(error.response, audit: AuditEntry(time: now, address: address, action: "film", result: "refused \(error.response.status)"))
            }
        case (filmPath + "/cancel", "POST"):
            if let refused = change("filmCancel") {
                return .answer(refused, audit: AuditEntry(time: now, address: address, action: "filmCancel", result: "refused \(refused.status)"))
            }
            return .film(.cancel(address: address))
        case (filmPath + "/video", _) where read: return .film(.video(download: false))
        case (filmPath + "/download", _) where read: return .film(.video(download: true))
        case (filmPath, _), (filmPath + "/video", _), (filmPath + "/download", _), (filmPath + "/cancel", _): return .answer(notAllowed(false), audit: nil)
        default: return .answer(notFound, audit: nil)
        }
    }

    /// The answer to a start the film's maker refused: one runs already (409, with its state).
    static func filmRunning(_ state: String) -> ConsoleResponse {
        .json(409, "{\"error\":\"filmRunning\",\"message\":\"a film is being made: one at a time\",\"film\":\(state)}")
    }
}
