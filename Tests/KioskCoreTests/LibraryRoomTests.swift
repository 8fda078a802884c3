// The library's room (LibraryRoom) as a table, and the machine's library flows (`--library`).
import Testing
@testable import KioskCore
import KioskContract

@Suite("LibraryRoom and the machine's library")
struct LibraryRoomTests {
    @Test("the room's buttons and decisions, grid and review, once and loop",
          arguments: [
            // (picked, session, button, decision, picked after)
            (false, SessionMode.once, Button.back, LibraryRoom.Decision.leave, false),
            (false, .loop, .back, .leave, false),
            (true, .once, .back, .stay, false),
            (true, .loop, .back, .stay, false),
            (true, .once, .playVideo, .play(libraryEntries[0]), true),
            (true, .loop, .playVideo, .play(libraryEntries[0]), true),
            (true, .once, .useVideo, .use(libraryEntries[0]), true),
            (true, .loop, .useVideo, .refuse("'useVideo' is not on screen in the library"), true),
            (false, .once, .playVideo, .refuse("'playVideo' is not on screen in the library"), false),
          ])
    func decisions(picked: Bool, session: SessionMode, button: Button, decision: LibraryRoom.Decision, pickedAfter: Bool) {
        var room = LibraryRoom(entries: libraryEntries, picked: picked ? libraryEntries[0] : nil)
        #expect(room.buttons(session: session) == (picked ? (session == .once ? [.back, .useVideo, .playVideo] : [.back, .playVideo]) : [.back]))
        #expect(room.press(button, session: session) == decision)
        #expect((room.picked != nil) == pickedAfter)
    }

    @Test("pick: a listed path opens its review; an unknown one, one while listing, or a second pick is refused")
    func pick() {
        var listing = LibraryRoom()
        #expect(listing.pick("/takes/take-1.mov") == .refuse("pick: '/takes/take-1.mov' is not in the library"))
        var room = LibraryRoom(entries: libraryEntries)
        #expect(room.pick("/elsewhere/x.mov") == .refuse("pick: '/elsewhere/x.mov' is not in the library"))
        #expect(room.picked == nil)
        #expect(room.pick(libraryEntries[1].path) == .stay)
        #expect(room.picked == libraryEntries[1])
        #expect(room.pick(libraryEntries[0].path) == .refuse("pick: a take's review is open (Back first)"))
    }

    @Test("ready shows Library only with --library; openLibrary lists on the file worker and stops the camera; state lists nothing until listed")
    func openLibrary() {
        var plain = Fixture.ready.make()
        #expect(!plain.visibleButtons.contains(.openLibrary))
        #expect(plain.handle(.press(.openLibrary)) == [notAllowed(.openLibrary, .ready, [.cancel, .start])])
        var m = Fixture.ready.make()
        m.library = true
        #expect(m.visibleButtons == [.cancel, .start, .openLibrary])
        #expect(m.handle(.press(.openLibrary)) == [.listLibrary, .stopCamera])
        #expect(m.mode == .library)
        #expect(m.handle(.stateQuery) == [.emit(.state(mode: "library", timer: "00:00", buttons: [.back], orientation: .landscapeRight, library: []))])
        #expect(m.handle(.pick(path: libraryEntries[0].path)) == [.emit(.error(code: .badCommand, message: "pick: '/takes/take-2.mov' is not in the library"))])
        #expect(m.handle(.libraryListed(libraryEntries)) == [])
        #expect(m.viewModel.library == LibraryRoom(entries: libraryEntries))
        // A second listing (a stale one) changes nothing.
        #expect(m.handle(.libraryListed([])) == [])
        #expect(m.viewModel.library?.entries == libraryEntries)
    }

    @Test("a picked take plays; its end and Close return to its review, not to finished; Back, Back returns to ready")
    func playAndBack() {
        var m = Fixture.libraryReview.make()
        _ = m.handle(.press(.playVideo))
        #expect(m.mode == .playing && m.playbackDuration == 4.2)
        #expect(m.handle(.playbackEnded(.end)) == [.emit(.playbackFinished(reason: .end))])
        #expect(m.state == .library(LibraryRoom(entries: libraryEntries, picked: libraryEntries[1])))
        _ = m.handle(.press(.playVideo))
        #expect(m.handle(.press(.closePlayer)) == [.stopPlayback, .emit(.playbackFinished(reason: .closed))])
        #expect(m.mode == .library && m.visibleButtons == [.back, .useVideo, .playVideo])
        #expect(m.handle(.press(.back)) == [])
        #expect(m.visibleButtons == [.back])
        #expect(m.handle(.press(.back)) == [.releaseLibrary, .startCamera])
        #expect(m.mode == .ready)
    }

    @Test("in a loop session a picked take only plays: no Use Video, and the session goes on")
    func loopOnlyPlays() {
        var m = Fixture.libraryReview.make(session: .loop)
        #expect(m.visibleButtons == [.back, .playVideo])
        #expect(m.handle(.press(.useVideo)) == [notAllowed(.useVideo, .library, [.back, .playVideo])])
        #expect(!m.exiting)
    }

    @Test("idle: an untouched library, and a paused take from it, return to ready with no outcome")
    func idle() {
        var m = Fixture.libraryReview.make()
        _ = m.handle(.press(.playVideo))
        _ = m.handle(.pause(true))
        #expect(m.handle(.idleReset(.use)) == [.stopPlayback, .emit(.playbackFinished(reason: .closed)), .releaseLibrary, .startCamera])
        #expect(m.mode == .ready && !m.exiting)
        var rule = IdleRule(timeout: 30, now: 0)
        let looks = [0, 29_000_000_000, 30_000_000_000].map { rule.isDue(mode: .library, paused: false, playerAlone: false, at: $0) }
        #expect(looks == [false, false, true])
    }

    @Test("the Library button: at the top left, a touch tall, clear of the timer's middle and of the bottom panel's buttons",
          arguments: [Size(width: 640, height: 480), Size(width: 480, height: 640), Size(width: 1920, height: 1080), Size(width: 352, height: 288)])
    func libraryButtonPlace(canvas: Size) {
        let layout = Layout(canvas: canvas)
        let frame = layout.frame(of: .openLibrary)
        #expect(frame.height >= Layout.minimumTouch && frame.width >= Layout.minimumTouch, "\(frame)")
        #expect(frame.x >= 0 && frame.maxX <= canvas.width / 3, "\(frame)")
        #expect(frame.maxY + Layout.buttonGap <= layout.bottomPanel.y, "\(frame)")
    }
}
