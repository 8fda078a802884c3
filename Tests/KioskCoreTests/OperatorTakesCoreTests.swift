// The operator's takes in the core (BoothCore+Share's `takeChanged`): hide, show and delete go to the
// file worker (the storage checks the path: TakeRecordsTests); deleting the take the library's review
// shows, or one whose `--on-take` hook is owed, is refused here with notAllowed.
@testable import KioskCore
import Testing
import KioskContract

@Suite("the operator's takes in the core")
struct OperatorTakesCoreTests {
    static func refused(_ effects: [BoothCore.Effect]) -> Bool {
        effects.count == 1 && effects.first.map { if case .emit(.error(.notAllowed, _)) = $0 { true } else { false } } == true
    }

    @Test("hide, show and delete go to the file worker; deleting the library review's take, or a take whose hook is owed, is notAllowed")
    func deleteRefused() {
        var core = BoothCore(machine: Fixture.libraryReview.make(), now: 0)
        let reviewed = libraryEntries[1].path, other = libraryEntries[0].path
        #expect(Self.refused(core.handle(.command(.take(.delete(path: reviewed, reason: .operator))), at: 1)))
        for change in [TakeChange.hide(path: reviewed), .show(path: reviewed), .delete(path: other, reason: .guest)] {
            #expect(core.handle(.command(.take(change)), at: 1) == [.file(.changeTake(change))], "\(change)")
        }
        var owing = BoothCore(machine: Fixture.ready.make(session: .loop), settings: BoothCore.Settings(onTake: "upload"), now: 0)
        _ = owing.handle(.hookOwed(HookQueue.Entry(path: "/takes/a.mov", duration: 1)), at: 0)
        #expect(Self.refused(owing.handle(.command(.take(.delete(path: "/takes/a.mov", reason: .guest))), at: 1)))
        #expect(owing.handle(.command(.take(.delete(path: "/takes/b.mov", reason: .guest))), at: 1)
                == [.file(.changeTake(.delete(path: "/takes/b.mov", reason: .guest)))])
    }
}
