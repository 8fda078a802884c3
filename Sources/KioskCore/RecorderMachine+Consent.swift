// The guest's say before a take (`--consent`): Start (or Boomerang, or the shutter in ready) leads to
// the consent screen with every switch off; `consentChoice` (or a tap on a switch) sets one that is
// offered; No thanks goes back to ready with nothing recorded; Agree goes on to what was asked for:
// the countdown (or the take), made under the choices switched on (`takeConsent`), or the photo,
// taken under them (its `takePhoto`'s consent). Every take and every photo asks again.
import KioskContract

extension RecorderMachine {
    /// `consentChoice`: on the consent screen only (else `notAllowed`), a choice it offers (else `badCommand`).
    mutating func setConsent(_ choice: ConsentChoice, on: Bool, _ actions: inout [RecorderAction]) {
        guard case .consent(var switches, let asked) = state, !exiting else { return refuse("consentChoice", &actions) }
        guard switches[choice] != nil else {
            let offered = switches.offered.map(\.rawValue).joined(separator: ", ")
            return actions.append(.emit(.error(code: .badCommand, message: "'consentChoice': '\(choice.rawValue)' is not offered (offered: \(offered))")))
        }
        switches[choice] = on
        state = .consent(switches, for: asked)
    }

    /// Agree: the take (or the photo) goes on under the choices switched on; No thanks: ready, nothing recorded.
    mutating func answerConsent(agreed: Bool, _ actions: inout [RecorderAction]) {
        guard case let .consent(switches, wanted) = state, let consent else { return }
        guard agreed else { return state = .ready }
        let given = Consent(version: consent.version, choices: switches.on)
        guard case let .take(seconds, kind) = wanted else {
            state = .ready
            return actions.append(.takePhoto(orientation: orientation, consent: given))
        }
        asked.consent = given
        begin(countdown: seconds, kind: kind, &actions)
    }

    /// `--consent`, in ready: the consent screen before `wanted` (true); otherwise nothing to ask (false):
    /// a photo mid-take is taken at once, under the take's consent.
    mutating func askedConsent(for wanted: ConsentAsked) -> Bool {
        guard case .ready = state, let consent else { return false }
        state = .consent(ConsentSwitches(offered: consent.choices), for: wanted)
        return true
    }

    /// `--consent`: what its screen offers before each take (nil: no such screen); a reload may change it.
    public internal(set) var consent: ConsentOffer? {
        get { extras.consent }
        set { extras.consent = newValue }
    }

    /// The consent screen's switches (on that screen only).
    public var consentSwitches: ConsentSwitches? {
        if case let .consent(switches, _) = state { switches } else { nil }
    }
}

/// What the consent screen is asked before: a take of this kind after this countdown, or a photo.
public enum ConsentAsked: Equatable, Sendable {
    case take(countdown: Int, kind: TakeKind)
    case photo
}

/// What the last Record or Boomerang asked for: its kind, and the consent it is made under.
struct TakeAsked: Equatable, Sendable {
    var kind = TakeKind.video
    var consent: Consent?
}
