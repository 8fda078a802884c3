// The live picture yielding to a take whose encoder is behind (TakeWatch.previewYields, through
// BoothCore): at most 10 pictures a second then, every picture otherwise.
import Testing
@testable import KioskCore

@Suite("the preview's pace while a take records")
struct PreviewPaceTests {
    static let ms: Int64 = 1_000_000

    /// A recording core whose last turn measured `backlog` pictures waiting (`steppedDown`).
    static func core(backlog: Int, steppedDown: Bool = false) -> BoothCore {
        var core = BoothCore(machine: Fixture.recording.make(), now: 0)
        _ = core.handle(.turn(BoothCore.Turn(take: TakeMeasures(elapsed: 1, backlog: backlog, steppedDown: steppedDown))), at: 0)
        return core
    }

    @Test("behind (2 waiting, or stepped down): a picture 100 ms after the last drawn, none sooner; caught up (0 or 1 waiting): every picture", arguments: [
        (0, false, false), (1, false, false), (2, false, true), (5, false, true), (0, true, true),
    ])
    func pace(backlog: Int, steppedDown: Bool, yields: Bool) {
        var core = Self.core(backlog: backlog, steppedDown: steppedDown)
        _ = core.handle(.previewShown, at: 10 * Self.ms)
        #expect(core.take.previewYields(recording: true, at: 50 * Self.ms) == yields)
        #expect(!core.take.previewYields(recording: true, at: 110 * Self.ms), "a picture 100 ms on")
        #expect(!core.take.previewYields(recording: false, at: 50 * Self.ms), "never outside a take")
    }
}
