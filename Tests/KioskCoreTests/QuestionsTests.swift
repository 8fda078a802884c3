// The guestbook's questions (issue 44): the file's lines, the order they are asked in, and the
// events that carry them, through the core (BoothCore's Guestbook) on a virtual clock.
import Testing
@testable import KioskCore
import KioskContract

@Suite("the guestbook's questions")
struct QuestionsTests {
    @Test("a file's questions: one a line, trimmed; blank lines, # lines, a byte order mark and Windows line ends left out; any language")
    func parse() {
        let text = "\u{FEFF}# for the wedding\r\nWhat is your best memory of Anna?\r\n\r\n   \n  Any advice for the couple?  \n#not this\nふたりへのメッセージを\n"
        #expect(Questions.numbered(text).map(\.text) == ["What is your best memory of Anna?", "Any advice for the couple?", "ふたりへのメッセージを"])
        #expect(Questions.numbered(text).map(\.line) == [2, 5, 7])
        #expect(Questions.numbered("\n# only a comment\n").isEmpty)
    }

    /// The questions `count` guests are asked in turn, each handing a take over.
    static func asked(_ questions: [String], _ order: QuestionOrder, guests: Int, seed: UInt64 = 7) -> [String] {
        var book = Guestbook(seed: seed)
        book.use(questions, order: order)
        var asked: [String] = []
        for _ in 0..<guests {
            book.takeBegins()
            asked.append(book.take ?? "none")
            book.handedOver()
        }
        return asked
    }

    @Test("order: in turn, question 1 again for the 4th guest of three questions")
    func inOrder() {
        #expect(Self.asked(["one", "two", "three"], .order, guests: 4) == ["one", "two", "three", "one"])
    }

    @Test("shuffle: over 6 guests each of three questions exactly twice, the first three all different, never one twice in a row", arguments: Array(UInt64(0)..<50))
    func shuffled(seed: UInt64) {
        let asked = Self.asked(["one", "two", "three"], .shuffle, guests: 6, seed: seed)
        #expect(Set(asked.prefix(3)).count == 3, "\(asked)")
        #expect(["one", "two", "three"].allSatisfy { q in asked.filter { $0 == q }.count == 2 }, "\(asked)")
        #expect(zip(asked, asked.dropFirst()).allSatisfy { $0 != $1 }, "\(asked)")
    }

    @Test("shuffle differs by seed (the booth seeds it at random), and a seed gives the same order again")
    func seeds() {
        let questions = (1...8).map { "q\($0)" }
        let orders = Set((0..<10).map { Self.asked(questions, .shuffle, guests: 8, seed: $0) })
        #expect(orders.count > 1)
        #expect(Self.asked(questions, .shuffle, guests: 8, seed: 3) == Self.asked(questions, .shuffle, guests: 8, seed: 3))
    }

    @Test("through the core: a retake keeps the guest's question, Use Video moves to the next; the take's events carry the take's question, state the one asked now; a reload with other questions begins afresh")
    func core() throws {
        var settings = BoothCore.Settings()
        settings.questions = ["one", "two"]
        var core = BoothCore(machine: Fixture.ready.make(session: .loop), settings: settings, now: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 0)
        func emitted(_ effects: [BoothCore.Effect]) -> [KioskEvent] {
            effects.compactMap { if case let .machine(.emit(event)) = $0 { event } else { nil } }
        }
        // The reply without its figures (BoothViewTests checks those), its question kept.
        func state() -> KioskEvent? {
            emitted(core.handle(.event(.stateQuery), at: 1)).first.map {
                if case let .asked(inner, question) = $0 { .asked(inner.unfigured, question: question) } else { $0.unfigured }
            }
        }
        #expect(state() == .asked(.state(mode: "ready", timer: "00:00", buttons: [.cancel, .start], orientation: .landscapeRight), question: "one"))
        _ = core.handle(.event(.press(.start)), at: 1)
        let started = emitted(core.handle(.event(.recordingStarted(outputPath: "/t/1.mov")), at: 2))
        #expect(started == [.asked(.recordingStarted(outputPath: "/t/1.mov"), question: "one")])
        _ = core.handle(.event(.press(.stop)), at: 3)
        let result = RecordingResult(outputPath: "/t/1.mov", duration: 2, bytes: 10, reason: .user, success: true)
        let finished = emitted(core.handle(.event(.recordingFinished(result)), at: 4))
        #expect(finished.first == .asked(.recordingFinished(result), question: "one"))
        _ = core.handle(.event(.press(.retake)), at: 5)
        #expect(core.guestbook.current == "one", "a retake keeps the guest's question")
        _ = core.handle(.event(.press(.start)), at: 6)
        _ = core.handle(.event(.recordingStarted(outputPath: "/t/1.mov")), at: 7)
        _ = core.handle(.event(.press(.stop)), at: 8)
        _ = core.handle(.event(.recordingFinished(result)), at: 9)
        let used = core.handle(.event(.press(.useVideo)), at: 10)
        #expect(used.contains(.file(.handOver(trim: nil, boomerang: false, loudness: nil, protected: []))))
        #expect(core.guestbook.current == "two" && core.guestbook.take == "one")
        #expect(core.guestbook.stamped(.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: "/t/1.mov"))
                == .asked(.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: "/t/1.mov"), question: "one"), "the outcome: the take's")
        #expect(core.guestbook.stamped(.error(code: .notAllowed, message: "x")) == .error(code: .notAllowed, message: "x"))
        core.settings.questions = ["new"]
        _ = core.handle(.turn(BoothCore.Turn()), at: 11)
        #expect(core.guestbook.current == "new")
        core.settings.questions = []
        _ = core.handle(.turn(BoothCore.Turn()), at: 12)
        #expect(state() == .state(mode: "ready", timer: "00:00", buttons: [.cancel, .start], orientation: .landscapeRight), "no questions: no field")
    }

    @Test("an event with its question: on stdout the inner event's fields, then question; read back the same")
    func encoding() throws {
        let event = KioskEvent.asked(.recordingStarted(outputPath: "/t/1.mov"), question: "Wie geht's? \"Gut\"")
        let line = EventEncoder().line(for: event)
        #expect(line == #"{"event":"recordingStarted","outputPath":"/t/1.mov","kind":"video","question":"Wie geht's? \"Gut\""}"# + "\n")
        #expect(try EventEncoder().decode(line: line) == event)
        #expect(event.name == "recordingStarted" && event.unasked == .recordingStarted(outputPath: "/t/1.mov"))
    }

}
