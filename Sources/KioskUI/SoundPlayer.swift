// The booth's sound: the begin and end sounds (like iOS's 1117 / 1118) and the player's sound, all
// through one `AudioOutput`. A booth without a sound card still records: any failure here is
// logged once and the sound is skipped.
import KioskCore
import KioskSystem

/// Plays the recorder's sounds and carries the player's. The device opens on the first use (or
/// `prepare`), so a run that never records or plays never touches audio. UI thread only, like the
/// rest of SDL.
public final class SoundPlayer {
    private let paths: [Sound: String]
    private var output: AudioOutput?
    private var clips: [Sound: [Int16]] = [:]
    /// Opening failed once: no more tries, no more log lines.
    private var deviceFailed = false
    private var clipFailed: Set<Sound> = []

    public init(begin: String, end: String, tick: String? = nil, shutter: String? = nil) {
        var paths: [Sound: String] = [.begin: begin, .end: end]
        paths[.tick] = tick
        paths[.shutter] = shutter
        self.paths = paths
    }

    public convenience init(assets: Assets) {
        self.init(begin: assets.sound(.begin), end: assets.sound(.end), tick: assets.sound(.tick), shutter: assets.sound(.shutter))
    }

    /// Opens the device and loads the sounds now, so the first one plays without delay.
    public func prepare() {
        for sound in Sound.allCases where paths[sound] != nil { _ = clip(sound) }
    }

    /// Plays a sound at once, over the player's sound if one plays, cutting off one still playing.
    public func play(_ sound: Sound) {
        guard let output = openDevice(), let clip = clip(sound) else { return }
        output.play(clip)
    }

    /// The format a player's sound must be delivered in (the device opens now): nil without a device.
    public func playerFormat() -> AudioOutputFormat? { openDevice()?.format }

    /// The player's sound joins the device (after `playerFormat`).
    public func attach(_ feed: any AudioFeed) { output?.setFeed(feed) }

    /// The player's sound leaves; the callback no longer touches its feed when this returns.
    public func detach() { output?.setFeed(nil) }

    /// Bytes of the sound playing not yet handed to the device: 0 when idle or without a device.
    public var queuedBytes: Int { output?.clipBytesPending ?? 0 }

    private func openDevice() -> AudioOutput? {
        if let output { return output }
        guard !deviceFailed else { return nil }
        do {
            let device = try AudioOutput()
            device.start() // plays silence until something plays
            output = device
        } catch {
            deviceFailed = true
            Log.info("no sound: \(error) (SDL_AUDIODRIVER picks the audio driver)")
        }
        return output
    }

    private func clip(_ sound: Sound) -> [Int16]? {
        if let clip = clips[sound] { return clip }
        guard let output = openDevice(), !clipFailed.contains(sound), let path = paths[sound] else { return nil }
        do {
            let clip = try output.load(wav: path)
            clips[sound] = clip
            return clip
        } catch {
            clipFailed.insert(sound)
            Log.info("sound '\(sound.rawValue)' unavailable: \(error)")
            return nil
        }
    }
}
