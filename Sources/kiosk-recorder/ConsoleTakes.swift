// The console's view of the booth's output folder (`--output-dir`): the folder's own list of takes
// (TakeFolder, read as files, never written), each take's length and question from its file
// (TakeFacts, kept while the file is unchanged), and its thumbnail: the library's when it made one,
// else made in memory; the consent log beside the list (each take's choices, the CSV); a share
// token's take, listed or already deleted (the booth's record of deleted tokens), for a guest's delete. The console changes takes only through the booth's commands.
import FoundationEssentials
import Glibc
import KioskConsole
import KioskMedia
import KioskPassword
import KioskStorage
import KioskSystem

final class ConsoleTakes: TakeShelf {
    let folder: String
    private let records: TakeFolder
    private let template: String
    /// Each take's facts by name, with the size and time of the file they were read from.
    private let known = Locked([String: Known]())

    private struct Known: Sendable {
        var stamp: [Int64]
        var duration: Double?
        var question: String?
    }

    init(folder: String, template: String) {
        self.folder = folder
        self.template = template
        records = TakeFolder(path: folder, template: template, clockTrusted: false)
    }

    func takes() -> [ConsoleTake] {
        let consent = ConsentRecords.choices(ConsentRecords.parse(consentLog() ?? []))
        return records.accepted().reversed().compactMap { entry in
            let path = records.file(entry.name)
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            let kind = ConsoleTake.kind(of: entry.name, template: template)
            let facts = kind == "photo" ? nil : read(path, name: entry.name, stamp: [Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)])
            var take = ConsoleTake(name: entry.name, number: entry.number, kind: kind)
            (take.question, take.duration) = (facts?.question, facts?.duration)
            (take.shared, take.hidden, take.acceptedAt) = (entry.share != nil, entry.hidden, entry.acceptedAt)
            (take.modifiedAt, take.bytes) = (Int64(info.st_mtim.tv_sec), Int64(info.st_size))
            take.consent = consent[entry.name]
            return take
        }
    }

    private func read(_ path: String, name: String, stamp: [Int64]) -> Known? {
        if let cached = known.withLock({ $0[name] }), cached.stamp == stamp { return cached }
        guard let read = TakeFacts.read(path) else { return nil }
        let fresh = Known(stamp: stamp, duration: read.duration, question: read.question)
        known.withLock { $0[name] = fresh }
        return fresh
    }

    func isListed(_ name: String) -> Bool {
        records.accepted().contains { $0.name == name }
    }

    func take(sharedAs token: String) -> String? {
        var found: String?
        for entry in records.accepted() {
            if let share = entry.share, ConstantTime.equal(share, token) { found = entry.name }
        }
        return found
    }

    func take(deletedAs token: String) -> String? {
        var found: String?
        for deleted in records.deletedShares() where ConstantTime.equal(deleted.token, token) { found = deleted.take }
        return found
    }

    func consentLog() -> [UInt8]? {
        FileManager.default.contents(atPath: folder + "/" + ConsentRecords.fileName).map { [UInt8]($0) }
    }

    func thumbnail(of name: String) -> [UInt8]? {
        let path = records.file(name)
        if let kept = FileManager.default.contents(atPath: TakeFiles.thumbnailPath(of: path)), !kept.isEmpty { return [UInt8](kept) }
        return TakeFacts.thumbnail(of: path)
    }
}
