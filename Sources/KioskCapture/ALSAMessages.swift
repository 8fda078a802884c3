// alsa-lib's own error lines, caught instead of written raw to stderr: a microphone that is not
// there made eight `ALSA lib …` lines before ours. While a PCM opens, what ALSA says is collected
// and goes into that open's one error (or one log line when the open succeeds anyway); what it says
// at any other time (SDL's sound output is ALSA too) is one log line of ours each, marked as ALSA's.
import CALSA
import Glibc
import KioskCore
import KioskSystem

enum ALSAMessages {
    /// What each thread opening a PCM has heard so far, kept for its error: by thread, so that two
    /// opens at once (two microphones, or tests side by side) each keep their own words.
    private static let collecting = Locked([pthread_t: [String]]())

    /// Sets the handler, once for the process.
    static let installed: Void = {
        kiosk_alsa_capture_errors { function, message in
            let text = (function.map { String(cString: $0) }.map { $0.isEmpty ? "" : "\($0): " } ?? "")
                + (message.map { String(cString: $0) } ?? "")
            ALSAMessages.heard(text)
        }
    }()

    private static func heard(_ text: String) {
        let kept = collecting.withLock { c -> Bool in
            guard var said = c[pthread_self()] else { return false }
            // At most 8 distinct messages: an open that fails says the same thing several times.
            if said.count < 8 && !said.contains(text) { said.append(text) }
            c[pthread_self()] = said
            return true
        }
        if !kept { Log.info("ALSA: \(text)") }
    }

    /// Runs `open` collecting what ALSA says meanwhile on this thread; returns its result and
    /// the distinct messages, in order.
    static func collected<T, E: Error>(_ open: () throws(E) -> T) -> (Result<T, E>, [String]) {
        _ = installed
        collecting.withLock { $0[pthread_self()] = [] }
        let result = Result { () throws(E) in try open() }
        let said = collecting.withLock { $0.removeValue(forKey: pthread_self()) ?? [] }
        return (result, said)
    }
}
