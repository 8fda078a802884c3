// What the core asks of the booth around a finished take, which the booth's shell used to decide
// itself: a lost file said before the machine hears of the take, the trimmer's pictures when its
// review shows the trimmer, and `--loudness`'s copy made ahead for an accepted video.
import Testing
import KioskContract
@testable import KioskCore

@Suite("BoothCore: a finished take's work")
struct BoothCoreFinishedTakeTests {
    typealias E = BoothCore.Effect
    typealias T = BoothCoreFinishedTakeTests
    static let out = Fixture.goodTake.outputPath

    /// A core in ready (`trims`: `--trim`), a take started and stopped.
    static func recorded(trims: Bool, loudness: Double?) -> BoothCore {
        var core = BoothCore(machine: RecorderMachine(session: .loop, outputPath: T.out, orientation: .landscapeRight, trims: trims),
                             settings: BoothCore.Settings(loudness: loudness), now: 0)
        _ = core.handle(.start, at: 0)
        _ = core.handle(.cameraStarted(failure: nil, open: true), at: 0)
        _ = core.handle(.event(.press(.start)), at: 0)
        _ = core.handle(.event(.recordingStarted(outputPath: T.out)), at: 0)
        _ = core.handle(.event(.press(.stop)), at: 0)
        return core
    }

    static func work(_ effects: [E]) -> [E] {
        effects.filter {
            switch $0 {
            case .file(.trimPictures), .file(.levelAhead), .emit(.error(.recordingFailed, _)): true
            default: false
            }
        }
    }

    static func take(success: Bool = true, lost: String? = nil, kind: TakeKind = .video) -> RecordingResult {
        var result = success ? Fixture.goodTake : Fixture.badTake
        result.lost = lost
        result.kind = kind
        return result
    }

    @Test("the trimmer's pictures, then the leveled copy; neither for a failed take, a lost one says so, a boomerang is not leveled", arguments: [
        (false, nil, T.take(), [E]()),
        (true, nil, T.take(), [.file(.trimPictures(T.out))]),
        (true, -16, T.take(), [.file(.trimPictures(T.out)), .file(.levelAhead(T.out, loudness: -16))]),
        (false, -16, T.take(), [.file(.levelAhead(T.out, loudness: -16))]),
        (false, -16, T.take(kind: .boomerang), []),
        (true, -16, T.take(success: false), []),
        (false, -16, T.take(lost: "the take's folder was removed"), [.emit(.error(code: .recordingFailed, message: "the take's folder was removed"))]),
    ] as [(Bool, Double?, RecordingResult, [E])])
    func finished(trims: Bool, loudness: Double?, result: RecordingResult, expected: [E]) {
        var core = Self.recorded(trims: trims, loudness: loudness)
        let said = core.handle(.event(.recordingFinished(result)), at: 1)
        #expect(Self.work(said) == expected)
        // The lost file is said before anything the machine says of the take.
        if result.lost != nil { #expect(said.first == expected.first) }
    }
}
