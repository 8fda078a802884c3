// `--key auto`'s measure of the empty backdrop: armed in ready (at the start, while no key is
// measured yet, and on `calibrate`), it takes the camera's next pictures on the camera's thread,
// before the key (which of them: KioskOptions' `BackdropPictures`), and hands the measure
// (`BackdropMeasure`) back once, for the inbox. The last measure is kept for the key.
import KioskCore
import KioskMedia
import KioskOptions
import KioskSystem

final class KeyCalibration: Sendable {
    private let state = Locked((pictures: BackdropPictures(armed: false), measured: BackdropMeasure?.none))
    private let samples = Locked(BackdropSamples())

    /// The backdrop measured from the camera's next pictures.
    func start() {
        state.withLock { $0.pictures.arm() }
    }

    /// `start` for `--key auto` (`auto`) when no measure was made yet.
    func startIfUnmeasured(auto: Bool) {
        guard auto, measured == nil else { return }
        start()
    }

    /// The last measure; nil before the first.
    var measured: BackdropMeasure? { state.withLock { $0.measured } }

    /// The camera's picture, on its thread: the measure when it was the last one needed.
    func offer(_ frame: VideoFrame) -> BackdropMeasure? {
        guard state.withLock({ $0.pictures.wants() }), let rgb = samples.withLock({ $0.rgb(of: frame) }) else { return nil }
        return state.withLock { s in
            guard let measure = s.pictures.add(rgb) else { return nil }
            s.measured = measure
            return measure
        }
    }
}
