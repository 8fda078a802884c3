// The attract screen's slideshow (`--attract-slideshow`) as a value with time passed in:
// when the attract screen begins, the newest accepted takes are listed (on the file worker, by the
// library's listing); they then play one after another, newest first and round again, silent, under
// the attract screen's prompt, each for at most `longest` seconds. A take that fails to open or
// decode is skipped and not tried again on this attract screen; with no take left (none yet, or
// every one failed) the attract screen is as it is without the slideshow. The attract screen's end
// (a touch, another mode, a reload turning it off) stops it at once. The booth carries out what it
// says (Booth+Slideshow.swift).

public struct SlideshowRule: Equatable, Sendable {
    /// The newest takes played, at most.
    public static let newest = 10
    /// Seconds one take plays at most before the next one: a long take does not hold the attract
    /// screen.
    public static let longest: Double = 20

    /// `--attract-slideshow`.
    public var enabled: Bool
    /// The takes of this attract screen, newest first (empty until listed).
    public private(set) var takes: [String] = []
    /// The take playing now (nil: none; the camera's picture shows).
    public private(set) var playing: String?
    /// Its place in `takes`.
    private var position = -1
    /// The takes that failed on this attract screen: not tried again until the next one.
    private var broken: Set<String> = []
    /// The listing asked for last: an older one's answer is dropped.
    private var serial = 0
    /// The attract screen shows (with the slideshow on).
    private var active = false
    /// When the take playing began (monotonic ns).
    private var startedAt: Int64 = 0

    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// What the booth does.
    public enum Action: Equatable, Sendable {
        /// List the newest takes (on the file worker); `listed` with this serial follows.
        case list(serial: Int)
        /// Play this take, silent, in place of the one playing (whose last picture stays until the
        /// new one's first).
        case play(String)
        /// Stop playing: the camera's picture is back.
        case stop
    }

    /// A look each turn: whether the attract screen shows now (in ready, nothing else playing).
    public mutating func look(attract: Bool, at now: Int64) -> [Action] {
        let wanted = attract && enabled
        if wanted && !active {
            active = true
            serial += 1
            (takes, broken, position) = ([], [], -1)
            return [.list(serial: serial)]
        }
        if !wanted && active {
            active = false
            takes = []
            return stop()
        }
        if playing != nil, Double(now - startedAt) / 1e9 >= Self.longest { return advance(at: now) }
        return []
    }

    /// The file worker's listing (newest first): the first take plays. A listing for an attract
    /// screen that already ended, or an older one, is dropped.
    public mutating func listed(_ paths: [String], serial: Int, at now: Int64) -> [Action] {
        guard active, serial == self.serial, playing == nil else { return [] }
        var seen: Set<String> = []
        takes = Array(paths.filter { seen.insert($0).inserted }.prefix(Self.newest))
        position = -1
        return advance(at: now)
    }

    /// A take deleted (`deleteTake`, retention): out of the list, and if it plays, the next one plays.
    public mutating func deleted(_ path: String, at now: Int64) -> [Action] {
        guard let i = takes.firstIndex(of: path) else { return [] }
        takes.remove(at: i)
        if i <= position { position -= 1 }
        return playing == path ? advance(at: now) : []
    }

    /// The take playing ended: at its end the next one plays; one that failed is skipped from now
    /// on.
    public mutating func ended(failed: Bool, at now: Int64) -> [Action] {
        guard active, let path = playing else { return [] }
        if failed { broken.insert(path) }
        return advance(at: now)
    }

    /// The next take that has not failed, after the one playing (round again after the oldest); none
    /// left: stop.
    private mutating func advance(at now: Int64) -> [Action] {
        for step in 1...max(takes.count, 1) where !takes.isEmpty {
            let next = (position + step) % takes.count
            guard !broken.contains(takes[next]) else { continue }
            position = next
            playing = takes[next]
            startedAt = now
            return [.play(takes[next])]
        }
        return stop()
    }

    private mutating func stop() -> [Action] {
        guard playing != nil else { return [] }
        playing = nil
        return [.stop]
    }
}
