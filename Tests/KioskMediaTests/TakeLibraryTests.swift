// The library's listing (TakeLibrary) on real files: accepted takes newest first with their lengths,
// photos and damaged takes left out, each thumbnail made once beside its take (small,
// 0600) and read back as pixels, and retention taking a take's thumbnail with it.
import Foundation
import KioskCore
@testable import KioskStorage
import KioskSystem
import KioskTestSupport
import Testing
@testable import KioskMedia

@Suite("TakeLibrary: the library's listing")
struct TakeLibraryTests {
    /// A movie of the ffmpeg CLI: `seconds` long, `size`.
    static func movie(_ path: String, seconds: Double, size: String = "320x240") throws {
        let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30", "-t", "\(seconds)",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path], stderr: .inherit)
        try #require(made.status == 0)
    }

    @Test("accepted takes newest first with their lengths; a photo, a truncated and a garbage take left out; thumbnails made once, 0600, at most 320 px; retention deletes a take's thumbnail")
    func listing() throws {
        let dir = NSTemporaryDirectory() + "take-library-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let folder = TakeFolder(path: dir, template: "t{n}.mov", clockTrusted: false)
        try Self.movie(dir + "/t1.mov", seconds: 1)
        try Self.movie(dir + "/t2.mov", seconds: 2, size: "640x360")
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: dir + "/p3.jpg"))
        try Self.movie(dir + "/t4.mov", seconds: 1)
        try Data(try Data(contentsOf: URL(fileURLWithPath: dir + "/t4.mov")).prefix(1500)).write(to: URL(fileURLWithPath: dir + "/t4.mov"))
        try Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: dir + "/t5.mov"))
        for (n, name) in ["t1.mov", "t2.mov", "p3.jpg", "t4.mov", "t5.mov"].enumerated() {
            folder.accept(TakeFolder.Entry(number: n + 1, name: name, acceptedAt: nil))
        }
        let listed = TakeLibrary.list(folder, mode: 0o600).takes
        #expect(listed.map(\.path) == [dir + "/t2.mov", dir + "/t1.mov"])
        #expect(abs(listed[0].duration - 2) < 0.1 && abs(listed[1].duration - 1) < 0.1, "\(listed.map(\.duration))")
        #expect(listed.map(\.thumbnail) == [dir + "/.t2.mov.thumb.jpg", dir + "/.t1.mov.thumb.jpg"])
        // At most 320 px on the long side, the take's shape kept (the turn of a take with a display
        // matrix is the share poster's, SharePoster.jpeg, tested with the share).
        #expect(listed[0].picture?.size == Size(width: 320, height: 180), "\(String(describing: listed[0].picture?.size))")
        #expect(listed[1].picture?.size == Size(width: 320, height: 240))
        for take in listed {
            #expect((try FileManager.default.attributesOfItem(atPath: take.thumbnail)[.posixPermissions] as? Int) == 0o600)
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/.t4.mov.thumb.jpg") && !FileManager.default.fileExists(atPath: dir + "/.t5.mov.thumb.jpg"))
        // Listed again: the thumbnails are the ones made before (never written again).
        let inode = try FileManager.default.attributesOfItem(atPath: listed[1].thumbnail)[.systemFileNumber] as? Int
        #expect(TakeLibrary.list(folder, mode: 0o600).takes.map(\.path) == listed.map(\.path))
        #expect(try FileManager.default.attributesOfItem(atPath: listed[1].thumbnail)[.systemFileNumber] as? Int == inode)
        // Retention deletes the oldest take, and its thumbnail with it.
        let deleted = folder.enforce(TakeFolder.Retention(maxTakes: 4, maxAge: nil, keepFree: nil), now: nil)
        #expect(deleted.map(\.path) == [dir + "/t1.mov"])
        #expect(!FileManager.default.fileExists(atPath: dir + "/.t1.mov.thumb.jpg") && FileManager.default.fileExists(atPath: dir + "/.t2.mov.thumb.jpg"))
        #expect(TakeLibrary.list(folder, mode: 0o600).takes.map(\.path) == [dir + "/t2.mov"])
    }
}
