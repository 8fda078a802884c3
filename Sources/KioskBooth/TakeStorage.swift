// Where the takes go, behind one protocol: a single file (`--output`), replaced take by take, or a
// folder of takes (`--output-dir`) that names, keeps, recovers and prunes them. The booth asks the
// same questions of both; each answers for its own kind. Every call but `hasLaunchWork` runs on the
// file worker.
import FoundationEssentials
import KioskContract
import KioskCore
import KioskMedia
import KioskPassword
import KioskStorage
import KioskSystem

protocol TakeStorage: Sendable {
    /// The launch has file work that `ready` waits for (recovering and pruning a folder).
    var hasLaunchWork: Bool { get }
    /// That work: the takes a dead run left (kept, reported) and those the retention rules delete
    /// (never one in `protected`: its hook is owed).
    func launchWork(_ rules: TakeFolder.Retention, protected: Set<String>) -> [KioskEvent]
    /// Where the `--on-take` hooks still owed are saved (HookQueueFile); nil: nowhere (the player).
    var hookQueueFile: String? { get }
    /// The retention rules once more (a hook succeeded, so its take may go now).
    func enforce(_ rules: TakeFolder.Retention, protected: Set<String>) -> [KioskEvent]
    /// Where the next take goes, given the path it would have (`planned`): its number and path, or
    /// why it cannot be made. `lock` is the output's lock, taken anew if the storage had to be
    /// made again. `kind`: a boomerang is an MP4 in a folder (`--output` keeps its path).
    func nextTake(planned: String, kind: TakeKind, lock: Locked<OutputLock?>) -> Result<(number: Int?, path: String), TakeRefusal>
    /// A take nobody wanted (Retake, or the next Start): `own` when this process made it.
    func discard(_ path: String, own: Bool) -> [KioskEvent]
    /// Use Video: the take handed over. `rename` (a loop session) gives it a name of its own;
    /// `protected` are the takes retention must not delete; `consent` (`--consent`): its line is added to
    /// the consent log and synced before the outcome is returned.
    func handOver(_ path: String, number: Int?, rename: Bool, rules: TakeFolder.Retention, protected: Set<String>, consent: Consent?) -> [KioskEvent]
    /// A photo's JPEG written as a new file named by `template` (`count`: this run's photos so far,
    /// for `{n}` where there is no counter); in a folder it counts as an accepted take (numbered,
    /// listed, and subject to the retention rules, whose events come back with its path). `consent`
    /// (`--consent`): its line is added to the consent log and synced (and in a folder, its choices to the list).
    func photo(_ bytes: [UInt8], template: String, count: Int, mode: Int, rules: TakeFolder.Retention,
               protected: Set<String>, consent: Consent?) -> Result<(path: String, events: [KioskEvent]), PhotoError>
    /// `hideTake`, `showTake`, `deleteTake` (TakeRecords); `shares`: `--share-dir`; `reviewed`: the take the
    /// library's review shows (a delete by token refuses it); `tombstones`: `--on-delete` is set, so a
    /// deleted take's tombstone is saved in the hook queue before its files go, and returned.
    func change(_ change: TakeChange, shares: String?, reviewed: String?, tombstones: Bool) -> (events: [KioskEvent], tombstone: HookQueue.Entry?)
    /// The hook queue's text to save with the tombstones saved by `change` that the core has not yet
    /// taken into it (those it has are forgotten here).
    func withTombstones(_ text: String) -> String
}

/// Why a take cannot be made where it goes.
struct TakeRefusal: Error {
    let message: String
}

/// `--output`: one file, the take's marker beside it.
struct SingleFileStorage: TakeStorage {
    /// `--output`'s path; nil for the player alone.
    var output: String?
    /// Makes the loop of a boomerang a kill cut (BoomerangLoop.remake): its length, nil: none.
    var boomerang: @Sendable (String) -> Double? = { _ in nil }

    var hasLaunchWork: Bool { false }

    func launchWork(_ rules: TakeFolder.Retention, protected: Set<String>) -> [KioskEvent] { [] }

    var hookQueueFile: String? { output.map(HookQueueFile.path(output:)) }

    func enforce(_ rules: TakeFolder.Retention, protected: Set<String>) -> [KioskEvent] { [] }

    func nextTake(planned: String, kind: TakeKind, lock: Locked<OutputLock?>) -> Result<(number: Int?, path: String), TakeRefusal> {
        .success((nil, planned))
    }

    /// Our own take goes; one an earlier run left is kept, moved aside and reported.
    func discard(_ path: String, own: Bool) -> [KioskEvent] {
        if own {
            TakeFiles.discard(path)
            return []
        }
        return TakeFiles.discardPrevious(at: path, playable: MovieProbe.playableDuration, boomerang: boomerang).map { [.recordingRecovered(path: $0.path, duration: $0.duration)] } ?? []
    }

