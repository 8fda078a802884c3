// A screenshot (the `screenshot` command): the screen read back on the UI thread (SDL), the file
// written on a worker of its own (a slow or stuck target, a FIFO nobody reads, holds up nothing else).
import FoundationEssentials
import Glibc
import KioskContract
import KioskStorage
import KioskSystem
import KioskUI

enum Screenshot {
    /// `screen`'s picture to `path` on `queue`: a new file (O_EXCL: never over an existing one, a
    /// FIFO or a symlink; O_NOFOLLOW), 0600, close-on-exec, and never the take (`output`) or a name a
    /// take of its folder could have. A failure is an `error` `screenshotFailed`, said at once or
    /// posted to `inbox` by the worker.
    static func take(to path: String, output: String, screen: any BoothScreen, queue: any Executor, inbox: Inbox, events: EventSink) {
        if let refusal = refusal(path, output: output) { return events.emit(.error(code: .screenshotFailed, message: refusal)) }
        let pixels: Pixels
        do { pixels = try screen.snapshot() } catch { return events.emit(.error(code: .screenshotFailed, message: "\(error)")) }
        queue.async {
            var failure: String?
            do {
                let file = try NewFile.create(path)
                failure = file.writeAll(pixels.bmp).map { "write(\(path)): \(String(cString: strerror($0)))" }
            } catch {
                failure = "\(error)"
            }
            if let failure { inbox.post(.input(.say([.error(code: .screenshotFailed, message: failure)]))) }
        }
    }

    /// Why a screenshot may not go to `path`: it is the take, its marker, or in the take's folder
    /// with the take's extension (the next take's name, or a handed-over one).
    static func refusal(_ path: String, output: String) -> String? {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let take = URL(fileURLWithPath: output).standardizedFileURL
        let sameFolder = target.deletingLastPathComponent().path == take.deletingLastPathComponent().path
        if target.path == take.path || target.path == TakeFiles.markerPath(for: take.path)
            || (sameFolder && target.pathExtension.lowercased() == take.pathExtension.lowercased()) {
            return "screenshot: '\(path)' is the take or a take's name; pick another file"
        }
        return nil
    }
}
