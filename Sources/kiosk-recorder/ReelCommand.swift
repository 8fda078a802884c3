// `kiosk-recorder reel DIR [--output FILE] [--title TEXT] [--size WxH] [--reel-background COLOUR]
// [--reel-text COLOUR] [--json] [--force]`: the hosts' film of every take the booth kept in DIR,
// oldest first (KioskMedia's Reel makes it). Photos
// stay out. A take that cannot be read is left out and named; SIGINT or SIGTERM stop it, and no
// file is left at --output. Progress: a bar on a terminal, or `reelProgress` lines with --json.
import Dispatch
import FoundationEssentials
import Glibc
import KioskBooth
import KioskContract
import KioskCore
import KioskOptions
import KioskScreenText
import KioskMedia
import KioskStorage
import KioskSystem
import Synchronization

enum ReelCommand {
    /// The video files a folder of takes holds: its list of accepted takes (TakeFolder's, oldest
    /// first), or, for a folder without one, its .mov and .mp4 files by their time. What is no
    /// regular file (a FIFO would hold open(2) for ever, a folder cannot be read) is left out and
    /// named on stderr, and so is a film made by reel (its mark): it is no take.
    static func takes(in folder: String) -> [(path: String, time: Date?)] {
        let videos: (String) -> Bool = { name in
            let lower = name.lowercased()
            return !name.hasPrefix(".") && (lower.hasSuffix(".mov") || lower.hasSuffix(".mp4"))
        }
        // A take the operator hid (`hideTake`), or whose guest did not allow the film (`--consent`), is in no film.
        let ledger = TakeFolder(path: folder, template: "", clockTrusted: false).accepted()
        let leftOut = { (entry: TakeFolder.Entry) in entry.hidden || !Consent.allows(entry.consent, .film) }
        let listed = ledger.filter { videos($0.name) && !leftOut($0) }
            .map { (path: folder + "/" + $0.name, acceptedAt: $0.acceptedAt) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        let modified = { (path: String) -> Date? in (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date }
        let found: [(path: String, time: Date?)]
        if !listed.isEmpty || ledger.contains(where: leftOut) {
            found = listed.map { ($0.path, $0.acceptedAt.map { Date(timeIntervalSince1970: Double($0)) } ?? modified($0.path)) }
        } else {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            found = names.filter(videos).map { folder + "/" + $0 }.map { ($0, modified($0)) }
                .sorted { ($0.1 ?? .distantPast, $0.0) < ($1.1 ?? .distantPast, $1.0) }
        }
        return found.filter { take in
            var status = stat()
            guard stat(take.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                Log.info("left out \(take.path): it is no regular file", from: "kiosk-recorder reel")
                return false
            }
            guard !Reel.tags(of: take.path).isFilm else {
                Log.info("left out \(take.path): it is a film made by reel", from: "kiosk-recorder reel")
                return false
            }
            return true
        }
    }

    /// Why the film may not be written at `output` (exit 2), or nil: its folder must exist, a file
    /// there is replaced only with --force, and never one of the takes.
    static func refusal(of output: String, takes: [String], force: Bool) -> String? {
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            return "--output '\(output)': its folder \(folder) does not exist (or is no folder)"
        }
        guard lstat(output, &status) == 0 else { return nil }
        var file = stat()
        if stat(output, &file) == 0, let take = takes.first(where: { path in
            var take = stat()
            return stat(path, &take) == 0 && take.st_dev == file.st_dev && take.st_ino == file.st_ino
        }) { return "--output '\(output)' is the take \(take); the film never replaces a take" }
        return force ? nil : "--output '\(output)' exists; give --force to replace it"
    }

    static func run(_ arguments: [String]) -> Int32 {
        if ReelOptions.asksForHelp(arguments) {
            LineWriter.standardOutput.enqueue(Data(ReelOptions.help.utf8))
            LineWriter.flushStandard()
            return 0
        }
        let options: ReelOptions
        do { options = try ReelOptions.parse(arguments) } catch {
            Log.info(error.message)
            return 2
        }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: options.folder, isDirectory: &isFolder), isFolder else {
            Log.info("\(options.folder) is no folder", from: "kiosk-recorder reel")
            return 1
        }
        // A folder this user may not list (the booth's own is 0750, its takes 0600) is said so, not
        // taken for one with no takes.
        guard access(options.folder, R_OK | X_OK) == 0 else {
            Log.info("cannot read \(options.folder): \(String(cString: strerror(errno))); run reel as the booth's user, "
                     + "e.g. sudo -u kiosk kiosk-recorder reel \(options.folder)", from: "kiosk-recorder reel")
            return 1
        }
        let takes = Self.takes(in: options.folder)
        if let refusal = refusal(of: options.output, takes: takes.map(\.path), force: options.force) {
            Log.info("\(refusal)", from: "kiosk-recorder reel")
            return 2
        }
        guard !takes.isEmpty else {
            Log.info("no takes in \(options.folder)", from: "kiosk-recorder reel")
            return 1
        }
        let workspace: ReelWorkspace
        do { workspace = try ReelWorkspace(beside: options.output) } catch {
            Log.info("\(error)", from: "kiosk-recorder reel")
            return 1
        }
        // SIGINT and SIGTERM (blocked since main's first line) stop the film between packets. A
        // step that does not come back to look (a read that blocks, a filter that runs on) gets
        // `StopSignal.grace`; then the workspace goes and the process ends from the watcher's thread.
        let stop = StopSignal()
        let watcher: SignalWatcher?
        do {
            watcher = try SignalWatcher(signals: [SIGINT, SIGTERM], name: "kiosk-reel-signals") { number in
                stop.number.store(number, ordering: .relaxed)
                guard stop.ended.wait(timeout: .now() + StopSignal.grace) == .timedOut else {
                    stop.ended.signal()
                    return
                }
                workspace.remove()
                Log.info("\(StopSignal.said(number))", from: "kiosk-recorder reel")
                // The line out before the end, but never a wait on a reader that does not read.
                _ = LineWriter.standardError.flush(timeout: 0.2)
                _exit(128 + number)
            }
        } catch {
            watcher = nil
            Log.info("reel: \(error); Ctrl-C may leave a partial film")
        }
        let status = make(options, takes: takes, workspace: workspace, stop: stop)
        workspace.remove()
        stop.ended.signal()
        watcher?.stop()
        return status
    }

