// The players on the screen's player surface, each a Playback that opens and decodes on its own
// threads: the playing mode's (a take played back, `--play`) and a boomerang's review, looping silent
// on the finished screen as the guest will see it on a phone. The core says when the review loops
// (RecorderMachine.reviewLoop: finished with a boomerang, in the foreground, not leaving); Play Video
// takes the surface from it, and it starts again after. The attract slideshow's player is
// Booth+Slideshow's.
import KioskCore
import KioskSystem

extension PlayerState {
    /// The playing mode's player, each turn (nil: none plays): the picture due now, presented when the
    /// screen is drawn this turn (`drawing`, or a new picture); it stops at its end.
    mutating func stepPlayback(drawing: Bool) -> Playback.Step? {
        guard let playback else { return nil }
        let step = playback.step()
        if drawing || step.newPicture { playback.presented() }
        if step.ended != nil { stopPlayback() }
        return step
    }

    /// Stops the playing mode's player; the frozen frame shows again.
    mutating func stopPlayback() {
        playback?.stop()
        playback = nil
    }

    /// Each turn: the review loop of `wanted` (nil: none; and none while the playing mode's player has
    /// the surface) started or stopped, and its picture due now. Whether the screen is drawn this turn
    /// (`drawing`, a loop stopped, a new picture).
    mutating func stepReview(wanted: String?, screen: any BoothScreen, drawing: Bool) -> Bool {
        let wanted = playback == nil ? wanted : nil
        var draw = drawing
        if review?.path != wanted {
            draw = endReview() || draw
            if let wanted {
                // (The attract slideshow never plays on the finished screen: the core's turn stopped it.)
                screen.setPlaybackFit(.fit)
                Log.info("review: looping \(wanted) (silent)")
                // The take's last picture stays until the loop's first.
                review = Playback(path: wanted, screen: screen, audio: nil, loop: true, blackFirst: false)
            }
        }
        guard let review else { return draw }
        let step = review.step()
        draw = draw || step.newPicture
        if draw { review.presented() } // drawn at the end of this loop
        if case let .error(message)? = step.ended {
            // Never shown broken: the last picture stays, as for a video.
            Log.info("review: \(review.path) stopped: \(message)")
            review.stop(keepingPicture: true)
        }
        return draw
    }

    /// The loop stops (Play Video, Retake, Use Video); the frozen picture shows again. Whether one ran.
    @discardableResult mutating func endReview() -> Bool {
        guard let review else { return false }
        review.stop()
        self.review = nil
        return true
    }
}
