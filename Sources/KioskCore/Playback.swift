// What the player (KioskMedia) and the screen's audio output (KioskUI) agree on without knowing
// each other: the device's sample format, the pull interface its thread calls, and the playing
// mode's view for the player alone (`--play`).
import KioskScreenText

/// The sample layout an audio output device takes: interleaved, native endian.
public struct AudioOutputFormat: Equatable, Sendable {
    public enum Sample: String, Sendable {
        case s16, f32

        public var bytes: Int { self == .s16 ? 2 : 4 }
    }

    public var sampleRate: Int
    public var channels: Int
    public var sample: Sample
    /// Frames in one device buffer (SDL's `spec.samples`): the device plays a buffer about this
    /// long after it was filled, which the player takes off its audio clock.
    public var bufferFrames: Int

    public init(sampleRate: Int, channels: Int, sample: Sample, bufferFrames: Int) {
        (self.sampleRate, self.channels, self.sample, self.bufferFrames) = (sampleRate, channels, sample, bufferFrames)
    }

    public var bytesPerFrame: Int { channels * sample.bytes }
}

/// Audio that an output device's own thread pulls (an SDL audio callback). The device never
/// waits for it: `fill` copies what is ready and writes silence for the rest.
public protocol AudioFeed: AnyObject, Sendable {
    /// Fills the whole buffer, in the format agreed when the output was opened. `now` is
    /// CLOCK_MONOTONIC nanoseconds at the call: the feed times its clock by it.
    func fill(_ buffer: UnsafeMutableRawBufferPointer, now: Int64)
}

extension ViewModel {
    /// The playing mode's view: Close, the progress bar and "position / duration" (also what
    /// `RecorderMachine` shows in that mode).
    public static func playback(position: Double, duration: Double, paused: Bool) -> ViewModel {
        ViewModel(mode: .playing, timer: TimerText.playback(position: position, duration: duration), buttons: [.closePlayer],
                  bottomPanelBackground: true, frozenFrame: false, message: nil,
                  progress: duration > 0 ? min(max(position / duration, 0), 1) : nil, paused: paused, countdown: nil, remainingFraction: nil, attract: nil)
    }
}