    /// The film made from `takes` in `workspace`, renamed to --output: the exit status.
    private static func make(_ options: ReelOptions, takes: [(path: String, time: Date?)], workspace: ReelWorkspace, stop: StopSignal) -> Int32 {
        let stopped: @Sendable () -> Bool = { stop.number.load(ordering: .relaxed) != 0 }
        let progress = ReelProgress(json: options.json, total: takes.count, events: EventSink())
        let reel: Reel
        do { reel = try Reel(size: options.size, colours: (options.background, options.text), workspace: workspace.path, cancelled: stopped) } catch {
            Log.info("\(error)", from: "kiosk-recorder reel")
            return 1
        }
        var kept = 0
        do throws(ReelError) {
            // The day of the event: the first take's, under the title (or the title itself).
            let day = longDate(takes[0].time ?? Date(), in: options.language)
            try reel.card(options.title ?? day, note: options.title == nil ? nil : day, seconds: 3)
            for (index, take) in takes.enumerated() {
                if stopped() { throw ReelError("interrupted") }
                let question = Reel.tags(of: take.path).question
                do throws(ReelError) {
                    // The take is checked before its card: a damaged one leaves no card behind.
                    let card = question ?? take.time.map { local($0, "%H:%M") } ?? URL(fileURLWithPath: take.path).lastPathComponent
                    let part = try reel.check(take.path)
                    try reel.card(card, seconds: 2)
                    try reel.take(part)
                    kept += 1
                } catch {
                    if stopped() || error.endsFilm { throw error }
                    Log.info("left out \(take.path): \(error)", from: "kiosk-recorder reel")
                    progress.skipped(take.path, reason: error.description)
                }
                progress.done(index + 1)
            }
            guard kept > 0 else { throw ReelError("no take could be read") }
            let duration = try reel.finish(into: options.output)
            progress.finished(path: options.output, duration: duration, takes: kept)
            LineWriter.flushStandard()
            return 0
        } catch {
            reel.abandon()
            progress.clear()
            let number = stop.number.load(ordering: .relaxed)
            if number != 0 {
                Log.info("\(StopSignal.said(number))", from: "kiosk-recorder reel")
                LineWriter.flushStandard()
                return 128 + number
            }
            Log.info("\(error)", from: "kiosk-recorder reel")
            LineWriter.flushStandard()
            return 1
        }
    }
}

