// The operator's door on the embedded booth (twins of its devices, its loop on a virtual clock):
// closeBooth mid-take stops the writer as for the background, the take is finished before the booth
// closes, the screen shows the back-soon words alone and the camera rests; guests are refused; idle
// and attract time, SIGUSR2 and SIGHUP leave it closed; openBooth brings the camera and ready back.
import Foundation
import KioskBooth
import KioskContract
import KioskCore
import KioskScreenText
import Testing

@Suite("the embedded booth: closed by its operator", .serialized)
struct ClosedBoothEmbeddedTests {
    static func decoded(_ h: BoothHarness) -> [KioskEvent] { VirtualTimeTests.decoded(h) }

    @Test("closeBooth mid-take: the writer stops (background), recordingFinished then boothClosed; back soon on a screen without buttons, the camera resting; start refused; 10 virtual minutes, SIGUSR2 and SIGHUP leave it closed; openBooth: the camera, ready, a take again")
    func closedMidTake() throws {
        let clock = VirtualClock()
        let h = BoothHarness(session: .loop, configFile: "idle-timeout = 30\nattract-after = 10\n", clock: clock)
        #expect(h.startTake())
        let writer = try #require(h.writer)
        writer.finishesOnStop.withLock { $0 = false }
        h.send(.closeBooth)
        #expect(h.step(until: { writer.stops == [.background] }))
        for _ in 0..<10 { h.turn() }
        #expect(!h.events.names.contains("boothClosed"), "not before the take is finished: \(h.events.names)")
        writer.finish(.background)
        #expect(h.step(until: { h.events.names.contains("boothClosed") }), "\(h.events.names)")
        let names = h.events.names
        #expect(names.firstIndex(of: "recordingFinished")! < names.firstIndex(of: "boothClosed")!, "\(names)")
        guard case let .recordingFinished(result)? = Self.decoded(h).first(where: { $0.name == "recordingFinished" }) else {
            Issue.record("no recordingFinished"); return
        }
        #expect(result.reason == .background && result.success)
        #expect(h.step(until: { h.screen.rendered.last??.mode == .closed }))
        let shown = try #require(h.screen.rendered.last ?? nil)
        #expect(shown.buttons == [] && shown.message == .backSoon && shown.attract == nil, "\(shown)")
        #expect(h.step(until: { h.camera.stops == 1 }), "the camera rests while closed")
        // A guest's Start: refused, nothing opens.
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.last == "error" }))
        guard case let .error(code, _)? = Self.decoded(h).last else { Issue.record("no error"); return }
        #expect(code == .notAllowed)
        // Ten virtual minutes (past idle reset and the attract screen), the foreground, a reload.
        for _ in 0..<20 {
            clock.advance(seconds: 30)
            for _ in 0..<3 { h.turn() }
        }
        h.booth.inbox.post(.signal(SIGUSR2))
        h.configText.withLock { $0 = "idle-timeout = 30\nattract-after = 10\nlabel.back-soon = Back at three\n" }
        h.booth.inbox.post(.signal(SIGHUP))
        #expect(h.step(until: { h.screen.words[.backSoon] == "Back at three" }), "the reload is in force while closed")
        for _ in 0..<10 { h.turn() }
        #expect(h.booth.machine.mode == .closed && h.screen.rendered.last??.mode == .closed)
        #expect(h.camera.starts == 1 && h.writerCount == 1, "no camera, no take while closed")
        #expect(!h.events.names.contains("idleReset") && !h.events.names.contains("boothOpened"), "\(h.events.names)")
        // Open again: the camera, ready, a take.
        h.send(.openBooth)
        #expect(h.step(until: { h.events.names.contains("boothOpened") && h.camera.starts == 2 }), "\(h.events.names)")
        #expect(h.step(until: { h.screen.rendered.last??.mode == .ready }))
        h.send(.press(.start))
        #expect(h.step(until: { h.events.names.filter { $0 == "recordingStarted" }.count == 2 }), "\(h.events.names)")
    }
}
