// The operator's door (`closeBooth`, `openBooth`): a closed booth shows "back soon", has no buttons and
// refuses guests (`notAllowed`), and no take is lost on the way: one being recorded stops as for the
// background and is kept once finished, a review's is kept (`keepTake`), a countdown ends with nothing
// recorded, the share screen ends as Done. Only `openBooth` opens it (not idle, attract, the foreground
// or a reload); closing a closed booth or opening an open one changes nothing and says nothing.
import KioskContract

extension RecorderMachine {
    /// `closeBooth`: the closed screen now, or once the take being recorded is finished and kept.
    mutating func closeBooth(_ actions: inout [RecorderAction]) {
        guard playerFile == nil, !exiting else { return refuseDoor("closeBooth", &actions) }
        switch state {
        case .closed: return
        case var .recording(r):
            r.closing = true
            state = .recording(r)
            return requestStop(.background, &actions) // a stop already asked for goes on
        case let .playing(p):
            state = p.library.map(State.library) ?? .finished(p.take)
            actions += [.stopPlayback, .emit(.playbackFinished(reason: .closed))]
            return closeBooth(&actions)
        case .finished: actions.append(.keepTake)
        case .library: actions.append(.releaseLibrary)
        case .sharing:
            endShare(&actions)
            if exiting { return }
        case .ready, .countdown, .consent: break
        }
        state = .closed
        actions.append(.emit(.boothClosed))
    }

    /// `openBooth`: back to ready. Refused while closing (a take finishing: it would land in a review nobody asked for).
    mutating func openBooth(_ actions: inout [RecorderAction]) {
        guard playerFile == nil, !exiting else { return refuseDoor("openBooth", &actions) }
        if case let .recording(r) = state, r.closing {
            return actions.append(.emit(.error(code: .notAllowed, message: "'openBooth': the booth is closing (its take is being saved); open it after boothClosed")))
        }
        guard case .closed = state else { return }
        state = .ready
        actions.append(.emit(.boothOpened))
    }

    /// A share folder's report while closed (closed over the share screen): said all the same.
    func sharedWhileClosed(_ event: KioskEvent) -> [RecorderAction] {
        guard case .closed = state, !exiting else { return [] }
        return [.emit(event)]
    }

    private func refuseDoor(_ name: String, _ actions: inout [RecorderAction]) {
        let why = playerFile != nil ? "the player alone (--play) has no booth to close" : "the booth is on its way out"
        actions.append(.emit(.error(code: .notAllowed, message: "'\(name)': \(why)")))
    }
}
