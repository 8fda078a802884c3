// The operator's say over the output folder's takes (`hideTake`, `showTake`, `deleteTake`). A hidden
// take is marked so in the folder's own list (`.kiosk-recorder.takes`, replaced atomically and
// synced), so the library, the attract slideshow and `reel` leave it out, after a restart too; its
// share folder, when the list knows it (`noteShare`), is moved out of what the web server serves
// (to `DIR/.hidden-<token>`: a dot-name, which the share site refuses) and back when it is shown
// again. A deleted take goes whole: its file, its marker, its thumbnail, its share folder and its
// line in the list. Only a take the list names, at exactly the path the booth gives it, that is a
// take the booth made (`notATake`), is touched; anything else is refused and nothing changes.
//
// Blocking file work: called on the booth's file worker only, never on the UI thread.
import FoundationEssentials
import Glibc
import KioskContract
import KioskSystem

extension TakeFolder {
    /// Where a hidden take's share folder waits, in `shares` (DIR): a dot-name the web server refuses.
    public static func hiddenShare(_ token: String, in shares: String) -> String { shares + "/.hidden-" + token }

    /// `change` carried out: its event (`takeHidden`, `takeShown`, `takeDeleted`), or an `error`:
    /// `badCommand` for a path that is not one of the folder's takes (another file, a link, a name
    /// with `..`, a path not spelled as the booth spells it), `notAllowed` for a take not yet decided
    /// on (its marker is there: being written, or in review). `shares`: `--share-dir`, if set.
    /// `deleting`: told of a take about to be deleted (its entry and the reason), once the path is
    /// checked and before anything goes: the consent log's line and the tombstone are written first.
    public func change(_ change: TakeChange, shares: String?, deleting: (Entry, DeletionReason) -> Void = { _, _ in }) -> [KioskEvent] {
        let name = URL(fileURLWithPath: change.path).lastPathComponent
        var list = accepted()
        guard change.path == file(name), !name.hasPrefix("."), let index = list.firstIndex(where: { $0.name == name }) else {
            if change.path == file(name), !name.hasPrefix("."), FileManager.default.fileExists(atPath: TakeFiles.markerPath(for: change.path)) {
                return [Self.refusal(change, .notAllowed, "the take is still being written or reviewed")]
            }
            return [Self.refusal(change, .badCommand, "not one of the takes listed in \(path)")]
        }
        if let problem = Self.notATake(change.path) { return [Self.refusal(change, .badCommand, "\(change.path) \(problem)")] }
        let entry = list[index]
        switch change {
        case .hide, .show:
            let hidden = change == .hide(path: change.path)
            list[index].hidden = hidden
            guard entry.hidden == hidden || saveList(list) else {
                return [Self.refusal(change, .recordingFailed, "the list of takes in \(path) could not be written")]
            }
            if let shares, let token = entry.share {
                let served = shares + "/" + token, aside = Self.hiddenShare(token, in: shares)
                let (from, to) = hidden ? (served, aside) : (aside, served)
                if rename(from, to) == 0 { FolderSync.sync(of: to) }
            }
            return [hidden ? .takeHidden(path: change.path) : .takeShown(path: change.path)]
        case let .delete(_, reason), let .deleteShared(_, reason):
            deleting(entry, reason)
            guard unlink(change.path) == 0 || errno == ENOENT else {
                return [Self.refusal(change, .recordingFailed, "\(change.path) could not be deleted: \(String(cString: strerror(errno)))")]
            }
            for companion in [TakeFiles.markerPath(for: change.path), TakeFiles.thumbnailPath(of: change.path)] + TakeFiles.companions(of: change.path) {
                unlink(companion)
            }
            if let shares, let token = entry.share {
                for folder in [shares + "/" + token, Self.hiddenShare(token, in: shares)] where FileManager.default.fileExists(atPath: folder) {
                    ShareFiles.remove(folder)
                }
            }
            list.remove(at: index)
            if !saveList(list) { Log.info("could not write the list of takes in \(path) after deleting \(name)") }
            FolderSync.sync(of: change.path)
            return [.takeDeleted(path: change.path, reason: reason)]
        }
    }

    /// The take at `take` was shared under `token` (its share folder in `--share-dir`): kept in the
    /// list, so hiding or deleting the take reaches its share folder.
    public func noteShare(_ take: String, token: String) {
        var list = accepted()
        guard let index = list.firstIndex(where: { file($0.name) == take }), ShareToken.isToken(token) else { return }
        list[index].share = token
        _ = saveList(list)
    }

    private static func refusal(_ change: TakeChange, _ code: ErrorCode, _ why: String) -> KioskEvent {
        .error(code: code, message: "'\(change.command)': \(why): \(change.path)")
    }
}
