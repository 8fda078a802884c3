// The microphone, carried out: the launch's look at it, and the listening microphone (for the meter)
// started and stopped as the core says (whether it listens, and silence in a take, are the core's
// MicrophoneRule).
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

    /// The core's `.listen`: the listening microphone (for the meter) started or stopped, on its worker.
    func listen(_ wanted: Bool) {
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
}
