// The player's sound: an SDL audio device whose callback pulls from the player's feed.
//
// Why a callback and not SDL_QueueAudio from the UI loop: the sound is the master clock, so its
// timing must not depend on when the UI thread comes round. SDL calls the callback on its own
// audio thread exactly when the device wants the next buffer; the feed copies what the player's
// audio thread decoded (a lock held only for the copy, silence when there is nothing) and notes
// which sample will be heard when. Our code never calls SDL from that thread; SDL calls us.
import CSDL2
import KioskCore
import KioskSystem
import Synchronization

/// An SDL audio output device (`SDL_OpenAudioDevice` with a callback, `SDL_CloseAudioDevice` in
/// deinit), with SDL's audio subsystem held up while it is open. UI thread only.
public final class AudioOutput {
    /// What the callback pulls from. Sendable; passed to SDL as its userdata, retained by us.
    private final class Source: Sendable {
        let feed: any AudioFeed
        init(feed: any AudioFeed) { self.feed = feed }
    }

    private let id: SDL_AudioDeviceID
    private let source: Unmanaged<Source>
    /// The format the device really has; the feed must deliver exactly this.
    public let format: AudioOutputFormat

    /// Opens the default device near `sampleRate` and `channels` (SDL may pick another rate or
    /// channel count, which the player then converts to), 16-bit, paused until `start`.
    public init(sampleRate: Int, channels: Int, feed: any AudioFeed) throws(SDLError) {
        guard SDL_InitSubSystem(UInt32(SDL_INIT_AUDIO)) == 0 else { throw SDLError(call: "SDL_InitSubSystem(SDL_INIT_AUDIO)") }
        let source = Unmanaged.passRetained(Source(feed: feed))
        var want = SDL_AudioSpec()
        want.freq = Int32(min(max(sampleRate, 8000), 192_000))
        want.format = SDL_AudioFormat(AUDIO_S16SYS)
        want.channels = UInt8(min(max(channels, 1), 2))
        // About 20 ms at 48 kHz, a power of two as SDL likes: short enough for a fine clock,
        // long enough that a busy machine does not starve the device.
        want.samples = want.freq > 32000 ? 1024 : 512
        want.userdata = source.toOpaque()
        want.callback = { userdata, stream, length in
            guard let userdata, let stream, length > 0 else { return }
            let now = MonotonicClock.now()
            Unmanaged<Source>.fromOpaque(userdata).takeUnretainedValue().feed
                .fill(UnsafeMutableRawBufferPointer(start: stream, count: Int(length)), now: now)
        }
        var have = SDL_AudioSpec()
        let changes = Int32(SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_CHANNELS_CHANGE)
        let device = SDL_OpenAudioDevice(nil, 0, &want, &have, changes)
        guard device != 0 else {
            let error = SDLError(call: "SDL_OpenAudioDevice")
            source.release()
            SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
            throw error
        }
        id = device
        self.source = source
        format = AudioOutputFormat(sampleRate: Int(have.freq), channels: Int(have.channels), sample: .s16,
                                   bufferFrames: Int(have.samples))
    }

    deinit {
        // Returns once SDL's audio thread has stopped, so the callback no longer runs when the
        // source is released.
        SDL_CloseAudioDevice(id)
        source.release()
        SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
    }

    /// Lets the device run (`SDL_PauseAudioDevice(0)`): the callback starts pulling.
    public func start() { SDL_PauseAudioDevice(id, 0) }
}
