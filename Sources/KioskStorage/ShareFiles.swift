// A share folder made whole: written into `DIR/.partial-<token>/` (a dot-name the web
// server refuses), each file synced, the folder synced, renamed, DIR synced. What a take's share
// folder holds is ShareRendition's (KioskMedia); a photo's is SharePhoto's.
import FoundationEssentials
import Glibc
import KioskContract
import KioskCore
import KioskScreenText
import KioskSystem

/// What to write: which take, where, under which token, with what words.
public struct ShareRequest: Sendable {
    /// The take's file (opened read-only).
    public var take: String
    /// The share folder (`--share-dir`), made when missing.
    public var folder: String
    /// The new folder's name (`ShareToken.make()`).
    public var token: String
    /// `--share-title`; nil: the page's heading in `language`.
    public var title: String?
    public var language: Language
    /// `--share-file-mode`: the files' mode; the folders get search rights where read is set.
    public var fileMode: Int
    /// When the take was made: the name the Save button downloads it as (`video-YYYYMMDD-HHMM.mp4`, local time).
    public var now: Date

    /// The guestbook's question the take answers (`--questions`), shown on its page; nil: none.
    public var question: String?
    /// A boomerang's: its page plays the video by itself, muted, looping and inline.
    public var loops: Bool

    public init(take: String, folder: String, token: String, title: String?, language: Language, fileMode: Int = 0o644,
                now: Date = Date(), question: String? = nil, loops: Bool = false) {
        (self.take, self.folder, self.token, self.title, self.language) = (take, folder, token, title, language)
        (self.fileMode, self.now, self.question, self.loops) = (fileMode, now, question, loops)
    }
}

/// What was written, for the log and the bench.
public struct ShareWritten: Sendable, Equatable {
    /// `DIR/<token>`.
    public var folder: String
    public var videoBytes: Int64
    public var posterBytes: Int
    public var pageBytes: Int
    /// The poster's size (upright).
    public var posterSize: Size
    /// Seconds each step took: the remux (with its sync), the poster, the page, and making the
    /// folder durable and visible (its sync, the rename, DIR's sync).
    public var remuxSeconds: Double
    /// The part of `remuxSeconds` that video.mp4's fsync took.
    public var videoSyncSeconds: Double
    public var posterSeconds: Double
    public var pageSeconds: Double
    public var publishSeconds: Double

    public init(folder: String, videoBytes: Int64, posterBytes: Int, pageBytes: Int, posterSize: Size, remuxSeconds: Double,
                videoSyncSeconds: Double, posterSeconds: Double, pageSeconds: Double, publishSeconds: Double) {
        (self.folder, self.videoBytes, self.posterBytes, self.pageBytes, self.posterSize) = (folder, videoBytes, posterBytes, pageBytes, posterSize)
        (self.remuxSeconds, self.videoSyncSeconds, self.posterSeconds) = (remuxSeconds, videoSyncSeconds, posterSeconds)
        (self.pageSeconds, self.publishSeconds) = (pageSeconds, publishSeconds)
    }

    /// One line for the log.
    public var summary: String {
        func ms(_ s: Double) -> String { String(printf: "%.0f ms", s * 1000) }
        return "share folder \(folder): video.mp4 \(videoBytes) bytes (\(ms(remuxSeconds)), its sync \(ms(videoSyncSeconds))), poster.jpg \(posterSize.width)x\(posterSize.height) "
            + "\(posterBytes) bytes (\(ms(posterSeconds))), index.html \(pageBytes) bytes (\(ms(pageSeconds))), published in \(ms(publishSeconds))"
    }
}

/// A share folder that could not be written: the step and why, e.g. "writing video.mp4 failed: No
/// space left on device".
public struct ShareError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being done, e.g. "writing video.mp4", "renaming .partial-… to …".
    public let step: String
    public let reason: String

    public init(step: String, reason: String) {
        (self.step, self.reason) = (step, reason)
    }

    public init(step: String, errno: Int32) {
        self.init(step: step, reason: String(cString: strerror(errno)))
    }

    public var description: String { "\(step) failed: \(reason)" }
}

