// `deleteTake` by a share token through the binary, with docs/deploy.md's rclone recipe (its
// `on-take` and `on-delete` lines exactly as written) against `rclone serve webdav` on loopback: the
// take, its thumbnail and share folder gone, the consent log's line, `takeDeleted` with reason
// `guest`, the library and `reel` without it, and the remote's copies gone once the tombstone ran;
// unknown and malformed tokens refused alike with nothing touched; a second delete answered as done.
// Then the remote down at the delete: the tombstone waits and is tried again, survives kill -9 and a
// restart, `--check`, `state` and the metrics say it is owed, and the copies go once the remote is
// back. KIOSK_HOOK_BACKOFF=1 (test-only) makes the first wait 1 s, and rclone's own retries (3
// rounds of 10 low-level tries, about 45 s against a closed port) are cut to one through its
// environment; the back-off itself is HookQueueTests.tombstone's, on a virtual clock.
import Foundation
import Testing
import KioskContract
import KioskCore
import KioskTestSupport

@Suite("deleteTake by share token, and its tombstone (--on-delete)", .serialized)
struct DeleteTakeEndToEndTests {
    typealias Operator = OperatorTakesEndToEndTests

    /// docs/deploy.md's `on-delete` line.
    static func deleteRecipe() throws -> String {
        try #require(DeployDocTests.text.split(separator: "\n").map(String.init).first { $0.hasPrefix("on-delete = ") }, "no on-delete in docs/deploy.md")
    }

    /// `rclone serve webdav` of `root` on `port` (loopback), once it answers.
    static func serve(_ root: URL, port: Int, config: String) throws -> Process {
        let p = try HookEndToEndTests.startWebdav(root, port: port, config: config)
        let answered = eventually(10) { HookEndToEndTests.webdavServes(root, port: port) }
        try #require(answered, "rclone serve webdav on \(port) did not answer")
        return p
    }

    /// The booth's world: the bucket's folder, the WebDAV server on it and the remote the recipe
    /// names, a config with the recipe's two lines.
    struct World {
        let folder: URL, takes: String, shares: String, root: URL, rcloneConfig: String, conf: String, port: Int, bucket: String
        var server: Process?

        init(_ name: String) throws {
            folder = try testFolder(name)
            takes = folder.appendingPathComponent("takes").path
            shares = folder.appendingPathComponent("share").path
            root = folder.appendingPathComponent("bucket-root")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            rcloneConfig = folder.appendingPathComponent("rclone.conf").path
            let (create, hook) = try HookEndToEndTests.recipe()
            let words = create.split(separator: " ").map(String.init)
            let remote = try #require(words.drop { $0 != "create" }.dropFirst().first)
            bucket = try #require(HookEndToEndTests.bucket(of: hook, remote: remote), "\(hook)")
            let (first, p) = try HookEndToEndTests.webdav(root, config: rcloneConfig)
            server = first
            port = p
            let made = try runProgram(["rclone", "--config", rcloneConfig, "config", "create", remote, "webdav", "url=http://127.0.0.1:\(port)/", "vendor=other"])
            try #require(made.status == 0, "\(made.stderr)")
            conf = folder.appendingPathComponent("kiosk.conf").path
            try (hook + "\n" + (try DeleteTakeEndToEndTests.deleteRecipe()) + "\n").write(toFile: conf, atomically: true, encoding: .utf8)
        }

        var socket: String { folder.appendingPathComponent("booth.sock").path }
        var metrics: String { folder.appendingPathComponent("kiosk.prom").path }
        var arguments: [String] {
            booth + ["--config", conf, "--output-dir", takes, "--session", "loop", "--library", "--share-dir", shares,
                     "--share-url", ShareEndToEndTests.template, "--metrics-file", metrics]
        }
        var environment: [String: String] {
            ["RCLONE_CONFIG": rcloneConfig, "KIOSK_HOOK_BACKOFF": "1", "RCLONE_RETRIES": "1", "RCLONE_LOW_LEVEL_RETRIES": "1"]
        }

        func start() throws -> RecorderProcess {
            let r = try RecorderProcess(arguments, environment: environment)
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            return r
        }

