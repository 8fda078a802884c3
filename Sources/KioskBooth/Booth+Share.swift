// The share room (`--share-dir`): after Use Video the take's share folder is written on the
// file worker, once the hand-over has reported where the take now is; the machine then shows its QR
// code until Done or `--share-seconds`. Old share folders go by `--share-max-age`; folders a kill
// left half written go at launch.
import FoundationEssentials
import KioskContract
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

/// The share flow's state.
struct ShareState {
    /// Use Video asked for a share: it starts once the hand-over reports the take's path.
    var wanted = false
    /// The take being shared: it owes its `--on-take` hook once its share folder is written (or failed).
    var take: String?
}

/// Why a share folder was not written, for the `error` event.
public struct ShareFailure: Error {
    let message: String
}

extension Booth {
    /// `.shareTake`: the share waits for the hand-over's path (the take moves in a loop session).
    func shareWanted() {
        takes.share.wanted = true
    }

    /// Use Video's hand-over reported back. Without a share its take owes its hook now; with one, the
    /// share starts from the path it gives (a hand-over that failed has none: the share fails with
    /// it) and the hook waits for the share folder. Only the hand-over's own report counts: a job
    /// posted before it (a microphone's close at the take's end) may report back after Use Video.
    func handedOver(_ done: [KioskEvent]) {
        let path = done.lazy.compactMap(\.handedOverPath).first
        guard takes.share.wanted else {
            if let path { hookOwed(path, share: nil) }
            return
        }
        takes.share.wanted = false
        guard let path else {
            return tell(.shareFailed(message: "the take was not handed over, so it has no share folder"))
        }
        takes.share.take = path
        writeShare(of: path)
    }

    /// The share folder of `take`, written on the file worker; `shareDone` follows.
    private func writeShare(of take: String) {
        let settings = config.share
        guard let folder = settings.folder, let template = settings.urlTemplate else {
            hookAfterShare(nil)
            return tell(.shareFailed(message: "sharing was turned off before the take was shared"))
        }
        let (language, trusted, question, loops) = (config.screen.language, parts.environment.clockTrusted, core.guestbook.take, takes.kind == .boomerang)
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
            return .shareDone(result)
        }
    }

    /// The share folder is written (or not): the machine shows its QR code, or says why not.
    func shareDone(_ result: Result<ShareLink, ShareFailure>) {
        hookAfterShare(try? result.get())
        switch result {
        case let .success(link):
            service.metrics.shared += 1
            tell(.takeShared(link))
        case let .failure(failure): tell(.shareFailed(message: failure.message))
        }
    }

    /// The shared take owes its hook now, with its share folder (`link`) when one was written.
    private func hookAfterShare(_ link: ShareLink?) {
        guard let take = takes.share.take else { return }
        takes.share.take = nil
        hookOwed(take, share: link)
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
