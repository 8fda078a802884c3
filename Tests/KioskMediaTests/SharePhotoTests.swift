// A photo's share folder (issue 34 with --share-dir): photo.jpg the photo's very bytes in a file of
// its own (not a link), index.html naming it, the share modes, no .partial- left; a full disk leaves
// nothing; --share-max-age removes it as a take's.
import Foundation
import KioskCore
@testable import KioskMedia
@testable import KioskStorage
import KioskSystem
import KioskTestSupport
import Testing

@Suite("Share photo")
struct SharePhotoTests {
    /// Bytes standing for a JPEG (the folder copies them as they are).
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 11) } + [0xFF, 0xD9]

    @Test("the folder: photo.jpg (the photo's bytes, its own inode) and index.html naming it at the photo's size, 0644 in 0755; expire removes it once old")
    func folder() throws {
        let dir = scratch("share-photo").path
        let photo = dir + "/photo-1.jpg"
        try Data(Self.jpeg).write(to: URL(fileURLWithPath: photo))
        let token = try ShareToken.make()
        let written = try SharePhoto.write(ShareRequest(take: photo, folder: dir + "/share", token: token, title: nil, language: .de),
                                           jpeg: Self.jpeg, size: Size(width: 1280, height: 720))
        #expect(written.folder == dir + "/share/" + token)
        #expect(try FileManager.default.contentsOfDirectory(atPath: written.folder).sorted() == ["index.html", "photo.jpg"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/share") == [token], "no .partial- folder left")
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: written.folder + "/photo.jpg"))) == Self.jpeg)
        let copy = try FileManager.default.attributesOfItem(atPath: written.folder + "/photo.jpg")
        let original = try FileManager.default.attributesOfItem(atPath: photo)
        let inodes = (copy[FileAttributeKey.systemFileNumber] as? Int, original[FileAttributeKey.systemFileNumber] as? Int)
        #expect(inodes.0 != nil && inodes.0 != inodes.1 && (copy[FileAttributeKey.referenceCount] as? Int) == 1)
        #expect(fileMode(written.folder + "/photo.jpg") == 0o644 && fileMode(written.folder + "/index.html") == 0o644 && fileMode(written.folder) == 0o755)
        let page = try String(contentsOfFile: written.folder + "/index.html", encoding: .utf8)
        #expect(page.contains("<img src=\"photo.jpg\" width=\"1280\" height=\"720\"") && page.contains("Foto speichern"))
        #expect(written.pageBytes == page.utf8.count && written.posterBytes == Self.jpeg.count)
        let now = Date().timeIntervalSince1970
        #expect(ShareFolders.expire(in: dir + "/share", maxAge: 7 * 86400, now: now).isEmpty)
        #expect(ShareFolders.expire(in: dir + "/share", maxAge: 7 * 86400, now: now + 8 * 86400).count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/share").isEmpty)
    }

    @Test("a full disk while photo.jpg is written: an error naming the step, no folder left",
          .enabled(if: canMount, "needs the private mount namespace of kiosk/test"))
    func fullDisk() throws {
        let dir = scratch("share-photo-tmpfs").path
        let mount = try runProgram(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", dir])
        try #require(mount.status == 0, "mount: \(mount.stderr)")
        defer { _ = try? runProgram(["umount", dir]) }
        let token = try ShareToken.make()
        do {
            _ = try SharePhoto.write(ShareRequest(take: "/nowhere/photo.jpg", folder: dir, token: token, title: nil, language: .en),
                                     jpeg: Self.jpeg, size: Size(width: 1280, height: 720))
            Issue.record("written on a full disk")
        } catch {
            #expect(error.step == "writing photo.jpg" && error.reason.hasPrefix("No space left on device"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [], "no <token> or .partial- folder")
    }
}
