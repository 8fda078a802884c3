// The output folder under a hostile hour (issue 41), through the binary: names a template could make
// with a tab, a newline or a '/', a list of takes that names files the booth never made, a counter
// behind the takes. Retention deletes only what the booth made; no number is handed out twice.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("the output folder under a hostile hour")
struct HostileFolderEndToEndTests {
    /// A loop booth on `folder` (`t{n}.mov`), ready.
    static func folderBooth(_ folder: URL, _ extra: [String] = []) throws -> RecorderProcess {
        let r = try RecorderProcess(booth + ["--output-dir", folder.path, "--name-template", "t{n}.mov", "--session", "loop"] + extra)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        return r
    }

    /// `count` takes, each used, in a running loop booth (the `k`th to `k + count - 1`th of this run).
    static func usedTakes(_ r: RecorderProcess, count: Int, from k: Int = 1) throws -> [String] {
        try (k..<k + count).map { n in
            let result = try ServiceEndToEndTests.take(r, seconds: 0.3, count: n)
            r.command("useVideo")
            try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: n) != nil, "\(r.rawLines)")
            return URL(fileURLWithPath: result.outputPath).lastPathComponent
        }
    }

    static func deleted(_ r: RecorderProcess) -> [String] {
        r.events.compactMap { if case let .takeDeleted(path, _) = $0 { URL(fileURLWithPath: path).lastPathComponent } else { nil } }
    }

    @Test("a template with a tab, a newline or a field that makes one or a '/' (%t, %n, %D, %x, %Ex) exits 2 naming --name-template; --photo-template too",
          arguments: ["notes.txt\t{n}.mov", "a\n{n}.mov", "take-%t{n}.mov", "take-%n{n}.mov", "take-%D-{n}.mov", "take-%x-{n}.mov",
                      "take-%Ex-{n}.mov", "take-%-D{n}.mov"])
    func badTemplate(template: String) throws {
        let folder = try testFolder("hostile-template")
        for option in ["--name-template", "--photo-template"] {
            let value = option == "--photo-template" ? template.replacingOccurrences(of: ".mov", with: ".jpg") : template
            let r = try run(booth + ["--output-dir", folder.path, option, value])
            #expect(r.status == 2, "\(option) \(value): \(r.stderr)")
            #expect(r.stderr.hasPrefix("kiosk-recorder: \(option)"), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 2, "the message on one line, then the hint: \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        // `check` says the same.
        let checked = try run(["check", "--camera", "test", "--microphone", "none", "--output-dir", folder.path, "--name-template", template])
        #expect(checked.status == 2 && checked.stderr.contains("--name-template"), "\(checked.stderr)")
    }

    @Test("a list of takes naming files the booth never made (a stray file, a link, another user's file, a name with a tab): retention leaves them alone, deletes only takes")
    func listNamesStrays() throws {
        let folder = try testFolder("hostile-list").appendingPathComponent("takes")
        let first = try Self.folderBooth(folder)
        #expect(try Self.usedTakes(first, count: 2) == ["t1.mov", "t2.mov"])
        first.command("quit")
        #expect(first.exitStatus() == 0)
        // What a damaged list (or the old booth's name with a tab) could name.
        let victim = folder.deletingLastPathComponent().appendingPathComponent("victim.mov")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("t1.mov"), to: victim)
        try Data("the operator's notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.mov"), withDestinationURL: victim)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("t1.mov"), to: folder.appendingPathComponent("other.mov"))
        #expect(chown(folder.appendingPathComponent("other.mov").path, 65534, 65534) == 0)
        let list = folder.appendingPathComponent(".kiosk-recorder.takes")
        try ("1\tnotes.txt\t1.mov\t-\n2\tlink.mov\t-\n3\tother.mov\t-\n4\tnotes.txt\n5.mov\t-\n"
             + "6\tt1.mov\t-\n7\tt2.mov\t-\n").write(to: list, atomically: true, encoding: .utf8)
        try "8\n".write(to: folder.appendingPathComponent(".kiosk-recorder.counter"), atomically: true, encoding: .utf8)

        let next = try Self.folderBooth(folder, ["--max-takes", "1"])
        let names = try Self.usedTakes(next, count: 1)
        #expect(names == ["t8.mov"])
        next.command("quit")
        #expect(next.exitStatus() == 0)
        #expect(Self.deleted(next) == ["t1.mov", "t2.mov"], "\(next.rawLines) \(next.stderr)")
        for stray in ["notes.txt", "link.mov", "other.mov"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(stray).path), "\(stray) kept")
        }
        #expect(FileManager.default.fileExists(atPath: victim.path))
        #expect(try Data(contentsOf: folder.appendingPathComponent("notes.txt")) == Data("the operator's notes".utf8))
        #expect(next.stderr.contains("is no take of the booth's; left alone"), "\(next.stderr)")
        // The list holds the one take left, one line for it.
        #expect(try String(contentsOf: list, encoding: .utf8).split(separator: "\n").map { $0.split(separator: "\t").prefix(2).joined(separator: " ") }
                == ["8 t8.mov"])
    }

    @Test("a counter behind the takes (1, with takes 1 to 3 listed): the next takes are numbered past them, no fresh take deleted, no number twice")
    func staleCounter() throws {
        let folder = try testFolder("hostile-counter").appendingPathComponent("takes")
        let first = try Self.folderBooth(folder)
        #expect(try Self.usedTakes(first, count: 3) == ["t1.mov", "t2.mov", "t3.mov"])
        first.command("quit")
        #expect(first.exitStatus() == 0)
        try "1\n".write(to: folder.appendingPathComponent(".kiosk-recorder.counter"), atomically: true, encoding: .utf8)

        let next = try Self.folderBooth(folder, ["--max-takes", "3"])
        #expect(try Self.usedTakes(next, count: 2) == ["t4.mov", "t5.mov"])
        next.command("quit")
        #expect(next.exitStatus() == 0)
        #expect(Self.deleted(next) == ["t1.mov", "t2.mov"], "\(next.rawLines)")
        #expect(try ServiceEndToEndTests.names(in: folder) == ["t3.mov", "t4.mov", "t5.mov"])
        let numbers = try String(contentsOf: folder.appendingPathComponent(".kiosk-recorder.takes"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: "\t")[0] }
        #expect(numbers == ["3", "4", "5"])
        // A counter file lost too: the names in the folder alone keep the numbers going.
        try FileManager.default.removeItem(at: folder.appendingPathComponent(".kiosk-recorder.counter"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent(".kiosk-recorder.takes"))
        let third = try Self.folderBooth(folder)
        #expect(try Self.usedTakes(third, count: 1) == ["t6.mov"])
        third.command("quit")
        #expect(third.exitStatus() == 0)
    }

    /// The saved queue's text for `entries`.
    static func queueText(_ entries: [HookQueue.Entry]) -> String {
        var queue = HookQueue()
        queue.load(entries, now: 0)
        return queue.text
    }

    /// A fresh test folder `name` whose `takes` folder holds t1 and t2, used (no hook yet): the
    /// test folder, the takes' folder, their paths and where their hook queue is saved.
    static func twoTakes(_ name: String) throws -> (root: URL, folder: URL, takes: [String], queue: URL) {
        let root = try testFolder(name)
        let folder = root.appendingPathComponent("takes")
        let first = try folderBooth(folder)
        let names = try usedTakes(first, count: 2)
        first.command("quit")
        #expect(first.exitStatus() == 0)
        return (root, folder, names.map { folder.appendingPathComponent($0).path }, folder.appendingPathComponent(".kiosk-recorder.hooks"))
    }

    @Test("4 KB of garbage among the hooks owed: the file kept aside and said (stderr and check), the queue rebuilt from what reads, every readable hook run")
    func damagedHookQueue() throws {
        let (root, folder, takes, queue) = try Self.twoTakes("hostile-hooks")
        var garbage = Data(Self.queueText([HookQueue.Entry(path: takes[0], duration: 0.3, attempts: 1)]).utf8)
        garbage += Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        garbage += Data(("\n" + Self.queueText([HookQueue.Entry(path: takes[1], duration: 0.3, attempts: 2)])).utf8)
        try garbage.write(to: queue)
        let log = root.appendingPathComponent("hook.log").path
        let hook = ["--on-take", "echo \"$KIOSK_TAKE_PATH\" >> '\(log)'"]

        // check, before the booth runs, says the queue is damaged.
        let checked = try run(["check", "--camera", "test", "--microphone", "none", "--output-dir", folder.path] + hook)
        guard case let .check(_, items)? = checked.stdout.split(separator: "\n").compactMap({ RecorderProcess.event(String($0)) }).first,
              let item = items.first(where: { $0.name == "hooks" }) else { Issue.record("no hooks item: \(checked.stdout) \(checked.stderr)"); return }
        #expect(item.warning && item.detail.contains("cannot be read"), "\(item)")

        let r = try Self.folderBooth(folder, hook)
        #expect(r.wait(for: "hookFinished", count: 2) != nil, "\(r.rawLines) \(r.stderr)")
        #expect(r.said("could not be read; the file is kept as \(queue.path).damaged-"), "\(r.stderr)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".kiosk-recorder.hooks.damaged-") }
        #expect(aside.count == 1, "\(aside)")
        if let name = aside.first { #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == garbage, "kept as it was") }
        #expect(eventually { Set(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)) == Set(takes) },
                "both owed hooks ran")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        // check after: the copy kept aside is still said.
        let after = try run(["check", "--camera", "test", "--microphone", "none", "--output-dir", folder.path] + hook)
        #expect(after.stderr.contains("a damaged queue was kept aside as"), "\(after.stderr)")
    }

    @Test("a hook queue naming a path outside the output folder (/etc/shadow, a '..' way out, a share folder outside --share-dir): refused and said, the hook never run on it")
    func outsidePaths() throws {
        let (root, folder, takes, queue) = try Self.twoTakes("hostile-hook-paths")
        let secret = root.appendingPathComponent("secret.mov")
        try FileManager.default.copyItem(atPath: takes[0], toPath: secret.path)
        try Self.queueText([
            HookQueue.Entry(path: "/etc/shadow", duration: 1),
            HookQueue.Entry(path: folder.path + "/../secret.mov", duration: 1),
            HookQueue.Entry(path: takes[0], duration: 1, shareToken: "abc", shareFolder: "/etc"),
            HookQueue.Entry(path: takes[1], duration: 1),
        ]).write(to: queue, atomically: true, encoding: .utf8)
        let log = root.appendingPathComponent("hook.log").path
        let hook = ["--on-take", "echo \"$KIOSK_TAKE_PATH $KIOSK_SHARE_DIR\" >> '\(log)'"]

        let checked = try run(["check", "--camera", "test", "--microphone", "none", "--output-dir", folder.path] + hook)
        #expect(checked.stderr.components(separatedBy: "the booth refuses a hook").count - 1 == 3, "\(checked.stderr)")

        let r = try Self.folderBooth(folder, hook)
        #expect(r.wait(for: "hookFinished") != nil, "\(r.rawLines) \(r.stderr)")
        r.command("state")
        #expect(r.wait(for: "state") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0)
        let ran = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        #expect(ran == ["\(takes[1]) "], "only the take in the folder: \(ran)")
        #expect(r.stderr.components(separatedBy: "names a hook the booth refuses to run").count - 1 == 3, "\(r.stderr)")
        #expect(r.said("/etc/shadow is not in the output folder"), "\(r.stderr)")
        #expect(HookEndToEndTests.saved(queue.path).isEmpty, "the refused entries are not kept")
    }

    @Test("520 takes: the library lists the newest 500 and says it leaves 20 out (state and a pick of an older one); its memory within 50 MB of ready while open and after it closes")
    func libraryPast500() throws {
        let folder = try testFolder("hostile-library").appendingPathComponent("takes")
        let first = try Self.folderBooth(folder)
        #expect(try Self.usedTakes(first, count: 1) == ["t1.mov"])
        first.command("quit")
        #expect(first.exitStatus() == 0)
        // 519 more: copies of the first, listed as the booth lists its takes.
        let total = 520
        for n in 2...total {
            try FileManager.default.copyItem(at: folder.appendingPathComponent("t1.mov"), to: folder.appendingPathComponent("t\(n).mov"))
        }
        try (1...total).map { "\($0)\tt\($0).mov\t-\n" }.joined()
            .write(to: folder.appendingPathComponent(".kiosk-recorder.takes"), atomically: true, encoding: .utf8)
        try "\(total + 1)\n".write(to: folder.appendingPathComponent(".kiosk-recorder.counter"), atomically: true, encoding: .utf8)

        let r = try Self.folderBooth(folder, ["--library"])
        // Settled at ready: the preview has drawn (a screenshot of it).
        _ = try PromptEndToEndTests.take(r, folder.deletingLastPathComponent().appendingPathComponent("ready.bmp").path)
        let pid = r.process.processIdentifier
        let atReady = HostileInputEndToEndTests.residentMemory(pid)
        r.command("openLibrary")
        let listed = try #require(LibraryEndToEndTests.listed(r, count: 500, timeout: 120), "\(r.stderr)")
        #expect(listed.first?.path == folder.appendingPathComponent("t520.mov").path && listed.last?.path == folder.appendingPathComponent("t21.mov").path)
        guard case let .state(_, _, _, _, _, _, _, _, _, leftOut, _)? = r.events.last(where: { $0.name == "state" }) else { Issue.record("no state"); return }
        #expect(leftOut == 20, "\(r.rawLines.last ?? "")")
        #expect(r.said("20 older ones left out"), "\(r.stderr)")
        // Every cell drawn once (a scroll through the grid uploads each thumbnail as a texture).
        let open = HostileInputEndToEndTests.residentMemory(pid)
        r.send(#"{"command":"pick","path":"\#(folder.appendingPathComponent("t1.mov").path)"}"#)
        #expect(r.wait(for: "error") != nil)
        if case let .error(code, message)? = r.events.last(where: { $0.name == "error" }) {
            #expect(code == .badCommand && message.contains("leaves 20 older ones out"), "\(message)")
        }
        r.command("back")
        #expect(LibraryEndToEndTests.lastState(r)?.mode == "ready")
        // The ready screen drawn again (a screenshot of it): the library's cells are gone from it.
        _ = try PromptEndToEndTests.take(r, folder.deletingLastPathComponent().appendingPathComponent("closed.bmp").path)
        let closed = HostileInputEndToEndTests.residentMemory(pid)
        // Bounded while open (the thumbnails kept as JPEGs, a screenful as textures) and given back.
        #expect((open - atReady) / 1024 < 50,
                "resident: \(atReady / 1024) MiB at ready, \(open / 1024) MiB with the library open")
        #expect((closed - atReady) / 1024 < 50,
                "resident: \(atReady / 1024) MiB at ready, \(open / 1024) MiB with the library open, \(closed / 1024) MiB after it closed")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
