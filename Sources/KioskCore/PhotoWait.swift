// The photo's timing (`--photo-button`, the command `photo`), a rule of the booth core: one photo at
// a time (a second asked for while one is taken is refused), the camera's next picture waited for at
// most 2 s (then the photo is given up and said), the white flash fading out over 0.3 s, and the
// photos' QR codes (`--share-dir`) queued until the booth is in ready, shown one at a time. The
// time comes in as a value; the booth leaves the request for the camera's thread and makes the JPEG.

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

    public init() {}

    /// A photo is being taken: a second one is refused.
    public var busy: Bool { job != nil }

    /// A photo asked for at `now`, counted out as `job`: it waits for a picture, and the flash begins.
    mutating func asked(_ job: FileJob, at now: Int64) {
        self.job = job
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
