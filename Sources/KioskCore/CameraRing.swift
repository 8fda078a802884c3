// The cameras and the switch between them, as a value: which camera is in use, the order the
// switch tries the others in (passing over one that cannot open now, and coming back to the one in
// use when none can), and the new camera's name shown for a moment.

public struct CameraRing: Equatable, Sendable {
    public let count: Int
    /// The camera in use.
    public private(set) var index = 0
    /// The name of the camera switched to and when (monotonic ns), for `bannerSeconds`.
    private var banner: (name: String, since: Int64)?
    /// How long the new camera's name shows after a switch.
    public static let bannerNanoseconds: Int64 = 2_000_000_000

    public init(count: Int) {
        precondition(count >= 1)
        self.count = count
    }

    /// The cameras a switch from `current` tries, in order: each other one after it, round, then
    /// `current` itself (started again when no other opens).
    public static func order(from current: Int, count: Int) -> [Int] {
        (1..<max(count, 1)).map { (current + $0) % count } + [current]
    }

    /// How one camera of the switch fared.
    public enum Attempt: Equatable, Sendable {
        /// It did not start (its device is gone, busy).
        case failed
        /// It started and is open.
        case opened
        /// It started but cannot open now (it waits for its device): passed over, unless it is
        /// the one in use (which then stays, waiting).
        case waiting
    }

    /// The switch from `current`: tries the cameras in `order` with `attempt` until one opens; the
    /// one in use comes last and is kept whatever its attempt says. The camera chosen, and whether
    /// it is open; nil only when even the one in use failed to start.
    public static func pick(from current: Int, count: Int, attempt: (Int) -> Attempt) -> (index: Int, open: Bool)? {
        for index in order(from: current, count: count) {
            switch attempt(index) {
            case .opened: return (index, true)
            case .waiting where index == current: return (index, false)
            case .waiting, .failed: continue
            }
        }
        return nil
    }

    /// The switch ended on `index` (`name`, for the banner) at `now`; whether the camera changed.
    public mutating func switched(to index: Int, name: String, at now: Int64) -> Bool {
        precondition((0..<count).contains(index))
        guard index != self.index else { return false }
        self.index = index
        banner = (name, now)
        return true
    }

    /// The name shown at `now`: for `bannerNanoseconds` after a switch.
    public func bannerName(at now: Int64) -> String? {
        guard let banner, now - banner.since < Self.bannerNanoseconds else { return nil }
        return banner.name
    }

    public static func == (a: CameraRing, b: CameraRing) -> Bool {
        a.count == b.count && a.index == b.index && a.banner?.name == b.banner?.name && a.banner?.since == b.banner?.since
    }
}