    func handOver(_ path: String, number: Int?, rename: Bool, rules: TakeFolder.Retention, protected: Set<String>, consent: Consent?) -> [KioskEvent] {
        let (handed, failure) = TakeFiles.handOver(path, rename: rename)
        return (failure.map { [KioskEvent.error(code: .recordingFailed, message: $0)] } ?? []) + ConsentLog.note(handed, consent)
            + [.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: handed)]
    }

    /// `--output` keeps no list of takes to hide or delete from.
    func change(_ change: TakeChange, shares: String?, reviewed: String?, tombstones: Bool) -> (events: [KioskEvent], tombstone: HookQueue.Entry?) {
        ([.error(code: .badCommand, message: "'\(change.command)' needs --output-dir: with --output there is no list of takes: \(change.path)")], nil)
    }

    func withTombstones(_ text: String) -> String { text }

    /// Beside `--output`: no counter and no retention there.
    func photo(_ bytes: [UInt8], template: String, count: Int, mode: Int, rules: TakeFolder.Retention,
               protected: Set<String>, consent: Consent?) -> Result<(path: String, events: [KioskEvent]), PhotoError> {
        let folder = PathText.folder(of: output ?? ".")
        return PhotoFiles.write(bytes, folder: folder.isEmpty ? "." : folder, template: template, number: count + 1, mode: mode)
            .map { ($0, ConsentLog.note($0, consent)) }
    }
}

/// `--output-dir`: every take a name of its own from the template and a counter that survives
/// restarts; a dead run's takes recovered at launch; retention after each accepted take.
struct FolderStorage: TakeStorage {
    let folder: TakeFolder
    /// Tombstones saved in the hook queue's file that the core's queue does not hold yet (its saves
    /// posted meanwhile keep them): only the file worker touches them.
    let unheard = Locked<[HookQueue.Entry]>([])
    /// Makes the loop of a boomerang a kill cut (BoomerangLoop.remake): its length, nil: none.
    var boomerang: @Sendable (String) -> Double? = { _ in nil }

    var hasLaunchWork: Bool { true }

    func launchWork(_ rules: TakeFolder.Retention, protected: Set<String>) -> [KioskEvent] {
        let recovered = folder.recoverOrphans(playable: MovieProbe.playableDuration, boomerang: boomerang, consent: TakeFacts.consent(of:)).map { KioskEvent.recordingRecovered(path: $0.path, duration: $0.duration) }
        return recovered + enforce(rules, protected: protected)
    }

    var hookQueueFile: String? { HookQueueFile.path(folder: folder.path) }

    func enforce(_ rules: TakeFolder.Retention, protected: Set<String>) -> [KioskEvent] {
        folder.enforce(rules, protected: protected).map { .takeDeleted(path: $0.path, reason: $0.reason) }
    }

    /// The take gets its name now (the counter moves on, durably); a folder removed while the booth
    /// ran is made again, and locked again.
    func nextTake(planned: String, kind: TakeKind, lock: Locked<OutputLock?>) -> Result<(number: Int?, path: String), TakeRefusal> {
        if folder.isGone, let failure = remake(lock: lock) { return .failure(TakeRefusal(message: failure)) }
        let (number, path) = folder.nextTake(extension: kind == .boomerang ? "mp4" : nil)
        return .success((number, path))
    }

    /// Only our own take goes: every take here has a name of its own, and a dead run's were
    /// recovered at launch. One this run kept (the booth closed over it, a hand-over that failed)
    /// is recovered now, as at launch: listed, its marker gone, reported.
    func discard(_ path: String, own: Bool) -> [KioskEvent] {
        guard !own else {
            TakeFiles.discard(path)
            return []
        }
        return folder.recoverOrphans(named: URL(fileURLWithPath: path).lastPathComponent, playable: MovieProbe.playableDuration, boomerang: boomerang,
                                     consent: TakeFacts.consent(of:))
            .map { .recordingRecovered(path: $0.path, duration: $0.duration) }
    }

