// The share folders (`--share-dir`), written on the file worker: a take's (its rendition and page,
// KioskMedia's ShareRendition) or a photo's (photo.jpg, a copy of the photo's bytes, and its page:
// SharePhoto), each under a fresh token, published whole (ShareFiles), old ones expired after it;
// at launch the folders a kill left half written go. What each write says is the core's input:
// the take's `takeShared` or `shareFailed`, the photo's `.photo(.shared)` or `.photo(.shareFailed)`.
// When a share is written, and what follows it, are the core's (BoothCore+Share, PhotoWait).
import FoundationEssentials
import KioskContract
import KioskCore
import KioskMedia
import KioskOptions
import KioskScreenText
import KioskStorage
import KioskSystem

struct ShareWriter: Sendable {
    let settings: Configuration.Share
    let language: Language
    /// The wall clock can be trusted to age folders (as `--max-age`'s takes).
    let clockTrusted: Bool
    /// `--output-dir`: a take's share token is kept in its list (`noteShare`), for `hideTake` and `deleteTake`.
    var takes: TakeFolder?

    /// The share folder of the take handed over to `take` (its page with `question`; `loops`: a
    /// boomerang). The core writes none without a folder and an address (`Settings.shares`).
    func take(_ take: String, question: String?, loops: Bool) -> BoothCore.Input {
        let written = write { folder, token in
            let written = try ShareRendition.write(ShareRequest(take: take, folder: folder, token: token, title: settings.title, language: language,
                                                                fileMode: settings.fileMode, now: Date(), question: question, loops: loops))
            Log.info("share: \(written.folder) written in \(written.summary)")
            return written.folder
        }
        if case let .success(link) = written { takes?.noteShare(take, token: link.token) }
        return switch written {
        case let .success(link): .event(.takeShared(link))
        case let .failure(error): .event(.shareFailed(message: "the share folder of \(take) was not written: \(error)"))
        }
    }

    /// The share folder of the photo at `path` (`size`, upright), just written by the file worker:
    /// photo.jpg is its copy.
    func photo(_ path: String, size: Size) -> BoothCore.Input {
        let written = write { folder, token in
            let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let request = ShareRequest(take: path, folder: folder, token: token, title: settings.title, language: language,
                                       fileMode: settings.fileMode, now: Date())
            let written = try SharePhoto.write(request, jpeg: jpeg, size: size)
            Log.info("share: \(written.folder) written for the photo \(path): photo.jpg \(written.posterBytes) bytes, "
                     + "index.html \(written.pageBytes) bytes, published in \(Int(written.publishSeconds * 1000)) ms")
            return written.folder
        }
        if case let .success(link) = written { takes?.noteShare(path, token: link.token) }
        return switch written {
        case let .success(link): .photo(.shared(ShareLink(url: link.url, token: link.token, folder: link.folder, photo: path)))
        case let .failure(error): .photo(.shareFailed(path, message: "the share folder of the photo \(path) was not written: \(error)"))
        }
    }

    /// A folder written by `make` (with the folder of folders and a new token; it returns the one it
    /// wrote), and its link; then the folders past `--share-max-age` go.
    private func write(_ make: (String, String) throws -> String) -> Result<ShareLink, any Error> {
        guard let folder = settings.folder, let template = settings.urlTemplate else {
            return .failure(ShareError(step: "sharing", reason: "no --share-dir and --share-url"))
        }
        defer { expire(in: folder) }
        return Result {
            let token = try ShareToken.make()
            return ShareLink(url: ShareAddress.url(template: template, token: token), token: token, folder: try make(folder, token))
        }
    }

    /// At launch: folders a kill left half written are removed, old ones expire.
    func tidy() {
        guard let folder = settings.folder else { return }
        for line in ShareFolders.recover(in: folder) { Log.info("share: \(line)") }
        expire(in: folder)
    }

    /// Share folders past `--share-max-age`, by a clock that can be trusted: none while it cannot.
    private func expire(in folder: String) {
        guard let now = WallClock.synchronisedNow(trusted: clockTrusted) else { return }
        for line in ShareFolders.expire(in: folder, maxAge: settings.maxAge, now: Double(now)) { Log.info("share: \(line)") }
    }
}
