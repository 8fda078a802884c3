// A photo's file (`--photo-button`): named by `--photo-template` (strftime fields and `{n}`, as the
// takes' names), made with the project's one way to make a new file (NewFile: exclusive, no symbolic link followed,
// close-on-exec, the mode asked for), written whole and synced with its folder. A name already
// taken gets -2, -3… before its extension, as a take's does; the exclusive create decides, so nothing is ever
// written over.
import Foundation
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
            let fd: Int32
            do { fd = try NewFile.create(path, mode: mode) } catch {
                if error.errno == EEXIST { continue }
                return .failure(PhotoError("\(error)"))
            }
            if let failure = writeAll(bytes, to: fd, path: path) {
                close(fd)
                unlink(path)
                return .failure(failure)
            }
            let synced = fsync(fd) == 0
            close(fd)
            if !synced { Log.info("fsync(\(path)): \(String(cString: strerror(errno)))") }
            FileSink.syncFolder(of: path)
            return .success(path)
        }
        return .failure(PhotoError("every name like \(url.path) is taken"))
    }

    /// `bytes` written whole to `fd` (EINTR retried); the failure, or nil.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) -> PhotoError? {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return PhotoError("write(\(path)): \(String(cString: strerror(errno)))") }
            done += n
        }
        return nil
    }
}
