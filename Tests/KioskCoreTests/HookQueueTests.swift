// The `--on-take` hooks owed, with a virtual clock: the back-off between tries (10 s doubling, at
// most 15 min), `--hook-attempts`, one hook at a time in the order the takes came, the takes kept
// from retention until their hook exits 0, and the saved copy a restart reads back.
import Foundation
import KioskContract
import KioskCore
import Testing

@Suite("HookQueue: --on-take tried again with back-off, time passed in")
struct HookQueueTests {
    static let s: Int64 = 1_000_000_000

    @Test("the back-off: 10 s after the first failure, doubling, never more than 15 min", arguments: [
        (1, 10.0), (2, 20), (3, 40), (4, 80), (5, 160), (6, 320), (7, 640), (8, 900), (9, 900), (60, 900), (Int.max, 900),
    ] as [(Int, Double)])
    func backoff(attempt: Int, seconds: Double) {
        #expect(HookBackoff().delay(after: attempt) == seconds)
    }

    @Test("a shorter first wait (the tests' KIOSK_HOOK_BACKOFF) doubles the same way, under the same cap")
    func shorterBackoff() {
        #expect([1, 2, 3, 11, 12, 13].map { HookBackoff(first: 0.5).delay(after: $0) } == [0.5, 1, 2, 512, 900, 900])
    }

    /// A hook that fails `failures` times, driven by a clock that looks every second: the seconds at
    /// which each try starts.
    static func tries(failures: Int, limit: Int?, until end: Int64) -> (starts: [Int64], events: [KioskEvent], owed: Int) {
        var queue = HookQueue()
        queue.add(HookQueue.Entry(path: "/t/a.mov", duration: 2), now: 0)
        var starts: [Int64] = [], events: [KioskEvent] = []
        for second in 0...end {
            guard let run = queue.next(commands: [.take: "upload"], limit: limit, now: second * s) else { continue }
            starts.append(second)
            events += queue.ended(path: run.path, outcome: .exited(run.attempt <= failures ? 1 : 0), now: second * s)
        }
        return (starts, events, queue.pending)
    }

