// The photo's rules (issue 34): where the shutter shows and what a press of it does in every mode
// (an action, never a change of mode); `--photo-button` / `--photo-template` as options are
// KioskOptionsTests' FamilyOptionsTests.
import Testing
@testable import KioskCore

@Suite("Photo rules")
struct PhotoRuleTests {
    /// The fixture's machine with `--photo-button`.
    func withShutter(_ fixture: Fixture) -> RecorderMachine {
        var m = fixture.make()
        m.photoButton = true
        return m
    }

    @Test("with --photo-button the shutter shows beside Start in ready and beside Stop in a confirmed take, nowhere else",
          arguments: Fixture.allCases)
    func visible(fixture: Fixture) {
        let m = withShutter(fixture)
        let shows = fixture == .ready || fixture == .recording
        #expect(m.visibleButtons.contains(.photo) == shows, "\(fixture): \(m.visibleButtons)")
        #expect(!fixture.make().visibleButtons.contains(.photo), "\(fixture) without --photo-button")
        if fixture == .ready { #expect(m.visibleButtons == [.cancel, .start, .photo]) }
        if fixture == .recording { #expect(m.visibleButtons == [.stop, .photo]) }
    }

    @Test("a press of the shutter takes a photo for the orientation in force and changes nothing else; where it is not shown it is refused",
          arguments: Fixture.allCases)
    func press(fixture: Fixture) {
        var m = withShutter(fixture)
        let before = m
        let actions = m.handle(.press(.photo))
        if fixture == .ready || fixture == .recording {
            #expect(actions == [.takePhoto(orientation: .landscapeRight)], "\(fixture)")
        } else {
            #expect(actions.count == 1, "\(fixture): \(actions)")
            if case let .emit(.error(code, _)) = actions.first { #expect(code == .notAllowed) } else { Issue.record("\(fixture): \(actions)") }
        }
        #expect(m == before, "\(fixture): a photo is not a change of mode")
    }

    @Test("a portrait booth's photo is taken for portrait; a lost camera hides the shutter")
    func portraitAndLostCamera() {
        var m = RecorderMachine(session: .once, outputPath: out, orientation: .portrait)
        m.photoButton = true
        _ = m.start()
        #expect(m.handle(.press(.photo)) == [.takePhoto(orientation: .portrait)])
        _ = m.handle(.press(.start))
        _ = m.handle(.recordingStarted(outputPath: out))
        #expect(m.handle(.press(.photo)) == [.takePhoto(orientation: .portrait)])
        _ = m.handle(.cameraLost)
        #expect(!m.visibleButtons.contains(.photo))
    }

}
