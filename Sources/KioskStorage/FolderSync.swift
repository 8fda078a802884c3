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
        let failure: Int32
        do {
            let directory = try FileDescriptor.open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if fsync(directory.rawValue) == 0 { return true }
            failure = errno
        } catch {
            failure = error.errno
        }
        Log.info("fsync of the folder of \(path): \(String(cString: strerror(failure)))")
        return false
    }
}
