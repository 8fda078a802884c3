// Helpers for the audio source tests: a thread-safe recorder of chunks and events with their
// arrival times, ALSA configuration texts for test PCMs, and the known test signal.
import Foundation
@testable import KioskCapture
import KioskCore
import KioskSystem
import KioskTestSupport

/// Collects what a source delivers on its thread, with the monotonic time each chunk arrived.
final class AudioRecorder: Sendable {
    struct Arrival: Sendable {
        var chunk: AudioChunk
        var arrivedAt: Int64
        /// How many events had arrived before this chunk.
        var eventsBefore: Int
    }

    private let state = Locked<(arrivals: [Arrival], events: [CaptureEvent], eventTimes: [Int64])>(([], [], []))
    /// Stop storing chunks after this many (an unpaced file PCM delivers as fast as it can).
    let limit: Int

    init(limit: Int = .max) { self.limit = limit }

    var chunkHandler: @Sendable (AudioChunk) -> Void {
        { chunk in
            let now = MonotonicClock.now()
            self.state.withLock {
                if $0.arrivals.count < self.limit {
                    $0.arrivals.append(Arrival(chunk: chunk, arrivedAt: now, eventsBefore: $0.events.count))
                }
            }
        }
    }

    var eventHandler: @Sendable (CaptureEvent) -> Void {
        { event in
            let now = MonotonicClock.now()
            self.state.withLock {
                $0.events.append(event)
                $0.eventTimes.append(now)
            }
        }
    }

    var arrivals: [Arrival] { state.withLock { $0.arrivals } }
    var events: [CaptureEvent] { state.withLock { $0.events } }
    /// When each event arrived (monotonic nanoseconds).
    var eventTimes: [Int64] { state.withLock { $0.eventTimes } }
    var chunkCount: Int { state.withLock { $0.arrivals.count } }

    /// Polls until `condition` holds or `seconds` pass; true if it held.
    func wait(seconds: Double, until condition: (AudioRecorder) -> Bool) -> Bool {
        let deadline = MonotonicClock.now() + Int64(seconds * 1e9)
        while MonotonicClock.now() < deadline {
            if condition(self) { return true }
            usleep(5_000)
        }
        return condition(self)
    }
}

enum TestAudio {
    /// A counting pattern: frame i, channel c holds (2i + c) mod 65536 as a signed sample, so any
    /// lost, repeated or swapped sample shows.
    static func countingPattern(frames: Int, channels: Int = 2) -> [Int16] {
        (0..<frames * channels).map { Int16(truncatingIfNeeded: $0) }
    }

    /// Writes samples as raw little-endian S16 (the host order on every platform this runs on).
    static func writeRaw(_ samples: [Int16], to path: String) throws {
        let data = samples.withUnsafeBytes { Data($0) }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Points the symbolic link `link` at `target`, replacing it in one step (rename), so the
    /// capture thread never sees it missing.
    static func repoint(_ link: String, to target: String) throws {
        let temporary = link + ".new"
        try? FileManager.default.removeItem(atPath: temporary)
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: target)
        guard rename(temporary, link) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// A private folder for one test's files.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "kiosk-audio-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A `type file` PCM over a `null` slave: it reads its samples from `infile` (raw, interleaved,
    /// in the negotiated format) as fast as they are asked for, and writes what passes to `file`.
    /// Past the end of `infile` the null slave's frames come through (silence, as ALSAMicrophone
    /// zeroes its buffers).
    static func filePCM(name: String, infile: String, file: String = "/dev/null") -> String {
        """
        pcm.\(name) {
            type file
            slave { pcm { type null } }
            file "\(file)"
            infile "\(infile)"
            format raw
        }
        """
    }

    /// A PCM on the fake microphone: real-time stereo 48 kHz, each frame carrying its index since
    /// the open (or with `beep`, a 1 kHz beep for the first 100 ms after each whole second of its
    /// capture time); it stalls at frame `stallAt` for `stallFrames`, then overruns.
    static func fakeMicrophonePCM(name: String, stallAt: Int? = nil, stallFrames: Int = 0, beep: Bool = false) -> String {
        """
        pcm_type.kiosk_fake_microphone { lib "\(TestEnvironment.fakeMicrophonePlugin)" }
        pcm.\(name) {
            type kiosk_fake_microphone
            \(stallAt.map { "stall_at \($0)\n    stall_frames \(stallFrames)" } ?? "")
            \(beep ? "beep 1" : "")
        }
        """
    }

    /// The index a fake-microphone frame carries (left: low 15 bits, right: the next 15).
    static func fakeIndex(_ samples: [Int16], frame: Int) -> Int {
        Int(samples[2 * frame]) | Int(samples[2 * frame + 1]) << 15
    }

    /// ALSA's `pulse` plugin on the test null sink's monitor (see audio/start-pulse), where quiet
    /// noise plays.
    static let pulseMonitorPCM = """
        pcm.kiosk_pulse_monitor {
            type pulse
            device "kiosk_null.monitor"
        }
        """

    /// Whether the pulse monitor PCM opens and sets up for capture (a server runs and has the sink).
    static let pulseAvailable: Bool = {
        guard let pcm = try? ALSAPCM(name: "kiosk_pulse_monitor", direction: .capture, configText: pulseMonitorPCM)
        else { return false }
        return (try? pcm.configureCapture(rate: 48_000, channels: nil)) != nil
    }()
}
