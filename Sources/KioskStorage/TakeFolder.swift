// The output folder of a booth run as a service (`--output-dir`): each take under its own name from
// the name template, a counter kept in the folder that never hands out a number twice, the list of
// accepted takes in the order they were taken (retention deletes from its front), and the recovery
// of takes a dead run left behind. A Raspberry Pi has no real-time clock: order comes from the
// counter, never from file times or names.
//
// Files in the folder besides the takes (all hidden, all the recorder's own):
// - `.kiosk-recorder.lock`: held by the running booth (OutputLock); a marker's owner is gone
//   exactly when this lock is free, so at launch (lock just taken) every marker is an orphan.
// - `.kiosk-recorder.counter`: the next take's number, one decimal line, replaced atomically.
// - `.kiosk-recorder.takes`: accepted takes, one `N<TAB>name<TAB>time[<TAB>hidden|-[<TAB>token|-[<TAB>consent:CHOICES]]]`
//   line each, oldest first (time: Unix seconds when it was accepted, or `-` when the wall clock was not
//   synchronised; `hidden`: hidden by the operator; token: its share folder's, TakeRecords; CHOICES:
//   with `--consent`, what its guest allowed, `share,film` or nothing).
// - `.kiosk-recorder.consent`: the consent log (ConsentLog).
// - `.kiosk-recorder.hooks`: the `--on-take` hooks still owed (HookQueueFile).
// - `.NAME.recording`: the marker of a take being written or finished and not yet decided on.
//
// Blocking file work: called on the booth's file worker only, never on the UI thread.
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskSystem

public final class TakeFolder: Sendable {
    // Only constants: every method that touches the folder's files runs on the booth's one serial
    // file worker, so those files are never read and written by two threads of this process at once.
    public let path: String
    public let template: String
    /// The operator vouches for the wall clock (`KioskEnvironment.clockTrusted`): ages count by it
    /// although the kernel does not call it synchronised.
    public let clockTrusted: Bool

    static let counterName = ".kiosk-recorder.counter"
    static let ledgerName = ".kiosk-recorder.takes"

    /// One accepted take: its counter number and its file name in the folder.
    public struct Entry: Equatable, Sendable {
        public var number: Int
        public var name: String
        /// When it was accepted (Unix seconds), if the wall clock was synchronised then.
        public var acceptedAt: Int64?
        /// `hideTake`: left out of the library, the slideshow and `reel` (TakeRecords).
        public var hidden = false
        /// The token of its share folder in `--share-dir`, once one was written (TakeRecords).
        public var share: String?
        /// `--consent`: what its guest allowed (nil: made without consent, so everything, as before the
        /// option). The library, the slideshow and `reel` leave out what it does not allow.
        public var consent: [ConsentChoice]?

        public init(number: Int, name: String, acceptedAt: Int64?, hidden: Bool = false, share: String? = nil, consent: [ConsentChoice]? = nil) {
            self.consent = consent
            self.number = number
            self.name = name
            self.acceptedAt = acceptedAt
            self.hidden = hidden
            self.share = share
        }
    }

    public init(path: String, template: String, clockTrusted: Bool) {
        self.path = path
        self.template = template
        self.clockTrusted = clockTrusted
    }

    /// Makes the folder if it is missing (its parent must exist) and checks it is a writable folder;
    /// the message for the command line otherwise.
    public static func prepare(_ path: String) -> String? {
        var isDirectory = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if mkdir(path, 0o750) != 0 && errno != EEXIST {
                return "cannot make the folder '\(path)': \(String(cString: strerror(errno)))"
            }
            Log.info("made the output folder \(path)")
        } else if !isDirectory {
            return "'\(path)' is not a folder"
        }
        guard access(path, W_OK | X_OK) == 0 else {
            if errno == EROFS {
                return "the folder '\(path)' is on a read-only file system; mount it read-write or name a folder on a writable disk"
            }
            return "the folder '\(path)' is not writable by this user (uid \(getuid())); give it to the booth's user"
        }
        return nil
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Whether the folder is gone (removed while the booth ran: its takes, counter and lock with it).
    public var isGone: Bool {
        var info = stat()
        return stat(path, &info) != 0 && errno == ENOENT
    }

    // MARK: - Names

    /// The name for take number `n` at `date`: the template with its strftime fields (local time)
    /// and `{n}`.
    public func name(number n: Int, at date: Date) -> String { Self.name(template: template, number: n, at: date) }

