// A photo's share screen (issue 34 with --share-dir): its QR code shows only from ready, its Done and
// its time up go back to ready (a photo is no outcome: a once session goes on), and mid-take the
// machine leaves the take alone.
import Testing
import KioskContract
@testable import KioskCore

@Suite("RecorderMachine: a photo's share screen")
struct PhotoShareMachineTests {
    static let photoLink = ShareLink(url: "http://10.42.0.1/s/photo/", token: "photo", folder: "/srv/share/photo", photo: "/takes/photo-1.jpg")

    @Test("in ready a photo's link shows its share screen (photo captions, Done), the camera stopped; Done and the time up go back to ready, the camera with it, in a once session too",
          arguments: [SessionMode.once, .loop])
    func inReady(session: SessionMode) {
        var m = Fixture.ready.make(session: session)
        #expect(m.photoShareAllowed)
        #expect(m.handle(.takeShared(Self.photoLink)) == [.startShareClock, .stopCamera])
        #expect(m.mode == .sharing && m.visibleButtons == [.done])
        #expect(m.viewModel.share == ShareScreen(url: Self.photoLink.url, photo: true))
        #expect(!m.photoShareAllowed)
        var done = m
        #expect(done.handle(.press(.done)) == [.startCamera] && done.mode == .ready && !done.exiting)
        #expect(m.handle(.shareTimedOut) == [.startCamera] && m.mode == .ready && !m.exiting)
    }

    @Test("mid-take, in the review, on a take's share screen and on the way out a photo's link changes nothing (the booth keeps it for ready)",
          arguments: [Fixture.countdown, .recording, .stopping, .finished, .playing, .sharingPending, .sharing, .libraryGrid])
    func elsewhere(fixture: Fixture) {
        var m = fixture.make(session: .loop)
        let before = m
        #expect(!m.photoShareAllowed)
        #expect(m.handle(.takeShared(Self.photoLink)) == [])
        #expect(m == before, "\(fixture)")
        var leaving = Fixture.ready.make(session: .loop)
        _ = leaving.handle(.quit)
        #expect(!leaving.photoShareAllowed && leaving.handle(.takeShared(Self.photoLink)) == [])
    }

    @Test("a take's share screen then the photo's: the take's Done in a loop session is ready, where the photo's link shows; its Done is ready again")
    func afterTheTake() {
        var m = Fixture.sharing.make(session: .loop)
        #expect(m.viewModel.share == ShareScreen(url: sharedLink.url))
        _ = m.handle(.press(.done))
        #expect(m.photoShareAllowed)
        _ = m.handle(.takeShared(Self.photoLink))
        #expect(m.mode == .sharing && m.viewModel.share?.photo == true)
        _ = m.handle(.press(.done))
        #expect(m.mode == .ready)
    }
}
