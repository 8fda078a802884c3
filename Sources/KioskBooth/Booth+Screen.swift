// The playing mode's player each turn, carried out: its picture drawn, its position and its end for
// the machine (the players themselves: Players.swift).
import KioskCore
import KioskMedia
import KioskUI

extension Booth {
    /// The player's part of each loop: the picture due now, the position for the overlay, the end.
    func stepPlayback() {
        guard let step = player.stepPlayback(drawing: needsDraw) else { return }
        if step.newPicture {
            needsDraw = true
            stats.picture(position: step.position, play: step.play, at: now)
        }
        tell(.playbackProgress(position: step.position, duration: step.duration))
        switch step.ended {
        case nil: break
        case .end?: tell(.playbackEnded(.end))
        case let .error(message)?:
            events.emit(.error(code: .playbackFailed, message: message))
            tell(.playbackEnded(.error))
        }
    }
}
