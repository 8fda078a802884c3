// How a message quotes what it was given: an excerpt of a long text, a line without the blanks at
// its ends (the options' messages, the command lines, the logs).

extension String {
    /// The text as a message may quote it: whole up to `limit` characters, else its start and end
    /// around how much was left out (a 1 MiB key is named, not printed).
    public func excerpt(_ limit: Int = 80) -> String {
        guard count > limit else { return self }
        let keep = max(limit / 2 - 10, 1)
        return "\(prefix(keep))… (\(utf8.count) bytes) …\(suffix(keep))"
    }

    /// Without the spaces, tabs and carriage returns at its ends.
    public var trimmingWhitespace: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
