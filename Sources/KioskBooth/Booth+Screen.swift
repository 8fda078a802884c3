// What the booth shows besides the live picture: the player's pictures while a take plays back,
// and screenshots of the screen (read back on the UI thread, written on a worker of their own).
import FoundationEssentials
import Glibc
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem
import KioskUI

extension Booth {
    // MARK: - Playback

    /// The player's part of each loop: the picture due now, the position for the overlay, the end.
    func stepPlayback() {
        guard let playback = player.playback else { return }
        let step = playback.step()
        if step.newPicture {
            needsDraw = true
            stats.picture(position: step.position, play: step.play, at: now)
        }
        tell(.playbackProgress(position: step.position, duration: step.duration))
        if needsDraw { playback.presented() } // drawn at the end of this loop
        guard let end = step.ended else { return }
        stopPlayback()
        switch end {
        case .end:
            tell(.playbackEnded(.end))
        case let .error(message):
            events.emit(.error(code: .playbackFailed, message: message))
            tell(.playbackEnded(.error))
        }
    }

    /// Stops the player; the frozen frame shows again.
    func stopPlayback() {
        player.playback?.stop()
        player.playback = nil
    }

    // MARK: - Screenshots

    /// The screen is read back here (SDL, UI thread); the file is written on a worker. Only a new
    /// file is written (never over anything, never through a symlink), and never the take or a
    /// name a take of this folder could have.
    func screenshot(to path: String) {
        if let refusal = Booth.screenshotRefusal(path, output: outputPath) {
            events.emit(.error(code: .screenshotFailed, message: refusal))
            return
        }
        let pixels: Pixels
        do { pixels = try screen.snapshot() } catch {
            events.emit(.error(code: .screenshotFailed, message: "\(error)"))
            return
        }
        let inbox = inbox
        shared.screenshots.async {
            if let failure = Booth.writeFile(pixels.bmp, to: path) { inbox.post(.input(.say([.error(code: .screenshotFailed, message: failure)]))) }
        }
    }

    /// Why a screenshot may not go to `path`: it is the take, its marker, or in the take's folder
    /// with the take's extension (the next take's name, or a handed-over one).
    static func screenshotRefusal(_ path: String, output: String) -> String? {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let take = URL(fileURLWithPath: output).standardizedFileURL
        let sameFolder = target.deletingLastPathComponent().path == take.deletingLastPathComponent().path
        if target.path == take.path || target.path == TakeFiles.markerPath(for: take.path)
            || (sameFolder && target.pathExtension.lowercased() == take.pathExtension.lowercased()) {
            return "screenshot: '\(path)' is the take or a take's name; pick another file"
        }
        return nil
    }

    /// Writes `data` to `path`, a new file (O_EXCL: never over an existing one, a FIFO or a
    /// symlink; O_NOFOLLOW), 0600, close-on-exec; the error's text, or nil.
    static func writeFile(_ data: Data, to path: String) -> String? {
        let file: FileDescriptor
        do { file = try NewFile.create(path) } catch { return error.description }
        let fd = file.rawValue
        var written = 0
        while written < data.count {
            let n = data.withUnsafeBytes { write(fd, $0.baseAddress! + written, data.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                return "write(\(path)): \(String(cString: strerror(errno)))"
            }
            written += n
        }
        return nil
    }
}
