// The free space on a disk.
import FoundationEssentials
import Glibc
import KioskSystem

/// Free space for the user on the disk holding a path (`statvfs`).
public enum DiskSpace {
    public static func available(at path: String) -> Int64? {
        var folder = PathText.folder(of: path)
        if folder.isEmpty { folder = "." }
        var s = statvfs()
        guard statvfs(folder, &s) == 0 else { return nil }
        return Int64(s.f_bavail) * Int64(s.f_frsize)
    }
}
