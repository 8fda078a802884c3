// Reads `--config FILE`: a regular file of UTF-8 text, at most 1 MiB. Every way it can be wrong is
// said as what it is (a folder, a pipe, a device, not UTF-8 on line N), never as a permission error
// that is not one or an NSError's dump.
import Glibc

public enum ConfigFile {
    /// Why the file could not be read, as a sentence naming it (and the line, where there is one).
    public struct ReadError: Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// A config is a page of settings; more is not one.
    public static let maxBytes = 1 << 20

    /// The file's text, or a `ReadError` naming the file (and the line, for text that is not UTF-8).
    public static func read(_ path: String) throws(ConfigFile.ReadError) -> String {
        // O_NONBLOCK: a FIFO opens at once instead of waiting for a writer (a read would block
        // forever, or read whatever a writer sends); O_NOCTTY: a terminal does not become ours.
        let file: FileDescriptor
        do { file = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) } catch {
            switch error.errno {
            case ENOENT: throw ReadError("'\(path)' does not exist")
            case EACCES: throw ReadError("'\(path)' is not readable by this user (uid \(getuid()))")
            default: throw ReadError("cannot open '\(path)': \(String(cString: strerror(error.errno)))")
            }
        }
        let fd = file.rawValue
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ReadError("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ReadError("'\(path)' is a folder, not a text file")
        case S_IFIFO: throw ReadError("'\(path)' is a named pipe (FIFO), not a text file")
        case S_IFCHR, S_IFBLK: throw ReadError("'\(path)' is a device, not a text file")
        case S_IFSOCK: throw ReadError("'\(path)' is a socket, not a text file")
        default: throw ReadError("'\(path)' is not a regular file")
        }
        guard info.st_size <= maxBytes else {
            throw ReadError("'\(path)' has \(info.st_size) bytes; at most \(maxBytes) (1 MiB) are read")
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw ReadError("cannot read '\(path)': \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            count += n
        }
        // It grew while it was read: more than it said, and maybe more than a config.
        guard count <= maxBytes else { throw ReadError("'\(path)' has more than \(maxBytes) bytes (1 MiB), the most that is read") }
        bytes.removeLast(bytes.count - count)
        if let (offset, byte) = firstInvalidUTF8(bytes) {
            let line = bytes[..<offset].reduce(1) { $1 == 10 ? $0 + 1 : $0 }
            let column = offset - (bytes[..<offset].lastIndex(of: 10).map { $0 + 1 } ?? 0) + 1
            throw ReadError("\(path):\(line): not UTF-8 text (byte 0x\(String(byte, radix: 16, uppercase: true)) at column \(column)); "
                                  + "save the file as UTF-8")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Where the first byte that is not part of valid UTF-8 is, and that byte; nil when all is valid.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (offset: Int, byte: UInt8)? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return (offset, bytes[offset])
            }
        }
    }
}
