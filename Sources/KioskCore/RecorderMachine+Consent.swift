// The guest's say before a take (`--consent`): Start (or Boomerang) leads to the consent screen with
// every switch off; `consentChoice` (or a tap on a switch) sets one that is offered; No thanks goes
// back to ready with nothing recorded; Agree goes on to the countdown (or the take) asked for, and
// the take is made under the choices switched on (`takeConsent`). Every take asks again.
import KioskContract

extension RecorderMachine {
    /// `consentChoice`: on the consent screen only (else `notAllowed`), a choice it offers (else `badCommand`).
    mutating func setConsent(_ choice: ConsentChoice, on: Bool, _ actions: inout [RecorderAction]) {
        guard case .consent(var switches, let seconds, let kind) = state, !exiting else { return refuse("consentChoice", &actions) }
        guard switches[choice] != nil else {
            let offered = switches.offered.map(\.rawValue).joined(separator: ", ")
            return actions.append(.emit(.error(code: .badCommand, message: "'consentChoice': '\(choice.rawValue)' is not offered (offered: \(offered))")))
        }
        switches[choice] = on
        state = .consent(switches, countdown: seconds, kind: kind)
    }

    /// Agree: the take goes on under the choices switched on; No thanks: ready, nothing recorded.
    mutating func answerConsent(agreed: Bool, _ actions: inout [RecorderAction]) {
        guard case let .consent(switches, seconds, kind) = state, let consent else { return }
        guard agreed else { return state = .ready }
        asked.consent = Consent(version: consent.version, choices: switches.on)
        begin(countdown: seconds, kind: kind, &actions)
    }

    /// `--consent`: what its screen offers before each take (nil: no such screen); a reload may change it.
    public internal(set) var consent: ConsentOffer? {
        get { extras.consent }
        set { extras.consent = newValue }
    }

    /// The consent screen's switches (on that screen only).
    public var consentSwitches: ConsentSwitches? {
        if case let .consent(switches, _, _) = state { switches } else { nil }
    }
}

/// What the last Record or Boomerang asked for: its kind, and the consent it is made under.
struct TakeAsked: Equatable, Sendable {
    var kind = TakeKind.video
    var consent: Consent?
}
