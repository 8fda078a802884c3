// A photo's file (`--photo-button`): named by `--photo-template` (strftime fields and `{n}`, as the
// takes' names), made with the project's one way to make a new file (NewFile: exclusive, no symbolic link followed,
// close-on-exec, the mode asked for), written whole and synced with its folder. A name already
// taken gets -2, -3… before its extension, as a take's does; the exclusive create decides, so nothing is ever
// written over.
import FoundationEssentials
import Glibc
import KioskSystem

public enum PhotoFiles {
    /// How many names (-2, -3…) are tried before giving up.
    static let tries = 1000

    /// Writes `bytes` as a new file in `folder`, named by `template` for number `number` at `date`,
    /// with `mode`; returns its path, or why it could not be written (nothing is left behind then).
    public static func write(_ bytes: [UInt8], folder: String, template: String, number: Int, mode: Int,
                             at date: Date = Date()) -> Result<String, PhotoError> {
        let name = TakeFolder.name(template: template, number: number, at: date)
        let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
        let stem = url.deletingPathExtension().path, ext = url.pathExtension
        var path = url.path
        for k in 1...tries {
            if k > 1 { path = "\(stem)-\(k).\(ext)" }
            switch writeExclusive(bytes, at: path, mode: mode) {
            case .written: return .success(path)
            case .exists: continue
            case let .failed(error): return .failure(error)
            }
        }
        return .failure(PhotoError("every name like \(url.path) is taken"))
    }

    /// Writes `bytes` as the new file `path` (never over one that exists: that is a failure too),
    /// with `mode`, synced with its folder (the library's thumbnails).
    public static func writeNew(_ bytes: [UInt8], at path: String, mode: Int) -> Result<Void, PhotoError> {
        switch writeExclusive(bytes, at: path, mode: mode) {
        case .written: .success(())
        case .exists: .failure(PhotoError("\(path) exists"))
        case let .failed(error): .failure(error)
        }
    }

    enum Written { case written, exists, failed(PhotoError) }

    /// One try at a new file: written whole and synced, the name taken, or why not (nothing is left
    /// behind then).
    static func writeExclusive(_ bytes: [UInt8], at path: String, mode: Int) -> Written {
        let file: FileDescriptor
        do { file = try NewFile.create(path, mode: mode) } catch {
            return error.errno == EEXIST ? .exists : .failed(PhotoError("\(error)"))
        }
        if let failure = file.writeAll(bytes).map({ PhotoError("write(\(path)): \(String(cString: strerror($0)))") }) {
            _ = consume file
            unlink(path)
            return .failed(failure)
        }
        let synced = fsync(file.rawValue) == 0
        let syncError = errno
        _ = consume file
        if !synced { Log.info("fsync(\(path)): \(String(cString: strerror(syncError)))") }
        FolderSync.sync(of: path)
        return .written
    }
}

/// Why a photo could not be made: `message` says what failed.
public struct PhotoError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
