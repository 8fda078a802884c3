// The console's own files: the operator's password as a yescrypt hash (KioskPassword), written whole
// or not at all with mode 0600 (WholeFile, as the console's settings are), and the audit log,
// appended to one line at a time, each synced before the answer goes.
import FoundationEssentials
import Glibc
import KioskPassword
import KioskSystem

/// The password file, read when each request comes (KioskPassword's, shared with the booth's keyboard).
extension StoredPassword: ConsolePassword {}

extension PasswordHash {
    /// Writes `hash` and a newline to `path` whole or not at all, mode 0600 (`WholeFile.write`).
    public static func write(_ hash: String, to path: String) throws(ConsoleError) {
        try WholeFile.write(Array((hash + "\n").utf8), to: path, mode: 0o600)
    }
}

/// A file written whole or not at all: a new file beside it (its mode exact), synced, renamed over,
/// and the folder synced.
public enum WholeFile {
    /// Writes `bytes` to `path` so; a reader sees the old file or the new one, never a part.
    public static func write(_ bytes: [UInt8], to path: String, mode: Int) throws(ConsoleError) {
        let temporary = path + ".new-\(getpid())"
        unlink(temporary)
        do throws(ConsoleError) {
            let fd: FileDescriptor
            do { fd = try NewFile.create(temporary, mode: mode) } catch { throw ConsoleError(error) }
            if let error = writeAll(bytes, to: fd.rawValue) { throw ConsoleError(call: "write(\(temporary))", errno: error) }
            guard fsync(fd.rawValue) == 0 else { throw ConsoleError(call: "fsync(\(temporary))", errno: errno) }
            do { try fd.close() } catch { throw ConsoleError(error) }
            guard rename(temporary, path) == 0 else { throw ConsoleError(call: "rename(\(path))", errno: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
        let folder = path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        if let directory = try? FileDescriptor.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) { _ = fsync(directory.rawValue) }
    }
}

/// The append-only audit log: one JSON line per action, written and synced under one lock.
final class AuditLog: Sendable {
    let path: String
    private let lock = Locked(())

    init(path: String) { self.path = path }

    /// Appends `entry`'s line and syncs it; a log that cannot be written is said on stderr.
    func append(_ entry: AuditEntry) {
        lock.withLock { _ in
            do throws(ConsoleError) {
                let fd: FileDescriptor
                do throws(SystemError) {
                    do throws(SystemError) { fd = try FileDescriptor.open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC) } catch {
                        guard error.errno == ENOENT else { throw error }
                        fd = try NewFile.create(path, mode: 0o600)
                    }
                } catch { throw ConsoleError(error) }
                if let error = writeAll(Array((entry.line + "\n").utf8), to: fd.rawValue) { throw ConsoleError(call: "write(\(path))", errno: error) }
                guard fsync(fd.rawValue) == 0 else { throw ConsoleError(call: "fsync(\(path))", errno: errno) }
            } catch {
                Log.info("console: audit log: \(error)")
            }
        }
    }

    /// The log's lines (its last MiB).
    func lines() -> [String] {
        lock.withLock { _ in
            guard let data = FileManager.default.contents(atPath: path) else { return [] }
            let tail = data.count > 1 << 20 ? data.suffix(1 << 20) : data
            var lines = String(decoding: tail, as: UTF8.self).split(separator: "\n").map(String.init)
            if data.count > 1 << 20, !lines.isEmpty { lines.removeFirst() }
            return lines
        }
    }
}
