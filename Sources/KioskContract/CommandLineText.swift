// What a command line says before its fields are read (CommandParser, KioskCore): a number JSON
// does not allow, and a key given twice. Pure scans of the line's text. And why a line is no
// command (CommandError), said as an `error` event.
import FoundationEssentials

public enum CommandLineText {
    /// `NaN`, `Infinity` or `-Infinity` where `line` has one outside its strings (what JavaScript's
    /// and Python's encoders write for such a float), which JSON does not allow.
    public static func nonFiniteWord(in line: String) -> String? {
        var inString = false, escaped = false
        var outside = ""
        for c in line {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                outside.append(" ")
            } else {
                if c == "\"" { inString = true }
                outside.append(c)
            }
        }
        let words = outside.split { !($0.isLetter || $0 == "-") }
        return words.first { ["NaN", "Infinity", "-Infinity", "-NaN"].contains($0) }.map(String.init)
    }

    /// A key the object in `line` (JSON already read once) gives twice at its top level, escapes
    /// read (`"comm\u0061nd"` is `"command"`), or nil.
    public static func repeatedKey(in line: String) -> String? {
        let bytes = Array(line.utf8)
        var seen: Set<String> = []
        var depth = 0, index = 0
        var expectKey = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                var end = index + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                if depth == 1 && expectKey {
                    // The key as the decoder reads it: a one-string array of the literal.
                    let literal = Data([UInt8(ascii: "[")] + bytes[index...min(end, bytes.count - 1)] + [UInt8(ascii: "]")])
                    if let key = (try? JSONDecoder().decode([String].self, from: literal))?.first, !seen.insert(key).inserted { return key }
                    expectKey = false
                }
                index = end + 1
                continue
            }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectKey = depth == 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ","): expectKey = depth == 1
            default: break
            }
            index += 1
        }
        return nil
    }
}

/// Why a stdin line was not a command: becomes an `error` event, and nothing changes.
public struct CommandError: Error, Equatable, Sendable {
    public let code: ErrorCode
    public let message: String

    public init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }

    public var event: KioskEvent { .error(code: code, message: message) }
}
