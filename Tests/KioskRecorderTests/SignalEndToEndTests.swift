// The booth's signals however it is started (issue 41): from a clean parent, as systemd, a shell or
// Python start it (an empty mask, default dispositions), from a careless parent that blocked and
// ignored every handled signal, and from one that only ignored them (nohup's way, for all of them). The booth takes its signals over first thing in main, so both
// behave as documented. Before that, from a clean parent, SIGHUP, SIGUSR1 and SIGUSR2 killed it and
// SIGTERM reached SDL's handler: a thread started before the mask was set took them.
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

@Suite("signals, however the booth is started")
struct SignalEndToEndTests {
    static let parents: [ParentSignals] = [.clean, .blockedAndIgnored, .ignored]

    /// The handled signals as the bits of /proc's SigBlk and SigIgn (signal n is bit n-1).
    static let handledBits: UInt64 = ParentSignals.handled.reduce(0) { $0 | 1 << UInt64($1 - 1) }

    /// Each thread of `pid`: its name and its blocked and ignored signals' bits (/proc/PID/task/*/status).
    static func threadMasks(_ pid: pid_t) -> [(name: String, blocked: UInt64, ignored: UInt64)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { return nil }
            func field(_ name: String) -> String? {
                status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map {
                    $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
                }
            }
            guard let name = field("Name"), let blocked = field("SigBlk").flatMap({ UInt64($0, radix: 16) }),
                  let ignored = field("SigIgn").flatMap({ UInt64($0, radix: 16) }) else { return nil }
            return (name, blocked, ignored)
        }
    }

    /// What is wrong with the threads' masks of `pid`: a thread that does not block a handled
    /// signal, a handled signal ignored ("" when all is well). The signal watcher's own thread is
    /// the one taker: while it waits in sigwait the kernel shows the signals it waits for unblocked
    /// there.
    static func maskProblems(_ pid: pid_t) -> String {
        let threads = threadMasks(pid)
        let open = threads.filter { $0.name != "kiosk-signals" && $0.blocked & handledBits != handledBits }
            .map { "\($0.name) blocks \(String($0.blocked & handledBits, radix: 16)) of \(String(handledBits, radix: 16))" }
        let ignored = threads.filter { $0.ignored & handledBits != 0 }.map { "\($0.name) ignores \(String($0.ignored & handledBits, radix: 16))" }
        return (threads.isEmpty ? ["no threads read"] : []) + open + ignored == [] ? "" : "\(open + ignored) of \(threads.count) threads"
    }

    /// A booth from `parent`, ready.
    static func readyBooth(_ parent: ParentSignals, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> RecorderProcess {
        let r = try RecorderProcess(booth + arguments, environment: environment, parent: parent)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        return r
    }

    @Test("the launcher starts a child as asked: from a clean parent nothing blocked or ignored; from a careless one the handled signals both; from nohup's way, ignored",
          arguments: parents)
    func launcher(parent: ParentSignals) throws {
        // grep reads its own status (a shell would not do: dash changes its mask as it runs).
        let run = try runProgram(["/usr/bin/grep", "-E", "^Sig(Blk|Ign):", "/proc/self/status"], parent: parent)
        let values = run.stdout.split(separator: "\n").map { UInt64($0.split(separator: "\t").last ?? "", radix: 16) ?? 1 }
        #expect(values.count == 2, "\(run.stdout)")
        #expect(values.first.map { $0 & Self.handledBits } == (parent == .blockedAndIgnored ? Self.handledBits : 0), "SigBlk: \(run.stdout)")
        #expect(values.last.map { $0 & Self.handledBits } == (parent == .clean ? 0 : Self.handledBits), "SigIgn: \(run.stdout)")
    }

    @Test("every thread of a running booth blocks the handled signals and ignores none, in ready and mid-take", arguments: parents)
    func everyThreadBlocks(parent: ParentSignals) throws {
        let r = try Self.readyBooth(parent, ["--output", try testFolder("signals-masks-\(parent)").appendingPathComponent("take.mov").path])
        let pid = r.process.processIdentifier
        #expect(Self.maskProblems(pid) == "", "in ready")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil)
        // The take's threads started (the capture, the encoders, the writer).
        _ = eventually(10) { Self.threadMasks(pid).count > 5 }
        #expect(Self.threadMasks(pid).count > 5, "the take's threads are running: \(Self.threadMasks(pid).map(\.name))")
        #expect(Self.maskProblems(pid) == "", "mid-take")
        r.command("stop")
        #expect(r.wait(for: "recordingFinished") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
    }

    @Test("SIGUSR1 and SIGTSTP mid-take: recordingFinished with reason background, the booth lives; SIGUSR2 and SIGCONT bring ready back",
          arguments: parents)
    func background(parent: ParentSignals) throws {
        let r = try Self.readyBooth(parent, ["--output", try testFolder("signals-background-\(parent)").appendingPathComponent("take.mov").path])
        for (count, (away, back)) in [(SIGUSR1, SIGUSR2), (SIGTSTP, SIGCONT)].enumerated() {
            r.command("start")
            try #require(r.wait(for: "recordingStarted", count: count + 1) != nil, "\(r.rawLines)")
            try #require(r.waitRecorded(1), "\(r.rawLines)")
            r.kill(away)
            try #require(r.wait(for: "recordingFinished", count: count + 1) != nil, "signal \(away): \(r.rawLines) \(r.stderr)")
            let result = try #require(r.lastResult)
            #expect(result.reason == .background && result.success, "signal \(away): \(result)")
            #expect(try decodesCleanly(result.outputPath))
            if away == SIGTSTP {
                // Once the take is safe the booth stops itself, as SIGTSTP's default would have.
                #expect(eventually(5) { Self.processState(r.process.processIdentifier) == "T" }, "stopped after the take was safe")
            }
            r.kill(back)
            r.command("retake")
            // Ready with Start once the camera runs again (the signal and stdin are two channels).
            let ready = KioskEvent.state(mode: "ready", timer: "00:00", buttons: [.cancel, .start], orientation: .landscapeRight)
            #expect(eventually(10) {
                let states = r.names.filter { $0 == "state" }.count
                r.command("state")
                _ = r.wait(for: "state", count: states + 1, timeout: 2)
                return r.events.last?.withoutMicrophoneLevel == ready
            }, "after signal \(back): \(r.rawLines)")
        }
        #expect(r.process.isRunning)
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
    }

    /// The third field of /proc/PID/stat: R, S, T (stopped), …
    static func processState(_ pid: pid_t) -> String {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // The name in parentheses may hold spaces: the state follows its closing one.
        return stat.split(separator: ")").last.map { String($0.split(separator: " ").first ?? "") } ?? ""
    }

    @Test("SIGTERM and SIGINT mid-take: recordingFinished with reason signal, then terminated, exit 0",
          arguments: parents, [SIGTERM, SIGINT])
    func terminate(parent: ParentSignals, signal: Int32) throws {
        let r = try Self.readyBooth(parent, ["--output", try testFolder("signals-end-\(signal)-\(parent)").appendingPathComponent("take.mov").path])
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil)
        try #require(r.waitRecorded(1), "\(r.rawLines)")
        r.kill(signal)
        #expect(r.exitStatus() == 0, "\(r.stderr)")
        #expect(Array(r.names.suffix(2)) == ["recordingFinished", "terminated"], "\(r.rawLines)")
        let result = try #require(r.lastResult)
        #expect(result.reason == .signal && result.success, "\(result)")
        #expect(r.events.last == .terminated(signal: signal == SIGTERM ? "SIGTERM" : "SIGINT"))
        #expect(try decodesCleanly(result.outputPath))
    }

    @Test("SIGHUP in ready reloads: RELOADING=1 then READY=1, the new max-duration in force for the next take, the booth lives",
          arguments: parents)
    func reload(parent: ParentSignals) throws {
        let folder = try testFolder("signals-reload-\(parent)")
        let systemd = try NotifySocket(folder.appendingPathComponent("notify.sock").path)
        let config = folder.appendingPathComponent("booth.conf")
        let text = { (seconds: String) in "output = \(folder.appendingPathComponent("take.mov").path)\nmax-duration = \(seconds)\n" }
        try text("10").write(to: config, atomically: true, encoding: .utf8)
        let r = try Self.readyBooth(parent, ["--config", config.path], environment: ["NOTIFY_SOCKET": systemd.address])
        try #require(systemd.wait(for: "READY=1") != nil)
        try text("1.5").write(to: config, atomically: true, encoding: .utf8)
        r.kill(SIGHUP)
        #expect(systemd.wait(for: "RELOADING=1\nMONOTONIC_USEC=", prefix: true) != nil, "\(systemd.received.map(\.text))")
        #expect(systemd.wait(for: "READY=1", count: 2) != nil, "\(systemd.received.map(\.text))")
        r.command("start")
        #expect(r.wait(for: "recordingFinished", timeout: 10) != nil, "\(r.rawLines) \(r.stderr)")
        let result = try #require(r.lastResult)
        #expect(result.reason == .maxDuration && abs(result.duration - 1.5) <= result.lengthTolerance, "\(result)")
        #expect(r.process.isRunning)
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
    }

    @Test("SIGTERM while a 30 s hook runs: the booth exits 0 within 2 s, the hook still owed in the saved queue", arguments: parents)
    func hookOwed(parent: ParentSignals) throws {
        let folder = try testFolder("signals-hook-\(parent)")
        let takes = folder.appendingPathComponent("takes")
        let started = folder.appendingPathComponent("started").path
        let r = try Self.readyBooth(parent, ["--output-dir", takes.path, "--session", "loop", "--on-take", "touch '\(started)'; sleep 30"])
        let take = try ServiceEndToEndTests.take(r, seconds: 0.5)
        r.command("useVideo")
        try #require(eventually(10) { FileManager.default.fileExists(atPath: started) }, "the hook never ran: \(r.stderr)")
        let signalled = ProcessInfo.processInfo.systemUptime
        r.kill(SIGTERM)
        #expect(r.exitStatus(timeout: 15) == 0, "\(r.stderr)")
        let took = ProcessInfo.processInfo.systemUptime - signalled
        #expect(took < 2, "the booth took \(took) s to exit")
        // The hook's end (143, asked to end at once) may be said just after `terminated`.
        #expect(r.events.contains(.terminated(signal: "SIGTERM")), "\(r.rawLines)")
        let owed = HookEndToEndTests.saved(takes.appendingPathComponent(".kiosk-recorder.hooks").path)
        #expect(owed.map(\.path) == [take.outputPath], "\(owed)")
    }
}
