// The booth core's camera switch (CameraRing's rule), one camera at a time: the machine's
// `switchCamera` makes the core say which camera to try first (`.camera(.tryCamera)`, the one in use stopped
// before it); the booth starts it on its camera queue and reports how it went (`cameraTried`); the
// core says the next one (a camera that cannot open now is passed over, and stopped when it
// started) until one opens, or back to the one in use when none does. Then the machine hears
// `cameraSwitched` (Start shows again), the booth makes the chosen camera the one heard
// (`.camera(.inUse)`), and the machine hears the camera back or lost as it now is. The new camera's
// name shows for a moment (`ring.bannerName`).

extension BoothCore {
    /// The machine asked for the switch: with one camera it is done at once; else the first camera
    /// to try after the one in use.
    mutating func switchBegins() -> [Effect] {
        guard ring.count > 1 else { return handle(.cameraSwitched) }
        switchingFrom = ring.index
        return [.camera(.tryCamera(index: CameraRing.order(from: ring.index, count: ring.count)[0], stop: ring.index))]
    }

    /// Camera `index` of the switch was tried at `now` and went as `attempt` says; `name` (its
    /// device) and `label` (what the guest reads) are for the log and the banner.
    mutating func cameraTried(_ index: Int, _ attempt: CameraRing.Attempt, name: String, label: String, at now: Int64) -> [Effect] {
        guard let from = switchingFrom else { return [] }
        switch CameraRing.step(from: from, count: ring.count, tried: index, attempt) {
        case let .next(next, stop):
            let passed: [Effect] = stop == nil ? [] : [.log("camera switch: \(name) cannot open now; passed over")]
            return passed + [.camera(.tryCamera(index: next, stop: stop))]
        case let .chosen(chosen, open):
            switchingFrom = nil
            let changed = ring.switched(to: chosen, name: label, at: now)
            var effects = handle(.cameraSwitched)
            effects.append(.camera(.inUse(index: chosen, changed: changed)))
            effects.append(.log(changed ? "camera switch: now \(name) (\(label))" : "camera switch: no other camera could open; \(name) stays"))
            if open && !machine.cameraAvailable { effects += handle(.cameraBack) }
            if !open && machine.cameraAvailable { effects += handle(.cameraLost) }
            return effects
        }
    }
}
