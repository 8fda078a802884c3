// `kiosk-recorder reel DIR [--output FILE] [--title TEXT] [--size WxH] [--json]`: the
// hosts' film of every take the booth kept in DIR, oldest first (KioskMedia's Reel makes it). Photos
// stay out. A take that cannot be read is left out and named; SIGINT or SIGTERM stop it, and no
// file is left at --output. Progress: a bar on a terminal, or `reelProgress` lines with --json.
import FoundationEssentials
import Glibc
import KioskBooth
import KioskContract
import KioskCore
import KioskOptions
import KioskMedia
import KioskStorage
import KioskSystem
import Synchronization

enum ReelCommand {
    /// The video files a folder of takes holds: its list of accepted takes (TakeFolder's, oldest
    /// first), or, for a folder without one, its .mov and .mp4 files by their time.
    static func takes(in folder: String) -> [(path: String, time: Date?)] {
        let videos: (String) -> Bool = { name in
            let lower = name.lowercased()
            return !name.hasPrefix(".") && (lower.hasSuffix(".mov") || lower.hasSuffix(".mp4"))
        }
        let listed = TakeFolder(path: folder, template: "", clockTrusted: false).accepted().filter { videos($0.name) }
            .map { (path: folder + "/" + $0.name, acceptedAt: $0.acceptedAt) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        let modified = { (path: String) -> Date? in (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date }
        if !listed.isEmpty { return listed.map { ($0.path, $0.acceptedAt.map { Date(timeIntervalSince1970: Double($0)) } ?? modified($0.path)) } }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter(videos).map { folder + "/" + $0 }.map { ($0, modified($0)) }
            .sorted { ($0.1 ?? .distantPast, $0.0) < ($1.1 ?? .distantPast, $1.0) }
    }

    static func run(_ arguments: [String]) -> Int32 {
        let options: ReelOptions
        do { options = try ReelOptions.parse(arguments) } catch {
            Log.write("kiosk-recorder: \(error.message)\n")
            return 2
        }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: options.folder, isDirectory: &isFolder), isFolder else {
            Log.write("kiosk-recorder reel: \(options.folder) is no folder\n")
            return 1
        }
        let takes = Self.takes(in: options.folder)
        guard !takes.isEmpty else {
            Log.write("kiosk-recorder reel: no takes in \(options.folder)\n")
            return 1
        }
        // SIGINT and SIGTERM (blocked since main's first line) stop the film between packets.
        let stop = StopSignal()
        let stopped: @Sendable () -> Bool = { stop.number.load(ordering: .relaxed) != 0 }
        let watcher: SignalWatcher?
        do {
            watcher = try SignalWatcher(signals: [SIGINT, SIGTERM], name: "kiosk-reel-signals") { number in
                stop.number.store(number, ordering: .relaxed)
            }
        } catch {
            watcher = nil
            Log.info("reel: \(error); Ctrl-C may leave a partial film")
        }
        defer { watcher?.stop() }
        let output = URL(fileURLWithPath: options.output)
        let folder = output.deletingLastPathComponent().path
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-reel-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let working = folder + "/." + output.lastPathComponent + ".working.mp4"
        let progress = ReelProgress(json: options.json, total: takes.count, events: EventSink())
        let reel: Reel
        do { reel = try Reel(size: options.size, working: working, scratch: scratch, cancelled: stopped) } catch {
            Log.write("kiosk-recorder reel: \(error)\n")
            return 1
        }
        var kept = 0
        do throws(ReelError) {
            try reel.card(options.title ?? local(takes[0].time ?? Date(), "%-d %B %Y"), seconds: 3)
            for (index, take) in takes.enumerated() {
                if stopped() { throw ReelError("interrupted") }
                let question = Reel.question(of: take.path)
                do throws(ReelError) {
                    // The take is checked before its card: a damaged one leaves no card behind.
                    let card = question ?? take.time.map { local($0, "%H:%M") } ?? URL(fileURLWithPath: take.path).lastPathComponent
                    let part = try reel.check(take.path)
                    try reel.card(card, seconds: 2)
                    try reel.take(part)
                    kept += 1
                } catch {
                    if stopped() { throw error }
                    Log.write("kiosk-recorder reel: left out \(take.path): \(error)\n")
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
                Log.write("kiosk-recorder reel: stopped by \(number == SIGINT ? "SIGINT" : "SIGTERM"); no film written\n")
                LineWriter.flushStandard()
                return 128 + number
            }
            Log.write("kiosk-recorder reel: \(error)\n")
            LineWriter.flushStandard()
            return 1
        }
    }
}

/// The signal that stopped the film (0: none), set by the watcher's thread.
final class StopSignal: Sendable {
    let number = Atomic<Int32>(0)
}

/// `date` in local time by strftime's `format` (the C locale's words: "5 December 2026", "14:32").
func local(_ date: Date, _ format: String) -> String {
    var seconds = time_t(date.timeIntervalSince1970)
    var parts = tm()
    localtime_r(&seconds, &parts)
    var text = [CChar](repeating: 0, count: 64)
    let length = strftime(&text, text.count, format, &parts)
    return String(decoding: text.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
            Log.write("kiosk-recorder reel: \(path): \(takes) takes, \(String(printf: "%.1f", duration)) s\n")
        }
    }
}
