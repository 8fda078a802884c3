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
}
