// The video guestbook's questions: `--questions FILE` gives one question a line, and
// `--question-order` how they are asked. `order` asks them in turn and begins again after the last;
// `shuffle` asks each once, in a random order, before any is asked again (and never the same one
// twice in a row where there are two or more). The next guest gets the next question once a take is
// handed over (Use Video, or an idle reset that uses it); a retake keeps the guest's question. The
// take's events and its file carry the question it was recorded under. Pure: the randomness is a
// seeded generator, so a test names its seed.
import KioskContract

/// `--questions FILE`: the file, and its questions as read (at launch, or by the last reload).
public struct QuestionList: Equatable, Sendable {
    public var path: String
    public var lines: [String]
    /// Each question's line in the file, from 1, for a message that names it (empty: not known).
    public var lineNumbers: [Int] = []
    public init(path: String, lines: [String] = [], lineNumbers: [Int] = []) { (self.path, self.lines, self.lineNumbers) = (path, lines, lineNumbers) }
}

/// How the questions are asked.
public enum QuestionOrder: String, CaseIterable, Equatable, Sendable {
    case order, shuffle
}

public enum Questions {
    /// The questions in a file's text with their line in it, from 1: one a line, each trimmed; blank
    /// lines and lines that begin with `#` are left out; a UTF-8 byte order mark and Windows line
    /// ends are taken off.
    public static func numbered(_ text: String) -> [(line: Int, text: String)] {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        return body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).enumerated()
            .map { (line: $0.offset + 1, text: String($0.element.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())) }
            .filter { !$0.text.isEmpty && !$0.text.hasPrefix("#") }
    }
}

/// SplitMix64: a small seeded generator, so a shuffle is the same for the same seed.
public struct SeededRandom: RandomNumberGenerator, Equatable, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Which question the guest in front of the booth is asked, and which one the last take was made under.
public struct Guestbook: Equatable, Sendable {
    public private(set) var questions: [String] = []
    public private(set) var order = QuestionOrder.order
    /// The question asked now (nil: no questions).
    public private(set) var current: String?
    /// The question the latest take was made under (its outcome comes after the next guest's
    /// question is up).
    public private(set) var take: String?
    /// The questions still to ask in this round, by index, next first.
    private var round: [Int] = []
    private var random: SeededRandom

    public init(seed: UInt64 = 0) { random = SeededRandom(seed: seed) }

    /// The questions and their order as the settings have them now: a change begins afresh.
    mutating func use(_ questions: [String], order: QuestionOrder) {
        guard questions != self.questions || order != self.order else { return }
        (self.questions, self.order) = (questions, order)
        round = []
        current = nil
        advance()
    }

    /// A take began: it is made under the question asked now.
    mutating func takeBegins() { take = current }

    /// A take was handed over: the next guest gets the next question.
    mutating func handedOver() { advance() }

    private mutating func advance() {
        guard !questions.isEmpty else {
            current = nil
            return
        }
        if round.isEmpty {
            round = Array(questions.indices)
            if order == .shuffle {
                round.shuffle(using: &random)
                // Never the same question twice in a row across rounds.
                if round.count > 1, let last = current, questions[round[0]] == last { round.swapAt(0, round.count - 1) }
            }
        }
        current = questions[round.removeFirst()]
    }

    /// `event` with the question it was made under: a take's events with the take's, `state` with
    /// the one asked now; others as they are (and all of them without questions).
    public func stamped(_ event: KioskEvent) -> KioskEvent {
        switch event {
        case .recordingStarted, .recordingFinished, .videoRecorderDidFinishRecordingVideoWithOutputPath,
             .videoRecorderDidFinishRecordingTrimmedVideo, .leveled, .boomerang:
            return take.map { .asked(event, question: $0) } ?? event
        case .state, .figured:
            return current.map { .asked(event, question: $0) } ?? event
        default:
            return event
        }
    }
}
