// One recorder per output: a lock file beside the take, held with flock for as long as the process
// lives (the kernel lets go of it when the process ends, however it ends, so a crash leaves no
// stale lock), with the holder's pid inside for the message a second instance gives. The control
// socket takes one beside itself the same way (one booth per socket).
import Glibc

public final class OutputLock: Sendable {
    /// The lock file: `.<name>.lock` beside the take.
    public let path: String
    /// The locked file, open (so locked) for as long as this object lives.
    private let file: FileDescriptor

    /// Why the lock could not be had.
    public enum Failure: Error, Sendable {
        /// Another process holds it; its pid as it wrote it (nil if unreadable).
        case held(pid: Int32?)
        case failed(SystemError)
    }

    /// The lock file's path for a take at `output`.
    public static func path(for output: String) -> String {
        let slash = output.lastIndex(of: "/")
        let folder = slash.map { String(output[...$0]) } ?? ""
        let name = slash.map { String(output[output.index(after: $0)...]) } ?? output
        return folder + "." + name + ".lock"
    }

    /// Takes the lock beside `output` (`flock(LOCK_EX | LOCK_NB)`) and writes this pid into it.
    public convenience init(beside output: String) throws(Failure) {
        try self.init(file: Self.path(for: output))
    }

    /// The lock of an output folder (`--output-dir`): `.kiosk-recorder.lock` in it.
    public convenience init(folder: String) throws(Failure) {
        try self.init(file: folder + "/.kiosk-recorder.lock")
    }

    /// Takes the lock in the file at `path` (made if missing) and writes this pid into it.
    public init(file path: String) throws(Failure) {
        self.path = path
        file = try Self.lockedFile(path)
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(file.rawValue, 0)
        _ = pwrite(file.rawValue, text, text.count, 0)
    }

    /// The file at `path` opened (made if missing) and locked.
    private static func lockedFile(_ path: String) throws(Failure) -> FileDescriptor {
        while true {
            let fd: FileDescriptor
            do { fd = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode: 0o600) } catch { throw .failed(error) }
            guard flock(fd.rawValue, LOCK_EX | LOCK_NB) == 0 else {
                let error = errno
                guard error == EWOULDBLOCK else { throw .failed(SystemError(call: "flock(\(path))", errno: error)) }
                var bytes = [UInt8](repeating: 0, count: 32)
                let count = pread(fd.rawValue, &bytes, bytes.count, 0)
                let text = count > 0 ? String(decoding: bytes.prefix(count), as: UTF8.self) : ""
                throw .held(pid: Int32(text.split(separator: "\n").first ?? ""))
            }
            // The holder before may have removed the file as it left (`removeFile`) between our open
            // and our flock: a lock on a file no longer at `path` keeps nobody out, so the file
            // there now (made anew) is locked instead. Each turn needs another holder to have come
            // and gone in that instant.
            if isFile(fd.rawValue, at: path) { return fd }
        }
    }

    /// Whether `fd` is the file at `path` now (not one removed, or replaced, since it was opened).
    private static func isFile(_ fd: Int32, at path: String) -> Bool {
        var opened = stat(), there = stat()
        return fstat(fd, &opened) == 0 && lstat(path, &there) == 0 && opened.st_dev == there.st_dev && opened.st_ino == there.st_ino
    }

    /// Removes the lock file, still holding its lock (the kernel lets go of it when the process
    /// ends): for a process on its way out whose output's folder goes too (`PrivateFolder`). Only
    /// while the file at `path` is the one this lock holds; a recorder that opened it just before
    /// finds it gone once it has the lock, and locks a new one (`init`), so two never share it.
    public func removeFile() {
        if Self.isFile(file.rawValue, at: path) { unlink(path) }
    }
}
