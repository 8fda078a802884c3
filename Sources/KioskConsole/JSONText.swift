// The console's bits of JSON: a string written as a JSON string, one string field read from a body.
import FoundationEssentials

enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    static func string(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        guard let data = try? encoder.encode(text) else { preconditionFailure("a string always encodes") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The string field `name` of the JSON object `body`; nil when it is not one or has none.
    static func stringField(_ name: String, in body: [UInt8]) -> String? {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(body)),
              case let .string(value)? = object[name] else { return nil }
        return value
    }

    /// A field's value, read only far enough to tell a string from anything else.
    private enum JSONValue: Decodable {
        case string(String)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            self = (try? container.decode(String.self)).map(JSONValue.string) ?? .other
        }
    }
}

/// The fields the console reads from a line the booth or its `reel --json` wrote (an event, its
/// name first): the test take's (ConsoleDevices) and the film's (ConsoleFilmRules). A field the
/// line lacks is nil.
struct BoothLine: Decodable {
    var event: String
    var mode, outputPath, code, message: String?
    var duration, microphoneLevel: Double?
    var success: Bool?
    var done, total, takes: Int?
}
