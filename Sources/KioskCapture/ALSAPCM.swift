// Owns one ALSA PCM handle (`snd_pcm_t`), closed with the object.
import CALSA

/// An open ALSA PCM.
public final class ALSAPCM {
    public enum Direction: Sendable { case capture, playback }

    public let name: String
    let handle: OpaquePointer

    /// Opens the PCM with `snd_pcm_open` (blocking mode).
    public init(name: String, direction: Direction) throws(ALSAError) {
        var pcm: OpaquePointer?
        let stream = direction == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK
        let result = snd_pcm_open(&pcm, name, stream, 0)
        guard result >= 0, let pcm else { throw ALSAError(code: result, call: "snd_pcm_open(\(name))") }
        self.name = name
        self.handle = pcm
    }

    deinit { snd_pcm_close(handle) }

    /// The PCM's type as ALSA names it (`snd_pcm_type_name`), e.g. "NULL", "HW", "FILE".
    public var typeName: String { String(cString: snd_pcm_type_name(snd_pcm_type(handle))) }
}
