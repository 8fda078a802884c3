// A live take's end: the microphone delivers a period once it is captured, and under load its
// thread wakes late, so at the stop the sound is still short of the picture's end. The writer waits
// a moment for the rest (MovieWriter.awaitSound), so the take's sound ends with its picture.
import Foundation
import KioskContract
import Testing
@testable import KioskMedia
import KioskCore
import KioskSystem
import KioskTestSupport

@Suite("A live take's sound after the stop")
struct SoundTailTests {
    /// A 2 s live take of 30 fps pictures and 10 ms tone chunks up to its last picture's time;
    /// after the stop, `late` more seconds of chunks come 100 ms later (a microphone thread behind).
    /// The file's video and audio streams' lengths (s).
    static func take(_ name: String, late: Double) throws -> (video: Double, audio: Double, result: RecordingResult) {
        let output = scratch("tail-\(name)").appendingPathComponent("take.mov").path
        var settings = takeSettings(output, size: Size(width: 352, height: 288))
        settings.framesFromLiveClock = true
        let (writer, finished) = try startedWriter(settings)
        let start = MonotonicClock.now() + 10_000_000
        var nextAudio = start - 30_000_000
        let interval: Int64 = 1_000_000_000 / 30
        let last = start + 59 * interval
        for k in 0..<60 {
            let t = start + Int64(k) * interval
            while nextAudio + 10_000_000 <= t {
                writer.append(tone(at: nextAudio))
                nextAudio += 10_000_000
            }
            writer.appendWaiting(picture(Size(width: 352, height: 288), number: k, timestamp: t))
        }
        writer.stop(reason: .user)
        if late > 0 {
            Thread.sleep(forTimeInterval: 0.1)
            while nextAudio < last + Int64(late * 1e9) {
                writer.append(tone(at: nextAudio))
                nextAudio += 10_000_000
            }
        }
        let result = try #require(finished.wait())
        func length(_ stream: String) throws -> Double {
            let probe = try runProgram(["ffprobe", "-v", "error", "-select_streams", stream, "-show_entries", "stream=duration",
                                        "-of", "csv=p=0", output])
            return try #require(Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(probe.stderr)")
        }
        return (try length("v:0"), try length("a:0"), result)
    }

    @Test("the sound that comes after the stop, up to the picture's end, is the take's: it ends with the picture (within one AAC frame)")
    func lateSoundKept() throws {
        let (video, audio, result) = try Self.take("late", late: 0.2)
        #expect(result.success && result.reason == .user)
        #expect(abs(audio - video) <= 1024.0 / 48000 + 0.001, "sound \(audio) s, picture \(video) s")
        #expect(abs(video - 2) <= 0.04, "picture \(video) s")
    }

    @Test("a microphone that delivers nothing after the stop is not waited for for ever: the take ends, its sound as far as it came")
    func silentMicrophoneNotAwaited() throws {
        let (video, audio, result) = try Self.take("none", late: 0)
        #expect(result.success && result.reason == .user)
        // The sound came up to the last picture's start, one picture (33 ms) short of its end.
        #expect(video - audio >= 0.02 && video - audio <= 0.06, "sound \(audio) s, picture \(video) s")
    }
}
