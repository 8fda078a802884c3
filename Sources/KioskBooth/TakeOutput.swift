// Where a booth without `--output-dir` puts its take: `--output` (checked as a user would want it
// checked before anything opens), or output.mov in a private temporary folder made now.
import FoundationEssentials
import Glibc
import KioskSystem

public enum TakeOutput {
    /// Why the take's path cannot be used: the message for stderr and the exit status.
    public struct Problem: Error {
        public let message: String
        public let status: Int32
    }

    /// The take's path: `configured` (its folder must exist and be writable; a folder, a link or a
    /// device there is refused, never deleted: exit 2), or output.mov in a private temporary
    /// folder made now, which goes at exit unless a take is kept in it (exit 1 when it cannot be
    /// made).
    public static func path(_ configured: String?) -> Result<String, Problem> {
        guard let configured else {
            do throws(SystemError) { return .success(try PrivateFolder.make(in: PathText.temporaryFolder, take: "output.mov")) } catch {
                return .failure(Problem(message: "cannot make a temporary folder: \(error)", status: 1))
            }
        }
        let url = URL(fileURLWithPath: configured)
        let folder = url.deletingLastPathComponent().path
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory else {
            return .failure(Problem(message: "--output: the folder \(folder) does not exist", status: 2))
        }
        guard access(folder, W_OK) == 0 else {
            let why = errno == EROFS ? "is on a read-only file system; mount it read-write or name a writable disk" : "is not writable"
            return .failure(Problem(message: "--output: the folder \(folder) \(why)", status: 2))
        }
        // A take replaces only a take: a folder, a link or a device there is refused, not deleted.
        if let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType,
           type != .typeRegular {
            let what = type == .typeDirectory ? "a folder" : type == .typeSymbolicLink ? "a symbolic link" : "not a regular file"
            return .failure(Problem(message: "--output: '\(url.path)' is \(what); name a file that is new or a take", status: 2))
        }
        return .success(url.path)
    }
}
