// The photo's room (`--photo-button`, the command `photo`), a rule of the booth core: one photo at
// a time (a second asked for while one is taken is refused), the camera's next picture waited for at
// most 2 s (then the photo is given up and said), the white flash fading out over 0.3 s; a photo
// written said (`photoTaken`, with `--consent` its `consent`) and owing its `--on-take` hook, with
// `--share-dir` (and its guest's `share`) once its share folder is written (said at once,
// `takeShared` with its path) or failed; the photos' QR codes queued until the booth is in ready,
// shown one at a time. The time comes in as a value; the booth leaves the
// request for the camera's thread, makes the JPEG and writes the files.
import KioskContract

public struct PhotoWait: Equatable, Sendable {
    /// How long a photo waits for the camera's next picture before it is given up.
    public static let waitLimit: Int64 = 2_000_000_000
    /// The flash: full at once, fading out over this long.
    public static let flashLength: Int64 = 300_000_000

    /// The photo being taken, by the file job the core counted out for it (until it reports back).
    public private(set) var job: FileJob?
    /// When its request was left for the camera (monotonic ns), until a picture takes it or it is given up.
    private(set) var waitingSince: Int64?
    /// When the last photo's flash began.
    private(set) var flashAt: Int64?
    /// The photos' QR codes waiting for ready (their share folders written), oldest first: each
    /// shows on the share screen in turn, never over a take or its review.
    public private(set) var codes: [ShareLink] = []
    /// The photos written in this run.
    public internal(set) var written = 0
    /// The consent the photo being taken is taken under (`--consent`; nil: none).
    public private(set) var consent: Consent?

    public init() {}

    /// A photo is being taken: a second one is refused.
    public var busy: Bool { job != nil }

    /// A photo asked for at `now`, counted out as `job`: it waits for a picture, and the flash begins.
    mutating func asked(_ job: FileJob, at now: Int64, consent: Consent? = nil) {
        (self.job, self.consent) = (job, consent)
        waitingSince = now
        flashAt = now
    }

    /// The photo waited for a picture past `waitLimit` at `now`: its job, given up once (the booth
    /// withdraws the request, unless a picture took it meanwhile); nil otherwise.
    mutating func givenUp(at now: Int64) -> FileJob? {
        guard let since = waitingSince, now - since > Self.waitLimit else { return nil }
        waitingSince = nil
        return job
    }

    /// The photo reported back (written, or failed).
    mutating func done(_ job: FileJob) {
        guard job == self.job else { return }
        self.job = nil
        waitingSince = nil
    }

    /// The flash's opacity at `now` (1 → 0 over `flashLength`, in steps of a 30th); nil when none shows.
    public func flash(at now: Int64) -> Double? {
        guard let at = flashAt, now - at < Self.flashLength else { return nil }
        return ((1 - Double(now - at) / Double(Self.flashLength)) * 30).rounded() / 30
    }

    /// A photo's share folder is written: its code waits its turn.
    mutating func shared(_ link: ShareLink) {
        codes.append(link)
    }

    /// The oldest code, taken when the machine may show it now (in ready, not leaving).
    mutating func codeDue(allowed: Bool) -> ShareLink? {
        guard allowed, !codes.isEmpty else { return nil }
        return codes.removeFirst()
    }
}

extension BoothCore {
    /// What becomes of a photo after the shutter (its file job reports back with it).
    public enum PhotoInput: Equatable, Sendable {
        /// The photo of `job` is written at `path` (`size`, upright); `retained`: what retention did then.
        case written(FileJob, path: String, size: Size, retained: [KioskEvent])
        case failed(FileJob, message: String)
        /// Its share folder is written (the link names the photo), or not: why.
        case shared(ShareLink)
        case shareFailed(String, message: String)
    }

    mutating func photoHears(_ input: PhotoInput) -> [Effect] {
        switch input {
        case let .written(job, path, size, retained):
            let (taken, consent) = (KioskEvent.photoTaken(path: path, width: size.width, height: size.height), photo.consent)
            photo.written += 1
            photo.done(job)
            fileDone(job)
            let said: [Effect] = [.log("photo: \(path) (\(size.width)x\(size.height))"),
                                  .emit(consent.map { .consented(taken, .take($0)) } ?? taken)] + retained.map(Effect.emit)
            // Its share folder only with its guest's `share` (always without `--consent`).
            return said + (settings.shares && Consent.allows(consent?.choices, .share)
                ? [.file(.sharePhoto(path, size: size))] : hookOwed(HookQueue.Entry(path: path, duration: 0), at: now))
        case let .failed(job, message):
            photo.done(job)
            fileDone(job)
            return [.log("photo: \(message)"), .emit(.error(code: .photoFailed, message: message))]
        case let .shared(link):
            photo.shared(link)
            let entry = HookQueue.Entry(path: link.photo ?? "", duration: 0, shareToken: link.token, shareFolder: link.folder)
            return hookOwed(entry, at: now) + [.emit(.takeShared(url: link.url, token: link.token, folder: link.folder, path: link.photo))]
        case let .shareFailed(path, message):
            return hookOwed(HookQueue.Entry(path: path, duration: 0), at: now) + [.log("share: \(message)"), .emit(.error(code: .shareFailed, message: message))]
        }
    }
}
