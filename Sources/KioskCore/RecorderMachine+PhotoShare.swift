// A photo's share screen (with `--share-dir`): a photo's share folder is announced
// (`takeShared` with its `path`) by the booth as soon as it is written, whatever the mode; its QR code
// shows on the share screen only from ready, so a photo taken mid-take never interrupts the take: the
// booth keeps its link and hands it here when the machine is next in ready (after the take's review,
// or the take's own share screen in a loop session). Its Done, or `--share-seconds`, goes back to
// ready: a photo is no outcome, a `once` session goes on.
import KioskContract

extension RecorderMachine {
    /// Whether a photo's QR code may show now: in ready, not on the way out.
    public var photoShareAllowed: Bool { mode == .ready && !exiting }

    /// A photo's link (`link.photo` set): its share screen when allowed, else nothing (the booth
    /// keeps the link and offers it again once `photoShareAllowed`).
    mutating func showPhotoShare(_ link: ShareLink, _ actions: inout [RecorderAction]) {
        guard photoShareAllowed else { return }
        state = .sharing(link: link)
        actions.append(.startShareClock)
    }

    /// Done or `--share-seconds` on the share screen: a photo's goes back to ready, a take's is the
    /// session's outcome (`once` exits, `loop` goes back to ready).
    mutating func endShare(_ actions: inout [RecorderAction]) {
        if case let .sharing(link?) = state, link.photo != nil {
            state = .ready
        } else {
            outcome(&actions)
        }
    }
}
