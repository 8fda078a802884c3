// The slow-disk warning by table: nothing under 2 s, said once a take in the words of where the take
// is, then only followed; a new take says it again.
import Testing
import KioskCore

@Suite("SlowDisk: storageSlow once a take")
struct SlowDiskTests {
    @Test("under 2 s nothing; at 2 s said once in the words of the phase; after that only how long it still waits", arguments: [
        (SlowDisk.Phase.opening, "the take's start waiting 2.0 s; it begins once the disk has its file"),
        (.recording, "a sync of the take waiting 2.0 s; the take goes on"),
        (.finishing, "the take's end waiting 2.0 s; it is reported once the disk has it"),
    ])
    func once(phase: SlowDisk.Phase, words: String) {
        var rule = SlowDisk()
        #expect(rule.look(waited: nil, phase: phase) == .nothing)
        #expect(rule.look(waited: 1.99, phase: phase) == .nothing)
        let said = rule.look(waited: 2.0, phase: phase)
        guard case let .say(message, waited) = said else { Issue.record("\(said)"); return }
        #expect(message.contains(words) && waited == 2.0, "\(message)")
        #expect(rule.look(waited: 3.5, phase: phase) == .stillWaiting(3.5))
        #expect(rule.look(waited: 2.5, phase: .finishing) == .stillWaiting(2.5), "said once a take, whatever comes next")
        #expect(rule.look(waited: nil, phase: phase) == .nothing)
        var next = SlowDisk()
        if case .say = next.look(waited: 2.1, phase: .opening) {} else { Issue.record("a new take says it again") }
    }
}
