// The booth's one sound device: an SDL audio device whose callback mixes the player's sound and
// the short begin/end sounds. One device, because some outputs give only one (SDL's dummy and disk
// drivers, ALSA `hw:` without dmix): a second open fails with "Audio device already open" and the
// review would play without sound.
//
// Why a callback and not SDL_QueueAudio from the UI loop: the player's sound is the master clock,
// so its timing must not depend on when the UI thread comes round. SDL calls the callback on its
// own audio thread exactly when the device wants the next buffer; the feed copies what the player's
// audio thread decoded (a lock held only for the copy, silence when there is nothing) and notes
// which sample will be heard when; a sound clip is added on top. Our code never calls SDL from that
// thread; SDL calls us.
import CSDL2
import KioskCore
import KioskSystem

/// An SDL audio output device (`SDL_OpenAudioDevice` with a callback, `SDL_CloseAudioDevice` in
/// deinit), 16-bit, with SDL's audio subsystem held up while it is open. UI thread only.
public final class AudioOutput {
    /// What the callback reads: the player's feed and the clip playing. Sendable (a Locked); passed
    /// to SDL as its userdata, retained by us.
    private final class Mixer: Sendable {
        struct State {
            var feed: (any AudioFeed)?
            var clip: [Int16] = []
            var position = 0
        }
        let state = Locked(State())

        func fill(_ buffer: UnsafeMutableRawBufferPointer, now: Int64) {
            let (feed, clip, range) = state.withLock { s -> ((any AudioFeed)?, [Int16], Range<Int>) in
                let start = s.position
                s.position = min(s.clip.count, start + buffer.count / 2)
                return (s.feed, s.clip, start..<s.position)
            }
            if let feed { feed.fill(buffer, now: now) } else { buffer.initializeMemory(as: UInt8.self, repeating: 0) }
            guard !range.isEmpty else { return }
            let samples = buffer.bindMemory(to: Int16.self)
            for (i, value) in zip(0..., clip[range]) {
                let sum = Int32(samples[i]) + Int32(value)
                samples[i] = Int16(clamping: sum)
            }
        }
    }

    private let id: SDL_AudioDeviceID
    private let mixer: Unmanaged<Mixer>
    /// The format the device really has; a feed must deliver exactly this, a clip be in it.
    public let format: AudioOutputFormat

    /// Opens the default device near `sampleRate` and `channels` (SDL may pick another rate or
    /// channel count, which the player then converts to), 16-bit, paused until `start`.
    public init(sampleRate: Int = 48000, channels: Int = 2) throws(SDLError) {
        guard SDL_InitSubSystem(UInt32(SDL_INIT_AUDIO)) == 0 else { throw SDLError(call: "SDL_InitSubSystem(SDL_INIT_AUDIO)") }
        let mixer = Unmanaged.passRetained(Mixer())
        var want = SDL_AudioSpec()
        want.freq = Int32(min(max(sampleRate, 8000), 192_000))
        want.format = SDL_AudioFormat(AUDIO_S16SYS)
        want.channels = UInt8(min(max(channels, 1), 2))
        // About 20 ms at 48 kHz, a power of two as SDL likes: short enough for a fine clock,
        // long enough that a busy machine does not starve the device.
        want.samples = want.freq > 32000 ? 1024 : 512
        want.userdata = mixer.toOpaque()
        want.callback = { userdata, stream, length in
            guard let userdata, let stream, length > 0 else { return }
            let now = MonotonicClock.now()
            Unmanaged<Mixer>.fromOpaque(userdata).takeUnretainedValue()
                .fill(UnsafeMutableRawBufferPointer(start: stream, count: Int(length)), now: now)
        }
        var have = SDL_AudioSpec()
        let changes = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE)
        let device = SDL_OpenAudioDevice(nil, 0, &want, &have, changes)
        guard device != 0 else {
            let error = SDLError(call: "SDL_OpenAudioDevice")
            mixer.release()
            SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
            throw error
        }
        id = device
        self.mixer = mixer
        format = AudioOutputFormat(sampleRate: Int(have.freq), channels: Int(have.channels), sample: .s16,
                                   bufferFrames: Int(have.samples))
    }

    /// A device for one feed alone (the player's tests).
    public convenience init(sampleRate: Int, channels: Int, feed: any AudioFeed) throws(SDLError) {
        try self.init(sampleRate: sampleRate, channels: channels)
        setFeed(feed)
    }

    deinit {
        // Returns once SDL's audio thread has stopped, so the callback no longer runs when the
        // mixer is released.
        SDL_CloseAudioDevice(id)
        mixer.release()
        SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
    }

    /// Lets the device run (`SDL_PauseAudioDevice(0)`): the callback starts pulling.
    public func start() { SDL_PauseAudioDevice(id, 0) }

    /// The player's sound from now on (nil: none). Under `SDL_LockAudioDevice`, so once this
    /// returns the callback no longer touches the old feed.
    public func setFeed(_ feed: (any AudioFeed)?) {
        SDL_LockAudioDevice(id)
        mixer.takeUnretainedValue().state.withLock { $0.feed = feed }
        SDL_UnlockAudioDevice(id)
    }

    /// Plays a clip (16-bit samples in `format`) over whatever else plays, cutting off the clip
    /// still playing.
    public func play(_ clip: [Int16]) {
        mixer.takeUnretainedValue().state.withLock {
            $0.clip = clip
            $0.position = 0
        }
    }

    /// Bytes of the clip not yet handed to the device.
    public var clipBytesPending: Int {
        mixer.takeUnretainedValue().state.withLock { ($0.clip.count - $0.position) * 2 }
    }

    /// A WAV file converted to this device's format (`SDL_LoadWAV_RW`, then an `SDL_AudioStream`).
    public func load(wav path: String) throws(SDLError) -> [Int16] {
        guard let file = SDL_RWFromFile(path, "rb") else { throw SDLError(call: "SDL_RWFromFile(\(path))") }
        var source = SDL_AudioSpec()
        var buffer: UnsafeMutablePointer<UInt8>?
        var length: UInt32 = 0
        guard SDL_LoadWAV_RW(file, 1, &source, &buffer, &length) != nil, let buffer else {
            throw SDLError(call: "SDL_LoadWAV(\(path))")
        }
        defer { SDL_FreeWAV(buffer) }
        guard let stream = SDL_NewAudioStream(source.format, source.channels, source.freq, SDL_AudioFormat(AUDIO_S16SYS),
                                              UInt8(format.channels), Int32(format.sampleRate))
        else { throw SDLError(call: "SDL_NewAudioStream") }
        defer { SDL_FreeAudioStream(stream) }
        guard SDL_AudioStreamPut(stream, buffer, Int32(length)) == 0, SDL_AudioStreamFlush(stream) == 0 else {
            throw SDLError(call: "SDL_AudioStreamPut")
        }
        var converted = [Int16](repeating: 0, count: Int(SDL_AudioStreamAvailable(stream)) / 2)
        let got = converted.withUnsafeMutableBytes { SDL_AudioStreamGet(stream, $0.baseAddress, Int32($0.count)) }
        guard got >= 0 else { throw SDLError(call: "SDL_AudioStreamGet") }
        return Array(converted.prefix(Int(got) / 2))
    }
}
