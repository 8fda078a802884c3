// The one error type for ALSA calls: the negative code, the call and snd_strerror's text.
import CALSA

/// An error returned by an ALSA `snd_*` call.
public struct ALSAError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The negative error code the call returned.
    public let code: Int32
    /// The call that failed, e.g. `snd_pcm_open(default)`.
    public let call: String

    public init(code: Int32, call: String) {
        self.code = code
        self.call = call
    }

    public var description: String { "\(call): \(String(cString: snd_strerror(code)))" }
}