    /// The name `template` gives number `n` at `date` (a take's, or a photo's: `--photo-template`).
    public static func name(template: String, number n: Int, at date: Date) -> String {
        let withNumber = template.replacing("{n}", with: String(n))
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 1024)
        let count = strftime(&buffer, buffer.count, withNumber, &parts)
        let name = count > 0 ? String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) : withNumber
        // A field that made a '/' or a control character (a locale's date, a time zone's name):
        // replaced, so the name stays one file in the folder and one line of its lists.
        guard TakeName.isSafe(name) else {
            let safe = TakeName.sanitized(name)
            Log.info("the name template '\(TakeName.printable(template))' made a name with a '/' or a control character; named '\(safe)' instead")
            return safe
        }
        return name
    }

    /// The next take: its number (the counter moves on at once, durably, so no number is ever
    /// handed out twice, even if the take is discarded or the booth dies) and its path: the
    /// template's name, or with `-2`, `-3`… before the extension if that is taken.
    /// `extension`: the file's own (a boomerang is an MP4 whatever the template ends in); nil: the template's.
    public func nextTake(at date: Date = Date(), extension own: String? = nil) -> (number: Int, path: String) {
        let n = readCounter()
        writeCounter(n + 1)
        let name = self.name(number: n, at: date)
        var url = URL(fileURLWithPath: file(name))
        if let own { url = url.deletingPathExtension().appendingPathExtension(own) }
        let stem = url.deletingPathExtension().path, ext = url.pathExtension
        var candidate = url.path
        var k = 2
        while FileManager.default.fileExists(atPath: candidate)
                || FileManager.default.fileExists(atPath: TakeFiles.markerPath(for: candidate)) {
            candidate = "\(stem)-\(k).\(ext)"
            k += 1
        }
        return (n, candidate)
    }

    /// The next number of the counter, for a photo (it moves on at once, durably, as a take's).
    public func nextNumber() -> Int {
        let n = readCounter()
        writeCounter(n + 1)
        return n
    }

    /// The counter's value: the number the next take gets. A missing or unreadable counter starts
    /// past every number the list of accepted takes has seen.
    /// A missing, unreadable or stale counter (behind the list, or behind a take's number in the
    /// folder, restored from a backup say) never hands out a number that is taken: it starts past
    /// the highest number the list or a name in the folder carries.
    func readCounter() -> Int {
        let saved = (try? String(contentsOfFile: file(Self.counterName), encoding: .utf8))
            .flatMap { Int($0.filter { !$0.isWhitespace }) } ?? 0
        let listed = accepted().map(\.number).max() ?? 0
        // A take on disk beyond them (a file named so that is no take, a stranger's, does not count).
        let floor = max(saved - 1, listed)
        let onDisk = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).compactMap { name -> Int? in
            guard let n = TakeName.number(in: name, template: template), n > floor, Self.notATake(file(name)) == nil else { return nil }
            return n
        }.max() ?? 0
        let next = max(saved, listed + 1, onDisk + 1, 1)
        if saved > 0 && next > saved { Log.info("the take counter in \(path) stood at \(saved), behind the takes there; it goes on from \(next)") }
        return next
    }

    func writeCounter(_ n: Int) {
        if !replace(Self.counterName, with: "\(n)\n") { Log.info("could not write the take counter in \(path)") }
    }

    private func replace(_ name: String, with text: String) -> Bool {
        Self.replace(file(name), with: text)
    }

    /// Replaces a small file atomically and durably: a new temporary file beside it (`.new`), synced,
    /// renamed over, the folder synced.
    static func replace(_ target: String, with text: String) -> Bool {
        let temporary = target + ".new"
        unlink(temporary)
        guard let file = try? NewFile.create(temporary) else { return false }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(file.rawValue, $0.baseAddress, $0.count) } == bytes.count
        let synced = fsync(file.rawValue) == 0
        // Closed before the rename, as a replaced file is.
        _ = consume file
        guard written, synced, rename(temporary, target) == 0 else {
            unlink(temporary)
            return false
        }
        return FolderSync.sync(of: target)
    }

    // MARK: - Accepted takes

    /// The accepted takes, oldest first (by counter), that are still in the folder's list.
    public func accepted() -> [Entry] {
        guard let text = try? String(contentsOfFile: file(Self.ledgerName), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count >= 2, let n = Int(parts[0]), TakeName.isSafe(String(parts[1])) else { return nil }
            return Entry(number: n, name: String(parts[1]), acceptedAt: parts.count > 2 ? Int64(parts[2]) : nil,
                         hidden: parts.count > 3 && parts[3] == "hidden",
                         share: parts.count > 4 && ShareToken.isToken(String(parts[4])) ? String(parts[4]) : nil,
                         consent: parts.count > 5 ? Self.consent(parts[5]) : nil)
        }.sorted { $0.number < $1.number }
    }

    /// Adds a take to the list of accepted ones (after Use Video, or recovered at launch).
    public func accept(_ entry: Entry) {
        // Never reached by a name the booth made (TakeFolder.name): a line per take stays one line.
        guard TakeName.isSafe(entry.name) else {
            Log.info("not listing '\(TakeName.printable(entry.name))' among the takes: its name has a '/' or a control character")
            return
        }
        var list = accepted().filter { $0.name != entry.name }
        list.append(entry)
        list.sort { $0.number < $1.number }
        saveList(list)
    }

    @discardableResult
    func saveList(_ list: [Entry]) -> Bool {
        let text = list.map { e in
            let consent = e.consent.map { "\t" + (e.share ?? "-") + "\tconsent:" + $0.map(\.rawValue).joined(separator: ",") }
            let flags = e.hidden || e.share != nil || consent != nil
                ? "\t" + (e.hidden ? "hidden" : "-") + (consent ?? e.share.map { "\t" + $0 } ?? "") : ""
            return "\(e.number)\t\(e.name)\t\(e.acceptedAt.map(String.init) ?? "-")\(flags)\n"
        }.joined()
        guard replace(Self.ledgerName, with: text) else {
            Log.info("could not write the list of takes in \(path)")
            return false
        }
        return true
    }

    /// A list's consent field (`consent:share,film`; `consent:` for none); nil for anything else. A word
    /// it does not know allows nothing.
    static func consent(_ field: Substring) -> [ConsentChoice]? {
        guard field.hasPrefix("consent:") else { return nil }
        return field.dropFirst("consent:".count).split(separator: ",").compactMap { ConsentChoice(rawValue: String($0)) }
    }

    // MARK: - Retention

    /// The rules (`--max-takes`, `--max-age`, `--keep-free`); nil: no such rule.
    public struct Retention: Equatable, Sendable {
        public var maxTakes: Int?
        public var maxAge: Double?
        public var keepFree: Int64?

        public init(maxTakes: Int?, maxAge: Double?, keepFree: Int64?) {
            self.maxTakes = maxTakes
            self.maxAge = maxAge
            self.keepFree = keepFree
        }

        public var isEmpty: Bool { maxTakes == nil && maxAge == nil && keepFree == nil }
    }

    /// Deletes the oldest accepted takes (by counter) until the rules hold: first down to
    /// `maxTakes`, then those older than `maxAge` (only while the wall clock is synchronised, and
    /// only takes whose acceptance time was), then while the disk has less than `keepFree` free.
    /// Never the newest accepted take (the guest who just left may still be watching its upload),
    /// nor a name in `protected` (a hook still running or failed). Returns what went and why.
    public func enforce(_ rules: Retention, protected: Set<String> = []) -> [(path: String, reason: DeletionReason)] {
        enforce(rules, protected: protected, now: WallClock.synchronisedNow(trusted: clockTrusted))
    }

    /// `enforce` with the wall clock's time given (Unix seconds; nil: not synchronised).
    public func enforce(_ rules: Retention, protected: Set<String> = [], now: Int64?) -> [(path: String, reason: DeletionReason)] {
        guard !rules.isEmpty else { return [] }
        var list = accepted()
        // Entries whose file is gone (deleted by hand) leave the list quietly.
        list.removeAll { !FileManager.default.fileExists(atPath: file($0.name)) }
        guard let newest = list.last else { return [] }
        var deleted: [(path: String, reason: DeletionReason)] = []
        func deletable(_ e: Entry) -> Bool { e.number != newest.number && !protected.contains(e.name) }
        func delete(_ e: Entry, _ reason: DeletionReason) -> Bool {
            let target = file(e.name)
            // Only a take the booth made: a list entry alone (a damaged or hand-edited list) is
            // not enough to delete a file.
            if let problem = Self.notATake(target) {
                Log.info("retention: \(target) \(problem), so it is no take of the booth's; left alone and taken off the list")
                list.removeAll { $0.name == e.name }
                return false
            }
            guard unlink(target) == 0 || errno == ENOENT else {
                Log.info("retention: could not delete \(target): \(String(cString: strerror(errno)))")
                return false
            }
            // Its library thumbnail (TakeLibrary) goes with it.
            unlink(TakeFiles.thumbnailPath(of: target))
            list.removeAll { $0.name == e.name }
            deleted.append((target, reason))
            return true
        }
        if let maxTakes = rules.maxTakes {
            for e in list where list.count > maxTakes && deletable(e) { _ = delete(e, .maxTakes) }
        }
        if let maxAge = rules.maxAge, let now {
            for e in list where deletable(e) {
                if let at = e.acceptedAt, Double(now - at) > maxAge { _ = delete(e, .maxAge) }
            }
        }
        if let keepFree = rules.keepFree {
            for e in list where deletable(e) {
                guard let free = DiskSpace.available(at: file(e.name)), free < keepFree else { break }
                _ = delete(e, .keepFree)
            }
        }
        if !deleted.isEmpty || list.count != accepted().count { saveList(list) }
        return deleted
    }

    /// Why the file at `path` is not a take the booth made (nil: it is one): it must be a regular
    /// file (not a link), this user's, named as a take or a photo (.mov or .mp4, .jpg or .jpeg, a
    /// safe name), and begin as every one the booth writes does: a movie with an `ftyp` box, a
    /// photo with JPEG's start of image.
    static func notATake(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return "cannot be looked at (\(String(cString: strerror(errno))))" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "is not a regular file" }
        guard info.st_uid == geteuid() else { return "belongs to uid \(info.st_uid), not this booth's user" }
        let name = URL(fileURLWithPath: path).lastPathComponent, lower = name.lowercased()
        let movie = [".mov", ".mp4"].contains(where: lower.hasSuffix), photo = [".jpg", ".jpeg"].contains(where: lower.hasSuffix)
        guard TakeName.isSafe(name), movie || photo else { return "is not named as a take or a photo" }
        var head = [UInt8](repeating: 0, count: 8)
        let count: Int
        do {
            let file = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            count = max(0, head.withUnsafeMutableBytes { read(file.rawValue, $0.baseAddress, 8) })
        } catch {
            return "cannot be read (\(String(cString: strerror(error.errno))))"
        }
        if movie, count < 8 || Array(head[4..<8]) != Array("ftyp".utf8) { return "does not begin as a movie the booth writes (no ftyp box)" }
        if photo, count < 2 || head[0] != 0xFF || head[1] != 0xD8 { return "does not begin as a JPEG the booth writes" }
        return nil
    }

    // MARK: - Recovery at launch

    /// Takes a dead run left behind: every marker in the folder (the caller holds the folder's
    /// lock, so no live booth owns one). A playable take is kept, its marker removed, and added to
    /// the accepted list (numbered past every take before it); a marker without a playable take goes
    /// with whatever is beside it. Returns the recovered takes, oldest first. `named`: that take alone,
    /// if its marker is there (a take this run kept: the booth was closed over it). `consent`: what a
    /// take's guest allowed (`--consent`), as its file says it, kept in the list.
    public func recoverOrphans(named only: String? = nil, playable: (String) -> Double?,
                               boomerang: (String) -> Double? = { _ in nil },
                               consent: (String) -> [ConsentChoice]? = { _ in nil }) -> [TakeFiles.Recovered] {
        let names = only.map { name in ["." + name + ".recording"].filter { FileManager.default.fileExists(atPath: file($0)) } }
            ?? (try? FileManager.default.contentsOfDirectory(atPath: path))
        guard let names else { return [] }
        var recovered: [TakeFiles.Recovered] = []
        for marker in names.sorted() where marker.hasPrefix(".") && marker.hasSuffix(".recording") {
            let name = String(marker.dropFirst().dropLast(".recording".count))
            guard TakeName.isSafe(name) else { continue }
            let take = file(name)
            // A boomerang's loop first: a capture whose loop was not made is made into one, or goes.
            if TakeFiles.recoverBoomerang(take, remake: boomerang) == .removed {
                unlink(file(marker))
                continue
            }
            if let duration = playable(take) {
                recovered.append(TakeFiles.Recovered(path: take, duration: duration))
            } else if FileManager.default.fileExists(atPath: take) {
                Log.info("recovery: \(take) holds no playable picture; deleted")
                unlink(take)
            }
            unlink(file(marker))
            // A cut a kill stopped (`--trim`), a leveled copy never handed over: the take above is whole.
            TakeFiles.companions(of: take).forEach { unlink($0) }
        }
        guard !recovered.isEmpty else { return [] }
        // Numbered as the newest takes: each gets a counter number of its own.
        for take in recovered {
            let n = readCounter()
            writeCounter(n + 1)
            accept(Entry(number: n, name: URL(fileURLWithPath: take.path).lastPathComponent,
                         acceptedAt: WallClock.synchronisedNow(trusted: clockTrusted), consent: consent(take.path)))
        }
        FolderSync.sync(of: file(Self.ledgerName))
        return recovered
    }
}

