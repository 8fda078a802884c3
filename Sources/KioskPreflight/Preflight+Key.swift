// `--check`'s `key` line with `--key auto`: the backdrop measured from the camera's pictures as the
// booth measures it in ready (KioskOptions' `BackdropPictures` and `BackdropMeasure` on KioskMedia's
// `BackdropSamples`), the key it gives and its warning.
import Dispatch
import KioskContract
import KioskCore
import KioskMedia
import KioskOptions
import KioskSystem

/// The camera's pictures measured on its thread; `wait` for the measure.
final class BackdropTrial: Sendable {
    private let pictures = Locked(BackdropPictures(armed: true))
    private let samples = Locked(BackdropSamples())
    private let measured = Locked<BackdropMeasure?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func offer(_ frame: VideoFrame) {
        guard pictures.withLock({ $0.wants() }), let rgb = samples.withLock({ $0.rgb(of: frame) }),
              let measure = pictures.withLock({ $0.add(rgb) }) else { return }
        measured.withLock { $0 = measure }
        done.signal()
    }

    /// The measure, once the camera gave its pictures (at most 5 s more).
    func wait() -> BackdropMeasure? {
        _ = done.wait(timeout: .now() + 5)
        return measured.withLock { $0 }
    }

    /// The `key` line: the key measured, and its warning; a failure when no picture could be measured.
    func item(_ measure: BackdropMeasure?) -> CheckItem {
        guard let measure else {
            return CheckItem(name: "key", ok: false, detail: "--key auto: the camera gave no pictures to measure the backdrop from",
                             fix: "check the camera, or set the backdrop's colour: --key green, blue or #RRGGBB")
        }
        let detail = "--key auto: the backdrop measures \(measure.colour), similarity \(String(printf: "%.3f", measure.similarity))"
            + " (brightness \(Int(measure.brightness.rounded())) of 255)"
        return CheckItem(name: "key", ok: true, detail: detail + (measure.warning.map { "; \($0)" } ?? ""),
                         fix: measure.warning.map { _ in "light the backdrop evenly and brightly, with no one in front of it, then run --check again (or send calibrate to the booth)" },
                         warning: measure.warning != nil)
    }
}
