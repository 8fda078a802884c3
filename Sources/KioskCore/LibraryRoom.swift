// The library (`--library`; the iOS picker's "Video library"): the output folder's
// accepted takes, newest first, to look at again and, in a once session, to hand over instead of a
// new take. Its state and rules are this value; the machine (RecorderMachine) holds it in mode
// `library` and carries out what it decides. The listing itself (durations, thumbnails, leaving out
// a take that no longer decodes) is made on the booth's file worker (KioskMedia's TakeLibrary) and
// arrives as `libraryListed`.
import KioskContract

/// The library's room: the grid (`picked` nil) or one take's review.
public struct LibraryRoom: Equatable, Sendable {
    /// The takes, newest first; nil while the file worker lists them.
    public var entries: [LibraryEntry]?
    /// The take whose review shows (Play Video, Use Video, Back); nil: the grid.
    public var picked: LibraryEntry?
    /// How many older takes the listing left out (it lists the newest few hundred).
    public var leftOut = 0

    public init(entries: [LibraryEntry]? = nil, picked: LibraryEntry? = nil) {
        self.entries = entries
        self.picked = picked
    }

    /// What a press or a command does here.
    public enum Decision: Equatable, Sendable {
        /// Stay in the library, as it now is.
        case stay
        /// Back from the grid: to ready.
        case leave
        /// Play Video on the picked take.
        case play(LibraryEntry)
        /// Use Video on the picked take (once sessions): the outcome names it.
        case use(LibraryEntry)
        /// Not possible here: `badCommand` with this message.
        case refuse(String)
    }

    /// The buttons on screen: the grid has Back; a take's review Back and Play Video, and Use Video
    /// in a once session (in a loop session a take from the library only plays).
    public func buttons(session: SessionMode) -> [Button] {
        guard picked != nil else { return [.back] }
        return session == .once ? [.back, .useVideo, .playVideo] : [.back, .playVideo]
    }

    /// `pick` (a tap on a cell, or the command): opens that take's review. A path not in the list
    /// (or while it is still being made) is refused.
    public mutating func pick(_ path: String) -> Decision {
        guard picked == nil else { return .refuse("pick: a take's review is open (Back first)") }
        guard let entry = entries?.first(where: { $0.path == path }) else {
            let older = leftOut > 0 ? " (it shows the newest \(entries?.count ?? 0) takes and leaves \(leftOut) older ones out)" : ""
            return .refuse("pick: '\(path)' is not in the library\(older)")
        }
        picked = entry
        return .stay
    }

    /// A press of one of `buttons(session:)`.
    public mutating func press(_ button: Button, session: SessionMode) -> Decision {
        switch (button, picked) {
        case (.back, nil): return .leave
        case (.back, _?):
            picked = nil
            return .stay
        case let (.playVideo, entry?): return .play(entry)
        case let (.useVideo, entry?) where session == .once: return .use(entry)
        default: return .refuse("'\(button.rawValue)' is not on screen in the library")
        }
    }
}
