// The consent screen's rule (`--consent`): Start (and the shutter) leads to it, its switches start off
// and only offered ones are set, No thanks records nothing, Agree goes on under the choices switched on
// (to the take, or the photo), and a take without the guest's `share` never reaches the share screen.
import Testing
@testable import KioskCore
import KioskContract

@Suite("RecorderMachine: consent (--consent)")
struct ConsentMachineTests {
    func consenting(countdown: Int = 0, shares: Bool = false, choices: [ConsentChoice] = [.share, .film]) -> RecorderMachine {
        var m = RecorderMachine(session: .loop, outputPath: out, orientation: .landscapeRight, countdown: countdown, shares: shares,
                                consent: ConsentOffer(version: consentOffer.version, choices: choices))
        _ = m.start()
        #expect(m.handle(.press(.start)) == [])
        return m
    }

    @Test("Start shows the consent screen with every offered switch off; the countdown waits for Agree")
    func startAsks() {
        var m = consenting(countdown: 3)
        #expect(m.mode == .consent && m.visibleButtons == [.decline, .agree])
        #expect(m.consentSwitches == ConsentSwitches(offered: [.share, .film]))
        #expect(m.consentSwitches?.share == false && m.consentSwitches?.slideshow == nil && m.consentSwitches?.film == false)
        #expect(m.viewModel.consent == m.consentSwitches)
        #expect(m.handle(.countdownTick) == [] && m.mode == .consent)
        #expect(m.handle(.press(.agree)) == [.emit(.countdown(remaining: 3)), .playSound(.tick), .startCountdownClock])
        #expect(m.mode == .countdown && m.takeConsent == Consent(version: consentOffer.version, choices: []))
    }

    /// choice, on, the switches after (nil: refused as not offered)
    static let settings: [(ConsentChoice, Bool, ConsentSwitches?)] = [
        (.film, true, { var s = ConsentSwitches(offered: [.share, .film]); s.film = true; return s }()),
        (.share, false, ConsentSwitches(offered: [.share, .film])),
        (.slideshow, true, nil),
    ]

    @Test("consentChoice sets an offered switch; one not offered is refused and nothing changes", arguments: settings.indices)
    func choices(index: Int) {
        let (choice, on, after) = Self.settings[index]
        var m = consenting()
        let actions = m.handle(.consentChoice(choice, on: on))
        if let after {
            #expect(actions == [] && m.consentSwitches == after)
        } else {
            #expect(actions == [.emit(.error(code: .badCommand, message: "'consentChoice': 'slideshow' is not offered (offered: share, film)"))])
            #expect(m.consentSwitches == ConsentSwitches(offered: [.share, .film]))
        }
    }

    @Test("No thanks: back to ready, nothing recorded; the next Start asks again with every switch off")
    func declineRecordsNothing() {
        var m = consenting()
        _ = m.handle(.consentChoice(.film, on: true))
        #expect(m.handle(.press(.decline)) == [] && m.mode == .ready)
        #expect(m.handle(.press(.start)) == [] && m.consentSwitches == ConsentSwitches(offered: [.share, .film]))
    }

    @Test("the consent screen left untouched for --idle-timeout: No thanks (ready, nothing recorded, no switch kept); the rule counts it idle")
    func idleDeclines() {
        var m = consenting()
        _ = m.handle(.consentChoice(.film, on: true))
        #expect(m.handle(.idleReset(.use)) == [] && m.mode == .ready && m.takeConsent == nil)
        #expect(m.handle(.press(.start)) == [] && m.consentSwitches == ConsentSwitches(offered: [.share, .film]))
        var rule = IdleRule(timeout: 45, now: 0)
        let looks = [0, 44_000_000_000, 45_000_000_000].map { rule.isDue(mode: .consent, paused: false, playerAlone: false, at: $0) }
        #expect(looks == [false, false, true])
    }

    @Test("Agree with only film: the take is made under [film], and Use Video goes on without the share screen")
    func agreeFilmOnly() {
        var m = consenting(shares: true)
        _ = m.handle(.consentChoice(.film, on: true))
        #expect(m.handle(.press(.agree)) == [.discardTake, .startRecording(orientation: .landscapeRight)])
        #expect(m.takeConsent == Consent(version: consentOffer.version, choices: [.film]))
        for event: RecorderEvent in [.recordingStarted(outputPath: out), .press(.stop), .recordingFinished(Fixture.goodTake)] { _ = m.handle(event) }
        #expect(m.handle(.press(.useVideo)) == [.handOverTake(), .startCamera] && m.mode == .ready)
    }

