// The two kinds of take storage asked the same questions, on real files in a temporary folder: a
// single file replaced take by take (its earlier run's take moved aside, a loop session's take
// renamed), and a folder whose takes keep their own names, are recovered at launch, pruned, and
// whose removal mid-run is mended.
import Foundation
import KioskCore
import KioskMedia
@testable import KioskStorage
import KioskSystem
import Testing
@testable import KioskBooth

@Suite("TakeStorage: one file or a folder of takes")
struct TakeStorageTests {
    static func folder(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "take-storage-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func take(_ path: String) throws {
        // As a take begins: its ftyp box (retention deletes only what begins as the booth's takes).
        try Data([0, 0, 0, 20] + Array("ftypqt  ".utf8) + [0, 0, 2, 0] + Array("qt  ".utf8)).write(to: URL(fileURLWithPath: path))
        try Data().write(to: URL(fileURLWithPath: TakeFiles.markerPath(for: path)))
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    static let rules = TakeFolder.Retention(maxTakes: nil, maxAge: nil, keepFree: nil)

    @Test("one file: no launch work; the next take is the planned path; our own discarded take goes; an earlier run's goes too when nothing in it plays (one that plays is moved aside: EndToEndTests.killNine)")
    func singleFile() throws {
        let dir = try Self.folder("single")
        let output = dir + "/take.mov"
        let storage = SingleFileStorage()
        #expect(!storage.hasLaunchWork && storage.launchWork(Self.rules, protected: []).isEmpty)
        // The hooks owed: a dot-file beside the take; the player alone has none.
        #expect(storage.hookQueueFile == nil && SingleFileStorage(output: output).hookQueueFile == dir + "/.take.mov.hooks")
        guard case let .success((number, path)) = storage.nextTake(planned: output, kind: .video, lock: Locked(nil)) else {
            Issue.record("refused")
            return
        }
        #expect(number == nil && path == output)
        try Self.take(output)
        #expect(storage.discard(output, own: true).isEmpty)
        #expect(!Self.exists(output) && !Self.exists(TakeFiles.markerPath(for: output)))
        try Self.take(output)
        let recovered = storage.discard(output, own: false)
        #expect(recovered.isEmpty && !Self.exists(output) && !Self.exists(TakeFiles.markerPath(for: output)), "\(recovered)")
    }

    @Test("one file: Use Video removes the marker (once) or renames the take beside it (loop)")
    func singleFileHandOver() throws {
        let dir = try Self.folder("single-hand-over")
        let output = dir + "/take.mov"
        let storage = SingleFileStorage()
        try Self.take(output)
        #expect(storage.handOver(output, number: nil, rename: false, rules: Self.rules, protected: [])
            == [.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: output)])
        #expect(Self.exists(output) && !Self.exists(TakeFiles.markerPath(for: output)))
        try Self.take(output)
        let events = storage.handOver(output, number: nil, rename: true, rules: Self.rules, protected: [])
        guard case let .videoRecorderDidFinishRecordingVideoWithOutputPath(renamed)? = events.last else {
            Issue.record("\(events)")
            return
        }
        #expect(renamed != output && Self.exists(renamed) && !Self.exists(output))
    }

    @Test("a folder: each take numbered under the template; a discarded take goes only if it is ours (one kept with its marker is recovered); Use Video keeps its name and prunes by the rules, protected takes kept")
    func folder() throws {
        let dir = try Self.folder("folder")
        let storage = FolderStorage(folder: TakeFolder(path: dir, template: "t{n}.mov", clockTrusted: false))
        #expect(storage.hasLaunchWork && storage.launchWork(Self.rules, protected: []).isEmpty)
        #expect(storage.hookQueueFile == dir + "/.kiosk-recorder.hooks")
        var paths: [String] = []
        for _ in 1...3 {
            guard case let .success((number, path)) = storage.nextTake(planned: dir + "/x.mov", kind: .video, lock: Locked(nil)) else {
                Issue.record("refused")
                return
            }
            #expect(number == paths.count + 1 && path == dir + "/t\(paths.count + 1).mov")
            try Self.take(path)
            paths.append(path)
        }
        // Not ours and decided on (no marker): left alone. Not ours with its marker (a take kept as the
        // booth closed over it): recovered now, as at launch; this one holds no playable picture, so it
        // goes with its marker (a playable one: ClosedBoothEndToEndTests).
        try FileManager.default.removeItem(atPath: TakeFiles.markerPath(for: paths[2]))
        #expect(storage.discard(paths[2], own: false).isEmpty && Self.exists(paths[2]))
        try Self.take(paths[2])
        #expect(storage.discard(paths[2], own: false).isEmpty && !Self.exists(paths[2]) && !Self.exists(TakeFiles.markerPath(for: paths[2])))
        try Self.take(paths[2])
        #expect(storage.discard(paths[2], own: true).isEmpty && !Self.exists(paths[2]))
        let keepOne = TakeFolder.Retention(maxTakes: 1, maxAge: nil, keepFree: nil)
        #expect(storage.handOver(paths[0], number: 1, rename: true, rules: keepOne, protected: [])
            == [.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: paths[0])])
        // The second accepted take: the first goes unless it is protected.
        let protected = storage.handOver(paths[1], number: 2, rename: true, rules: keepOne, protected: ["t1.mov"])
        #expect(protected.count == 1 && Self.exists(paths[0]))
        try Self.take(dir + "/t4.mov")
        let pruned = storage.handOver(dir + "/t4.mov", number: 4, rename: true, rules: keepOne, protected: [])
        #expect(pruned.map(\.name) == ["videoRecorderDidFinishRecordingVideoWithOutputPath", "takeDeleted", "takeDeleted"], "\(pruned)")
        #expect(!Self.exists(paths[0]) && !Self.exists(paths[1]) && Self.exists(dir + "/t4.mov"))
    }

    @Test("a folder removed while the booth runs is made again and locked again before the next take")
    func folderRemoved() throws {
        let dir = try Self.folder("removed")
        let storage = FolderStorage(folder: TakeFolder(path: dir, template: "t{n}.mov", clockTrusted: false))
        let lock = Locked<OutputLock?>(try OutputLock(folder: dir))
        try FileManager.default.removeItem(atPath: dir)
        guard case let .success((_, path)) = storage.nextTake(planned: dir + "/x.mov", kind: .video, lock: lock) else {
            Issue.record("refused")
            return
        }
        #expect(Self.exists(dir) && path.hasPrefix(dir + "/"))
        #expect(lock.withLock { $0 != nil })
        // Locked again: a second lock on the folder is refused.
        #expect(throws: OutputLock.Failure.self) { _ = try OutputLock(folder: dir) }
    }

    @Test("photos: beside --output named by the template and the run's count; in a folder numbered by the counter, listed as accepted takes and pruned by retention, never the take handed over after a photo taken during it")
    func photos() throws {
        let dir = try Self.folder("photos")
        let single = SingleFileStorage(output: dir + "/take.mov")
        guard case let .success((beside, none)) = single.photo([0xFF, 0xD8], template: "p-{n}.jpg", count: 0, mode: 0o600, rules: Self.rules, protected: []),
              case let .success((again, _)) = single.photo([0xFF, 0xD8], template: "p-{n}.jpg", count: 0, mode: 0o600, rules: Self.rules, protected: []) else {
            Issue.record("refused")
            return
        }
        // The same name asked twice: the second is made beside the first, never over it.
        #expect(beside == dir + "/p-1.jpg" && again == dir + "/p-1-2.jpg" && none.isEmpty)
        let takes = dir + "/takes"
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        let storage = FolderStorage(folder: TakeFolder(path: takes, template: "t{n}.mov", clockTrusted: false))
        let keepOne = TakeFolder.Retention(maxTakes: 1, maxAge: nil, keepFree: nil)
        guard case let .success((number, take)) = storage.nextTake(planned: takes + "/x.mov", kind: .video, lock: Locked(nil)) else {
            Issue.record("refused")
            return
        }
        try Self.take(take)
        // A photo during the take: the next number.
        guard case let .success((photo, pruned)) = storage.photo([0xFF, 0xD8], template: "p-{n}.jpg", count: 0, mode: 0o640, rules: keepOne, protected: []) else {
            Issue.record("refused")
            return
        }
        #expect(photo == takes + "/p-\(number! + 1).jpg" && pruned.isEmpty)
        #expect((try FileManager.default.attributesOfItem(atPath: photo)[.posixPermissions] as? Int) == 0o640)
        // Use Video after it: the take stays, though the photo is the newer.
        let handed = storage.handOver(take, number: number, rename: false, rules: keepOne, protected: [])
        #expect(handed == [.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: take)] && Self.exists(take) && Self.exists(photo))
        // The next photo: both older ones go.
        guard case let .success((next, deleted)) = storage.photo([0xFF, 0xD8], template: "p-{n}.jpg", count: 0, mode: 0o600, rules: keepOne, protected: []) else {
            Issue.record("refused")
            return
        }
        #expect(deleted.count == 2 && deleted.contains(.takeDeleted(path: take, reason: .maxTakes))
                && deleted.contains(.takeDeleted(path: photo, reason: .maxTakes)), "\(deleted)")
        #expect(Self.exists(next) && !Self.exists(take) && !Self.exists(photo))
    }
}
