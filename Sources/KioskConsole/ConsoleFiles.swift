// The console's own files: the operator's password as a yescrypt hash (libxcrypt), written whole
// or not at all with mode 0600 (WholeFile, as the console's settings are), and the audit log,
// appended to one line at a time, each synced before the answer goes.
import CCrypt
import FoundationEssentials
import Glibc
import KioskSystem

/// The password file as one request sees it: read when the request comes, so a password set while
/// the console runs counts at once.
struct StoredPassword: ConsolePassword {
    let hash: String?

    init(hash: String?) { self.hash = hash }

    init(file: String) {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        hash = line.hasPrefix("$") ? line : nil
    }

    var isSet: Bool { hash != nil }

    func matches(_ password: String) -> Bool {
        guard let hash, let computed = PasswordHash.crypt(password, setting: hash) else { return false }
        return ConstantTime.equal(computed, hash)
    }
}

public enum PasswordHash {
    /// The fewest characters a console password may have.
    public static let minimumLength = 8

    /// `password` hashed with yescrypt and a fresh salt (`$y$…`), or nil if libxcrypt refuses.
    public static func yescrypt(_ password: String) -> String? {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        // No random bytes given: libxcrypt takes them from the kernel (getrandom).
        guard crypt_gensalt_rn("$y$", 0, nil, 0, &setting, Int32(setting.count)) != nil else { return nil }
        return crypt(password, setting: String(decoding: setting.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// crypt_r of `password` with `setting` (a salt, or a stored hash to check against); nil on failure.
    static func crypt(_ password: String, setting: String) -> String? {
        // struct crypt_data is 32 KiB: on the heap, zeroed as crypt_r wants it the first time.
        let data = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<crypt_data>.size, alignment: MemoryLayout<crypt_data>.alignment)
        defer { data.deallocate() }
        data.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<crypt_data>.size)
        guard let out = crypt_r(password, setting, data.assumingMemoryBound(to: crypt_data.self)) else { return nil }
        let text = String(cString: out)
        // Failure is a string starting with '*'.
        return text.hasPrefix("*") ? nil : text
    }

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
