// The booth core's hand-over room: which take on disk is this run's own (a Retake or the next Start
// deletes it rather than recover it), and what follows Use Video's hand-over: the take's `--on-take`
// hook at once, or with `--share-dir` its share folder written first and the hook owed once it is
// (or failed), with the folder's token when there is one. The booth writes the folder on its file
// worker and tells the machine `takeShared` or `shareFailed`; the core owes the hook as it hears it.
import KioskContract

/// What the core keeps between a take's end and its hook (BoothCore+Share).
public struct HandOver: Equatable, Sendable {
    /// This process's finished take is on disk (with its marker) and nobody has used it yet.
    public internal(set) var ownOnDisk = false
    /// The last take's length and kind, for its hook's environment and its share page.
    public internal(set) var lastDuration: Double = 0
    public internal(set) var lastKind = TakeKind.video
    /// Use Video asked for a share: it starts once the hand-over reports the take's path.
    public internal(set) var shareWanted = false
    /// The take whose share folder is being written: it owes its hook once that is done (or failed).
    public internal(set) var sharing: String?
    /// The consent the take being handed over was made under (`--consent`), for its outcome and its log line.
    public internal(set) var consent: Consent?

    public init() {}
}

extension BoothCore {
    /// The hand-over leaves no take of ours on disk. It cuts the take to `trim`, levels a video's sound
    /// to `--loudness`, says a boomerang as one, and keeps the takes whose hooks are owed from retention.
    mutating func handOverGoes(trim: TrimRange?) -> FileEffect {
        handOver.ownOnDisk = false
        serviceCounts(handedOver: true)
        let kind = handOver.lastKind
        handOver.consent = machine.takeConsent
        return .handOver(trim: trim, boomerang: kind == .boomerang, loudness: kind == .video ? settings.loudness : nil,
                         protected: jobs.protectedTakes, consent: handOver.consent)
    }

    /// The machine's actions of the hand-over room: a discard says whether the take is this run's
    /// own, a kept take (a closing booth's) is not ours to delete; the share waits for the hand-over's report.
    mutating func handOverAction(_ action: RecorderAction) -> [Effect]? {
        switch action {
        case .discardTake:
            defer { handOver.ownOnDisk = false }
            if handOver.ownOnDisk { serviceCounts(handedOver: false) }
            return [.file(.discard(own: handOver.ownOnDisk))]
        case .keepTake:
            // Kept as a take nobody decided on (the storage's discard of a take not ours).
            handOver.ownOnDisk = false
            return [.file(.discard(own: false))]
        case .shareTake:
            handOver.shareWanted = true
            return []
        default:
            return nil
        }
    }

    /// A machine event the hand-over room hears first: a take finished (it is ours on disk now), or
    /// the share folder of the take being shared written (`takeShared` of a take, not a photo's) or
    /// failed: its hook is owed now, with the folder when there is one.
    mutating func handOverHears(_ event: RecorderEvent) -> [Effect] {
        switch event {
        case let .recordingFinished(result):
            handOver.ownOnDisk = true
            handOver.lastDuration = result.duration
            handOver.lastKind = result.kind
            return []
        case let .takeShared(link) where link.photo == nil:
            return hookAfterShare(link)
        case .shareFailed:
            return hookAfterShare(nil)
        default:
            return []
        }
    }

    /// `hideTake`, `showTake`, `deleteTake`: the storage's (TakeRecords checks the path, or finds the take
    /// by its share token). Deleting the take the library's review shows is refused (`notAllowed`); one
    /// whose `--on-take` hook is owed goes (the hook finds it gone; its tombstone follows any upload).
    func takeChanged(_ change: TakeChange) -> [Effect] {
        let reviewed = if case let .library(room) = machine.state { room.picked?.path } else if case let .playing(p) = machine.state { p.take.outputPath } else { String?.none }
        guard case .delete = change, reviewed == change.path else { return [.file(.changeTake(change, reviewed: reviewed))] }
        return [.emit(.error(code: .notAllowed, message: "'deleteTake': its review is on screen: \(change.path)"))]
    }

    private mutating func hookAfterShare(_ link: ShareLink?) -> [Effect] {
        guard let take = handOver.sharing else { return [] }
        handOver.sharing = nil
        return hookOwed(HookQueue.Entry(path: take, duration: handOver.lastDuration, shareToken: link?.token, shareFolder: link?.folder), at: now)
    }

    /// Events to say (a file job's, a worker's): they go out, a take's with the question it was made
    /// under (the guestbook's). Use Video's hand-over (`handOver`): without a share its take owes its hook
    /// now; with one the share starts from the path it gives (a hand-over that failed has none: the
    /// share fails with it) and the hook waits for the share folder. Only the hand-over's own report
    /// counts: a job posted before it (a microphone's close at the take's end) may report back after.
    mutating func said(_ done: [KioskEvent], handOver wasHandOver: Bool) -> [Effect] {
        let said = done.map { event in
            Effect.emit(guestbook.stamped(wasHandOver && event.handedOverPath != nil ? handOver.consent.map { .consented(event, .take($0)) } ?? event : event))
        } + slideshowForgets(done)
        guard wasHandOver else { return said }
        let path = done.lazy.compactMap(\.handedOverPath).first
        guard handOver.shareWanted else {
            guard let path else { return said }
            return said + hookOwed(HookQueue.Entry(path: path, duration: handOver.lastDuration), at: now)
        }
        handOver.shareWanted = false
        guard let path else { return said + handle(.shareFailed(message: "the take was not handed over, so it has no share folder")) }
        handOver.sharing = path
        guard settings.shares else { return said + handle(.shareFailed(message: "sharing was turned off before the take was shared")) }
        return said + [.file(.writeShare(take: path, question: guestbook.take, loops: handOver.lastKind == .boomerang))]
    }
}
