// The machine's part of the library (`--library`): its presses, `pick` and the idle reset
// carried out as the library's room (LibraryRoom) decides. Kept apart from RecorderMachine.swift
// (its 500-line cap); it sets the machine's state as that file does.
import KioskContract

extension RecorderMachine {
    /// The library's presses and `pick`, as its room decides (LibraryRoom).
    mutating func pressInLibrary(_ button: Button, _ actions: inout [RecorderAction]) {
        guard case var .library(room) = state else { return }
        libraryDecided(room.press(button, session: session), room, &actions)
    }

    mutating func pick(_ path: String, _ actions: inout [RecorderAction]) {
        guard case var .library(room) = state, !exiting else { return refuse("pick", &actions) }
        libraryDecided(room.pick(path), room, &actions)
    }

    private mutating func libraryDecided(_ decision: LibraryRoom.Decision, _ room: LibraryRoom, _ actions: inout [RecorderAction]) {
        switch decision {
        case .stay: state = .library(room)
        case .leave:
            state = .ready
            actions.append(.releaseLibrary)
        case let .play(entry):
            let take = RecordingResult(outputPath: entry.path, duration: entry.duration, bytes: 0, reason: .user, success: true)
            state = .playing(Playing(take: take, duration: entry.duration, library: room))
            actions += [.startPlayback(path: entry.path), .emit(.playbackStarted(path: entry.path))]
        case let .use(entry):
            // The iOS picker's "Video library": the outcome names the take; its file stays as it is.
            actions.append(.emit(.videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: entry.path)))
            actions.append(.releaseLibrary)
            outcome(&actions)
        case let .refuse(message): actions.append(.emit(.error(code: .badCommand, message: message)))
        }
    }

    /// An untouched library (`idleReset`): back to ready, with no outcome and no event.
    mutating func leaveLibrary() -> [RecorderAction] {
        state = .ready
        var actions: [RecorderAction] = [.releaseLibrary]
        reconcile(&actions)
        return actions
    }
}
