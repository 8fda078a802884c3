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

    /// What the switch does after one camera was tried.
    public enum Step: Equatable, Sendable {
        /// Try camera `index` next; `stop`: the camera just passed over, which started but waits
        /// for its device, is stopped first (nil: it did not start).
        case next(index: Int, stop: Int?)
        /// The switch ends on camera `index` (the one in use when no other opened: kept, whatever
        /// its attempt said), open or not.
        case chosen(index: Int, open: Bool)
    }

    /// The switch from `current` tried camera `index` (the first is `order(from:count:)[0]`) and
    /// it went as `attempt` says: the next camera in `order`, or the end of the switch. The one in
    /// use comes last, so the camera chosen is always the one tried last.
    public static func step(from current: Int, count: Int, tried index: Int, _ attempt: Attempt) -> Step {
        switch attempt {
        case .opened: return .chosen(index: index, open: true)
        case _ where index == current: return .chosen(index: current, open: false)
        case .waiting, .failed:
            let order = order(from: current, count: count)
            guard let tried = order.firstIndex(of: index) else { preconditionFailure("camera \(index) is not one of \(count)") }
            // The one in use is last and ends the switch above: one tried before it has a next.
            let next = order[tried + 1]
            return .next(index: next, stop: attempt == .waiting ? index : nil)
        }
    }

    /// The switch from `current` all at once: tries the cameras with `attempt`, step by step, until
    /// one opens; the one in use comes last and is kept whatever its attempt says. The camera
    /// chosen, and whether it is open; nil only when even the one in use failed to start.
    public static func pick(from current: Int, count: Int, attempt: (Int) -> Attempt) -> (index: Int, open: Bool)? {
        var index = order(from: current, count: count)[0]
        while true {
            let tried = attempt(index)
            switch step(from: current, count: count, tried: index, tried) {
            case let .chosen(chosen, open): return tried == .failed ? nil : (chosen, open)
            case let .next(next, _): index = next
            }
        }
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
