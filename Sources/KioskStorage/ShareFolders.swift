// The share folder's housekeeping: folders left half-written by a kill mid-write, and
// retention (`--share-max-age`). Only names the booth makes are touched: `.partial-<token>` and
// `<token>` folders; nothing else in DIR, and nothing through a symbolic link.
import FoundationEssentials
import Glibc
import KioskSystem

public enum ShareFolders {
    /// Removes the `.partial-*` folders a kill -9 left while one was written (they were never
    /// visible: the web server refuses dot-names). One line per folder, for the log.
    public static func recover(in dir: String) -> [String] {
        entries(in: dir).compactMap { name, info in
            guard name.hasPrefix(ShareFiles.partialPrefix), info.st_mode & S_IFMT == S_IFDIR else { return nil }
            let path = dir + "/" + name
            ShareFiles.remove(path)
            return "removed the unfinished share folder \(path) (its writing was cut off)"
        }
    }

    /// Removes the `<token>` folders last changed more than `maxAge` seconds before `now` (Unix
    /// seconds, the wall clock: the caller gives it only while the clock can be trusted, as for
    /// `--max-age`). Never a `.partial-*` one (it may be being written), nor anything that is not a
    /// folder with a token's name. One line per folder removed.
    public static func expire(in dir: String, maxAge: Double, now: Double) -> [String] {
        entries(in: dir).compactMap { name, info in
            guard ShareToken.isToken(name), info.st_mode & S_IFMT == S_IFDIR else { return nil }
            let changed = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            guard now - changed > maxAge else { return nil }
            let path = dir + "/" + name
            ShareFiles.remove(path)
            return "removed the share folder \(path) (older than \(Int(maxAge)) s)"
        }
    }

    /// DIR's entries with what `lstat` says of them (a link is a link, never what it points to).
    private static func entries(in dir: String) -> [(String, stat)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        return names.sorted().compactMap { name in
            var info = stat()
            guard lstat(dir + "/" + name, &info) == 0 else { return nil }
            return (name, info)
        }
    }
}
