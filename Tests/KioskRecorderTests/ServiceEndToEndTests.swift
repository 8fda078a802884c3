// The booth as a service, through the binary: an output folder with a name per take, recovery at
// launch, retention, idle reset.
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

@Suite("the booth as a service: output folder, recovery, retention, idle reset", .serialized)
struct ServiceEndToEndTests {
    /// One take in a booth already at `ready`: Start, until the booth's timer shows `seconds` (whole
    /// seconds; under one, until its writer has that much picture), Stop, `recordingFinished`. Its
    /// result.
    static func take(_ r: RecorderProcess, seconds: Double = 1, count: Int = 1) throws -> RecordingResult {
        r.command("start")
        try #require(r.wait(for: "recordingStarted", count: count) != nil, "\(r.rawLines) \(r.stderr)")
        try #require(seconds < 1 ? r.waitForPictures(seconds) : r.waitRecorded(seconds), "\(r.rawLines)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished", count: count) != nil, "\(r.rawLines)")
        let results = r.events.compactMap { if case let .recordingFinished(result) = $0 { result } else { nil } }
        return results[count - 1]
    }

    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("--output-dir: each take under the template's name with a counter that survives restarts and never collides")
    func namesAcrossRestarts() throws {
        let folder = try testFolder("service-names").appendingPathComponent("takes")
        // A file already holding the second take's name: that take becomes guest-2-2.mp4.
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("someone else's".utf8).write(to: folder.appendingPathComponent("guest-2.mp4"))
        var paths: [String] = []
        for _ in 0..<3 {
            let r = try RecorderProcess(booth + ["--output-dir", folder.path, "--name-template", "guest-{n}.mp4"])
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            let result = try Self.take(r, seconds: 0.6)
            #expect(result.success)
            r.command("useVideo")
            #expect(r.exitStatus() == 0)
            guard case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path)? = r.events.last else {
                Issue.record("\(r.rawLines)"); continue
            }
            #expect(path == result.outputPath)
            paths.append(path)
        }
        #expect(paths.map { URL(fileURLWithPath: $0).lastPathComponent } == ["guest-1.mp4", "guest-2-2.mp4", "guest-3.mp4"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("guest-2.mp4")) == Data("someone else's".utf8))
        for path in paths { #expect(try decodesCleanly(path), "\(path)") }
        // No markers left: every take was used.
        let hidden = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".recording") }
        #expect(hidden.isEmpty, "\(hidden)")
    }

    @Test("the default template: take-YYYYmmdd-HHMMSS-n.mov, 0600; --output with --output-dir, and retention without it, exit 2")
    func defaultTemplateAndUsage() throws {
        let folder = try testFolder("service-default")
        let r = try RecorderProcess(booth + ["--output-dir", folder.path, "--session", "loop"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let result = try Self.take(r, seconds: 0.5)
        let name = URL(fileURLWithPath: result.outputPath).lastPathComponent
        #expect(name.range(of: #"^take-\d{8}-\d{6}-1\.mov$"#, options: .regularExpression) != nil, "\(name)")
        let mode = try FileManager.default.attributesOfItem(atPath: result.outputPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // A second booth on the same folder is refused, naming the first.
        let second = try run(booth + ["--output-dir", folder.path])
        #expect(second.status == 2 && second.stderr.contains("pid \(r.process.processIdentifier)"), "\(second.stderr)")
        r.command("quit")
        #expect(r.exitStatus() == 0)

        let both = try run(booth + ["--output-dir", folder.path, "--output", folder.appendingPathComponent("x.mov").path])
        #expect(both.status == 2 && both.stderr.contains("--output and --output-dir"), "\(both.stderr)")
        let retention = try run(booth + ["--max-takes", "3"])
        #expect(retention.status == 2 && retention.stderr.contains("--max-takes needs --output-dir"), "\(retention.stderr)")
        let file = folder.appendingPathComponent("plain-file")
        try Data().write(to: file)
        let notFolder = try run(booth + ["--output-dir", file.path])
        #expect(notFolder.status == 2 && notFolder.stderr.contains("is not a folder"), "\(notFolder.stderr)")
    }

    @Test("recovery at launch: a take cut by kill -9 is reported (recordingRecovered) before ready, kept, and joins the folder's takes")
    func recoveryAtLaunch() throws {
        let folder = try testFolder("service-recovery")
        let r = try RecorderProcess(booth + ["--output-dir", folder.path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil)
        guard case let .recordingStarted(path, _)? = r.events.last else { Issue.record("\(r.rawLines)"); return }
        #expect(r.waitRecorded(2))
        r.kill(SIGKILL)
        _ = r.exitStatus()
        let marker = folder.appendingPathComponent("." + URL(fileURLWithPath: path).lastPathComponent + ".recording").path
        #expect(FileManager.default.fileExists(atPath: marker))

        let next = try RecorderProcess(booth + ["--output-dir", folder.path, "--max-takes", "1"])
        try #require(next.wait(for: "ready") != nil, "\(next.stderr)")
        #expect(next.names.prefix(2) == ["recordingRecovered", "ready"], "\(next.rawLines)")
        guard case let .recordingRecovered(recovered, duration)? = next.events.first else { return }
        #expect(recovered == path && duration >= 1.0 && duration <= 2.5, "\(recovered) \(duration)")
        #expect(try decodesCleanly(recovered))
        #expect(!FileManager.default.fileExists(atPath: marker))
        // The next take is numbered after it and, with --max-takes 1, retention deletes the recovered
        // take only once the new one is accepted.
        let result = try Self.take(next, seconds: 0.5)
        #expect(URL(fileURLWithPath: result.outputPath).lastPathComponent.hasSuffix("-3.mov"), "\(result.outputPath)")
        #expect(FileManager.default.fileExists(atPath: recovered), "not deleted while the new take awaits a decision")
        next.command("useVideo")
        #expect(next.exitStatus() == 0)
        #expect(next.events.contains(.takeDeleted(path: recovered, reason: .maxTakes)), "\(next.rawLines)")
        #expect(try Self.names(in: folder) == [URL(fileURLWithPath: result.outputPath).lastPathComponent])
    }

    @Test("retention by --max-takes in a loop session: the oldest accepted take goes after each Use Video, never one awaiting review")
    func retentionMaxTakes() throws {
        let folder = try testFolder("service-max-takes")
        let r = try RecorderProcess(booth + ["--output-dir", folder.path, "--name-template", "t{n}.mov", "--session", "loop",
                                             "--max-takes", "2"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        for k in 1...3 {
            _ = try Self.take(r, seconds: 0.4, count: k)
            // While the take awaits review nothing is deleted: the folder holds every take so far.
            let present = try Self.names(in: folder)
            #expect(present.count == min(k, 3), "take \(k): \(present)")
            r.command("useVideo")
            try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: k) != nil)
        }
        // Retention runs on the file worker after the hand-over.
        #expect(r.wait(for: "takeDeleted") != nil, "\(r.rawLines)")
        #expect(eventually { (try? Self.names(in: folder)) == ["t2.mov", "t3.mov"] })
        let deleted = r.events.compactMap { if case let .takeDeleted(path, reason) = $0 { (URL(fileURLWithPath: path).lastPathComponent, reason) } else { nil } }
        #expect(deleted.map(\.0) == ["t1.mov"] && deleted.allSatisfy { $0.1 == .maxTakes }, "\(r.rawLines)")
        #expect(try Self.names(in: folder) == ["t2.mov", "t3.mov"])
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("retention by --keep-free (more than the disk has): older accepted takes go, the newest stays; by --max-age at launch with a trusted clock")
    func retentionKeepFreeAndMaxAge() throws {
        let folder = try testFolder("service-keep-free")
        let r = try RecorderProcess(booth + ["--output-dir", folder.path, "--name-template", "k{n}.mov", "--session", "loop",
                                             "--keep-free", "1000000G"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        for k in 1...2 {
            _ = try Self.take(r, seconds: 0.4, count: k)
            r.command("useVideo")
            try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: k) != nil)
        }
        #expect(r.wait(for: "takeDeleted") != nil, "\(r.rawLines)")
        #expect(eventually { (try? Self.names(in: folder)) == ["k2.mov"] })
        #expect(r.events.contains(.takeDeleted(path: folder.appendingPathComponent("k1.mov").path, reason: .keepFree)), "\(r.rawLines)")
        #expect(try Self.names(in: folder) == ["k2.mov"])
        r.command("quit")
        #expect(r.exitStatus() == 0)

        // An accepted take from ten days ago (the list says when), and one from now.
        let old = folder.appendingPathComponent("k2.mov").path
        let now = Int(Date().timeIntervalSince1970)
        try FileManager.default.copyItem(atPath: old, toPath: folder.appendingPathComponent("k5.mov").path)
        try "2\tk2.mov\t\(now - 10 * 86400)\n5\tk5.mov\t\(now)\n"
            .write(to: folder.appendingPathComponent(".kiosk-recorder.takes"), atomically: true, encoding: .utf8)
        // The clock vouched for: the old take goes at launch, before ready.
        let trusted = try RecorderProcess(booth + ["--output-dir", folder.path, "--max-age", "7d"], environment: ["KIOSK_CLOCK_TRUSTED": "1"])
        try #require(trusted.wait(for: "ready") != nil, "\(trusted.stderr)")
        #expect(trusted.names.prefix(2) == ["takeDeleted", "ready"], "\(trusted.rawLines)")
        #expect(trusted.events.first == .takeDeleted(path: old, reason: .maxAge))
        trusted.command("quit")
        #expect(trusted.exitStatus() == 0)
        #expect(try Self.names(in: folder) == ["k5.mov"])
    }

    @Test("idle reset, use, in a loop session: the finished screen untouched for --idle-timeout is used (state queries do not wake it) and the booth is ready again")
    func idleUse() throws {
        let folder = try testFolder("service-idle-use")
        let r = try RecorderProcess(booth + ["--output-dir", folder.path, "--session", "loop", "--idle-timeout", "1.5"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let result = try Self.take(r, seconds: 0.5)
        let finished = try #require(r.wait(for: "recordingFinished"))
        // `state` asked again and again (every 50 ms) is not a guest: the clock runs on. (The
        // rule's own timing is IdleRuleTests', on a virtual clock.)
        #expect(r.askState(timeout: 10) { _ in r.names.contains("idleReset") ? true : nil }, "\(r.rawLines)")
        let reset = try #require(r.wait(for: "idleReset"), "\(r.rawLines)")
        #expect(reset - finished >= 1.4, "idle reset after \(reset - finished) s")
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath") != nil)
        let after = r.events.drop { $0.name != "idleReset" }.map(\.name).filter { $0 != "state" }
        #expect(after.prefix(2) == ["idleReset", "videoRecorderDidFinishRecordingVideoWithOutputPath"], "\(after)")
        #expect(r.events.contains(.idleReset(action: .use)))
        #expect(FileManager.default.fileExists(atPath: result.outputPath))
        guard case let .state(mode, _, _, _, _, _, _, _, _, _, _)? = r.stateReply() else { Issue.record("no state"); return }
        #expect(mode == "ready")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("idle reset, discard, in a once session: a paused review is closed, the take deleted, Cancel reported, exit 0; a press restarts the clock")
    func idleDiscard() throws {
        let folder = try testFolder("service-idle-discard")
        let r = try RecorderProcess(booth + ["--output-dir", folder.path, "--idle-timeout", "1.2", "--idle-action", "discard"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let result = try Self.take(r, seconds: 2)
        let finished = try #require(r.wait(for: "recordingFinished"))
        // The guest plays the take and pauses it a second in, past the idle timeout since the take
        // finished: the clock starts again from the pause. (The rule's own timing is IdleRuleTests',
        // on a virtual clock.)
        r.command("playVideo")
        try #require(r.wait(for: "playbackStarted") != nil)
        #expect(r.askState(timeout: 10) { reply in
            guard case let .state(mode, timer, _, _, _, _, _, _, _, _, _) = reply, mode == "playing" else { return false }
            return (RecorderProcess.seconds(timer) ?? 0) >= 1 ? true : nil
        }, "\(r.rawLines)")
        r.send(#"{"command":"tap","x":400,"y":100}"#)
        let paused = ProcessInfo.processInfo.systemUptime
        #expect(paused - finished > 1, "paused \(paused - finished) s after the take finished")
        let reset = try #require(r.wait(for: "idleReset", timeout: 10), "\(r.rawLines)")
        #expect(reset - paused >= 1.1, "idle reset \(reset - paused) s after the pause")
        #expect(r.exitStatus() == 0)
        let after = Array(r.names.drop { $0 != "idleReset" })
        #expect(after == ["idleReset", "playbackFinished", "videoRecorderDidCancelRecordingVideo"], "\(r.rawLines)")
        #expect(!FileManager.default.fileExists(atPath: result.outputPath))
        #expect(try Self.names(in: folder).isEmpty)
    }

    @Test("--on-take: runs after each accepted take with its environment, its output on stderr, the booth answering state meanwhile (well before the hook ends); a failed hook (one try: --hook-attempts 1) keeps its take from retention")
    func hook() throws {
        let folder = try testFolder("service-hook")
        let log = folder.appendingPathComponent("hook.log").path
        let takes = folder.appendingPathComponent("takes")
        // The first take's hook fails (exit 3); every hook waits until the test says go (a file named
        // after its take, at most 30 s) and says what it was given.
        let go = folder.appendingPathComponent("go-").path
        let command = #"echo "hook says hello"; n=0; while [ ! -e ""# + go + #"${KIOSK_TAKE_PATH##*/}" ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n+1)); done; "#
            + #"printf '%s %s\n' "$KIOSK_TAKE_PATH" "$KIOSK_TAKE_DURATION" >> "#
            + log + #"; read line && exit 9; case "$KIOSK_TAKE_PATH" in *t1.mov) exit 3;; esac"#
        let r = try RecorderProcess(booth + ["--output-dir", takes.path, "--name-template", "t{n}.mov", "--session", "loop",
                                             "--max-takes", "1", "--on-take", command, "--hook-attempts", "1"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        var results: [RecordingResult] = []
        for k in 1...3 {
            results.append(try Self.take(r, seconds: 0.5, count: k))
            r.command("useVideo")
            try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: k) != nil)
            // While the hook runs (it has said hello, and waits for the test's go) the booth answers:
            // a booth that waited on its hook would not, until the go it never gets.
            #expect(r.waitForOutput(timeout: 10) { r.stderr.components(separatedBy: "hook says hello").count > k }, "\(r.stderr)")
            #expect(r.stateReply() != nil, "no state while the hook ran: \(r.rawLines)")
            #expect(r.count(of: "hookFinished") == k - 1, "\(r.rawLines)")
            #expect(FileManager.default.createFile(atPath: go + URL(fileURLWithPath: results[k - 1].outputPath).lastPathComponent, contents: Data()))
            try #require(r.wait(for: "hookFinished", count: k, timeout: 20) != nil, "\(r.rawLines) \(r.stderr)")
        }
        let finished = r.events.compactMap { if case let .hookFinished(path, status, 1, _) = $0 { (URL(fileURLWithPath: path).lastPathComponent, status) } else { nil } }
        #expect(finished.map(\.0) == ["t1.mov", "t2.mov", "t3.mov"] && finished.map(\.1) == [3, 0, 0], "\(finished)")
        // Each hook saw its own take and its length; stdin was /dev/null (read found nothing).
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        for (line, result) in zip(lines, results) {
            let parts = line.split(separator: " ")
            #expect(parts.count == 2 && String(parts[0]) == result.outputPath, "\(line)")
            #expect(abs((Double(parts.last ?? "") ?? -1) - result.duration) < 0.002, "\(line) vs \(result.duration)")
        }
        // Its stdout went to stderr, never among the events.
        #expect(r.said("hook says hello") && !r.rawLines.contains { $0.contains("hook says hello") })
        // Retention (max 1): t2 went after t3 was accepted; t1's hook failed, so t1 stays.
        #expect(r.events.contains(.takeDeleted(path: takes.appendingPathComponent("t2.mov").path, reason: .maxTakes)), "\(r.rawLines)")
        #expect(!r.events.contains { if case let .takeDeleted(path, _) = $0 { path.hasSuffix("t1.mov") } else { false } })
        #expect(try Self.names(in: takes) == ["t1.mov", "t3.mov"])
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("--on-take in a once session: the exit waits for the hook")
    func hookBeforeExit() throws {
        let folder = try testFolder("service-hook-once")
        let done = folder.appendingPathComponent("done").path
        let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("take.mov").path,
                                             "--on-take", "sleep 0.7; touch '\(done)'"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        _ = try Self.take(r, seconds: 0.5)
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        #expect(FileManager.default.fileExists(atPath: done))
        #expect(Array(r.names.suffix(2)) == ["videoRecorderDidFinishRecordingVideoWithOutputPath", "hookFinished"], "\(r.rawLines)")
    }

    @Test("--on-take and SIGTERM in ready while the hook runs: the hook is asked to end (its process group gets SIGTERM, its end said with 143) and the booth exits 0 then, without waiting for the hook's own end")
    func hookEndedBySignal() throws {
        let folder = try testFolder("service-hook-signal")
        let started = folder.appendingPathComponent("started").path
        let r = try RecorderProcess(booth + ["--output-dir", folder.appendingPathComponent("takes").path, "--session", "loop",
                                             "--on-take", "touch '\(started)'; sleep 30"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        _ = try Self.take(r, seconds: 0.5)
        r.command("useVideo")
        _ = eventually(10) { FileManager.default.fileExists(atPath: started) }
        try #require(FileManager.default.fileExists(atPath: started), "the hook never ran: \(r.stderr)")
        let signalled = ProcessInfo.processInfo.systemUptime
        r.kill(SIGTERM)
        #expect(r.exitStatus(timeout: 15) == 0, "\(r.stderr)")
        // The hook would run 30 s: a booth that waited for it would still be there.
        #expect(ProcessInfo.processInfo.systemUptime - signalled < 10)
        let ends = r.events.compactMap { if case let .hookFinished(_, status, _, _) = $0 { status } else { nil } }
        #expect(ends == [128 + Int(SIGTERM)], "\(r.rawLines)")
    }
}

