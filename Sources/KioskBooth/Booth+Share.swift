// The share folders (`--share-dir`), carried out: the core says when a take's or a photo's folder is
// written (after the hand-over reports where the take now is; a photo's once it is written) and what
// follows (the QR code, the hook owed: BoothCore+Share, PhotoWait); the file worker writes it
// (ShareWriter), and its report is the core's input. Old share folders go by `--share-max-age`;
// folders a kill left half written go at launch.
import KioskCore

extension Booth {
    var shares: ShareWriter {
        ShareWriter(settings: config.share, language: config.screen.language, clockTrusted: parts.environment.clockTrusted,
                    takes: (storage as? FolderStorage)?.folder)
    }

    /// The core's `.file(.writeShare)` and `.file(.sharePhoto)`: the folder written on the file worker.
    func writeShare(of take: String, question: String?, loops: Bool) {
        let shares = shares
        fileJob { .input(shares.take(take, question: question, loops: loops)) }
    }

    func sharePhoto(_ path: String, size: Size) {
        let shares = shares
        fileJob { .input(shares.photo(path, size: size)) }
    }

    /// At launch, on the file worker: folders a kill left half written are removed, old ones expire.
    func tidyShares() {
        let shares = shares
        onFiles {
            shares.tidy()
            return []
        }
    }
}
