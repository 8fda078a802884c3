// Use Video's hand-over on the file worker, as the core says (`.file(.handOver)`): the cut and the
// loudness first, while the take still has its marker (a kill during either leaves the whole take),
// then the take handed over (TakeStorage.handOver); its outcome says what was cut and leveled, and
// whether it is a boomerang.
import KioskContract
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

extension TakeStorage {
    /// The take at `output` cut to `trim`, its sound set to `loudness` (the copy `leveling` made while it
    /// was reviewed, when no cut came since), then handed over; the events to say.
    func handOver(_ output: String, number: Int?, rename: Bool, rules: TakeFolder.Retention, protected: Set<String>,
                  trim: TrimRange?, boomerang: Bool, loudness: Double?, leveling: TakeLeveling, consent: Consent?) -> [KioskEvent] {
        let cut = trim.map { TakeCut.cut(output, to: $0) }
        let level = loudness.map { leveling.level(output, to: $0, cut: cut != nil) }
        let failures = [cut?.failure, level?.failure].compactMap { $0 }
        return failures + handOver(output, number: number, rename: rename, rules: rules, protected: protected, consent: consent).map { event in
            let trimmed = cut?.done.map(event.trimmed) ?? event
            let outcome = boomerang && trimmed.handedOverPath != nil ? .boomerang(trimmed) : trimmed
            guard let leveled = level?.done, outcome.handedOverPath != nil else { return outcome }
            return .leveled(outcome, loudness: leveled)
        }
    }
}
