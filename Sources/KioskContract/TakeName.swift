// The rules for a take's or a photo's file name, whatever its template expands to: never a control
// character (a tab or a newline broke the line-per-take list, and retention then deleted a file that
// was no take) and never a '/' (a `%D` field made every Start fail to open its file). A template
// that alone makes one is refused at launch; what a strftime field makes at run time is replaced.
// And the template read backwards: the counter number a name in the folder carries.

/// A file name's safety and a name template's fields.
public enum TakeName {
    /// What stands in for a '/' or a control character a strftime field made.
    public static let replacement: Character = "-"

    /// strftime's conversions (with or without an E or O modifier) that make a '/' (`%D`, `%x`:
    /// 12/03/26), a newline (`%n`) or a tab (`%t`).
    static let unsafeFields: [Character: String] = [
        "D": "'/' (it is %m/%d/%y; use %Y-%m-%d)", "x": "'/' (the date as 12/03/26; use %Y-%m-%d)",
        "n": "a newline", "t": "a tab",
    ]

    /// Whether `scalar` is a control character (C0, DEL or C1).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value)
    }

    /// Whether `name` can be a file in the folder and a line of its lists: not empty, no '/', no
    /// control character, not '.' or '..'.
    public static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.unicodeScalars.contains(where: isControl)
    }

    /// `name` with each '/' and control character replaced (`replacement`).
    public static func sanitized(_ name: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            out.append(scalar == "/" || isControl(scalar) ? Unicode.Scalar(UInt8(ascii: "-")) : scalar)
        }
        return String(out)
    }

    /// `text` for a message: each control character as '?' (a newline would split a log line).
    public static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
    }

    /// Why `template` can never make a safe name: a control character of its own, or a strftime
    /// field that makes a '/' or one (nil: it is fine).
    public static func templateProblem(_ template: String) -> String? {
        if let scalar = template.unicodeScalars.first(where: isControl) {
            return "holds a control character (U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))), which no file name may"
        }
        for token in tokens(template) {
            if case let .field(conversion, text) = token, let what = unsafeFields[conversion] {
                return "has \(text), which makes \(what)"
            }
        }
        return nil
    }

    /// A template's parts: literal characters, `{n}` and strftime fields.
    enum Token: Equatable {
        case literal(Character)
        case number
        /// A strftime field: its conversion character and its whole text (`%Ex`).
        case field(Character, String)
    }

    static func tokens(_ template: String) -> [Token] {
        var tokens: [Token] = []
        var rest = Substring(template)
        while let first = rest.first {
            if rest.hasPrefix("{n}") {
                tokens.append(.number)
                rest = rest.dropFirst(3)
            } else if first == "%" {
                // glibc's flags (_-0^#), a width, an E or O modifier, then the conversion.
                var end = rest.index(after: rest.startIndex)
                while end < rest.endIndex, "_-0^#".contains(rest[end]) || rest[end].isASCII && rest[end].isNumber { end = rest.index(after: end) }
                if end < rest.endIndex, rest[end] == "E" || rest[end] == "O" { end = rest.index(after: end) }
                guard end < rest.endIndex else {
                    tokens.append(.literal("%"))
                    rest = rest.dropFirst()
                    continue
                }
                let conversion = rest[end]
                let text = String(rest[...end])
                tokens.append(conversion == "%" ? .literal("%") : .field(conversion, text))
                rest = rest[rest.index(after: end)...]
            } else {
                tokens.append(.literal(first))
                rest = rest.dropFirst()
            }
        }
        return tokens
    }

    /// The counter number `name` carries by `template` (its `{n}`), if the name is one the template
    /// makes (also with the -2, -3… a taken name gets before its extension); nil otherwise, and for
    /// a template without `{n}`. Where fields make the reading ambiguous (`-17-2`), the highest:
    /// the counter must never fall behind a name in the folder.
    public static func number(in name: String, template: String) -> Int? {
        var pattern: [Token] = []
        for token in tokens(template) {
            // Fields side by side match as one run: no backtracking between them.
            if case .field = token, case .field? = pattern.last { continue }
            pattern.append(token)
        }
        guard pattern.contains(.number) else { return nil }
        let characters = Array(name)
        var found = match(pattern[...], characters[...])
        // A taken name's `-k` before the extension.
        if let dot = characters.lastIndex(of: "."), let dash = characters[..<dot].lastIndex(of: "-"),
           dash + 1 < dot, characters[(dash + 1)..<dot].allSatisfy({ $0.isASCII && $0.isNumber }) {
            found += match(pattern[...], Array(characters[..<dash] + characters[dot...])[...])
        }
        return found.max()
    }

    /// Every way `pattern` matches the whole of `name`: the number `{n}` matched in each. A field
    /// matches any run of one or more characters.
    private static func match(_ pattern: ArraySlice<Token>, _ name: ArraySlice<Character>, number: Int? = nil) -> [Int] {
        guard let token = pattern.first else { return name.isEmpty ? number.map { [$0] } ?? [] : [] }
        let rest = pattern.dropFirst()
        switch token {
        case let .literal(c):
            guard name.first == c else { return [] }
            return match(rest, name.dropFirst(), number: number)
        case .number:
            let digits = name.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 18, let n = Int(String(digits)) else { return [] }
            return match(rest, name.dropFirst(digits.count), number: n)
        case .field:
            guard !name.isEmpty else { return [] }
            return (1...name.count).flatMap { match(rest, name.dropFirst($0), number: number) }
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
