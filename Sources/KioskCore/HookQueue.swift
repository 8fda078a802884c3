// The `--on-take` hooks still owed, as a value with time passed in (CLOCK_MONOTONIC ns): each
// accepted take's hook is tried until it exits 0, again after a back-off (10 s, doubling, at most
// 15 min between tries), at most `--hook-attempts` times; one runs at a time, the takes in the order
// they were accepted. A deleted take's tombstone (`--on-delete`) waits in the same queue, tried the
// same way but never given up. The booth keeps a copy in the output folder (`text`, read back with
// `entries`) written before each try, so a restart, a power cut or a kill -9 continues the queue: at
// launch what is owed runs at once. A take whose hook is owed is kept from retention (`protectedTakes`).
import FoundationEssentials
import KioskContract

/// The wait between tries: `first` seconds after the first failure, doubling, never more than 15 min.
public struct HookBackoff: Equatable, Sendable {
    /// Seconds after the first failed try (10; `KIOSK_HOOK_BACKOFF` shortens it for tests).
    public var first: Double
    /// The longest wait between two tries, in seconds.
    public static let longest: Double = 900

    public init(first: Double = 10) {
        self.first = first
    }

    /// Seconds to wait after the `attempt`-th try (1, 2, …) failed.
    public func delay(after attempt: Int) -> Double {
        // 2^20 × 10 s is far past the cap: larger exponents add nothing (and never overflow).
        min(first * Double(1 << min(max(attempt - 1, 0), 20)), Self.longest)
    }
}

/// How a try of a hook ended.
public enum HookOutcome: Equatable, Sendable {
    /// The command ran and exited with this status (128 + the signal's number if a signal ended it).
    case exited(Int)
    /// The command could not be started: why.
    case notStarted(String)
    /// The take is no longer there (deleted by hand): nothing to run it for.
    case takeGone
}

public struct HookQueue: Equatable, Sendable {
    /// One take's hook still owed.
    public struct Entry: Codable, Equatable, Sendable {
        /// The take's path, and its length in seconds (`KIOSK_TAKE_DURATION`).
        public var path: String
        public var duration: Double
        /// The tries started so far (one killed with the booth counts).
        public var attempts: Int
        /// The take's share folder, when it was shared (`KIOSK_SHARE_TOKEN`, `KIOSK_SHARE_DIR`).
        public var shareToken: String?
        public var shareFolder: String?
        /// `delete`: the tombstone of a deleted take (`--on-delete`); nil (not saved): `--on-take`'s.
        public var hook: HookKind?

        public init(path: String, duration: Double, attempts: Int = 0, shareToken: String? = nil, shareFolder: String? = nil, hook: HookKind? = nil) {
            (self.path, self.duration, self.attempts, self.shareToken, self.shareFolder, self.hook) = (path, duration, attempts, shareToken, shareFolder, hook)
        }

        /// Which hook it owes, and its key in the queue: a take's path, and its tombstone's beside it.
        public var kind: HookKind { hook ?? .take }
        var key: String { kind == .delete ? "delete:" + path : path }

        /// The take's file name, as retention knows it.
        public var name: String {
            path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        }
    }

    /// What a try is run with (`hook`: which of the two commands).
    public struct Run: Equatable, Sendable {
        public let path: String
        public let command: String
        public let environment: [String: String]
        /// The try's number for this take (1, 2, …).
        public let attempt: Int
        public var hook: HookKind = .take

        public init(path: String, command: String, environment: [String: String], attempt: Int, hook: HookKind = .take) {
            (self.path, self.command, self.environment, self.attempt, self.hook) = (path, command, environment, attempt, hook)
        }
    }

    /// The hooks owed, oldest take first.
    public private(set) var entries: [Entry] = []
    /// When each take's next try is due (monotonic ns), by key; not saved: after a restart what is
    /// owed is due at once.
    private var due: [String: Int64] = [:]
    /// The key of the hook that runs now.
    public private(set) var running: String?
    public var backoff: HookBackoff

    public init(backoff: HookBackoff = HookBackoff()) {
        self.backoff = backoff
    }

    /// How many takes still owe their hook (running, waiting for a try, or out of tries).
    public var pending: Int { entries.count }

    /// Takes (file names) retention must not delete: their `--on-take` hook has not exited 0.
    public var protectedTakes: Set<String> { Set(entries.filter { $0.kind == .take }.map(\.name)) }

