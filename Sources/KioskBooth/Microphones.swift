// The microphone, carried out on its monitor worker: the launch's look at it, and the listening
// microphone (for the meter) started and stopped as the core says (whether it listens, silence in a
// take and what `ready` names are the core's: MicrophoneRule).
import KioskCapture
import KioskCore
import KioskSystem

extension BoothWorkers {
    /// The launch's look at the microphone `choice`: opened and closed again, so `ready` can say
    /// which one the takes will have, or that none opened and why (`microphoneTried` to `inbox`).
    func lookAtMicrophone(_ choice: MicrophoneChoice, make: @escaping @Sendable (MicrophoneChoice) -> (any AudioSource)?, inbox: Inbox) {
        microphoneMonitor.async {
            var (name, failure): (String?, String?) = (nil, nil)
            if let source = make(choice) {
                do {
                    try source.start(chunks: { _ in }, events: { _ in })
                    name = source.info.name
                    source.stop()
                } catch {
                    Log.info("microphone at launch: \(error)")
                    failure = "\(error)"
                }
            }
            inbox.post(.input(.microphoneTried(name: name, failure: failure)))
        }
    }

    /// The core's `.listen`: the listening microphone `choice` (for the meter) started or stopped.
    func listen(_ wanted: Bool, _ choice: MicrophoneChoice, make: @escaping @Sendable (MicrophoneChoice) -> (any AudioSource)?) {
        let (slot, meter) = (listening, meter)
        microphoneMonitor.async {
            guard wanted else {
                slot.take()?.stop()
                meter.reset()
                return
            }
            guard let source = make(choice) else { return }
            do {
                try source.start(chunks: { meter.feed($0) }, events: { _ in })
                slot.set(source)
            } catch {
                Log.info("microphone (listening for the meter): \(error)")
            }
        }
    }
}
