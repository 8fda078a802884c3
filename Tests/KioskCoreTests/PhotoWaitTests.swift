// The photo as the core keeps it (PhotoWait, through BoothCore): one photo at a time, the camera's
// picture waited for 2 s, the flash fading over 0.3 s, and what follows a photo, on a virtual clock.
import Testing
import KioskContract
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
        let job = try #require(first.compactMap { if case let .photo(.take(_, job, _, _)) = $0 { job } else { nil } }.first, "\(first)")
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
        let job = try #require(effects.compactMap { if case let .photo(.take(_, job, _, _)) = $0 { job } else { nil } }.first)
        func withdrawn(at t: Int64) -> Bool { core.handle(.turn(BoothCore.Turn()), at: t).contains(.photo(.withdraw(job))) }
        #expect(!withdrawn(at: 2000 * Self.ms))
        #expect(withdrawn(at: 2001 * Self.ms))
        #expect(!withdrawn(at: 2500 * Self.ms), "once")
        var quick = Self.photoBooth()
        let quickEffects = quick.handle(.event(.press(.photo)), at: 0)
        let quickJob = try #require(quickEffects.compactMap { if case let .photo(.take(_, job, _, _)) = $0 { job } else { nil } }.first)
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

@Suite("What follows a photo: said, shared with --share-dir, its hook owed")
struct PhotoFollowsTests {
    static let link = ShareLink(url: "http://b/s/t/", token: "t", folder: "/s/t", photo: "/o/p.jpg")
    static let retained = KioskEvent.error(code: .storageSlow, message: "retention")

    /// The effects in short: what was said, written, and the hook's steps (with the token it was owed with).
    static func short(_ effects: [BoothCore.Effect]) -> [String] {
        effects.map { effect in
            switch effect {
            case .log: "log"
            case .emit(.photoTaken(path: "/o/p.jpg", width: 4, height: 3)): "photoTaken"
            case let .emit(.consented(.photoTaken(path: "/o/p.jpg", width: 4, height: 3), .take(consent))):
                "photoTaken consent " + consent.choices.map(\.rawValue).joined(separator: ",")
            case .emit(Self.retained): "retained"
            case let .emit(.error(code, _)): "error \(code.rawValue)"
            case .emit(.takeShared(url: "http://b/s/t/", token: "t", folder: "/s/t", path: "/o/p.jpg")): "takeShared"
            case .file(.sharePhoto("/o/p.jpg", size: Size(width: 4, height: 3))): "sharePhoto"
            case .hook(.save): "save"
            case let .hook(.run(run, _)): run.path == "/o/p.jpg" ? "run" : "run \(run.path)"
            case .machine(.stopCamera): "stopCamera"
            default: "\(effect)"
            }
        }
    }

    @Test("written, failed, shared, share failed: with and without --share-dir and --on-take", arguments: [
        (false, false, "written", ["log", "photoTaken", "retained"]),
        (false, true, "written", ["log", "photoTaken", "retained", "save", "run"]),
        (true, true, "written", ["log", "photoTaken", "retained", "sharePhoto"]),
        (true, false, "written", ["log", "photoTaken", "retained", "sharePhoto"]),
        (false, true, "failed", ["log", "error photoFailed"]),
        // In ready its code shows at once: the share screen (the camera rests).
        (true, true, "shared", ["save", "run", "takeShared", "stopCamera"]),
        (true, false, "shared", ["takeShared", "stopCamera"]),
        (true, true, "shareFailed", ["save", "run", "log", "error shareFailed"]),
    ])
    func follows(shares: Bool, onTake: Bool, step: String, expected: [String]) throws {
        var machine = Fixture.ready.make(session: .loop)
        machine.photoButton = true
        var core = BoothCore(machine: machine, settings: BoothCore.Settings(shares: shares, onTake: onTake ? "true" : nil), now: 0)
        let job = try #require(core.handle(.event(.press(.photo)), at: 0).compactMap { if case let .photo(.take(_, job, _, _)) = $0 { job } else { nil } }.first)
        let input: BoothCore.PhotoInput = switch step {
        case "written": .written(job, path: "/o/p.jpg", size: Size(width: 4, height: 3), retained: [Self.retained])
        case "failed": .failed(job, message: "no picture")
        case "shared": .shared(Self.link)
        default: .shareFailed("/o/p.jpg", message: "disk full")
        }
        #expect(Self.short(core.handle(.photo(input), at: 100)) == expected)
        // The hook is owed for the photo, with its share folder's token when it has one.
        #expect(core.jobs.owed.entries.map(\.shareToken) == (!onTake || step == "failed" || (shares && step == "written") ? [] : step == "shared" ? ["t"] : [nil]))
        // A photo that reported back is no longer out: the next is let through, and counted.
        let next = core.handle(.event(.press(.photo)), at: 200).compactMap { if case let .photo(.take(_, _, written, _)) = $0 { written } else { nil } }
        #expect(next == (step == "written" ? [1] : step == "failed" ? [0] : []), "\(next)")
    }

    /// choices agreed to, what follows the photo written (with --share-dir and --on-take)
    @Test("under --consent: photoTaken says its consent; its share folder only with share (else its hook is owed at once)", arguments: [
        ([ConsentChoice.film], ["log", "photoTaken consent film", "retained", "save", "run"]),
        ([.share], ["log", "photoTaken consent share", "retained", "sharePhoto"]),
    ])
    func consented(choices: [ConsentChoice], expected: [String]) throws {
        var machine = RecorderMachine(session: .loop, outputPath: out, orientation: .landscapeRight, shares: true, consent: consentOffer)
        machine.photoButton = true
        var core = BoothCore(machine: machine, settings: BoothCore.Settings(shares: true, onTake: "true"), now: 0)
        _ = core.handle(.event(.press(.photo)), at: 0)
        for choice in choices { _ = core.handle(.event(.consentChoice(choice, on: true)), at: 0) }
        let given = Consent(version: consentOffer.version, choices: choices)
        let shutter = core.handle(.event(.press(.agree)), at: 0)
        let job = try #require(shutter.compactMap { if case let .photo(.take(_, job, _, consent)) = $0, consent == given { job } else { nil } }.first, "\(shutter)")
        let said = core.handle(.photo(.written(job, path: "/o/p.jpg", size: Size(width: 4, height: 3), retained: [Self.retained])), at: 100)
        #expect(Self.short(said) == expected)
        #expect(said.contains(.emit(.consented(.photoTaken(path: "/o/p.jpg", width: 4, height: 3), .take(given)))))
    }

    @Test("a shared photo's code waits for ready: mid-take it is said at once, and shown once the booth is back in ready")
    func codeWaitsForReady() {
        var core = BoothCore(machine: Fixture.recording.make(session: .loop), settings: BoothCore.Settings(shares: true), now: 0)
        let midTake = core.handle(.photo(.shared(Self.link)), at: 0)
        #expect(Self.short(midTake) == ["takeShared"])
        #expect(core.photo.codes == [Self.link])
    }
}
