// The operator's say over the output folder's takes (TakeRecords) on real files: hide and show kept
// in the folder's own list (read again as a fresh TakeFolder would after a restart), the share folder
// moved out of the served tree and back, the library and the slideshow's listing leaving a hidden take
// out; delete taking the file, its marker, its thumbnail, its share folder and its line; every path
// that is not one of the folder's takes refused with nothing touched; a take not decided on refused.
import Foundation
import KioskContract
import KioskCore
@testable import KioskStorage
import KioskSystem
import KioskTestSupport
import Testing
@testable import KioskMedia

@Suite("TakeRecords: hideTake, showTake and deleteTake in the output folder")
struct TakeRecordsTests {
    /// A folder with three accepted takes (t1, t2 videos; p3 a photo) and a share folder for t2.
    static func folder(_ name: String) throws -> (TakeFolder, dir: String, shares: String) {
        let dir = NSTemporaryDirectory() + "take-records-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        let shares = dir + "/share"
        try FileManager.default.createDirectory(atPath: shares + "/tok2tok2tok2tok2tok2tok2", withIntermediateDirectories: true)
        try Data("page".utf8).write(to: URL(fileURLWithPath: shares + "/tok2tok2tok2tok2tok2tok2/index.html"))
        let folder = TakeFolder(path: dir, template: "t{n}.mov", clockTrusted: false)
        try TakeLibraryTests.movie(dir + "/t1.mov", seconds: 1)
        try TakeLibraryTests.movie(dir + "/t2.mov", seconds: 1)
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: dir + "/p3.jpg"))
        for (n, name) in ["t1.mov", "t2.mov", "p3.jpg"].enumerated() { folder.accept(TakeFolder.Entry(number: n + 1, name: name, acceptedAt: nil)) }
        folder.noteShare(dir + "/t2.mov", token: "tok2tok2tok2tok2tok2tok2")
        return (folder, dir, shares)
    }

    static func code(_ events: [KioskEvent]) -> ErrorCode? {
        if case let .error(code, _)? = events.first { code } else { nil }
    }

    @Test("hide: kept in the list (a new TakeFolder reads it), left out of the library and the slideshow's listing, its share folder out of the served tree; show brings both back; the same twice is the same")
    func hideAndShow() throws {
        let (folder, dir, shares) = try Self.folder("hide")
        let t2 = dir + "/t2.mov", served = shares + "/tok2tok2tok2tok2tok2tok2"
        #expect(folder.change(.hide(path: t2), shares: shares) == [.takeHidden(path: t2)])
        #expect(folder.change(.hide(path: t2), shares: shares) == [.takeHidden(path: t2)])
        let again = TakeFolder(path: dir, template: "t{n}.mov", clockTrusted: false)
        #expect(again.accepted().map(\.hidden) == [false, true, false])
        #expect(TakeLibrary.list(again, mode: 0o600).takes.map(\.path) == [dir + "/t1.mov"])
        #expect(!FileManager.default.fileExists(atPath: served) && FileManager.default.fileExists(atPath: shares + "/.hidden-tok2tok2tok2tok2tok2tok2/index.html"))
        #expect(FileManager.default.fileExists(atPath: t2), "hidden, not deleted")
        #expect(again.change(.show(path: t2), shares: shares) == [.takeShown(path: t2)])
        #expect(TakeFolder(path: dir, template: "t{n}.mov", clockTrusted: false).accepted().map(\.hidden) == [false, false, false])
        #expect(FileManager.default.fileExists(atPath: served + "/index.html"))
        #expect(TakeLibrary.list(again, mode: 0o600).takes.map(\.path) == [t2, dir + "/t1.mov"])
    }

    @Test("delete: the take, its marker, thumbnail and share folder gone, its line too (a new TakeFolder reads it so); retention and the library no longer see it; a photo of the folder can go too")
    func delete() throws {
        let (folder, dir, shares) = try Self.folder("delete")
        let t2 = dir + "/t2.mov"
        _ = TakeLibrary.list(folder, mode: 0o600)
        #expect(FileManager.default.fileExists(atPath: dir + "/.t2.mov.thumb.jpg"))
        #expect(folder.change(.delete(path: t2, reason: .guest), shares: shares) == [.takeDeleted(path: t2, reason: .guest)])
        for gone in [t2, dir + "/.t2.mov.thumb.jpg", shares + "/tok2tok2tok2tok2tok2tok2"] { #expect(!FileManager.default.fileExists(atPath: gone), "\(gone)") }
        let again = TakeFolder(path: dir, template: "t{n}.mov", clockTrusted: false)
        #expect(again.accepted().map(\.name) == ["t1.mov", "p3.jpg"])
        #expect(TakeLibrary.list(again, mode: 0o600).takes.map(\.path) == [dir + "/t1.mov"])
        #expect(again.change(.delete(path: dir + "/p3.jpg", reason: .operator), shares: shares) == [.takeDeleted(path: dir + "/p3.jpg", reason: .operator)])
        #expect(again.accepted().map(\.name) == ["t1.mov"])
        // Deleted is gone: a second delete is refused as not one of the takes.
        #expect(Self.code(again.change(.delete(path: t2, reason: .operator), shares: shares)) == .badCommand)
    }

    @Test("refused, nothing touched: another file, `..`, a link, a hidden name, a path spelled otherwise, a file not listed; a take with its marker (being written, in review) is notAllowed")
    func refusals() throws {
        let (folder, dir, shares) = try Self.folder("refused")
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/other.mov"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.mov", withDestinationPath: dir + "/t1.mov")
        folder.accept(TakeFolder.Entry(number: 9, name: "link.mov", acceptedAt: nil))
        let before = try String(contentsOfFile: dir + "/.kiosk-recorder.takes", encoding: .utf8)
        for path in ["/etc/passwd", dir + "/other.mov", dir + "/../" + URL(fileURLWithPath: dir).lastPathComponent + "/t1.mov", dir + "//t1.mov",
                     dir + "/./t1.mov", "t1.mov", dir + "/link.mov", dir + "/.kiosk-recorder.takes", dir + "/share"] {
            for change in [TakeChange.hide(path: path), .delete(path: path, reason: .operator)] {
                #expect(Self.code(folder.change(change, shares: shares)) == .badCommand, "\(change)")
            }
        }
        #expect(FileManager.default.fileExists(atPath: dir + "/t1.mov") && FileManager.default.fileExists(atPath: dir + "/other.mov"))
        #expect(try String(contentsOfFile: dir + "/.kiosk-recorder.takes", encoding: .utf8) == before)
        // A take being written or reviewed: its marker is there, and it is not listed yet.
        try Data().write(to: URL(fileURLWithPath: dir + "/t4.mov"))
        try Data().write(to: URL(fileURLWithPath: TakeFiles.markerPath(for: dir + "/t4.mov")))
        #expect(Self.code(folder.change(.delete(path: dir + "/t4.mov", reason: .operator), shares: shares)) == .notAllowed)
        #expect(FileManager.default.fileExists(atPath: dir + "/t4.mov"))
    }

    @Test("the deleted tokens' record keeps the newest: past the bound the oldest go, the file rewritten whole (0600, nothing left beside it); a take without a token adds none")
    func deletedBounded() throws {
        let (folder, dir, _) = try Self.folder("deleted-bound")
        let record = dir + "/.kiosk-recorder.deleted"
        func token(_ n: Int) -> String { String(repeating: String(n), count: 24) }
        for n in 1...5 { folder.noteDeletion(TakeFolder.Entry(number: n, name: "t\(n).mov", acceptedAt: nil, share: token(n)), reason: .guest, kept: 3) }
        #expect(folder.deletedShares() == (3...5).map { TakeFolder.DeletedShare(take: "t\($0).mov", token: token($0)) })
        let text = try String(contentsOfFile: record, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 3 && text.hasSuffix("\n") && !text.contains(token(2)), "\(text)")
        #expect((try FileManager.default.attributesOfItem(atPath: record)[.posixPermissions] as? Int) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: record + ".new"))
        // Under the bound nothing is rewritten; a take never shared leaves no token.
        folder.noteDeletion(TakeFolder.Entry(number: 6, name: "t6.mov", acceptedAt: nil), reason: .operator, kept: 3)
        #expect(folder.deletedShares().map(\.take) == ["t3.mov", "t4.mov", "t5.mov"])
        // The consent log keeps every deletion's line (the record bounds only the tokens).
        #expect(ConsentLog.read(in: dir).filter { $0.deleted != nil }.map(\.take) == (1...6).map { "t\($0).mov" })
        #expect(TakeFolder.deletedKept == 1000)
    }
}
