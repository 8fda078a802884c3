// What a take deleted by `deleteTake` leaves behind, written before its files go: the consent log's
// line saying it was deleted and at whose request (`.kiosk-recorder.consent`: no picture, no sound),
// the token of its share folder in `.kiosk-recorder.deleted` (a second delete by that token is
// answered as done, and an unknown token is not: TakeRecords' caller compares them; the newest
// `deletedKept` are kept, the file rewritten atomically without the oldest past that), and its
// tombstone in the saved hook queue (`--on-delete`, HookQueueFile). Each line is written whole with
// O_APPEND and synced (the file, and the folder when the file is new) before anything is said.
//
// Blocking file work: called on the booth's file worker only, never on the UI thread.
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskSystem

extension TakeFolder {
    static let deletedName = ".kiosk-recorder.deleted"

    /// A deleted take's record in `.kiosk-recorder.deleted`: its file name and its share token.
    public struct DeletedShare: Codable, Equatable, Sendable {
        public var take: String
        public var token: String
    }

    /// How many deleted takes' tokens `.kiosk-recorder.deleted` keeps (the newest): a repeat delete by
    /// an older token is answered as an unknown one (its take is long gone either way). A record is a
    /// line of about 100 bytes, so the file stays near 100 KB at most however long the booth runs.
    public static let deletedKept = 1000

    /// The take `entry`, about to be deleted for `reason`: the consent log's line, and its share
    /// token's record when it was shared (the oldest records past `kept` dropped).
    public func noteDeletion(_ entry: Entry, reason: DeletionReason, kept: Int = deletedKept) {
        consentLogDeletion(take: entry.name, reason: reason)
        guard let token = entry.share else { return }
        if !Self.appendLine(DeletedShare(take: entry.name, token: token), to: file(Self.deletedName)) {
            Log.info("could not write the deleted take \(entry.name)'s token in \(file(Self.deletedName))")
        }
        let records = deletedShares()
        guard records.count > kept else { return }
        let text = records.suffix(kept).compactMap(Self.line).map { $0 + "\n" }.joined()
        if !Self.replace(file(Self.deletedName), with: text) { Log.info("could not drop the oldest deleted tokens from \(file(Self.deletedName))") }
    }

    /// The tokens of the takes deleted so far, with their names (oldest first).
    public func deletedShares() -> [DeletedShare] {
        guard let text = try? String(contentsOfFile: file(Self.deletedName), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(DeletedShare.self, from: Data($0.utf8)) }
    }

    /// The consent log's deletion line (ConsentLog): `{"take":NAME,"time":…,"deleted":"guest"|"operator"}`.
    private func consentLogDeletion(take: String, reason: DeletionReason) {
        if !ConsentLog.append(ConsentLine(take: take, time: ConsentLine.now, deleted: reason), in: path) {
            Log.info("could not write the consent log's line for the deleted take \(take) in \(path)")
        }
    }

    /// `value` as one JSON line appended to the file at `target` (made 0600 if missing), synced, and
    /// the folder synced when the file is new; false when any of it failed.
    static func appendLine(_ value: some Encodable, to target: String) -> Bool {
        guard let line = line(value) else { return false }
        let made = access(target, F_OK) != 0
        guard let file = try? FileDescriptor.open(target, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode: 0o600) else { return false }
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(file.rawValue, $0.baseAddress, $0.count) } == bytes.count
        guard written, fsync(file.rawValue) == 0 else { return false }
        return !made || FolderSync.sync(of: target)
    }

    /// `value` as one line of JSON (keys sorted, no newline).
    static func line(_ value: some Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }
}

extension HookQueueFile {
    /// A deleted take's tombstone added to the queue saved at `path`, durably, before its files go.
    public static func add(_ tombstone: HookQueue.Entry, to path: String) {
        save(merged(read(path).entries, [tombstone]), to: path)
    }

    /// The queue text `text` with the `extra` entries it lacks appended.
    public static func merged(_ text: String, _ extra: [HookQueue.Entry]) -> String {
        merged(HookQueue.entries(from: text), extra)
    }

    static func merged(_ entries: [HookQueue.Entry], _ extra: [HookQueue.Entry]) -> String {
        var queue = HookQueue()
        queue.load(entries + extra, now: 0)
        return queue.text
    }
}
