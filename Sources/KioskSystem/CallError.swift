// The one shape of a C library's error: the raw code a call returned and the call. Each library
// names its own type (`ALSAError`, `V4L2Error`, `AVError`) and says how its codes read.
import Glibc

/// How one C library turns a code into words (snd_strerror, strerror with a hint, av_strerror).
public protocol CallErrorText: Sendable {
    static func describe(code: Int32, call: String) -> String
}

/// An error a C library's call returned: the raw code and the call, e.g. `snd_pcm_open(default)`.
public struct CallError<Library: CallErrorText>: Error, Equatable, CustomStringConvertible, Sendable {
    /// The code as the library gives it (a negative ALSA or AVERROR code, or an errno).
    public let code: Int32
    /// The call that failed.
    public let call: String

    public init(code: Int32, call: String) {
        self.code = code
        self.call = call
    }

    public var description: String { Library.describe(code: code, call: call) }
}