    @Test("a hook that fails twice runs three times: at once, 10 s later, 20 s after that; then it is no longer owed")
    func failsTwice() {
        let (starts, events, owed) = Self.tries(failures: 2, limit: nil, until: 3600)
        #expect(starts == [0, 10, 30])
        #expect(events == [.hookFinished(path: "/t/a.mov", status: 1, attempt: 1), .hookFinished(path: "/t/a.mov", status: 1, attempt: 2),
                           .hookFinished(path: "/t/a.mov", status: 0, attempt: 3)])
        #expect(owed == 0)
    }

    @Test("a hook that never succeeds: tries every 15 min once the doubling reaches it; --hook-attempts stops it, the take still owed")
    func neverSucceeds() {
        let (starts, _, owed) = Self.tries(failures: .max, limit: nil, until: 4 * 3600)
        #expect(Array(starts.prefix(9)) == [0, 10, 30, 70, 150, 310, 630, 1270, 2170])
        #expect(zip(starts.dropFirst(8), starts.dropFirst(9)).allSatisfy { $1 - $0 == 900 })
        #expect(owed == 1)
        let limited = Self.tries(failures: .max, limit: 3, until: 3600)
        #expect(limited.starts == [0, 10, 30] && limited.owed == 1)
        let once = Self.tries(failures: .max, limit: 1, until: 3600)
        #expect(once.starts == [0], "--hook-attempts 1: today's single try")
    }

    @Test("one hook at a time, the oldest due take first; a take waiting for its back-off lets the next one run")
    func oneAtATime() {
        var queue = HookQueue()
        queue.add(HookQueue.Entry(path: "/t/a.mov", duration: 1), now: 0)
        queue.add(HookQueue.Entry(path: "/t/b.mov", duration: 1), now: 0)
        let a = queue.next(commands: [.take: "c"], limit: nil, now: 0)
        #expect(a?.path == "/t/a.mov")
        #expect(queue.next(commands: [.take: "c"], limit: nil, now: 0) == nil, "a hook runs")
        _ = queue.ended(path: "/t/a.mov", outcome: .exited(7), now: 1 * Self.s)
        #expect(queue.next(commands: [.take: "c"], limit: nil, now: 1 * Self.s)?.path == "/t/b.mov")
        _ = queue.ended(path: "/t/b.mov", outcome: .exited(0), now: 2 * Self.s)
        #expect(queue.next(commands: [.take: "c"], limit: nil, now: 10 * Self.s) == nil, "a's next try is due at 11 s")
        #expect(queue.wait(for: "/t/a.mov", now: 10 * Self.s) == 1)
        let again = queue.next(commands: [.take: "c"], limit: nil, now: 11 * Self.s)
        #expect(again?.path == "/t/a.mov" && again?.attempt == 2)
    }

    @Test("retention keeps a take until its hook exits 0: a failure, a hook that could not start, a hook out of tries keep it; a take gone is dropped",
          arguments: [
            (HookOutcome.exited(0), false, ["hookFinished"]),
            (.exited(3), true, ["hookFinished"]),
            (.notStarted("--on-take: fork failed"), true, ["error"]),
            (.takeGone, false, []),
          ] as [(HookOutcome, Bool, [String])])
    func protection(outcome: HookOutcome, stillProtected: Bool, events: [String]) {
        var queue = HookQueue()
        queue.add(HookQueue.Entry(path: "/t/take-1.mov", duration: 2), now: 0)
        #expect(queue.protectedTakes == ["take-1.mov"])
        _ = queue.next(commands: [.take: "upload"], limit: 1, now: 0)
        #expect(queue.protectedTakes == ["take-1.mov"], "running")
        let said = queue.ended(path: "/t/take-1.mov", outcome: outcome, now: 0)
        #expect(said.map(\.name) == events)
        #expect(queue.protectedTakes.contains("take-1.mov") == stillProtected)
        #expect(queue.pending == (stillProtected ? 1 : 0))
    }

    @Test("a shared take's hook gets its share token and folder")
    func shareEnvironment() {
        var queue = HookQueue()
        queue.add(HookQueue.Entry(path: "/t/a.mov", duration: 3.25, shareToken: "Ab-9_x", shareFolder: "/srv/share/Ab-9_x"), now: 0)
        let run = queue.next(commands: [.take: "upload"], limit: nil, now: 0)
        #expect(run?.environment == ["KIOSK_TAKE_PATH": "/t/a.mov", "KIOSK_TAKE_DURATION": "3.25",
                                     "KIOSK_SHARE_TOKEN": "Ab-9_x", "KIOSK_SHARE_DIR": "/srv/share/Ab-9_x"])
    }

    @Test("the saved copy reads back after a restart: the attempt of the try that was running is counted, what is owed runs at once")
    func restart() {
        var before = HookQueue()
        before.add(HookQueue.Entry(path: "/t/a.mov", duration: 1), now: 0)
        before.add(HookQueue.Entry(path: "/t/b c\t\"d\".mov", duration: 2, shareToken: "tok", shareFolder: "/s/tok"), now: 0)
        _ = before.next(commands: [.take: "c"], limit: nil, now: 0)
        _ = before.ended(path: "/t/a.mov", outcome: .exited(1), now: 0)
        _ = before.next(commands: [.take: "c"], limit: nil, now: 1 * Self.s)
        // Killed here, b's first try running: the copy saved before that try says so.
        let saved = before.text
        let read = HookQueue.entries(from: saved + "not json\n{\"path\":\"relative.mov\",\"duration\":1,\"attempts\":0}\n")
        #expect(read == before.entries, "the lines that do not read are left out")
        #expect(read.map(\.attempts) == [1, 1])
        var after = HookQueue()
        after.load(read, now: 500 * Self.s)
        let first = after.next(commands: [.take: "c"], limit: nil, now: 500 * Self.s)
        #expect(first?.path == "/t/a.mov" && first?.attempt == 2, "at once: the back-off's clock did not survive the restart")
        #expect(after.protectedTakes == ["a.mov", "b c\t\"d\".mov"])
        #expect(HookQueue().text.isEmpty)
    }

    @Test("a deleted take's tombstone: --on-delete's command with its path and token, never given up by --hook-attempts, backed off on the virtual clock; its take's waiting upload is dropped, a running one ends first")
    func tombstone() {
        let commands: [HookKind: String] = [.take: "upload", .delete: "remove"]
        var queue = HookQueue()
        queue.add(HookQueue.Entry(path: "/t/a.mov", duration: 2, shareToken: "tok", shareFolder: "/s/tok"), now: 0)
        queue.add(HookQueue.Entry(path: "/t/b.mov", duration: 1), now: 0)
        // a's upload runs; b's waits behind it. Both are deleted now.
        let upload = queue.next(commands: commands, limit: 1, now: 0)
        #expect(upload?.path == "/t/a.mov" && upload?.hook == .take)
        queue.add(HookQueue.Entry(path: "/t/a.mov", duration: 0, shareToken: "tok", hook: .delete), now: 0)
        queue.add(HookQueue.Entry(path: "/t/b.mov", duration: 0, hook: .delete), now: 0)
        #expect(queue.entries.map { "\($0.name) \($0.kind)" } == ["a.mov take", "a.mov delete", "b.mov delete"], "b's upload is dropped, a's runs on")
        #expect(queue.protectedTakes == ["a.mov"] && queue.pending == 3)
        #expect(queue.next(commands: commands, limit: 1, now: 0) == nil, "one at a time: the tombstone waits for the running upload")
        #expect(queue.ended(path: "/t/a.mov", outcome: .exited(1), now: 0) == [.hookFinished(path: "/t/a.mov", status: 1, attempt: 1)])
        // a's upload is out of tries (--hook-attempts 1): its tombstone runs, then b's; each fails and backs off.
        var starts: [String] = []
        for second in Int64(0)...400 {
            guard let run = queue.next(commands: commands, limit: 1, now: second * Self.s) else { continue }
            #expect(run.hook == .delete && run.command == "remove")
            starts.append("\(second) \(run.attempt) \(run.path)")
            if run.path == "/t/a.mov" {
                #expect(run.environment == ["KIOSK_TAKE_PATH": "/t/a.mov", "KIOSK_SHARE_TOKEN": "tok"])
            } else {
                #expect(run.environment == ["KIOSK_TAKE_PATH": "/t/b.mov"])
            }
            let status = run.attempt <= 4 ? 1 : 0
            #expect(queue.ended(path: run.path, hook: .delete, outcome: .exited(status), now: second * Self.s)
                    == [.hookFinished(path: run.path, status: status, attempt: run.attempt, hook: .delete)])
        }
        // (The loop looks once a second and starts one try a look: b's follows a's a second later.)
        #expect(starts == ["0 1 /t/a.mov", "1 1 /t/b.mov", "10 2 /t/a.mov", "11 2 /t/b.mov", "30 3 /t/a.mov", "31 3 /t/b.mov",
                           "70 4 /t/a.mov", "71 4 /t/b.mov", "150 5 /t/a.mov", "151 5 /t/b.mov"], "\(starts)")
        #expect(queue.entries.map { "\($0.name) \($0.kind)" } == ["a.mov take"], "the tombstones are done; the upload out of tries stays")
        // Saved and read back: the tombstone keeps its kind; an on-take hook's line stays as it was.
        var saved = HookQueue()
        saved.add(HookQueue.Entry(path: "/t/c.mov", duration: 0, attempts: 2, shareToken: "tok2", hook: .delete), now: 0)
        #expect(saved.text == #"{"attempts":2,"duration":0,"hook":"delete","path":"/t/c.mov","shareToken":"tok2"}"# + "\n")
        #expect(HookQueue.entries(from: saved.text) == saved.entries)
        #expect(HookQueue.entries(from: #"{"attempts":0,"duration":1,"path":"/t/d.mov"}"#).first?.kind == .take)
        var without = HookQueue()
        without.add(HookQueue.Entry(path: "/t/c.mov", duration: 0, hook: .delete), now: 0)
        #expect(without.next(commands: [.take: "upload"], limit: nil, now: 0) == nil, "no --on-delete: the tombstone waits")
    }
}