    /// An accepted take owes its hook, due now (a take accepted again starts its count again). A
    /// tombstone ends its take's `--on-take` debt unless that hook runs now (its upload, if it ends,
    /// is deleted by the tombstone after it).
    public mutating func add(_ entry: Entry, now: Int64) {
        let gone = entries.filter { $0.key == entry.key || (entry.kind == .delete && $0.path == entry.path && running != $0.key) }.map(\.key)
        entries.removeAll { gone.contains($0.key) }
        for key in gone { due[key] = nil }
        entries.append(entry)
        due[entry.key] = now
    }

    /// The queue a previous run left (read at launch): each entry due now, after those already here.
    public mutating func load(_ saved: [Entry], now: Int64) {
        for entry in saved where !entries.contains(where: { $0.key == entry.key }) {
            entries.append(entry)
            due[entry.key] = now
        }
    }

    /// The next try to start at `now`, if none runs: the oldest hook whose try is due, whose command
    /// is set (`commands`: `--on-take`'s, `--on-delete`'s) and that has tries left (`limit`:
    /// `--hook-attempts`, nil unlimited; a tombstone's are). Its attempt is counted now, so the queue
    /// saved before it runs says it was tried.
    public mutating func next(commands: [HookKind: String], limit: Int?, now: Int64) -> Run? {
        guard running == nil, let i = entries.firstIndex(where: {
            (due[$0.key] ?? now) <= now && commands[$0.kind] != nil && ($0.kind == .delete || $0.attempts < (limit ?? .max))
        }), let command = commands[entries[i].kind] else { return nil }
        entries[i].attempts += 1
        let entry = entries[i]
        running = entry.key
        var environment = ["KIOSK_TAKE_PATH": entry.path]
        if entry.kind == .take { environment["KIOSK_TAKE_DURATION"] = String(KioskEvent.milliseconds(entry.duration)) }
        if let token = entry.shareToken, entry.kind == .delete || entry.shareFolder != nil {
            (environment["KIOSK_SHARE_TOKEN"], environment["KIOSK_SHARE_DIR"]) = (token, entry.shareFolder)
        }
        return Run(path: entry.path, command: command, environment: environment, attempt: entry.attempts, hook: entry.kind)
    }

    /// The running try of `path` (`hook`'s) ended at `now`: the events to emit. An exit 0 (or a take
    /// that is gone) ends the debt; anything else makes its next try due after the back-off.
    public mutating func ended(path: String, hook: HookKind = .take, outcome: HookOutcome, now: Int64) -> [KioskEvent] {
        let key = Entry(path: path, duration: 0, hook: hook).key
        precondition(running == key, "a hook reported back that was not running")
        running = nil
        guard let i = entries.firstIndex(where: { $0.key == key }) else { return [] }
        let attempt = entries[i].attempts
        switch outcome {
        case .exited(0), .takeGone:
            entries.remove(at: i)
            due[key] = nil
        case .exited, .notStarted:
            due[key] = now + Int64(backoff.delay(after: attempt) * 1e9)
        }
        switch outcome {
        case let .exited(status): return [.hookFinished(path: path, status: status, attempt: attempt, hook: hook)]
        case let .notStarted(why): return [.error(code: .hookFailed, message: why)]
        case .takeGone: return []
        }
    }

    /// Seconds until the next try of `path` (`hook`'s) is due at `now` (0: due), nil when it is not owed.
    public func wait(for path: String, hook: HookKind = .take, now: Int64) -> Double? {
        let key = Entry(path: path, duration: 0, hook: hook).key
        guard entries.contains(where: { $0.key == key }) else { return nil }
        return max(0, Double((due[key] ?? now) - now) / 1e9)
    }

    // MARK: - The saved copy

    /// The queue as the file in the output folder holds it: one JSON object a line.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return entries.compactMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) + "\n" }.joined()
    }

    /// The entries a saved copy holds; a line that does not read (a copy from a newer booth, a
    /// hand edit) is left out.
    public static func entries(from text: String) -> [Entry] { parse(text).entries }

    /// The entries a saved copy holds, and how many of its lines did not read (damage, a hand
    /// edit, a copy from a newer booth).
    public static func parse(_ text: String) -> (entries: [Entry], unreadable: Int) {
        let decoder = JSONDecoder()
        var unreadable = 0
        let entries = text.split(separator: "\n").compactMap { line -> Entry? in
            guard let entry = try? decoder.decode(Entry.self, from: Data(line.utf8)), entry.path.hasPrefix("/"),
                  entry.attempts >= 0 else {
                if !line.allSatisfy(\.isWhitespace) { unreadable += 1 }
                return nil
            }
            return entry
        }
        return (entries, unreadable)
    }
}