    /// The take keeps its own name: its marker goes, it joins the list of accepted takes, and the
    /// retention rules run, never over the take just handed over: a photo taken during it has the
    /// newer number, and `--max-takes 1` must not delete the guest's video for their photo.
    func handOver(_ path: String, number: Int?, rename: Bool, rules: TakeFolder.Retention, protected: Set<String>, consent: Consent?) -> [KioskEvent] {
        let (handed, _) = TakeFiles.handOver(path, rename: false)
        let name = URL(fileURLWithPath: handed).lastPathComponent
        folder.accept(TakeFolder.Entry(number: number ?? 0, name: name, acceptedAt: WallClock.synchronisedNow(trusted: folder.clockTrusted),
                                       consent: consent?.choices))
        return ConsentLog.note(handed, consent) + [.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: handed)]
            + enforce(rules, protected: protected.union([name]))
    }

    /// The counter's next number, the file, then the photo joins the accepted takes and the
    /// retention rules run (it may be what they keep, and an older take what they delete).
    func photo(_ bytes: [UInt8], template: String, count: Int, mode: Int, rules: TakeFolder.Retention,
               protected: Set<String>, consent: Consent?) -> Result<(path: String, events: [KioskEvent]), PhotoError> {
        let number = folder.nextNumber()
        return PhotoFiles.write(bytes, folder: folder.path, template: template, number: number, mode: mode).map { path in
            folder.accept(TakeFolder.Entry(number: number, name: URL(fileURLWithPath: path).lastPathComponent,
                                           acceptedAt: WallClock.synchronisedNow(trusted: folder.clockTrusted), consent: consent?.choices))
            return (path, ConsentLog.note(path, consent) + enforce(rules, protected: protected))
        }
    }

    /// A delete by share token finds its take among the listed ones, every token compared in constant
    /// time; an unknown token and a malformed one are refused alike (`badCommand`), a token whose
    /// take was already deleted is answered as done again (`takeDeleted`, nothing else happens).
    /// Before a deleted take's files go: the consent log's line, its token's record, its tombstone.
    func change(_ change: TakeChange, shares: String?, reviewed: String?, tombstones: Bool) -> (events: [KioskEvent], tombstone: HookQueue.Entry?) {
        var asked = change
        if case let .deleteShared(token, reason) = change {
            var found: TakeFolder.Entry?
            for entry in folder.accepted() { if let share = entry.share, ConstantTime.equal(share, token) { found = entry } }
            guard let found else {
                var done: String?
                for deleted in folder.deletedShares() where ConstantTime.equal(deleted.token, token) { done = deleted.take }
                return (done.map { [.takeDeleted(path: folder.file($0), reason: reason)] } ?? [.error(code: .badCommand, message: "'deleteTake': no take is shared under this token")], nil)
            }
            guard folder.file(found.name) != reviewed else {
                return ([.error(code: .notAllowed, message: "'deleteTake': its review is on screen: \(folder.file(found.name))")], nil)
            }
            asked = .delete(path: folder.file(found.name), reason: reason)
        }
        var tombstone: HookQueue.Entry?
        let events = folder.change(asked, shares: shares) { entry, reason in
            folder.noteDeletion(entry, reason: reason)
            guard tombstones else { return }
            let entry = HookQueue.Entry(path: folder.file(entry.name), duration: 0, shareToken: entry.share, hook: .delete)
            unheard.withLock { $0.append(entry) }
            HookQueueFile.add(entry, to: HookQueueFile.path(folder: folder.path))
            tombstone = entry
        }
        return (events, tombstone)
    }

    func withTombstones(_ text: String) -> String {
        let held = HookQueue.entries(from: text)
        let missing = unheard.withLock { unheard in
            unheard.removeAll { t in held.contains { $0.path == t.path && $0.kind == t.kind } }
            return unheard
        }
        return missing.isEmpty ? text : HookQueueFile.merged(text, missing)
    }

    /// Makes the folder again (it was removed while the booth ran) and takes its lock anew (the old
    /// one went with the folder); why it cannot, or nil.
    private func remake(lock: Locked<OutputLock?>) -> String? {
        if let problem = TakeFolder.prepare(folder.path) { return "--output-dir was removed, and \(problem)" }
        do throws(OutputLock.Failure) {
            let new = try OutputLock(folder: folder.path)
            lock.withLock { $0 = new }
        } catch {
            switch error {
            case let .held(pid): return "--output-dir was removed and made again, and another kiosk-recorder\(pid.map { " (pid \($0))" } ?? "") took it"
            case let .failed(why): return "--output-dir was removed and made again, but cannot be locked: \(why)"
            }
        }
        Log.info("the output folder \(folder.path) was removed; made it again")
        return nil
    }
}

extension TakeStorage {
    /// The hand-over of a take made without `--consent`.
    func handOver(_ path: String, number: Int?, rename: Bool, rules: TakeFolder.Retention, protected: Set<String>) -> [KioskEvent] {
        handOver(path, number: number, rename: rename, rules: rules, protected: protected, consent: nil)
    }

    /// A photo taken without `--consent`.
    func photo(_ bytes: [UInt8], template: String, count: Int, mode: Int, rules: TakeFolder.Retention,
               protected: Set<String>) -> Result<(path: String, events: [KioskEvent]), PhotoError> {
        photo(bytes, template: template, count: count, mode: mode, rules: rules, protected: protected, consent: nil)
    }
}
