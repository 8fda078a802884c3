// The finished screen's loop: a boomerang's review plays its file over and over, silent,
// on the player's surface of the screen, as the guest will see it on a phone. The core says when
// (RecorderMachine.reviewLoop: finished with a boomerang, in the foreground, not leaving); this file
// carries it out through the booth's own player (Playback, looping), which opens and decodes on its
// own threads. Play Video takes the surface from it (`endReview`), and it starts again after.
import KioskCore
import KioskSystem

extension Booth {
    /// Each turn: the loop the core wants, started or stopped, and its picture due now.
    func stepReview() {
        let wanted = player.playback == nil ? machine.reviewLoop : nil
        if player.review?.path != wanted {
            endReview()
            if let wanted {
                // (The attract slideshow never plays on the finished screen: the core's turn stopped it.)
                screen.setPlaybackFit(.fit)
                Log.info("review: looping \(wanted) (silent)")
                // The take's last picture stays until the loop's first.
                player.review = Playback(path: wanted, screen: screen, audio: nil, loop: true, blackFirst: false)
            }
        }
        guard let review = player.review else { return }
        let step = review.step()
        if step.newPicture { needsDraw = true }
        if needsDraw { review.presented() } // drawn at the end of this loop
        if case let .error(message)? = step.ended {
            // Never shown broken: the last picture stays, as for a video.
            Log.info("review: \(review.path) stopped: \(message)")
            review.stop(keepingPicture: true)
        }
    }

    /// The loop stops (Play Video, Retake, Use Video); the frozen picture shows again.
    func endReview() {
        guard let review = player.review else { return }
        review.stop()
        player.review = nil
        needsDraw = true
    }
}
