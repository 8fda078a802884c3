// The overlay PNGs as decoded, kept while their files stay the same: the launch's option check
// decodes each once (a bad one exits 2), and every take after that takes the same pictures without
// decoding again; a reload that names a file anew, or a file replaced on disk, is decoded again. The
// decoding itself is KioskMedia's, handed in (`OverlayImage.loadKept`).
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem

public final class OverlayFiles: Sendable {
    /// What tells a file replaced on disk from the one decoded: device, inode, size, change time.
    private struct Identity: Equatable {
        let device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            (device, inode, size) = (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size))
            (seconds, nanoseconds) = (info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
        }
    }

    private struct Entry {
        let identity: Identity
        let picture: OverlayPicture
    }

    /// At most a few entries: the landscape and the portrait overlay, and the ones a reload names.
    private let decoded = Locked<[String: Entry]>([:])
    private static let kept = 4

    /// How a file is decoded (KioskMedia's `OverlayImage.loadKept`: the PNG decoded and scaled down
    /// to the size kept).
    private let load: @Sendable (String) -> Result<OverlayPicture, OverlayError>

    public init(load: @escaping @Sendable (String) -> Result<OverlayPicture, OverlayError>) { self.load = load }

    /// The overlay in `path`: the one decoded before if the file is still the same, else decoded now
    /// (a few milliseconds for a 1080p PNG).
    public func picture(_ path: String) -> Result<OverlayPicture, OverlayError> {
        let identity = Identity(path)
        if let identity, let entry = decoded.withLock({ $0[path] }), entry.identity == identity { return .success(entry.picture) }
        let result = load(path)
        if case let .success(picture) = result, let identity {
            decoded.withLock { cache in
                if cache.count >= Self.kept { cache.removeAll() }
                cache[path] = Entry(identity: identity, picture: picture)
            }
        }
        return result
    }

    /// Why `path` cannot be an overlay, or nil (it is decoded and kept): `HostFacts.overlayProblem`.
    public func problem(_ path: String) -> String? {
        if case let .failure(error) = picture(path) { return error.message }
        return nil
    }

    /// The take's overlays for the configured files (`--overlay`, `--overlay-portrait`; nil: none
    /// configured). A file that no longer decodes (changed on disk since it was checked) is logged,
    /// and the take is made without it.
    public func take(_ path: String?, portrait: String?) -> TakeOverlay? {
        guard let path else { return nil }
        let landscape: OverlayPicture
        switch picture(path) {
        case let .success(picture): landscape = picture
        case let .failure(error):
            Log.info("overlay: \(error.message); this take has none")
            return nil
        }
        var overlay = TakeOverlay(landscape: landscape)
        if let portrait {
            switch picture(portrait) {
            case let .success(picture): overlay.portrait = picture
            case let .failure(error): Log.info("overlay: \(error.message); a portrait take has the landscape overlay")
            }
        }
        return overlay
    }
}
