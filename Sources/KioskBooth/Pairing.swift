// Pairing a phone with the operator's console from the booth's screen (`--console-pairing`): the
// pure rule's (PairingRule) effects carried out. The password typed on the screen's keyboard is
// checked against the console's own password file (KioskPassword, as the console checks a sign-in)
// on a worker of its own, never on the UI thread; a right one gets a one-time code (192 bits from
// getrandom) written beside the control socket, mode 0600, where the console reads it (PairingFile),
// and reported back through the inbox. A code closed or expired is removed there.
import KioskContract
import KioskCore
import KioskOptions
import KioskPairing
import KioskPassword
import KioskSystem
import KioskUI

/// The check's answer: the code made for a right password (nil: wrong), valid until `until`.
public struct PairingReport: Sendable {
    let code: String?
    let until: Int64
}

final class PairingPart {
    private(set) var rule: PairingRule
    private let passwordFile: String
    private let codeFile: String
    private let queue: any Executor
    private let inbox: Inbox
    /// Told what to show at each change, so a screenshot taken in the same turn shows it too.
    private let screen: any BoothScreen
    /// What the screen was last told to show.
    private var shown: PairingView?

    /// Nil without `--console-pairing` (its control socket is then given too: the parser's rule).
    init?(_ config: Configuration, makeQueue: ExecutorFactory, inbox: Inbox, screen: any BoothScreen) throws(SystemError) {
        guard let passwordFile = config.service.consolePairing, let socket = config.service.controlSocket else { return nil }
        self.passwordFile = passwordFile
        codeFile = PairingFile.path(controlSocket: socket)
        queue = try makeQueue("pairing")
        self.inbox = inbox
        self.screen = screen
        rule = PairingRule(origin: PairingRule.origin(ofTemplate: config.share.urlTemplate ?? ShareAddress.hotspotTemplate))
        // A code a booth before this one left is no longer on any screen.
        PairingFile.remove(codeFile)
    }

    /// A screen input: true when pairing took it (the booth's own rules never see it). While the
    /// keyboard or the code shows, every touch is pairing's. The corner opens the keyboard only over
    /// `mode` ready or closed.
    func hears(_ input: UIInput, canvas: Size, mode: Mode, now: Int64) -> Bool {
        guard case let .tapElsewhere(point) = input else { return rule.isOpen && input.isGuestTouch }
        let (taken, effects) = rule.tap(at: point, canvas: canvas, now: now, mayOpen: Self.mayShow(over: mode))
        carry(effects)
        _ = show()
        return taken
    }

    func checked(_ report: PairingReport, now: Int64) {
        carry(rule.checked(code: report.code, until: report.until, now: now))
        _ = show()
    }

    /// Each turn: the keyboard's and the code's time, and `mode` (it shows over ready or closed
    /// only); whether the screen must be drawn again.
    func look(at now: Int64, mode: Mode) -> Bool {
        carry(rule.look(at: now, mayShow: Self.mayShow(over: mode)))
        return show()
    }

    /// Pairing covers ready and the closed booth's screen, never a guest's take, countdown or review.
    static func mayShow(over mode: Mode) -> Bool { mode == .ready || mode == .closed }

    /// The screen told what the rule shows now, if that changed; whether it did.
    private func show() -> Bool {
        let view = rule.view
        guard view != shown else { return false }
        shown = view
        screen.showPairing(view)
        return true
    }

    private func carry(_ effects: [PairingEffect]) {
        let (passwordFile, codeFile, inbox) = (passwordFile, codeFile, inbox)
        for effect in effects {
            switch effect {
            case let .check(password, until):
                queue.async {
                    var code: String?
                    let stored = StoredPassword(file: passwordFile)
                    if !stored.isSet {
                        Log.info("pairing: no console password in \(passwordFile) (kiosk-recorder console password sets it): nothing typed can match")
                    }
                    if stored.matches(password) {
                        do throws(SystemError) {
                            let made = try PairingFile.newCode()
                            if let failure = PairingFile.write(PairingTicket(code: made, until: until), to: codeFile) {
                                Log.info("pairing: no code for the console: \(failure)")
                            } else {
                                code = made
                            }
                        } catch {
                            Log.info("pairing: no code for the console: \(error)")
                        }
                    }
                    inbox.post(.pairing(PairingReport(code: code, until: until)))
                }
            case .withdraw:
                queue.async { PairingFile.remove(codeFile) }
            case let .log(line):
                Log.info(line)
            }
        }
    }
}
