// The test tone: a 1 kHz beep on each whole monotonic second, 100 ms long, paced in 10 ms chunks
// with exactly continuous timestamps.
import Foundation
import Testing
@testable import KioskCapture
import KioskCore
import KioskSystem

@Suite("TestTone")
struct TestToneTests {
    @Test("a chunk is the slice of the precomputed second at its time")
    func chunkContents() {
        let second: Int64 = 1_000_000_000
        let atSecond = TestTone.chunk(at: 7 * second)
        #expect(atSecond.samples.count == 480 && atSecond.channels == 1 && atSecond.sampleRate == 48_000)
        #expect(atSecond.timestamp == 7 * second && atSecond.duration == 10_000_000)
        #expect(atSecond.samples[0] == 0 && atSecond.samples[12] == 16_384, "sin starts at 0; a quarter cycle later, half scale")
        #expect(TestTone.chunk(at: 7 * second + 90_000_000).samples.contains { $0 != 0 }, "90–100 ms: still the beep")
        #expect(TestTone.chunk(at: 7 * second + 100_000_000).samples.allSatisfy { $0 == 0 }, "from 100 ms: silence")
        #expect(TestTone.chunk(at: 7 * second + 990_000_000).samples.allSatisfy { $0 == 0 })
        #expect(TestTone.second.map { abs(Int($0)) }.max() == 16_384)
    }

    @Test("3 s paced: beeps start on whole seconds, last 100 ms, and the timestamps tile exactly")
    func paced() throws {
        let tone = TestTone()
        let recorder = AudioRecorder()
        let started = MonotonicClock.now()
        try tone.start(chunks: recorder.chunkHandler, events: recorder.eventHandler)
        Thread.sleep(forTimeInterval: 3)
        let stopped = MonotonicClock.now()
        tone.stop()

        let arrivals = recorder.arrivals
        let chunks = arrivals.map(\.chunk)
        try #require(chunks.count > 100)
        #expect(tone.info == AudioSourceInfo(name: "test", sampleRate: 48_000, channels: 1))
        #expect(chunks.allSatisfy { $0.frameCount == 480 && $0.duration == 10_000_000 })
        for (a, b) in zip(chunks, chunks.dropFirst()) {
            #expect(b.timestamp == a.timestamp + a.duration)
        }
        // Paced: each chunk comes once its last sample's time has come, and ~3 s take ~3 s.
        #expect(arrivals.allSatisfy { $0.arrivedAt >= $0.chunk.timestamp + $0.chunk.duration })
        #expect(chunks[0].timestamp > started && chunks[0].timestamp <= started + 20_000_000, "starts at the next 10 ms")
        let audio = Double(chunks.count) * 0.01
        let wall = Double(stopped - started) / 1e9
        #expect(abs(audio - wall) <= 0.02 * wall, "\(audio) s of audio in \(wall) s")

        // Onsets: a sample that is not 0 after at least 1 ms of zeros (the sine itself crosses 0
        // every 24 samples, so a shorter run is inside a beep); ends likewise.
        let samples = chunks.flatMap(\.samples)
        let origin = chunks[0].timestamp
        func time(_ index: Int) -> Int64 { origin + Int64(index) * 1_000_000_000 / 48_000 }
        var beeps: [(onset: Int, end: Int)] = []
        // The beep being read: its onset (nil when the capture began inside it) and last sample.
        var current: (onset: Int?, end: Int)?
        var zeros = 0
        for (index, sample) in samples.enumerated() {
            if sample == 0 {
                zeros += 1
                continue
            }
            if current == nil || zeros >= 48 {
                if let beep = current, let onset = beep.onset { beeps.append((onset, beep.end)) }
                current = (zeros >= 48 ? index : nil, index)
            } else {
                current!.end = index
            }
            zeros = 0
        }
        // A beep cut by the end of the capture is not measured.
        if let beep = current, let onset = beep.onset, zeros >= 48 { beeps.append((onset, beep.end)) }
        let whole = beeps
        try #require(whole.count >= 2, "found beeps \(whole)")
        var worstOnset: Int64 = 0, worstLength: Int64 = 0
        for (onset, end) in whole {
            let t = time(onset)
            let nearestSecond = (t + 500_000_000) / 1_000_000_000 * 1_000_000_000
            #expect(abs(t - nearestSecond) <= 1_000_000, "onset \(Double(t - nearestSecond) / 1e6) ms from a whole second")
            let length = time(end + 1) - t
            #expect(abs(length - 100_000_000) <= 1_000_000, "beep of \(Double(length) / 1e6) ms")
            worstOnset = max(worstOnset, abs(t - nearestSecond))
            worstLength = max(worstLength, abs(length - 100_000_000))
        }
        Log.info("test tone: \(chunks.count) chunks (\(audio) s) in \(wall) s; \(whole.count) whole beeps, onsets within "
                 + "\(Double(worstOnset) / 1e6) ms of a second, lengths within \(Double(worstLength) / 1e6) ms of 100 ms")
        #expect(recorder.events.isEmpty)
        #expect(tone.overruns == 0)
    }
}
