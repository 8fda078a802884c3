// The take's folder of a run without --output: `kiosk-recorder-XXXXXX` in the temporary folder,
// made new and private (mkdtemp: mode 0700) at launch. No later run opens it, so nobody would ever
// clean it: it goes again at the process's exit (exit(3), whatever the status, and so also a launch
// that fails after it was made) unless a take is kept in it. A take there (one handed over, or one
// kept with its marker after the parent went away, a signal or the background) keeps the folder for
// the parent, who was told its path; only the lock file goes. A kill -9 or a crash runs no exit:
// everything stays as it was, the take with its marker and the lock file.
import Glibc

public enum PrivateFolder {
    /// The folder made, and once taken the lock of the take in it.
    private static let made = Locked<(path: String, lock: OutputLock?)?>(nil)

    /// Makes the folder in `temporary` (a path ending in "/") and returns the path of `take` in it;
    /// at exit the folder goes again unless a take is kept in it (`leave`).
    public static func make(in temporary: String, take: String) throws(SystemError) -> String {
        var template = Array((temporary + "kiosk-recorder-XXXXXX").utf8CString)
        guard let folder = mkdtemp(&template) else { throw SystemError(call: "mkdtemp(\(temporary))", errno: errno) }
        let path = String(cString: folder)
        made.withLock { $0 = (path, nil) }
        _ = leavesAtExit
        return path + "/" + take
    }

    /// `leave` registered to run at exit, once.
    private static let leavesAtExit: Void = { _ = atexit { PrivateFolder.leave() } }()

    /// The take's lock, once taken: its file goes at exit (`OutputLock.removeFile`), by its holder.
    public static func holds(_ lock: OutputLock) {
        made.withLock { $0?.lock = lock }
    }

    /// The process is leaving: the lock file goes, then the folder if nothing else is in it. A take
    /// (or its marker, or a handed-over take of a loop session) keeps it: rmdir(2) removes only an
    /// empty folder, so nothing in it is ever deleted here.
    public static func leave() {
        guard let (path, lock) = made.withLock({ folder in defer { folder = nil }; return folder }) else { return }
        lock?.removeFile()
        if rmdir(path) != 0 && errno != ENOTEMPTY && errno != EEXIST {
            Log.info("could not remove the take's folder \(path): \(String(cString: strerror(errno)))")
        }
    }
}
