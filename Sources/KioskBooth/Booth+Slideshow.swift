// The attract screen's slideshow (`--attract-slideshow`): SlideshowRule decides, this file
// carries it out. When the attract screen begins, the file worker lists the output folder's newest
// accepted takes with the library's listing (TakeLibrary: newest first, a take that no longer
// decodes left out); each then plays through the booth's own player (Playback) with no sound at all
// (no audio device is asked for, the player decodes none), its pictures on the player's surface of
// the screen under the attract screen's veil and prompt. The player opens and decodes on its own
// threads; the UI thread only takes the picture due. A touch that wakes the attract screen (BoothCore)
// stops it in that turn of the loop, before the screen is drawn, and so does any other way out of
// the attract screen; a review taking the player's surface stops it first (`endSlideshow`).
import FoundationEssentials
import KioskCore
import KioskMedia
import KioskSystem

extension Booth {
    /// Each turn, after the core's turn (the attract screen): what the rule says for the attract screen as it is now, and
    /// the playing take's picture due now.
    func stepSlideshow() {
        player.slideshow.enabled = config.guest.attractSlideshow
        // The review's player has the screen's player surface to itself; in the background nobody
        // sees the screen.
        carryOutSlideshow(player.slideshow.look(attract: attracting && player.playback == nil && !machine.inBackground, at: now))
        guard let show = player.slideshowPlayback else { return }
        let step = show.step()
        if step.newPicture {
            player.slideshowOnScreen = true
            needsDraw = true
        }
        guard let end = step.ended else { return }
        switch end {
        case .end:
            carryOutSlideshow(player.slideshow.ended(failed: false, at: now))
        case let .error(message):
            // Never shown broken: skipped, and not tried again on this attract screen.
            Log.info("slideshow: \(show.path) skipped: \(message)")
            carryOutSlideshow(player.slideshow.ended(failed: true, at: now))
        }
    }

    /// The slideshow stops now, before the review's player uses the screen's player surface.
    func endSlideshow() {
        carryOutSlideshow(player.slideshow.look(attract: false, at: now))
    }

    /// The file worker's listing for the attract screen that asked with `serial`.
    func slideshowListed(_ paths: [String], serial: Int) {
        Log.info("slideshow: \(paths.count) takes to play")
        carryOutSlideshow(player.slideshow.listed(paths, serial: serial, at: now))
    }

    private func carryOutSlideshow(_ actions: [SlideshowRule.Action]) {
        for action in actions {
            switch action {
            case let .list(serial):
                listSlideshow(serial: serial)
            case let .play(path):
                // The last picture stays on screen until the next take's first. The takes cover the
                // screen as the camera's picture did when they were made (`--preview-fit`).
                player.slideshowPlayback?.stop(keepingPicture: true)
                screen.setPlaybackFit(config.screen.shownPreviewFit(overlay: config.video.overlay != nil))
                Log.info("slideshow: playing \(path) (silent)")
                player.slideshowPlayback = Playback(path: path, screen: screen, audio: nil, blackFirst: false)
            case .stop:
                player.slideshowPlayback?.stop()
                player.slideshowPlayback = nil
                player.slideshowOnScreen = false
                // The review shows the whole take.
                screen.setPlaybackFit(.fit)
                // The camera's picture is back: its newest frame goes up at once (not one from before
                // a camera that was lost meanwhile).
                if machine.cameraAvailable { draw.frameSerial = 0 }
                needsDraw = true
                Log.info("slideshow: stopped")
            }
        }
    }

    /// Lists the newest accepted takes on the file worker (`slideshowListed` follows).
    private func listSlideshow(serial: Int) {
        // `--attract-slideshow` needs `--output-dir` (OptionParser.validate): without a folder, none.
        guard let folder = (storage as? FolderStorage)?.folder else { return }
        let mode = config.storage.fileMode
        fileJob {
            let listed = TakeLibrary.list(folder, mode: mode, limit: SlideshowRule.newest).takes
            return .listed(.slideshow(serial: serial, paths: listed.map(\.path)))
        }
    }
}
