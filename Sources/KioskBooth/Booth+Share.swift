// The share room (`--share-dir`): after Use Video the take's share folder is written on the
// file worker, once the hand-over has reported where the take now is (the core says when, and owes
// the take's hook once the folder is written or failed: BoothCore+Share); the machine then shows its
// QR code until Done or `--share-seconds`. Old share folders go by `--share-max-age`; folders a kill
// left half written go at launch.
import FoundationEssentials
import KioskContract
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

/// Why a share folder was not written, for the `error` event.
public struct ShareFailure: Error {
    let message: String
}

extension Booth {
    /// The core's `.file(.writeShare)`: the share folder of `take` (its page with `question`;
    /// `loops`: a boomerang), written on the file worker; `shareDone` follows.
    func writeShare(of take: String, question: String?, loops: Bool) {
        let settings = config.share
        // The core writes none without a folder and an address (`Settings.shares`).
        guard let folder = settings.folder, let template = settings.urlTemplate else { return }
        let (language, trusted) = (config.screen.language, parts.environment.clockTrusted)
        fileJob {
            let result: Result<ShareLink, ShareFailure>
            do {
                let token = try ShareToken.make()
                let request = ShareRequest(take: take, folder: folder, token: token, title: settings.title, language: language,
                                           fileMode: settings.fileMode, now: Date(), question: question, loops: loops)
                let written = try ShareRendition.write(request)
                Log.info("share: \(written.folder) written in \(written.summary)")
                result = .success(ShareLink(url: ShareAddress.url(template: template, token: token), token: token, folder: written.folder))
            } catch {
                result = .failure(ShareFailure(message: "the share folder of \(take) was not written: \(error)"))
            }
            Booth.expireShares(in: folder, maxAge: settings.maxAge, trusted: trusted)
            return .shared(photo: nil, result)
        }
    }

    /// The share folder is written (or not): the machine shows its QR code, or says why not (and
    /// the core owes the take's hook as it hears either).
    func shareDone(_ result: Result<ShareLink, ShareFailure>) {
        switch result {
        case let .success(link): tell(.takeShared(link))
        case let .failure(failure): tell(.shareFailed(message: failure.message))
        }
    }

    /// At launch, on the file worker: folders a kill left half written are removed, old ones expire.
    func tidyShares() {
        guard let folder = config.share.folder else { return }
        let (maxAge, trusted) = (config.share.maxAge, parts.environment.clockTrusted)
        onFiles {
            for line in ShareFolders.recover(in: folder) { Log.info("share: \(line)") }
            Booth.expireShares(in: folder, maxAge: maxAge, trusted: trusted)
            return []
        }
    }

    /// Share folders past `maxAge`, by a clock that can be trusted (as `--max-age`'s takes): none
    /// while it cannot.
    static func expireShares(in folder: String, maxAge: Double, trusted: Bool) {
        guard let now = WallClock.synchronisedNow(trusted: trusted) else { return }
        for line in ShareFolders.expire(in: folder, maxAge: maxAge, now: Double(now)) { Log.info("share: \(line)") }
    }
}
