// The attract screen's slideshow (`--attract-slideshow`), carried out: the core decides
// (BoothCore+Slideshow: when to list, which take plays, for how long, when it stops); this file lists
// the output folder's newest accepted takes on the file worker with the library's listing
// (TakeLibrary: newest first, a take that no longer decodes left out), plays each through the booth's
// own player (Playback) with no sound at all (no audio device is asked for, the player decodes none),
// its pictures on the player's surface of the screen under the attract screen's veil and prompt, and
// stops it. The player opens and decodes on its own threads; the UI thread only takes the picture due
// and tells the core when the take ended.
import FoundationEssentials
import KioskCore
import KioskMedia
import KioskSystem

extension Booth {
    /// Each turn, after the core's turn: the playing take's picture due now, and its end told to the core.
    func stepSlideshow() {
        guard let step = player.slideshowPlayback?.step() else { return }
        if step.newPicture {
            player.slideshowOnScreen = true
            needsDraw = true
        }
        guard let end = step.ended else { return }
        feed(.slideshow(.ended(failure: end.failure)))
    }

    /// The core's `.slideshow`.
    func carryOut(_ effect: BoothCore.SlideshowEffect) {
        switch effect {
        case let .list(serial):
            listSlideshow(serial: serial)
        case let .play(path):
            // The last picture stays on screen until the next take's first. The takes cover the
            // screen as the camera's picture did when they were made (`--preview-fit`).
            player.slideshowPlayback?.stop(keepingPicture: true)
            screen.setPlaybackFit(config.screen.shownPreviewFit(overlay: config.video.overlay != nil))
            player.slideshowPlayback = Playback(path: path, screen: screen, audio: nil, blackFirst: false)
        case let .stop(newestFrame):
            player.slideshowPlayback?.stop()
            player.slideshowPlayback = nil
            player.slideshowOnScreen = false
            // The review shows the whole take.
            screen.setPlaybackFit(.fit)
            draw.frameSerial = newestFrame ? 0 : draw.frameSerial
            needsDraw = true
        }
    }

    /// Lists the newest accepted takes on the file worker (the core's `.slideshow(.listed)` follows).
    private func listSlideshow(serial: Int) {
        // `--attract-slideshow` needs `--output-dir` (OptionParser.validate): without a folder, none.
        let (folder, mode) = ((storage as? FolderStorage)?.folder, config.storage.fileMode)
        fileJob {
            let listed = folder.map { TakeLibrary.list($0, mode: mode, limit: SlideshowRule.newest).takes } ?? []
            return .input(.slideshow(.listed(listed.map(\.path), serial: serial)))
        }
    }
}
