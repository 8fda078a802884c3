// The begin and end sounds (like iOS's 1117 / 1118), played through SDL audio. A booth without a
// sound card still records: any failure here is logged once and the sound is skipped.
import CSDL2
import KioskCore

/// An audio output device for queued audio (`SDL_OpenAudioDevice`, closed with `SDL_CloseAudioDevice`),
/// with SDL's audio subsystem held up while it is open.
final class AudioDevice {
    let id: SDL_AudioDeviceID
    /// The format the device really has (SDL may change rate, channels and sample format).
    let spec: SDL_AudioSpec

    init() throws(SDLError) {
        guard SDL_InitSubSystem(UInt32(SDL_INIT_AUDIO)) == 0 else { throw SDLError(call: "SDL_InitSubSystem(SDL_INIT_AUDIO)") }
        var want = SDL_AudioSpec()
        want.freq = 48000
        want.format = SDL_AudioFormat(AUDIO_S16SYS)
        want.channels = 2
        want.samples = 1024
        var have = SDL_AudioSpec()
        // Any rate, channel count or sample format the device prefers: the clips are converted to it
        // once, when they are loaded, rather than by SDL on every callback.
        let changes = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE | SDL_AUDIO_ALLOW_FORMAT_CHANGE)
        let device = SDL_OpenAudioDevice(nil, 0, &want, &have, changes)
        guard device != 0 else {
            let error = SDLError(call: "SDL_OpenAudioDevice")
            SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
            throw error
        }
        id = device
        spec = have
        SDL_PauseAudioDevice(device, 0) // plays silence until something is queued
    }

    deinit {
        SDL_CloseAudioDevice(id)
        SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
    }

    /// A WAV file in this device's format (`SDL_LoadWAV_RW`, converted with an `SDL_AudioStream`).
    func load(wav path: String) throws(SDLError) -> [UInt8] {
        guard let file = SDL_RWFromFile(path, "rb") else { throw SDLError(call: "SDL_RWFromFile(\(path))") }
        var source = SDL_AudioSpec()
        var buffer: UnsafeMutablePointer<UInt8>?
        var length: UInt32 = 0
        guard SDL_LoadWAV_RW(file, 1, &source, &buffer, &length) != nil, let buffer else {
            throw SDLError(call: "SDL_LoadWAV(\(path))")
        }
        defer { SDL_FreeWAV(buffer) }
        guard let stream = SDL_NewAudioStream(source.format, source.channels, source.freq, spec.format, spec.channels, spec.freq)
        else { throw SDLError(call: "SDL_NewAudioStream") }
        defer { SDL_FreeAudioStream(stream) }
        guard SDL_AudioStreamPut(stream, buffer, Int32(length)) == 0, SDL_AudioStreamFlush(stream) == 0 else {
            throw SDLError(call: "SDL_AudioStreamPut")
        }
        var converted = [UInt8](repeating: 0, count: Int(SDL_AudioStreamAvailable(stream)))
        let got = converted.withUnsafeMutableBytes { SDL_AudioStreamGet(stream, $0.baseAddress, Int32($0.count)) }
        guard got >= 0 else { throw SDLError(call: "SDL_AudioStreamGet") }
        return Array(converted.prefix(Int(got)))
    }
}

/// Plays the recorder's sounds. The device opens on the first `play` (or `prepare`), so a run
/// that never records never touches audio. UI thread only, like the rest of SDL.
public final class SoundPlayer {
    private let paths: [Sound: String]
    private var device: AudioDevice?
    private var clips: [Sound: [UInt8]] = [:]
    /// Opening failed once: no more tries, no more log lines.
    private var deviceFailed = false
    private var clipFailed: Set<Sound> = []

    public init(begin: String, end: String) {
        paths = [.begin: begin, .end: end]
    }

    public convenience init(assets: Assets) {
        self.init(begin: assets.sound(.begin), end: assets.sound(.end))
    }

    /// Opens the device and loads both sounds now, so the first one plays without delay.
    public func prepare() {
        for sound in [Sound.begin, .end] { _ = clip(sound) }
    }

    /// Plays a sound at once (`SDL_QueueAudio`), cutting off one still playing.
    public func play(_ sound: Sound) {
        guard let device = openDevice(), let clip = clip(sound) else { return }
        SDL_ClearQueuedAudio(device.id)
        guard clip.withUnsafeBytes({ SDL_QueueAudio(device.id, $0.baseAddress, UInt32($0.count)) }) == 0 else {
            Log.info("sound '\(sound.rawValue)' not played: \(SDLError(call: "SDL_QueueAudio"))")
            return
        }
    }

    /// Bytes queued and not yet played (`SDL_GetQueuedAudioSize`): 0 when idle or without a device.
    public var queuedBytes: Int { device.map { Int(SDL_GetQueuedAudioSize($0.id)) } ?? 0 }

    private func openDevice() -> AudioDevice? {
        if let device { return device }
        guard !deviceFailed else { return nil }
        do {
            device = try AudioDevice()
        } catch {
            deviceFailed = true
            Log.info("no sounds: \(error) (SDL_AUDIODRIVER picks the audio driver)")
        }
        return device
    }

    private func clip(_ sound: Sound) -> [UInt8]? {
        if let clip = clips[sound] { return clip }
        guard let device = openDevice(), !clipFailed.contains(sound), let path = paths[sound] else { return nil }
        do {
            let clip = try device.load(wav: path)
            clips[sound] = clip
            return clip
        } catch {
            clipFailed.insert(sound)
            Log.info("sound '\(sound.rawValue)' unavailable: \(error)")
            return nil
        }
    }
}
