// The review's seeking in KioskCore: the machine's seek and pause, the commands, the progress bar's
// touch geometry (`--loop` and `--fit` are KioskOptionsTests' FamilyOptionsTests).
import Testing
@testable import KioskCore

@Suite("Seeking and the player's options")
struct SeekTests {
    /// The booth playing a 3.2 s take.
    func playing() -> RecorderMachine {
        var m = Fixture.playing.make()
        _ = m.handle(.playbackProgress(position: 0.4, duration: 3.2))
        return m
    }

    @Test("seek goes to the position, clamped to the take, and keeps a pause; the position shows at once")
    func seekInPlaying() {
        var m = playing()
        #expect(m.handle(.seek(position: 2)) == [.seekPlayback(to: 2)])
        #expect(m.viewModel.timer == "00:02 / 00:03" && m.viewModel.progress == 2 / 3.2)
        #expect(m.handle(.seek(position: 99)) == [.seekPlayback(to: 3.2)])
        #expect(m.handle(.seek(position: -4)) == [.seekPlayback(to: 0)])
        #expect(m.handle(.togglePause) == [.setPlaybackPaused(true)])
        #expect(m.handle(.seek(position: 1)) == [.seekPlayback(to: 1)])
        #expect(m.playbackPaused, "a seek while paused stays paused (its picture shows)")
    }

    @Test("pause and resume are explicit: a second pause does nothing; resume after a tap's pause")
    func pauseCommand() {
        var m = playing()
        #expect(m.handle(.pause(true)) == [.setPlaybackPaused(true)])
        #expect(m.handle(.pause(true)) == [])
        #expect(m.handle(.togglePause) == [.setPlaybackPaused(false)])
        #expect(m.handle(.pause(false)) == [])
        #expect(m.handle(.pause(true)) == [.setPlaybackPaused(true)])
        #expect(m.handle(.pause(false)) == [.setPlaybackPaused(false)])
    }

    @Test("the player alone takes seek and pause; on its way out it refuses them")
    func playerAlone() {
        var m = RecorderMachine(playing: "/tmp/x.mov", orientation: .landscapeRight)
        _ = m.start()
        _ = m.handle(.playbackProgress(position: 0, duration: 10))
        #expect(m.handle(.seek(position: 7.5)) == [.seekPlayback(to: 7.5)])
        #expect(m.handle(.pause(true)) == [.setPlaybackPaused(true)])
        _ = m.handle(.quit)
        #expect(m.handle(.seek(position: 1)) == [])
    }

    @Test("the commands: seek with a position, pause with or without paused; bad ones named")
    func commands() throws {
        let parser = CommandParser()
        #expect(try parser.parse(line: #"{"command":"seek","position":12.5}"#).get() == .seek(position: 12.5))
        #expect(try parser.parse(line: #"{"command":"pause"}"#).get() == .pause(true))
        #expect(try parser.parse(line: #"{"command":"pause","paused":false}"#).get() == .pause(false))
        for bad in [#"{"command":"seek"}"#, #"{"command":"seek","position":-1}"#, #"{"command":"seek","position":"x"}"#] {
            guard case let .failure(error) = parser.parse(line: bad) else { Issue.record("\(bad) parsed"); continue }
            #expect(error.code == .badCommand, "\(bad)")
        }
        #expect(Command.names.contains("seek") && Command.names.contains("pause"))
    }

    @Test("the progress bar takes touches along it, 44 px tall, 0 at its start and 1 at its end; not on Close",
          arguments: [Size(width: 800, height: 480), Size(width: 480, height: 800), Size(width: 352, height: 288), Size(width: 1920, height: 1080)])
    func progressTouches(canvas: Size) {
        let layout = Layout(canvas: canvas)
        let bar = layout.progressBar
        let y = bar.center.y
        #expect(layout.progressFraction(at: Point(x: Double(bar.x), y: y)) == 0)
        #expect(layout.progressFraction(at: Point(x: Double(bar.maxX), y: y)) == 1)
        #expect(abs((layout.progressFraction(at: bar.center) ?? -1) - 0.5) < 0.01)
        #expect(layout.progressHitFrame.height >= Layout.minimumTouch)
        #expect(layout.progressFraction(at: Point(x: bar.center.x, y: y - Double(Layout.minimumTouch))) == nil)
        #expect(layout.progressFraction(at: layout.leftButton.center) == nil)
        #expect(!layout.progressHitFrame.intersects(layout.hitFrame(of: .closePlayer)))
    }


    @Test("aspect-cover covers the area, centred, cropping two sides")
    func cover() {
        let area = Rect(x: 0, y: 0, width: 800, height: 480)
        #expect(Scaling.aspectCover(content: Size(width: 320, height: 240), in: area) == Rect(x: 0, y: -60, width: 800, height: 600))
        #expect(Scaling.aspectCover(content: Size(width: 320, height: 240), in: area, quarterTurns: 1) == Rect(x: 0, y: -293, width: 800, height: 1067))
        #expect(Scaling.aspectCover(content: Size(width: 1600, height: 480), in: area) == Rect(x: -400, y: 0, width: 1600, height: 480))
    }
}
