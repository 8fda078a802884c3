// `--play FILE`: the built-in player alone, with the playing mode's overlay (Close, progress bar,
// position / duration). Tap or Space pauses, Close or Esc stops. Exit 0 at the end or on Close,
// 1 with an `error` event for a file it cannot play.
import Foundation
import KioskCapture
import KioskCore
import KioskMedia
import KioskSystem
import KioskUI
import Synchronization

enum PlayCommand {
    static func run(file: String, screen: Screen) -> Int32 {
        let events = EventSink()
        let signalled = watchSignals()
        events.emit(.playbackStarted(path: file))
        let playback = Playback(path: file, screen: screen)
        var paused = false, hidden = false, pausedNow = false
        var controls = ControlsVisibility(now: MonotonicClock.now())
        var last: ViewModel?
        var position = 0.0, duration = 0.0
        func finish(_ reason: PlaybackEndReason) {
            playback.stop()
            events.emit(.playbackFinished(reason: reason))
        }
        while true {
            let now = MonotonicClock.now()
            for input in screen.pollEvents(visible: controls.pressable([.closePlayer], at: now, paused: paused)) {
                controls.touched(at: now)
                switch input {
                case .press(.closePlayer), .quit:
                    finish(.closed)
                    return 0
                case .tapElsewhere, .togglePause:
                    paused.toggle()
                case .background:
                    // Minimised or hidden: it waits (SDL also sends a hide and a show while the
                    // window first opens, so this must undo itself).
                    hidden = true
                case .foreground:
                    hidden = false
                case .press, .displayOrientation:
                    break
                }
            }
            if (paused || hidden) != pausedNow {
                pausedNow = paused || hidden
                playback.setPaused(pausedNow)
            }
            if signalled.isRaised {
                finish(.closed)
                return 0
            }
            let step = playback.step()
            position = step.position
            duration = step.duration
            if let end = step.ended {
                switch end {
                case .end:
                    finish(.end)
                    return 0
                case let .error(message):
                    events.emit(.error(code: .playbackFailed, message: message))
                    finish(.error)
                    return 1
                }
            }
            let shown = controls.visible(at: MonotonicClock.now(), paused: paused)
            let model: ViewModel? = shown ? ViewModel.playback(position: position, duration: duration, paused: paused) : nil
            if step.newPicture || model != last {
                do { try screen.render(model) } catch { Log.info("screen: \(error)") }
                last = model
                playback.presented()
            }
            // Sleep until the next picture is due, but look at input at least every 10 ms.
            let wait = min(playback.nextPictureDue ?? 10_000_000, 10_000_000)
            if wait > 500_000 { MonotonicClock.sleep(until: MonotonicClock.now() + wait) }
        }
    }

    /// The signals that end the playback like Close (exit 0 with `playbackFinished`).
    static let endingSignals = [SIGTERM, SIGINT, SIGHUP]

    /// Blocks the ending signals in this thread and every thread started after it (call first
    /// thing in main, as the booth does), so that only the sigwait thread takes them.
    static func blockSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in endingSignals { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Raised by the sigwait thread, read by the loop.
    final class SignalFlag: Sendable {
        private let number = Atomic<Int32>(0)
        func raise(_ signal: Int32) { number.store(signal, ordering: .relaxed) }
        var isRaised: Bool { number.load(ordering: .relaxed) != 0 }
    }

    private static func watchSignals() -> SignalFlag {
        let flag = SignalFlag()
        let thread = Thread {
            var set = sigset_t()
            sigemptyset(&set)
            for number in endingSignals { sigaddset(&set, number) }
            var number: Int32 = 0
            while sigwait(&set, &number) != 0 {}
            flag.raise(number)
        }
        thread.name = "kiosk-signals"
        thread.start()
        return flag
    }
}
