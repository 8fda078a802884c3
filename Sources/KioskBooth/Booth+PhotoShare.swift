// A photo's share folder (with `--share-dir`): once the photo is written, its share folder
// (photo.jpg, a copy of the photo's bytes, and index.html; KioskMedia's SharePhoto) is written on the
// file worker with a token from the same generator as a take's, and announced at once (`takeShared`
// with the photo's `path`), whatever the mode: a photo mid-take never interrupts the take. Its QR code
// waits in the core (PhotoWait) until the machine is in ready (RecorderMachine+PhotoShare.swift), then
// shows on the share screen with the take's Done and `--share-seconds`. A folder that cannot be written is an `error`
// `shareFailed`; the photo stays. Its `--on-take` hook waits for the folder, as a take's does.
import FoundationEssentials
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

extension Booth {
    /// The share folder of the photo at `path` (`size`, upright), written on the file worker;
    /// `photoShareDone` follows.
    func sharePhoto(_ path: String, size: Size) {
        let settings = config.share
        guard let folder = settings.folder, let template = settings.urlTemplate else { return hookOwed(photo: path, share: nil) }
        let (language, trusted) = (config.screen.language, parts.environment.clockTrusted)
        fileJob {
            let result: Result<ShareLink, ShareFailure>
            do {
                // The photo as written (the file worker wrote it just before): photo.jpg is its copy.
                let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                let token = try ShareToken.make()
                let request = ShareRequest(take: path, folder: folder, token: token, title: settings.title, language: language,
                                           fileMode: settings.fileMode, now: Date())
                let written = try SharePhoto.write(request, jpeg: jpeg, size: size)
                Log.info("share: \(written.folder) written for the photo \(path): photo.jpg \(written.posterBytes) bytes, "
                         + "index.html \(written.pageBytes) bytes, published in \(Int(written.publishSeconds * 1000)) ms")
                result = .success(ShareLink(url: ShareAddress.url(template: template, token: token), token: token, folder: written.folder,
                                            photo: path))
            } catch {
                result = .failure(ShareFailure(message: "the share folder of the photo \(path) was not written: \(error)"))
            }
            Booth.expireShares(in: folder, maxAge: settings.maxAge, trusted: trusted)
            return .shared(photo: path, result)
        }
    }

    /// The photo's share folder is written (`takeShared` with its path; its code waits for ready) or
    /// not (`shareFailed`); its hook is owed now either way.
    func photoShareDone(_ photo: String, _ result: Result<ShareLink, ShareFailure>) {
        hookOwed(photo: photo, share: try? result.get())
        switch result {
        case let .success(link):
            events.emit(.takeShared(url: link.url, token: link.token, folder: link.folder, path: photo))
            feed(.photoShared(link))
        case let .failure(failure):
            Log.info("share: \(failure.message)")
            events.emit(.error(code: .shareFailed, message: failure.message))
        }
    }
}
