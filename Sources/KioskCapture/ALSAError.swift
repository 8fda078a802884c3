// The one error type for ALSA calls: the negative code, the call and snd_strerror's text.
import CALSA
import KioskSystem

/// ALSA's words for its codes (`snd_strerror`).
public enum ALSACalls: CallErrorText {
    public static func describe(code: Int32, call: String) -> String { "\(call): \(String(cString: snd_strerror(code)))" }
}

/// An error returned by an ALSA `snd_*` call: the negative error code and the call, e.g.
/// `snd_pcm_open(default)`.
public typealias ALSAError = CallError<ALSACalls>
