// Path arithmetic on strings and local-time stamps, without full Foundation (NSString's path
// methods and DateFormatter live there, with 30 MB of internationalisation data).
import FoundationEssentials
import Glibc

public enum PathText {
    /// The folder part, as NSString's `deletingLastPathComponent`: "/a/b" → "/a", "a/b/" → "a",
    /// "/b" → "/", "b" → "".
    public static func folder(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        var folder = p[..<slash]
        while folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder.isEmpty ? (path.hasPrefix("/") ? "/" : "") : String(folder)
    }

    /// The last part, as NSString's `lastPathComponent`: "/a/b" → "b", "a/b/" → "b", "/" → "/".
    public static func name(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        guard p != "/", let slash = p.lastIndex(of: "/") else { return String(p) }
        return String(p[p.index(after: slash)...])
    }

    /// The temporary folder, as Foundation's NSTemporaryDirectory says it on Linux ($TMPDIR when
    /// set, else /tmp), always with a trailing '/'.
    public static var temporaryFolder: String {
        let path = FileManager.default.temporaryDirectory.path
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// `name` inside `folder`, as NSString's `appendingPathComponent` (one '/' between them).
    public static func joining(_ folder: String, _ name: String) -> String {
        if folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

public enum LocalTime {
    /// `date` in the machine's local time zone, formatted by strftime (`format` such as
    /// "%Y%m%d-%H%M%S": digits only, so no locale enters).
    public static func stamp(_ format: String, at date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
