// A run's private take folder and its lock file: removed on the way out, by the lock's holder, only
// when no take is kept there.
import Foundation
import Glibc
@testable import KioskSystem
import Testing

/// A fresh folder for one test, removed after it.
private func scratch(_ name: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())").path
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

@Suite("OutputLock's file")
struct OutputLockFileTests {
    @Test("removeFile removes the file this lock holds, and a new lock on the path takes a new file; a file put in its place is left alone")
    func removeFile() throws {
        let dir = try scratch("lock-remove")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/.take.mov.lock"
        let lock = try OutputLock(file: path)
        #expect(throws: OutputLock.Failure.self) { _ = try OutputLock(file: path) }
        lock.removeFile()
        #expect(!FileManager.default.fileExists(atPath: path))
        let next = try OutputLock(file: path)
        #expect(FileManager.default.fileExists(atPath: path))
        // `lock` no longer holds the file at the path: its removeFile leaves `next`'s alone.
        lock.removeFile()
        #expect(FileManager.default.fileExists(atPath: path))
        withExtendedLifetime(next) {}
    }
}

// PrivateFolder keeps one folder for the process: its tests run one at a time.
@Suite("PrivateFolder", .serialized)
struct PrivateFolderTests {
    @Test("made new and private (0700) in the folder given, the take's path in it; leaving with nothing but the lock there removes both")
    func leaveEmpty() throws {
        let dir = try scratch("private-empty")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let take = try PrivateFolder.make(in: dir + "/", take: "output.mov")
        let folder = URL(fileURLWithPath: take).deletingLastPathComponent().path
        #expect(URL(fileURLWithPath: take).lastPathComponent == "output.mov" && folder.hasPrefix(dir + "/kiosk-recorder-"))
        var info = stat()
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
        let lock = try OutputLock(beside: take)
        PrivateFolder.holds(lock)
        PrivateFolder.leave()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
    }

    @Test("a take (with its marker) keeps the folder; only the lock file goes")
    func leaveWithTake() throws {
        let dir = try scratch("private-take")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let take = try PrivateFolder.make(in: dir + "/", take: "output.mov")
        let folder = URL(fileURLWithPath: take).deletingLastPathComponent().path
        PrivateFolder.holds(try OutputLock(beside: take))
        for file in [take, folder + "/.output.mov.recording"] { try Data("x".utf8).write(to: URL(fileURLWithPath: file)) }
        PrivateFolder.leave()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".output.mov.recording", "output.mov"])
    }

    @Test("a launch that ends before the lock was taken leaves nothing; leaving twice is leaving once")
    func leaveBeforeLock() throws {
        let dir = try scratch("private-early")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try PrivateFolder.make(in: dir + "/", take: "output.mov")
        PrivateFolder.leave()
        PrivateFolder.leave()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
    }

    @Test("a temporary folder that is not there: mkdtemp's errno, named")
    func noTemporaryFolder() {
        #expect(throws: SystemError(call: "mkdtemp(/nonexistent/)", errno: ENOENT)) {
            _ = try PrivateFolder.make(in: "/nonexistent/", take: "output.mov")
        }
    }
}
