// The microphone's rules the loop looks at every turn: the launch's look at it, the listening
// microphone (for the meter) and silence (SilenceWatch). (Idle reset, the attract screen and the
// other clocks are BoothCore's; the `--on-take` hooks are Booth+Hooks'.)
import FoundationEssentials
import KioskCore
import KioskSystem

extension Booth {
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
        // Just after the whole process stood still nothing could be heard, or said: not silence.
        if ProcessStalls.shared.inAftermath(at: now) { return }
        if microphone.silence.heard(lastSound: meter.lastSound, at: now) {
            events.emit(.microphoneSilent)
            Log.info("microphone: no sound for 3 s")
        }
    }
}
