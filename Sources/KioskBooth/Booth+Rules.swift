// The rules the loop looks at every turn, each a value that decides (IdleRule, AttractRule,
// SilenceWatch) and this file carries out: idle reset, the attract screen, the listening microphone
// and silence. (The `--on-take` hooks are Booth+Hooks'.)
import Foundation
import KioskCore
import KioskSystem

extension Booth {
    /// Idle reset: the finished screen (or a paused review) untouched for `--idle-timeout` is used
    /// or discarded as if the guest had tapped, so the next guest never sees the previous take.
    func checkIdle() {
        guard jobs.exitCode == nil else { return }
        clocks.idle.timeout = config.guest.idleTimeout
        guard clocks.idle.isDue(mode: machine.mode, paused: machine.playbackPaused, playerAlone: machine.playerFile != nil,
                                at: MonotonicClock.now()) else { return }
        Log.info("idle for \(config.guest.idleTimeout) s: the take is reset (idle-action \(config.guest.idleAction.rawValue))")
        perform(machine.handle(.idleReset(config.guest.idleAction)))
        needsDraw = true
    }

    /// The attract screen comes after `--attract-after` in ready without a touch; any other mode
    /// (and a reload turning it off) ends it.
    func checkAttract() {
        clocks.attract.after = config.guest.attractAfter
        guard clocks.attract.look(eligible: machine.mode == .ready && !machine.exiting && machine.playerFile == nil,
                                  at: MonotonicClock.now()) else { return }
        needsDraw = true
        if attracting { Log.info("attract screen: \(config.guest.attractAfter) s without a touch") }
    }

    /// Restarts the attract clock; if the attract screen shows, ends it and says whether the input
    /// that woke it is spent (`swallow`: a touch, which must not also press what is under it).
    func wakeFromAttract(_ swallow: Bool) -> Bool {
        guard clocks.attract.touched(at: MonotonicClock.now()) else { return false }
        endSlideshow()
        needsDraw = true
        return swallow
    }

    /// The launch's look at the microphone (on its worker): opened and closed again, so `ready` can
    /// say which one the takes will have, or that none opened and why.
    func lookAtMicrophone() {
        let (inbox, make, choice) = (inbox, parts.makeMicrophone, config.capture.microphone)
        shared.microphoneMonitor.async {
            guard let source = make(choice) else {
                inbox.post(.microphoneTried(name: nil, failure: nil))
                return
            }
            do {
                try source.start(chunks: { _ in }, events: { _ in })
                let name = source.info.name
                source.stop()
                inbox.post(.microphoneTried(name: name, failure: nil))
            } catch {
                Log.info("microphone at launch: \(error)")
                inbox.post(.microphoneTried(name: nil, failure: "\(error)"))
            }
        }
    }

    /// The listening microphone (for the meter) runs in ready and the countdown while the camera
    /// runs, never while a take opens or records (the take's own microphone feeds the meter then).
    /// While recording, 3 s under −60 dBFS is `microphoneSilent`, once until sound comes back.
    func updateMicrophone() {
        let mode = machine.mode
        let wanted = parts.monitorsMicrophone && config.capture.microphone != .none && machine.cameraRunning
            && (mode == .ready || mode == .countdown) && takes.current == nil && !takes.opening && !machine.exiting
        if wanted != microphone.listeningWanted {
            microphone.listeningWanted = wanted
            let (slot, meter, make, choice) = (shared.listening, meter, parts.makeMicrophone, config.capture.microphone)
            if wanted {
                shared.microphoneMonitor.async {
                    guard let source = make(choice) else { return }
                    do {
                        try source.start(chunks: { meter.feed($0) }, events: { _ in })
                        slot.set(source)
                    } catch {
                        Log.info("microphone (listening for the meter): \(error)")
                    }
                }
            } else {
                shared.microphoneMonitor.async {
                    slot.take()?.stop()
                    meter.reset()
                }
            }
        }
        guard mode == .recording, config.capture.microphone != .none, takes.current != nil else {
            microphone.silence.reset()
            return
        }
        let now = MonotonicClock.now()
        // Just after the whole process stood still nothing could be heard, or said: not silence.
        if ProcessStalls.shared.inAftermath(at: now) { return }
        if microphone.silence.heard(lastSound: meter.lastSound, at: now) {
            events.emit(.microphoneSilent)
            Log.info("microphone: no sound for 3 s")
        }
    }
}
