// The operator's takes in the core (BoothCore+Share's `takeChanged`): hide, show and delete go to the
// file worker (the storage checks the path: TakeRecordsTests), with the take the library's review
// shows; deleting that take by path is refused here with notAllowed. A take whose `--on-take` hook is
// owed may be deleted: its tombstone (`--on-delete`) drops the upload still to come.
@testable import KioskCore
import Testing
import KioskContract

@Suite("the operator's takes in the core")
struct OperatorTakesCoreTests {
    static func refused(_ effects: [BoothCore.Effect]) -> Bool {
        effects.count == 1 && effects.first.map { if case .emit(.error(.notAllowed, _)) = $0 { true } else { false } } == true
    }

    @Test("hide, show and delete go to the file worker with the reviewed take; deleting the library review's take by path is notAllowed; a take whose hook is owed goes, its tombstone drops the upload")
    func deleteRefused() {
        var core = BoothCore(machine: Fixture.libraryReview.make(), now: 0)
        let reviewed = libraryEntries[1].path, other = libraryEntries[0].path
        #expect(Self.refused(core.handle(.command(.take(.delete(path: reviewed, reason: .operator))), at: 1)))
        for change in [TakeChange.hide(path: reviewed), .show(path: reviewed), .delete(path: other, reason: .guest), .deleteShared(token: "T", reason: .guest)] {
            #expect(core.handle(.command(.take(change)), at: 1) == [.file(.changeTake(change, reviewed: reviewed))], "\(change)")
        }
        var settings = BoothCore.Settings(onTake: "upload")
        settings.onDelete = "remove"
        var owing = BoothCore(machine: Fixture.ready.make(session: .loop), settings: settings, now: 0)
        _ = owing.handle(.hookOwed(HookQueue.Entry(path: "/takes/b.mov", duration: 1)), at: 0)
        _ = owing.handle(.hookOwed(HookQueue.Entry(path: "/takes/a.mov", duration: 1)), at: 0)
        #expect(owing.handle(.command(.take(.delete(path: "/takes/a.mov", reason: .guest))), at: 1)
                == [.file(.changeTake(.delete(path: "/takes/a.mov", reason: .guest), reviewed: nil))])
        // The storage deleted it and saved its tombstone: the upload still to come is dropped; b's runs on.
        let owed = owing.handle(.hookOwed(HookQueue.Entry(path: "/takes/a.mov", duration: 0, hook: .delete)), at: 1)
        #expect(owing.jobs.owed.entries.map { "\($0.name) \($0.kind)" } == ["b.mov take", "a.mov delete"])
        #expect(owed.count == 1, "b's upload runs, the tombstone waits for it: \(owed)")
        #expect(owing.jobs.protectedTakes == ["b.mov"])
    }
}
