// fontconfig asked one way: the face it ranks best for a pattern and the characters it must draw,
// for the screen (KioskUI's Typefaces) and the film's cards (KioskMedia's ReelCard).
import CFontconfig

public enum FontMatch {
    /// The file and face index fontconfig matches for `pattern` (a fontconfig name: a family,
    /// `:lang=ja`, `:color=true`) with every one of `scalars` in its charset where one has them all
    /// (fontconfig ranks coverage above the family; else the face with the most). With `colour`, only
    /// a face in colour (`FC_COLOR`). nil: no match.
    public static func best(pattern: String, covering scalars: [UInt32], colour: Bool = false) -> (path: String, index: Int)? {
        let parsed: OpaquePointer? = pattern.withCString { $0.withMemoryRebound(to: FcChar8.self, capacity: pattern.utf8.count + 1) { FcNameParse($0) } }
        guard let query = parsed else { return nil }
        defer { FcPatternDestroy(query) }
        if !scalars.isEmpty, let set = FcCharSetCreate() {
            for scalar in scalars { FcCharSetAddChar(set, scalar) }
            FcPatternAddCharSet(query, FC_CHARSET, set)
            FcCharSetDestroy(set)
        }
        FcConfigSubstitute(nil, query, FcMatchPattern)
        FcDefaultSubstitute(query)
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(nil, query, &result), result == FcResultMatch else { return nil }
        defer { FcPatternDestroy(matched) }
        var inColour: FcBool = 0
        if colour, FcPatternGetBool(matched, FC_COLOR, 0, &inColour) != FcResultMatch || inColour == 0 { return nil }
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(matched, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        if FcPatternGetInteger(matched, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        return (String(cString: file), Int(index))
    }
}
