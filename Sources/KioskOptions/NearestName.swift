// "Did you mean": the real name a mistyped option, config key or mode is one or two edits away from
// (git's and cargo's way of answering a typo), by the optimal-string-alignment form of the
// Damerau–Levenshtein distance, where swapping two neighbouring letters is one edit.
import KioskCore

enum NearestName {
    /// The number of single-character insertions, deletions, substitutions and swaps of two
    /// neighbouring characters that turn `a` into `b` (no substring edited twice).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Three rows of the table: the one before the previous one is needed for swaps.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }

    /// The name among `names` closest to `word` when it is one or two edits away (and fewer edits
    /// than `word` has characters, so that a two-letter word is not "near" every short name); the
    /// first of the table's order on a tie. Nil when none is that close.
    static func suggestion(for word: String, among names: [String]) -> String? {
        let length = word.count
        let limit = min(2, length - 1)
        guard limit > 0 else { return nil }
        var best: (name: String, distance: Int)?
        // A name longer or shorter by more than the limit is never near: not measured (a 900 KB
        // key in a config file costs one count).
        for name in names where name != word && abs(name.count - length) <= limit {
            let d = distance(word, name)
            if d <= limit, d < (best?.distance ?? .max) { best = (name, d) }
        }
        return best?.name
    }

    /// " (did you mean X?)", or empty when no name is near `word`; `prefix` goes before the name
    /// (`--` for an option).
    static func hint(for word: String, among names: [String], prefix: String = "") -> String {
        suggestion(for: word, among: names).map { " (did you mean \(prefix)\($0)?)" } ?? ""
    }
}