public enum ShareFiles {
    /// The prefix of a folder being written.
    public static let partialPrefix = ".partial-"
    /// A folder's mode for files of `fileMode`: search (x) wherever read (r) is set, 0644 → 0755.
    public static func folderMode(for fileMode: Int) -> Int {
        (fileMode & 0o777) | ((fileMode & 0o444) >> 2)
    }
    /// `DIR/<token>/` made whole from what `fill` writes into its `.partial-<token>` folder (each
    /// file synced): the folder's mode set, synced, renamed, DIR synced. On failure nothing of it is
    /// left. Takes (ShareRendition) and photos (SharePhoto) alike.
    public static func publish(_ request: ShareRequest, fill: (String) throws(ShareError) -> ShareWritten) throws(ShareError) -> ShareWritten {
        // A name of another shape could reach outside DIR, and retention would never remove it.
        guard ShareToken.isToken(request.token) else { throw ShareError(step: "naming the share folder", reason: "\(request.token) is not a token") }
        let folderMode = folderMode(for: request.fileMode)
        try makeFolder(request.folder, mode: folderMode)
        let final = request.folder + "/" + request.token
        let partial = request.folder + "/" + partialPrefix + request.token
        guard access(final, F_OK) != 0 else { throw ShareError(step: "making \(final)", reason: "it exists already") }
        guard mkdir(partial, 0o700) == 0 else { throw ShareError(step: "making \(partial)", errno: errno) }
        do throws(ShareError) {
            var written = try fill(partial)
            let start = MonotonicClock.now()
            guard chmod(partial, mode_t(folderMode)) == 0 else { throw ShareError(step: "setting the mode of \(partial)", errno: errno) }
            try syncFolder(partial)
            guard rename(partial, final) == 0 else { throw ShareError(step: "renaming \(partial) to \(final)", errno: errno) }
            // Renamed: the folder is whole and visible. A failed sync of DIR now cannot take it back.
            do throws(ShareError) { try syncFolder(request.folder) } catch { Log.info("share: \(error) after \(final) was renamed") }
            written.publishSeconds = seconds(since: start)
            written.folder = final
            return written
        } catch {
            remove(partial)
            throw error
        }
    }
    /// "20261202-0714" in local time, for the downloaded file's name.
    public static func downloadStamp(_ date: Date) -> String { LocalTime.stamp("%Y%m%d-%H%M", at: date) }
    public static func seconds(since start: Int64) -> Double { Double(MonotonicClock.now() - start) / 1e9 }
    /// DIR, made with `mode` when missing (its parent must exist); an existing one is left as it is.
    private static func makeFolder(_ path: String, mode: Int) throws(ShareError) {
        if mkdir(path, 0o700) != 0 {
            guard errno == EEXIST else { throw ShareError(step: "making the share folder \(path)", errno: errno) }
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw ShareError(step: "opening the share folder \(path)", reason: "not a folder")
            }
            return
        }
        guard chmod(path, mode_t(mode)) == 0 else { throw ShareError(step: "setting the mode of \(path)", errno: errno) }
        let parent = PathText.folder(of: path)
        try? syncFolder(parent.isEmpty ? "." : parent)
    }
    /// A new file (`NewFile.create`: exclusive, no symlink followed, close-on-exec) with `bytes`,
    /// synced (fsync).
    public static func writeFile(_ path: String, _ bytes: [UInt8], mode: Int) throws(ShareError) {
        let name = PathText.name(of: path)
        let file: FileDescriptor
        do { file = try NewFile.create(path, mode: mode) } catch { throw ShareError(step: "creating \(name)", errno: error.errno) }
        let fd = file.rawValue
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ShareError(step: "writing \(name)", errno: errno)
            }
            done += n
        }
        guard fsync(fd) == 0 else { throw ShareError(step: "syncing \(name)", errno: errno) }
    }
    /// fsync of a folder: the names made, renamed or removed in it are durable.
    public static func syncFolder(_ path: String) throws(ShareError) {
        let folder: FileDescriptor
        do { folder = try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) } catch { throw ShareError(step: "syncing \(path)", errno: error.errno) }
        guard fsync(folder.rawValue) == 0 else { throw ShareError(step: "syncing \(path)", errno: errno) }
    }
    /// Removes a folder the booth wrote, and what is in it (nothing is followed through a link).
    public static func remove(_ path: String) {
        do { try FileManager.default.removeItem(atPath: path) } catch {
            Log.info("share: could not remove \(path): \(error)")
        }
    }
}
