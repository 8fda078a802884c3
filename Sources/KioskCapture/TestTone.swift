// The microphone's test twin (`--microphone test`): a 1 kHz beep for the first 100 ms of every whole
// second of CLOCK_MONOTONIC, silence otherwise, paced like a real device. The test video pattern
// flashes white on the first frame of each whole second, so a recording shows its A/V offset.
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem

/// A paced `AudioSource` of mono 48 kHz S16: beep when a sample's capture time t has
/// t mod 1 s < 100 ms, silence otherwise; 10 ms chunks, each stamped with its first sample's time.
public final class TestTone: AudioSource {
    public static let sampleRate = 48_000
    public static let chunkFrames = 480
    /// 10 ms: the chunk length, which also divides a second, so chunk boundaries fall on whole seconds.
    public static let chunkNanoseconds: Int64 = 10_000_000
    public static let beepFrames = 4_800
    public static let frequency = 1_000
    public static let amplitude = 16_384

    /// One second of the signal from a whole second on, computed once: a chunk is a slice of it.
    /// 100 ms of 1 kHz at 48 kHz is exactly 100 cycles, so the beep starts and ends at a zero crossing.
    static let second: [Int16] = (0..<sampleRate).map { n in
        guard n < beepFrames else { return 0 }
        let phase = 2 * Double.pi * Double(frequency) * Double(n) / Double(sampleRate)
        return Int16((Double(amplitude) * sin(phase)).rounded())
    }

    private let thread = Locked<WorkerThread?>(nil)

    public init() {}

    public var info: AudioSourceInfo { AudioSourceInfo(name: "test", sampleRate: Self.sampleRate, channels: 1) }
    /// A generated signal never overruns.
    public var overruns: Int { 0 }

    /// The chunk whose first sample is captured at `timestamp`, a multiple of 10 ms.
    public static func chunk(at timestamp: Int64) -> AudioChunk {
        precondition(timestamp % chunkNanoseconds == 0, "test tone chunks start on the 10 ms grid")
        let offset = Int(timestamp % 1_000_000_000 / chunkNanoseconds) * chunkFrames
        return AudioChunk(samples: Array(second[offset..<offset + chunkFrames]), channels: 1,
                          sampleRate: sampleRate, timestamp: timestamp)
    }

    /// Starts the thread: from the 10 ms boundary after this call on, each chunk is delivered when
    /// its last sample's time has come (as a device delivers a period once captured). Late wake-ups
    /// (a slow thread start included) do not move the timeline; the chunks that are due come at once.
    public func start(chunks: @escaping @Sendable (AudioChunk) -> Void,
                      events: @escaping @Sendable (CaptureEvent) -> Void) throws {
        precondition(thread.withLock { $0 == nil }, "TestTone.start called while running")
        let first = (MonotonicClock.now() / Self.chunkNanoseconds + 1) * Self.chunkNanoseconds
        let started = try WorkerThread(name: "kiosk-tone") { thread in
            var timestamp = first
            while thread.sleep(until: timestamp + Self.chunkNanoseconds) {
                chunks(Self.chunk(at: timestamp))
                timestamp += Self.chunkNanoseconds
            }
        }
        thread.withLock { $0 = started }
    }

    public func stop() {
        thread.withLock { $0.take() }?.stop()
    }
}
