// A name made durable: after a file is created, renamed or removed, the folder holding it is synced,
// or a power cut may bring the old name back (or lose the new one).
import Glibc
import KioskSystem

public enum FolderSync {
    /// fsync of the folder a path is in (a name created, renamed or removed there becomes durable);
    /// false, logged, if it failed.
    @discardableResult
    public static func sync(of path: String) -> Bool {
        let folder = PathText.folder(of: path)
        let dfd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0, fsync(dfd) == 0 else {
            Log.info("fsync of the folder of \(path): \(String(cString: strerror(errno)))")
            if dfd >= 0 { close(dfd) }
            return false
        }
        close(dfd)
        return true
    }
}