/// The film's private folder, `.kiosk-reel-XXXXXX` in --output's folder (mkdtemp: new, 0700, ours):
/// the writer's file and the film before its rename (the same disk, so the rename is one step).
/// Nothing in it is ever a take, and it goes when reel ends, however it ends but kill -9.
struct ReelWorkspace: Sendable {
    let path: String

    init(beside output: String) throws(ReelError) {
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        var template = Array((folder + "/.kiosk-reel-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ReelError("cannot make the film's folder in \(folder): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    /// Removes its files and itself (from any thread; again does nothing).
    func remove() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { unlink(path + "/" + name) }
        rmdir(path)
    }
}

/// The signal that stopped the film (0: none), set by the watcher's thread, and the film's end,
/// which the watcher waits for at most `grace` after a signal.
final class StopSignal: Sendable {
    let number = Atomic<Int32>(0)
    let ended = DispatchSemaphore(value: 0)
    static let grace = DispatchTimeInterval.milliseconds(500)

    static func said(_ number: Int32) -> String {
        "stopped by \(number == SIGINT ? "SIGINT" : "SIGTERM"); no film written"
    }
}

/// `date` in local time by strftime's `format` (the C locale's: "14:32").
func local(_ date: Date, _ format: String) -> String {
    var seconds = time_t(date.timeIntervalSince1970)
    var parts = tm()
    localtime_r(&seconds, &parts)
    var text = [CChar](repeating: 0, count: 64)
    let length = strftime(&text, text.count, format, &parts)
    return String(decoding: text.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// `date`'s day in local time, written out in `language` ("5 December 2026", "5. Dezember 2026").
func longDate(_ date: Date, in language: Language) -> String {
    var seconds = time_t(date.timeIntervalSince1970)
    var parts = tm()
    localtime_r(&seconds, &parts)
    return language.longDate(day: Int(parts.tm_mday), month: Int(parts.tm_mon) + 1, year: Int(parts.tm_year) + 1900)
}

/// The film's progress: a bar on stderr when it is a terminal, or JSON lines on stdout (`--json`).
final class ReelProgress {
    let json: Bool
    let total: Int
    let events: EventSink
    private let terminal = isatty(2) == 1

    init(json: Bool, total: Int, events: EventSink) {
        (self.json, self.total, self.events) = (json, total, events)
        show(0)
    }

    private func emit(_ event: KioskEvent) { events.emit(event) }

    func done(_ count: Int) { show(count) }

    private func show(_ count: Int) {
        if json { emit(.reelProgress(done: count, total: total)) }
        guard !json, terminal else { return }
        let width = 30, filled = total > 0 ? width * count / total : width
        Log.write("\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(count)/\(total) takes")
    }

    func skipped(_ path: String, reason: String) {
        if json { emit(.reelSkipped(path: path, reason: reason)) }
    }

    func clear() {
        if !json, terminal { Log.write("\n") }
    }

    func finished(path: String, duration: Double, takes: Int) {
        clear()
        if json {
            emit(.reelFinished(path: path, duration: duration, takes: takes))
        } else {
            Log.info("\(path): \(takes) takes, \(String(printf: "%.1f", duration)) s", from: "kiosk-recorder reel")
        }
    }
}
