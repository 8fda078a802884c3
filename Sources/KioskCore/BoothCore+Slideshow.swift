// The booth core's slideshow room (`--attract-slideshow`): SlideshowRule fed the attract screen as
// the turn leaves it and the time, the file worker's listing and the end of the take playing; what it
// says becomes the booth's effects (list the folder, play a take silent, stop) with their log lines.
// The booth only lists, starts and stops the player (Booth+Slideshow).
import KioskContract

extension BoothCore {
    /// What happens to the slideshow outside the turn.
    public enum SlideshowInput: Equatable, Sendable {
        /// The file worker's listing (newest first) for the attract screen that asked with `serial`.
        case listed([String], serial: Int)
        /// The take playing reached its end (`failure` nil) or could not open or decode (`failure`:
        /// why; it is skipped on this attract screen).
        case ended(failure: String?)
    }

    /// What the booth does for the slideshow.
    public enum SlideshowEffect: Equatable, Sendable {
        /// List the newest accepted takes on the file worker; `.slideshow(.listed)` with `serial` follows.
        case list(serial: Int)
        /// Play this take, silent, on the player's surface, in place of the one playing (whose last
        /// picture stays until the new one's first).
        case play(String)
        /// Stop playing: the camera's picture is back; `newestFrame`: the camera is up, so its newest
        /// frame goes up at once (not one from before a camera that was lost meanwhile).
        case stop(newestFrame: Bool)
    }

    /// Each turn, last: the attract screen as this turn left it (not while the review's player has the
    /// surface, nor in the background, where nobody sees the screen).
    mutating func slideshowLook(_ facts: Turn) -> [Effect] {
        screen.slideshow.enabled = settings.attractSlideshow
        return slideshowSays(screen.slideshow.look(attract: attracting && !facts.reviewPlays && !machine.inBackground, at: now))
    }

    /// Takes deleted (`takeDeleted`) leave the slideshow's list at once, the one playing too.
    mutating func slideshowForgets(_ events: [KioskEvent]) -> [Effect] {
        events.reduce(into: []) { if case let .takeDeleted(path, _) = $1 { $0 += slideshowSays(screen.slideshow.deleted(path, at: now)) } }
    }

    /// The review's player takes the surface: the slideshow stops first.
    mutating func slideshowYields() -> [Effect] {
        slideshowSays(screen.slideshow.look(attract: false, at: now))
    }

    mutating func slideshowHears(_ input: SlideshowInput) -> [Effect] {
        switch input {
        case let .listed(paths, serial):
            let plays = slideshowSays(screen.slideshow.listed(paths, serial: serial, at: now))
            return [.log("slideshow: \(paths.count) takes to play")] + plays
        case let .ended(failure):
            // Never shown broken: skipped, and not tried again on this attract screen.
            let skipped = failure.map { [Effect.log("slideshow: \(screen.slideshow.playing ?? "") skipped: \($0)")] } ?? []
            return skipped + slideshowSays(screen.slideshow.ended(failed: failure != nil, at: now))
        }
    }

    private func slideshowSays(_ actions: [SlideshowRule.Action]) -> [Effect] {
        actions.flatMap { action -> [Effect] in
            switch action {
            case let .list(serial): [.slideshow(.list(serial: serial))]
            case let .play(path): [.log("slideshow: playing \(path) (silent)"), .slideshow(.play(path))]
            case .stop: [.slideshow(.stop(newestFrame: machine.cameraAvailable)), .log("slideshow: stopped")]
            }
        }
    }

}
