// The photo's timing as the core keeps it (PhotoWait, through BoothCore): one photo at a time, the
// camera's picture waited for 2 s, the flash fading over 0.3 s, on a virtual clock.
import Testing
@testable import KioskCore

@Suite("PhotoWait: one photo at a time, 2 s for a picture, the flash")
struct PhotoWaitTests {
    static let ms: Int64 = 1_000_000

    static func photoBooth() -> BoothCore {
        var machine = Fixture.ready.make(session: .loop)
        machine.photoButton = true
        return BoothCore(machine: machine, now: 0)
    }

    @Test("the shutter: counted out as a file job and let through with it; a second press while it is out is refused with notAllowed, the exit waits for it")
    func oneAtATime() throws {
        var core = Self.photoBooth()
        let first = core.handle(.event(.press(.photo)), at: 0)
        let job = try #require(first.compactMap { if case let .photo(.take(_, job)) = $0 { job } else { nil } }.first, "\(first)")
        #expect(core.photo.busy && core.jobs.outstanding.contains(job.id))
        let second = core.handle(.event(.press(.photo)), at: 100 * Self.ms)
        #expect(second == [.emit(.error(code: .notAllowed, message: "'photo': the last photo is still being taken"))])
        #expect(core.handle(.fileDone(job), at: 500 * Self.ms).isEmpty)
        #expect(!core.photo.busy && !core.jobs.outstanding.contains(job.id))
        #expect(core.handle(.event(.press(.photo)), at: 600 * Self.ms).contains { if case .photo(.take) = $0 { true } else { false } })
    }

    @Test("no picture: the turn withdraws it past 2 s, not at 2 s, once; a photo back before then is not withdrawn")
    func givenUp() throws {
        var core = Self.photoBooth()
        let effects = core.handle(.event(.press(.photo)), at: 0)
        let job = try #require(effects.compactMap { if case let .photo(.take(_, job)) = $0 { job } else { nil } }.first)
        func withdrawn(at t: Int64) -> Bool { core.handle(.turn(BoothCore.Turn()), at: t).contains(.photo(.withdraw(job))) }
        #expect(!withdrawn(at: 2000 * Self.ms))
        #expect(withdrawn(at: 2001 * Self.ms))
        #expect(!withdrawn(at: 2500 * Self.ms), "once")
        var quick = Self.photoBooth()
        let quickEffects = quick.handle(.event(.press(.photo)), at: 0)
        let quickJob = try #require(quickEffects.compactMap { if case let .photo(.take(_, job)) = $0 { job } else { nil } }.first)
        _ = quick.handle(.fileDone(quickJob), at: 300 * Self.ms)
        #expect(!quick.handle(.turn(BoothCore.Turn()), at: 5000 * Self.ms).contains(.photo(.withdraw(quickJob))))
    }

    @Test("the flash: full at the press, fading in 30ths, gone at 0.3 s")
    func flash() {
        var core = Self.photoBooth()
        #expect(core.photo.flash(at: 0) == nil)
        _ = core.handle(.event(.press(.photo)), at: 1000 * Self.ms)
        #expect(core.photo.flash(at: 1000 * Self.ms) == 1)
        #expect(core.photo.flash(at: 1150 * Self.ms) == 0.5)
        #expect(core.photo.flash(at: 1290 * Self.ms) == 1.0 / 30)
        #expect(core.photo.flash(at: 1300 * Self.ms) == nil)
    }
}
