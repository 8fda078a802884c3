// The microphones ALSA names (`snd_device_name_hint` over the "pcm" interface, as `arecord -L`
// lists them): each PCM that can capture, with its description. For the console's Devices page.
import CALSA
import Glibc

public struct ALSACaptureDevice: Sendable, Equatable, Encodable {
    /// The PCM's name, as `--microphone` takes it (`default`, `plughw:CARD=…,DEV=0`).
    public var name: String
    /// ALSA's description (its lines joined by " · ").
    public var description: String
}

public enum ALSADevices {
    /// Every PCM ALSA's configuration and cards name that is not output only.
    public static func capture() -> [ALSACaptureDevice] {
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) == 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        func field(_ hint: UnsafeMutableRawPointer, _ id: String) -> String? {
            guard let text = snd_device_name_get_hint(hint, id) else { return nil }
            defer { free(text) }
            return String(cString: text)
        }
        var found: [ALSACaptureDevice] = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            // IOID absent: both ways; "Output": playback only.
            guard let name = field(hint, "NAME"), field(hint, "IOID") != "Output", name != "null" else { continue }
            let description = (field(hint, "DESC") ?? "").split(whereSeparator: \.isNewline).joined(separator: " · ")
            found.append(ALSACaptureDevice(name: name, description: description))
        }
        return found
    }
}
