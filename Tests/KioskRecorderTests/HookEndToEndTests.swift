// Issue 32 through the binary: an `--on-take` hook that fails is tried again with back-off, across a
// kill -9 (the queue of hooks owed is saved in the output folder), and its take is kept from
// retention until the hook succeeds; `state` and `--check` say how many are pending. And
// docs/deploy.md's rclone recipe, its exact command, copying a take and its share folder.
// KIOSK_HOOK_BACKOFF=1 (test-only) makes the first wait 1 s instead of 10.
import Foundation
import Synchronization
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

@Suite("--on-take tried again across restarts, and the rclone recipe", .serialized)
struct HookEndToEndTests {
    static let fastBackoff = ["KIOSK_HOOK_BACKOFF": "1"]

    /// The hooks owed in the saved queue `file` (none while it is missing or unreadable).
    static func saved(_ file: String) -> [HookQueue.Entry] {
        HookQueue.entries(from: (try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
    }

    /// Waits up to `seconds` for the saved queue `file` to hold `count` hooks.
    static func waitForSaved(_ count: Int, in file: String, seconds: Double) {
        _ = eventually(seconds) { saved(file).count == count }
    }

    static func finished(_ r: RecorderProcess) -> [(name: String, status: Int, attempt: Int)] {
        r.events.compactMap { if case let .hookFinished(path, status, attempt, _) = $0 { (URL(fileURLWithPath: path).lastPathComponent, status, attempt) } else { nil } }
    }

    @Test("a hook that fails twice then succeeds runs three times, the booth killed (-9) and restarted between the second and third; --max-takes deletes its take only after the success")
    func retriedAcrossKill() throws {
        let folder = try testFolder("hook-retry")
        let takes = folder.appendingPathComponent("takes")
        let log = folder.appendingPathComponent("hook.log").path
        // Every run is logged; t1's fails until it is its third run.
        let command = #"echo "$KIOSK_TAKE_PATH" >> '"# + log + #"'; case "$KIOSK_TAKE_PATH" in */t1.mov) [ "$(grep -c '/t1.mov$' '"# + log + #"')" -ge 3 ];; esac"#
        let arguments = booth + ["--output-dir", takes.path, "--name-template", "t{n}.mov", "--session", "loop", "--max-takes", "1",
                                 "--on-take", command]
        let t1 = takes.appendingPathComponent("t1.mov").path, t2 = takes.appendingPathComponent("t2.mov").path
        let queueFile = takes.appendingPathComponent(".kiosk-recorder.hooks").path

        let first = try RecorderProcess(arguments, environment: Self.fastBackoff)
        try #require(first.wait(for: "ready") != nil, "\(first.stderr)")
        _ = try ServiceEndToEndTests.take(first, seconds: 0.5)
        first.command("useVideo")
        try #require(first.wait(for: "hookFinished") != nil, "\(first.rawLines) \(first.stderr)")
        _ = try ServiceEndToEndTests.take(first, seconds: 0.5, count: 2)
        first.command("useVideo")
        // t2's hook (at once) and t1's second try (1 s after its first).
        try #require(first.wait(for: "hookFinished", count: 3, timeout: 15) != nil, "\(first.rawLines) \(first.stderr)")
        first.command("state")
        try #require(first.wait(for: "state") != nil)
        // The queue saved after t2's success (the file worker writes it just after the event).
        Self.waitForSaved(1, in: queueFile, seconds: 3)
        first.kill(SIGKILL)
        _ = first.exitStatus()
        let before = Self.finished(first)
        #expect(before.filter { $0.name == "t1.mov" }.map(\.attempt) == [1, 2] && before.filter { $0.name == "t1.mov" }.allSatisfy { $0.status == 1 },
                "\(before)")
        #expect(before.filter { $0.name == "t2.mov" }.map { [$0.status, $0.attempt] } == [[0, 1]], "\(before)")
        if case let .state(_, _, _, _, _, _, pending, _, _, _, _)? = first.events.last(where: { $0.name == "state" }) {
            #expect(pending == 1, "t1 still owes its hook")
        } else { Issue.record("no state: \(first.rawLines)") }
        // t1 is kept (its hook is owed), t2 the newest; the saved queue says t1 was tried twice.
        #expect(!first.events.contains { $0.name == "takeDeleted" }, "\(first.rawLines)")
        #expect(FileManager.default.fileExists(atPath: t1) && FileManager.default.fileExists(atPath: t2))
        let saved = HookQueue.entries(from: try String(contentsOfFile: queueFile, encoding: .utf8))
        #expect(saved == [HookQueue.Entry(path: t1, duration: saved.first?.duration ?? 0, attempts: 2)], "\(saved)")

        // --check sees it pending (a warning, not a failure).
        let check = try run(["--check", "--camera", "test", "--microphone", "test", "--output-dir", takes.path, "--on-take", command])
        let checked = check.stdout.split(separator: "\n").compactMap { try? EventEncoder().decode(line: String($0)) }
        if case let .check(_, items)? = checked.first, let hooks = items.first(where: { $0.name == "hooks" }) {
            #expect(hooks.ok && hooks.warning && hooks.detail.hasPrefix("1 hook pending") && hooks.detail.contains("t1.mov"), "\(hooks)")
        } else { Issue.record("no hooks item: \(check.stdout) \(check.stderr)") }

        // The restarted booth runs what is owed at once: t1's third try succeeds, and only then
        // does retention (--max-takes 1) delete it.
        let second = try RecorderProcess(arguments, environment: Self.fastBackoff)
        try #require(second.wait(for: "ready") != nil, "\(second.stderr)")
        try #require(second.wait(for: "takeDeleted", timeout: 10) != nil, "\(second.rawLines) \(second.stderr)")
        let names = second.names
        #expect(Array(names.drop { $0 != "ready" }.prefix(3)) == ["ready", "hookFinished", "takeDeleted"], "\(second.rawLines)")
        #expect(Self.finished(second).map { [$0.name, String($0.status), String($0.attempt)] } == [["t1.mov", "0", "3"]], "\(second.rawLines)")
        #expect(second.events.contains(.takeDeleted(path: t1, reason: .maxTakes)), "\(second.rawLines)")
        second.command("state")
        try #require(second.wait(for: "state") != nil)
        if case let .state(_, _, _, _, _, _, pending, _, _, _, _)? = second.events.last(where: { $0.name == "state" }) { #expect(pending == 0) }
        second.command("quit")
        #expect(second.exitStatus() == 0)
        let runs = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(runs == [t1, t2, t1, t1] || runs == [t1, t1, t2, t1], "\(runs)")
        #expect(!FileManager.default.fileExists(atPath: t1) && FileManager.default.fileExists(atPath: t2))
        #expect(!FileManager.default.fileExists(atPath: queueFile), "nothing owed: no queue left")
    }

    /// docs/deploy.md's rclone lines: the remote's `rclone config create` and the `on-take` hook.
    static func recipe() throws -> (create: String, hook: String) {
        let lines = DeployDocTests.text.split(separator: "\n").map(String.init)
        let create = try #require(lines.first { $0.contains("rclone config create") }, "no rclone config create in docs/deploy.md")
        let hook = try #require(lines.first { $0.hasPrefix("on-take = rclone ") }, "no rclone on-take in docs/deploy.md")
        return (create.replacingOccurrences(of: "sudo -u kiosk ", with: ""), hook)
    }

    /// `rclone serve webdav` of `root` on a free loopback port: the process and its port.
    static func webdav(_ root: URL, config: String) throws -> (Process, Int) {
        for _ in 0..<20 {
            // A port of this test process's own for each server (two tests' servers once met on one
            // port: the second, refused, took the first's answer for its own).
            let port = 30000 + Int(getpid() % 2000) * 16 + servers.withLock { count in
                count += 1
                return count % 16
            }
            let p = try startWebdav(root, port: port, config: config)
            var answered = false
            _ = eventually(5) {
                answered = webdavServes(root, port: port)
                return answered || !p.isRunning
            }
            if answered { return (p, port) }
            if p.isRunning { p.terminate() }
        }
        throw RecipeFailure(description: "rclone serve webdav did not start")
    }

    /// The bucket a recipe's hook names: the first folder of the path after `remote:`.
    static func bucket(of hook: String, remote: String) -> String? {
        let parts: [String] = hook.components(separatedBy: remote + ":")
        guard parts.count > 1, let first = parts[1].split(separator: "/").first else { return nil }
        return String(first)
    }

    /// `rclone serve webdav` of `root` on loopback `port`, started (not yet answering).
    static func startWebdav(_ root: URL, port: Int, config: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/rclone")
        p.arguments = ["--config", config, "serve", "webdav", root.path, "--addr", "127.0.0.1:\(port)"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// The servers started in this test process so far (each its own port).
    static let servers = Mutex(0)

    /// Whether the server on `port` serves `root`: a probe file put there is what it answers (a
    /// server of another test on the port would answer 404), removed once seen.
    static func webdavServes(_ root: URL, port: Int) -> Bool {
        let probe = "probe-\(getpid())-\(port)"
        let file = root.appendingPathComponent(probe).path
        guard FileManager.default.createFile(atPath: file, contents: Data(probe.utf8)) else { return false }
        defer { try? FileManager.default.removeItem(atPath: file) }
        return (try? runProgram(["curl", "-s", "http://127.0.0.1:\(port)/\(probe)"]))?.stdout == probe
    }

    struct RecipeFailure: Error, CustomStringConvertible { let description: String }

    // The recipe is for an S3-compatible bucket; the test has none, so its remote (the same name) is
    // a WebDAV one: `rclone serve webdav` on loopback serving a folder. The doc's `config create`
    // line runs as written into a config of its own (it only writes the remote down); the hook runs
    // exactly as the doc's `on-take` line says, from a config file, through the booth.
    @Test("a take used while another take's hook runs owes its hook at once: the booth killed (-9) then, the next launch runs both")
    func owedBehindRunningHook() throws {
        let folder = try testFolder("hook-behind")
        let takes = folder.appendingPathComponent("takes")
        let log = folder.appendingPathComponent("hook.log").path, group = folder.appendingPathComponent("hook.pgid").path
        // t1's first run holds on (its process group written down, to end it with the booth); every
        // other run ends at once.
        let command = #"echo "$KIOSK_TAKE_PATH" >> '"# + log + #"'; case "$KIOSK_TAKE_PATH" in */t1.mov) [ "$(grep -c '/t1.mov$' '"# + log + #"')" -ge 2 ] || { ps -o pgid= $$ > '"# + group + #"'; sleep 30; };; esac"#
        let arguments = booth + ["--output-dir", takes.path, "--name-template", "t{n}.mov", "--session", "loop", "--on-take", command]
        let queueFile = takes.appendingPathComponent(".kiosk-recorder.hooks").path
        let first = try RecorderProcess(arguments, environment: Self.fastBackoff)
        try #require(first.wait(for: "ready") != nil, "\(first.stderr)")
        _ = try ServiceEndToEndTests.take(first, seconds: 0.5)
        first.command("useVideo")
        _ = try ServiceEndToEndTests.take(first, seconds: 0.5, count: 2)
        first.command("useVideo")
        try #require(first.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: 2) != nil, "\(first.rawLines)")
        // Both owed in the saved queue while t1's hook still runs.
        Self.waitForSaved(2, in: queueFile, seconds: 5)
        first.kill(SIGKILL)
        _ = first.exitStatus()
        if let pgid = Int32((try? String(contentsOfFile: group, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") {
            kill(-pgid, SIGKILL)
        }
        #expect(!first.names.contains("hookFinished"), "\(first.rawLines)")
        let saved = Self.saved(queueFile).map { URL(fileURLWithPath: $0.path).lastPathComponent }
        #expect(saved.sorted() == ["t1.mov", "t2.mov"], "\(saved)")
        let second = try RecorderProcess(arguments, environment: Self.fastBackoff)
        try #require(second.wait(for: "ready") != nil, "\(second.stderr)")
        try #require(second.wait(for: "hookFinished", count: 2, timeout: 10) != nil, "\(second.rawLines) \(second.stderr)")
        #expect(Set(Self.finished(second).map { "\($0.name) \($0.status)" }) == ["t1.mov 0", "t2.mov 0"], "\(second.rawLines)")
        second.command("quit")
        #expect(second.exitStatus() == 0)
    }

    @Test("docs/deploy.md's rclone recipe: its config create runs as written; its on-take line copies the take and its share folder to the remote (rclone serve webdav on loopback)")
    func rcloneRecipe() throws {
        let folder = try testFolder("hook-rclone")
        let (create, hook) = try Self.recipe()
        let docConfig = folder.appendingPathComponent("doc-rclone.conf").path
        let made = try runProgram(["/bin/sh", "-c", create], environment: ["RCLONE_CONFIG": docConfig, "PATH": "/usr/bin:/bin", "HOME": folder.path])
        #expect(made.status == 0, "\(create): \(made.stderr)")
        let words = create.split(separator: " ").map(String.init)
        let remote = try #require(words.drop { $0 != "create" }.dropFirst().first, "\(create)")
        let written = (try? String(contentsOfFile: docConfig, encoding: .utf8)) ?? ""
        #expect(written.contains("[\(remote)]") && written.contains("type = s3"), "\(written)")

        let root = folder.appendingPathComponent("bucket")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("rclone.conf").path
        let (server, port) = try Self.webdav(root, config: config)
        defer { server.terminate(); server.waitUntilExit() }
        let webdav = try runProgram(["rclone", "--config", config, "config", "create", remote, "webdav", "url=http://127.0.0.1:\(port)/", "vendor=other"])
        try #require(webdav.status == 0, "\(webdav.stderr)")

        let conf = folder.appendingPathComponent("kiosk.conf")
        try (hook + "\n").write(to: conf, atomically: true, encoding: .utf8)
        let shares = folder.appendingPathComponent("share").path
        let r = try RecorderProcess(booth + ["--config", conf.path, "--output-dir", folder.appendingPathComponent("takes").path,
                                             "--share-dir", shares, "--share-url", "https://bucket.example/s/{token}/index.html"],
                                    environment: ["RCLONE_CONFIG": config])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let (take, _, token, shareFolder) = try ShareEndToEndTests.takeAndUse(r)
        r.command("done")
        #expect(r.exitStatus(timeout: 30) == 0, "\(r.rawLines) \(r.stderr)")
        #expect(Self.finished(r).map { [String($0.status), String($0.attempt)] } == [["0", "1"]], "\(r.rawLines) \(r.stderr)")
        // In the bucket (the first folder of the remote's paths): the take under takes/<host>/, the
        // share folder under s/<token>/, byte for byte.
        let bucket = try #require(Self.bucket(of: hook, remote: remote), "\(hook)")
        let host = try runProgram(["hostname"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let files = FileManager.default.enumerator(atPath: root.path)?.allObjects.compactMap { $0 as? String } ?? []
        let copied = root.appendingPathComponent("\(bucket)/takes/\(host)/\(URL(fileURLWithPath: take).lastPathComponent)").path
        #expect(FileManager.default.contents(atPath: copied) == FileManager.default.contents(atPath: take), "\(files)")
        #expect(FileManager.default.contents(atPath: take)?.isEmpty == false)
        for name in ["video.mp4", "poster.jpg", "index.html"] {
            let there = root.appendingPathComponent("\(bucket)/s/\(token)/\(name)").path
            #expect(FileManager.default.contents(atPath: there) == FileManager.default.contents(atPath: shareFolder + "/" + name), "\(name): \(files)")
        }
    }
}
