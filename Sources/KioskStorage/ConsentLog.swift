// The consent log (`--consent`): `.kiosk-recorder.consent` in the output folder (beside `--output`'s
// file), one JSON object a line, appended and never rewritten. A take handed over under consent adds
// `{"take":NAME,"time":…,"version":…,"choices":[…]}`; a take deleted adds `{"take":NAME,"time":…,
// "deleted":"guest"}` (or `"operator"`). It keeps no picture and no sound. Each line is written whole
// (one write on an O_APPEND descriptor) and synced, the folder too when the log was just made, before
// anything is said about it: the outcome of a take comes after its line is on disk.
//
// Blocking file work: called on the booth's file worker, never on the UI thread.
import FoundationEssentials
import Glibc
import KioskContract
import KioskSystem

/// One line of the consent log.
public struct ConsentLine: Equatable, Sendable {
    /// The take's file name in the output folder (as the takes' list names it).
    public var take: String
    /// When, in UTC (`2026-12-07T01:02:03Z`).
    public var time: String
    /// A take's consent: the text's version and the choices switched on (nil on a deletion's line).
    public var consent: Consent?
    /// A deletion's line: who asked (nil on a consent's line).
    public var deleted: DeletionReason?

    public init(take: String, time: String, consent: Consent? = nil, deleted: DeletionReason? = nil) {
        (self.take, self.time, self.consent, self.deleted) = (take, time, consent, deleted)
    }

    /// The line's JSON, keys in the log's order (take, time, then version and choices, or deleted); no newline.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        func value(_ v: some Encodable) -> String { (try? encoder.encode(v)).map { String(decoding: $0, as: UTF8.self) } ?? "null" }
        var fields = [("take", value(take)), ("time", value(time))]
        if let consent { fields += [("version", value(consent.version)), ("choices", value(consent.choices))] }
        if let deleted { fields.append(("deleted", value(deleted))) }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A line read back; nil for one that is not a line of the log.
    public init?(json line: String) {
        struct Raw: Decodable {
            let take: String, time: String
            let version: String?, choices: [ConsentChoice]?, deleted: DeletionReason?
        }
        guard let raw = try? JSONDecoder().decode(Raw.self, from: Data(line.utf8)) else { return nil }
        let consent = raw.version.map { Consent(version: $0, choices: raw.choices ?? []) }
        guard (consent == nil) != (raw.deleted == nil) else { return nil }
        self.init(take: raw.take, time: raw.time, consent: consent, deleted: raw.deleted)
    }

    /// `seconds` since 1970 as the log writes a time: UTC, to the second.
    public static func time(_ seconds: Int64) -> String {
        var t = time_t(seconds), parts = tm()
        gmtime_r(&t, &parts)
        return String(printf: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// The time now, as the log writes it.
    public static var now: String { time(Int64(Date().timeIntervalSince1970)) }
}

public enum ConsentLog {
    static let name = ".kiosk-recorder.consent"

    /// The log of the output folder `folder`.
    public static func path(in folder: String) -> String { (folder.isEmpty ? "." : folder) + "/" + name }

    /// Appends `line` and syncs it (and the folder, when the log was just made); false, logged, if it
    /// could not be written whole and synced.
    @discardableResult
    public static func append(_ line: ConsentLine, in folder: String) -> Bool {
        let path = path(in: folder)
        var made = false
        do throws(SystemError) {
            _ = try NewFile.create(path, mode: 0o600)
            made = true
        } catch {
            guard error.errno == EEXIST else {
                Log.info("consent log: cannot make \(path): \(error)")
                return false
            }
        }
        do throws(SystemError) {
            let file = try FileDescriptor.open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC)
            if let failure = file.writeAll(Array((line.json + "\n").utf8)) {
                Log.info("consent log: cannot write \(path): \(String(cString: strerror(failure)))")
                return false
            }
            guard fsync(file.rawValue) == 0 else {
                Log.info("consent log: fsync of \(path): \(String(cString: strerror(errno)))")
                return false
            }
        } catch {
            Log.info("consent log: cannot open \(path): \(error)")
            return false
        }
        return !made || FolderSync.sync(of: path)
    }

    /// The lines of the log in `folder`, oldest first (none when there is none; a line that does not
    /// read is left out).
    public static func read(in folder: String) -> [ConsentLine] {
        guard let data = FileManager.default.contents(atPath: path(in: folder)) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { ConsentLine(json: String($0)) }
    }
}

extension ConsentLog {
    /// The hand-over of the take now at `take` under `consent` (nil: no `--consent`, nothing to note):
    /// its line appended in its folder and synced; an `error` to say before its outcome if that failed.
    public static func note(_ take: String, _ consent: Consent?) -> [KioskEvent] {
        guard let consent else { return [] }
        let line = ConsentLine(take: PathText.name(of: take), time: ConsentLine.now, consent: consent)
        guard append(line, in: PathText.folder(of: take)) else {
            return [.error(code: .recordingFailed, message: "the consent log in \(path(in: PathText.folder(of: take))) could not be written: the take's consent is only in its outcome")]
        }
        return []
    }
}
