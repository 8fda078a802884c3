// The consent log (`.kiosk-recorder.consent` in the output folder, one JSON object per line, written
// by the booth) as the console reads it: each take's choices for the Takes page, and the whole log as
// CSV for the operator to keep. Pure: the file's bytes are handed in.
import FoundationEssentials

/// One line of the consent log: a take's consent (`version`, `choices`), or its deletion (`deleted`:
/// `guest` or `operator`).
public struct ConsentRecord: Sendable, Equatable, Decodable {
    public var take: String
    public var time: String
    public var version: String?
    public var choices: [String]?
    public var deleted: String?

    public init(take: String, time: String, version: String? = nil, choices: [String]? = nil, deleted: String? = nil) {
        (self.take, self.time, self.version, self.choices, self.deleted) = (take, time, version, choices, deleted)
    }
}

public enum ConsentRecords {
    /// The log's name in the output folder.
    public static let fileName = ".kiosk-recorder.consent"

    /// The log's lines, oldest first; a line that is no record (cut short by a crash) is passed over.
    // (The booth's own reader is KioskStorage's ConsentLog; the console links no storage module.)
    public static func parse(_ bytes: [UInt8]) -> [ConsentRecord] {
        bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
            try? JSONDecoder().decode(ConsentRecord.self, from: Data(line))
        }
    }

    /// Each take's choices, by its name: its last consent line's.
    public static func choices(_ records: [ConsentRecord]) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for record in records { if let choices = record.choices { found[record.take] = choices } }
        return found
    }

    /// The CSV's header.
    public static let header = "take,time,version,choices,deleted"

    /// The log as CSV (RFC 4180, CRLF): one row a line, choices joined by spaces. A field a
    /// spreadsheet would take for a formula (`=`, `+`, `-`, `@`, a tab) is quoted with a `'` first.
    public static func csv(_ records: [ConsentRecord]) -> String {
        let rows = records.map { record in
            [record.take, record.time, record.version ?? "", record.choices?.joined(separator: " ") ?? "", record.deleted ?? ""]
                .map(field).joined(separator: ",")
        }
        return ([header] + rows).map { $0 + "\r\n" }.joined()
    }

    static func field(_ text: String) -> String {
        var value = text
        if let first = value.first, "=+-@\t\r".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.map { $0 == "\"" ? "\"\"" : String($0) }.joined() + "\""
    }

    /// The answer to `GET api/consent.csv`: the log as a download (an empty one, with its header,
    /// when there is no log yet).
    public static func answer(_ bytes: [UInt8]?) -> ConsoleResponse {
        ConsoleResponse(status: 200, headers: ConsoleRules.safety.merging([
            "Content-Type": "text/csv; charset=utf-8", "Cache-Control": "no-store",
            "Content-Disposition": "attachment; filename=\"consent.csv\"",
        ]) { a, _ in a }, body: Array(csv(parse(bytes ?? [])).utf8))
    }
}

extension ConsoleRules {
    static let consentPath = "/console/api/consent.csv"
}