        /// The bucket's copies of the take at `take` and of the share folder `token`: whether each is there.
        func remote(_ take: String, _ token: String) throws -> (take: Bool, share: Bool) {
            let host = try runProgram(["hostname"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let copy = root.appendingPathComponent("\(bucket)/takes/\(host)/\(URL(fileURLWithPath: take).lastPathComponent)").path
            let page = root.appendingPathComponent("\(bucket)/s/\(token)/index.html").path
            return (FileManager.default.fileExists(atPath: copy), FileManager.default.fileExists(atPath: page))
        }

        mutating func stopServer() {
            server?.terminate()
            server?.waitUntilExit()
            server = nil
        }

        mutating func restartServer() throws {
            server = try DeleteTakeEndToEndTests.serve(root, port: port, config: rcloneConfig)
        }
    }

    static func finished(_ r: RecorderProcess, hook: HookKind) -> [(name: String, status: Int, attempt: Int)] {
        r.events.compactMap {
            if case let .hookFinished(path, status, attempt, kind) = $0, kind == hook { (URL(fileURLWithPath: path).lastPathComponent, status, attempt) } else { nil }
        }
    }

    /// A shared take, its upload (`--on-take`) done: its path and token.
    static func sharedAndUploaded(_ r: RecorderProcess, count: Int) throws -> (take: String, token: String, folder: String) {
        let shared = try ShareEndToEndTests.takeAndUse(r, count: count)
        r.command("done")
        #expect(r.waitForState { mode, _ in mode == "ready" })
        try #require(r.wait(for: "hookFinished", count: count, timeout: 60) != nil, "\(r.rawLines) \(r.stderr)")
        return (shared.take, shared.token, shared.folder)
    }

    static func consentLines(_ takes: String) -> [[String: String]] {
        let text = (try? String(contentsOfFile: takes + "/.kiosk-recorder.consent", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) }
    }

    @Test("deleteTake by token: the take, thumbnail, share folder and list line gone, takeDeleted reason guest, the consent log's line, the library and reel without it, the remote's copies gone by the tombstone (hookFinished hook delete); unknown, malformed and empty tokens refused alike, nothing touched; another take's token deletes only that take; a second delete answered as done")
    func deleteByToken() throws {
        var world = try World("delete-token")
        defer { world.stopServer() }
        let r = try world.start()
        let a = try Self.sharedAndUploaded(r, count: 1)
        let b = try Self.sharedAndUploaded(r, count: 2)
        #expect(Self.finished(r, hook: .take).map(\.status) == [0, 0], "\(r.rawLines) \(r.stderr)")
        #expect(try world.remote(a.take, a.token) == (true, true) && world.remote(b.take, b.token) == (true, true))
        let aName = URL(fileURLWithPath: a.take).lastPathComponent

        // Refused alike, with nothing touched: unknown (a token's shape), malformed, empty, a path's.
        let unknown = String(a.token.reversed()) == a.token ? "AAAAAAAAAAAAAAAAAAAAAAAA" : String(a.token.reversed())
        for (n, token) in [unknown, "../" + a.token, "", a.take, String(a.token.dropLast())].enumerated() {
            r.send(#"{"command":"deleteTake","token":"\#(token)","reason":"guest"}"#)
            #expect(r.wait(for: "error", count: n + 1) != nil, "\(token): \(r.names)")
        }
        let refusals = r.events.compactMap { if case let .error(code, message) = $0 { "\(code.rawValue) \(message)" } else { nil } }
        #expect(Set(refusals) == ["badCommand 'deleteTake': no take is shared under this token"] && refusals.count == 5, "\(refusals)")
        #expect(!r.names.contains("takeDeleted") && Operator.Closed.listed(world.takes).count == 2)
        #expect(FileManager.default.fileExists(atPath: a.take) && FileManager.default.fileExists(atPath: a.folder))
        #expect(Self.consentLines(world.takes).isEmpty)

        // A's token deletes A, and only A.
        r.send(#"{"command":"deleteTake","token":"\#(a.token)","reason":"guest"}"#)
        try #require(r.wait(for: "takeDeleted") != nil, "\(r.names) \(r.stderr)")
        #expect(r.events.contains(.takeDeleted(path: a.take, reason: .guest)))
        for gone in [a.take, world.takes + "/." + aName + ".thumb.jpg", a.folder] {
            #expect(!FileManager.default.fileExists(atPath: gone), "\(gone)")
        }
        #expect(FileManager.default.fileExists(atPath: b.take) && FileManager.default.fileExists(atPath: b.folder))
        #expect(Operator.Closed.listed(world.takes) == [URL(fileURLWithPath: b.take).lastPathComponent])
        let lines = Self.consentLines(world.takes)
        #expect(lines.count == 1 && lines.first?["take"] == aName && lines.first?["deleted"] == "guest" && lines.first?["time"]?.hasSuffix("Z") == true,
                "\(lines)")
        // The tombstone ran: the remote's copies of A gone, B's kept.
        try #require(r.wait(for: "hookFinished", count: 3, timeout: 60) != nil, "\(r.rawLines) \(r.stderr)")
        #expect(Self.finished(r, hook: .delete).map { "\($0.name) \($0.status) \($0.attempt)" } == ["\(aName) 0 1"], "\(r.rawLines) \(r.stderr)")
        #expect(r.rawLines.contains { $0.hasPrefix(#"{"event":"hookFinished""#) && $0.hasSuffix(#""attempt":1,"hook":"delete"}"#) }, "\(r.rawLines)")
        #expect(try world.remote(a.take, a.token) == (false, false))
        #expect(try world.remote(b.take, b.token) == (true, true))
        #expect(!FileManager.default.fileExists(atPath: world.takes + "/.kiosk-recorder.hooks"), "nothing owed")

        // The library and the film leave it out.
        r.command("openLibrary")
        #expect(Operator.library(r, shows: [b.take]))
        r.command("back")
        #expect(try Operator.filmed(world.takes, world.folder) == 1)

        // A second delete of A's token: done again, and nothing else.
        let said = r.count(of: "takeDeleted")
        r.send(#"{"command":"deleteTake","token":"\#(a.token)","reason":"guest"}"#)
        #expect(r.wait(for: "takeDeleted", count: said + 1) != nil, "\(r.names)")
        #expect(r.events.filter { $0 == .takeDeleted(path: a.take, reason: .guest) }.count == 2)
        #expect(Self.consentLines(world.takes).count == 1)
        r.command("state")
        #expect(r.wait(for: "state") != nil)
        #expect(Self.finished(r, hook: .delete).count == 1, "no second tombstone")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("the remote unreachable at the delete: the tombstone fails and is tried again, survives kill -9 and a restart; --check, state and the metrics say it is owed; the remote back, the copies go")
    func tombstoneDurable() throws {
        var world = try World("delete-durable")
        defer { world.stopServer() }
        let first = try world.start()
        let a = try Self.sharedAndUploaded(first, count: 1)
        let aName = URL(fileURLWithPath: a.take).lastPathComponent
        let queue = world.takes + "/.kiosk-recorder.hooks"
        #expect(try world.remote(a.take, a.token) == (true, true))
        world.stopServer()

        first.send(#"{"command":"deleteTake","token":"\#(a.token)"}"#)
        try #require(first.wait(for: "takeDeleted") != nil, "\(first.names) \(first.stderr)")
        #expect(first.events.contains(.takeDeleted(path: a.take, reason: .guest)))
        #expect(!FileManager.default.fileExists(atPath: a.take))
        // It fails (the remote is down), and is tried again after the back-off.
        try #require(first.wait(for: "hookFinished", count: 3, timeout: 90) != nil, "\(first.rawLines) \(first.stderr)")
        let failed = Self.finished(first, hook: .delete)
        #expect(failed.count >= 2 && failed.allSatisfy { $0.name == aName && $0.status != 0 } && failed.map(\.attempt) == Array(1...failed.count), "\(failed)")
        let saved = HookEndToEndTests.saved(queue)
        #expect(saved.count == 1 && saved.first?.kind == .delete && saved.first?.path == a.take && saved.first?.shareToken == a.token, "\(saved)")
        first.kill(SIGKILL)
        _ = first.exitStatus()

        // --check says it is owed.
        let check = try run(["--check", "--camera", "test", "--microphone", "test", "--config", world.conf, "--output-dir", world.takes],
                            environment: world.environment)
        let checked = check.stdout.split(separator: "\n").compactMap { try? EventEncoder().decode(line: String($0)) }
        if case let .check(_, items)? = checked.first, let hooks = items.first(where: { $0.name == "hooks" }) {
            #expect(hooks.ok && hooks.warning && hooks.detail.hasPrefix("1 hook pending") && hooks.detail.contains("1 of them a deleted take's --on-delete (\(aName))"),
                    "\(hooks)")
        } else { Issue.record("no hooks item: \(check.stdout) \(check.stderr)") }

        // Restarted with the remote still down: tried at once (its count goes on), owed in state and the metrics.
        let second = try world.start()
        try #require(second.wait(for: "hookFinished", timeout: 60) != nil, "\(second.rawLines) \(second.stderr)")
        let again = Self.finished(second, hook: .delete)
        #expect(again.first.map { $0.status != 0 && $0.attempt > failed.count } == true, "\(again) after \(failed)")
        #expect(second.askState(timeout: 10) { reply in
            if case let .state(_, _, _, _, _, _, pending, _, _, _, _) = reply, pending == 1 { true } else { nil }
        })
        #expect(eventually(10) { ((try? String(contentsOfFile: world.metrics, encoding: .utf8)) ?? "").split(separator: "\n").contains("kiosk_hooks_pending 1") },
                "\((try? String(contentsOfFile: world.metrics, encoding: .utf8)) ?? "")")
        #expect(try world.remote(a.take, a.token) == (true, true), "the remote is down: its copies are still there")

        // The remote is back: the next try deletes the copies and the debt ends.
        try world.restartServer()
        #expect(eventually(120) { Self.finished(second, hook: .delete).contains { $0.status == 0 } }, "\(second.rawLines) \(second.stderr)")
        #expect(try world.remote(a.take, a.token) == (false, false))
        #expect(eventually(10) { !FileManager.default.fileExists(atPath: queue) })
        #expect(second.askState(timeout: 10) { reply in
            if case let .state(_, _, _, _, _, _, pending, _, _, _, _) = reply, pending == 0 { true } else { nil }
        })
        #expect(eventually(10) { ((try? String(contentsOfFile: world.metrics, encoding: .utf8)) ?? "").split(separator: "\n").contains("kiosk_hooks_pending 0") })
        second.command("quit")
        #expect(second.exitStatus() == 0)
    }
}
