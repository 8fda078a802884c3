// Small helpers of the writer: the free space on a disk, and clamping a value.
import FoundationEssentials
import Glibc
import KioskSystem

extension Comparable {
    func clamped(_ low: Self, _ high: Self) -> Self { min(max(self, low), high) }
}

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