    @Test("Agree with share: Use Video leads to the share screen as without consent")
    func agreeShare() {
        var m = consenting(shares: true)
        _ = m.handle(.consentChoice(.share, on: true))
        _ = m.handle(.press(.agree))
        for event: RecorderEvent in [.recordingStarted(outputPath: out), .press(.stop), .recordingFinished(Fixture.goodTake)] { _ = m.handle(event) }
        #expect(m.handle(.press(.useVideo)) == [.handOverTake(), .shareTake] && m.mode == .sharing)
    }

    /// The shutter with `--consent`: what the machine does, step by step, and where it is after.
    static let shutter: [(steps: [RecorderEvent], actions: [RecorderAction], mode: Mode)] = [
        // In ready the consent screen first, with every switch off; no photo yet.
        ([.press(.photo)], [], .consent),
        // No thanks: ready, no photo.
        ([.press(.photo), .press(.decline)], [], .ready),
        // Agree with film alone: the photo under [film], back in ready (no countdown, no take).
        ([.press(.photo), .consentChoice(.film, on: true), .press(.agree)],
         [.takePhoto(orientation: .landscapeRight, consent: Consent(version: consentOffer.version, choices: [.film]))], .ready),
        ([.press(.photo), .press(.agree)], [.takePhoto(orientation: .landscapeRight, consent: Consent(version: consentOffer.version, choices: []))], .ready),
        // Left untouched for --idle-timeout: as No thanks.
        ([.press(.photo), .idleReset(.use)], [], .ready),
        // Mid-take, the take's guest already agreed: the photo at once, under the take's consent.
        ([.press(.start), .consentChoice(.share, on: true), .press(.agree), .recordingStarted(outputPath: out), .press(.photo)],
         [.takePhoto(orientation: .landscapeRight, consent: Consent(version: consentOffer.version, choices: [.share]))], .recording),
    ]

    @Test("the shutter asks as Start does: the consent screen from ready; No thanks takes nothing; Agree takes the photo (not a video) under the choices on; mid-take it is under the take's consent", arguments: shutter.indices)
    func shutterAsks(index: Int) {
        let (steps, expected, mode) = Self.shutter[index]
        var m = RecorderMachine(session: .loop, outputPath: out, orientation: .landscapeRight, shares: true, consent: consentOffer)
        m.photoButton = true
        _ = m.start()
        var last: [RecorderAction] = []
        for step in steps { last = m.handle(step) }
        #expect(last == expected, "\(steps)")
        #expect(m.mode == mode, "\(steps)")
        if mode == .consent { #expect(m.consentSwitches == ConsentSwitches(offered: [.share, .film]) && m.visibleButtons == [.decline, .agree]) }
        // A photo's Agree leaves no consent behind for the next take: Start asks again.
        if mode == .ready {
            #expect(m.takeConsent == nil)
            #expect(m.handle(.press(.start)) == [] && m.mode == .consent)
        }
    }

    @Test("without --consent the shutter takes the photo at once, under no consent")
    func shutterWithoutConsent() {
        var m = RecorderMachine(session: .loop, outputPath: out, orientation: .landscapeRight)
        m.photoButton = true
        _ = m.start()
        #expect(m.handle(.press(.photo)) == [.takePhoto(orientation: .landscapeRight, consent: nil)] && m.mode == .ready)
    }

    /// consent, choice, allowed
    static let allowed: [([ConsentChoice]?, ConsentChoice, Bool)] = [
        (nil, .share, true), (nil, .film, true), ([], .share, false), ([.film], .film, true), ([.film], .slideshow, false),
        ([.share, .slideshow], .slideshow, true),
    ]

    @Test("what a take's consent allows: everything without --consent, else only what was switched on", arguments: allowed.indices)
    func allows(index: Int) {
        let (consent, choice, allowed) = Self.allowed[index]
        #expect(Consent.allows(consent, choice) == allowed)
    }
}
