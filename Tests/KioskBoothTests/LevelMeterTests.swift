// The microphone's level and the silent-take rule, with time passed in (no clock, no waiting): the
// −100 dBFS floor, the 100 ms window, the 1.5 s peak hold the meter draws, and `microphoneSilent`
// said once per silence, again after sound comes back and goes.
import Foundation
import KioskBooth
import KioskCore
import Testing

@Suite("the level meter and the silence rule")
struct LevelMeterTests {
    static let ms: Int64 = 1_000_000
    /// Some point on the monotonic clock (the tests' own; nothing reads a clock).
    static let t0: Int64 = 5_000_000_000_000

    /// 10 ms of 48 kHz stereo, every sample `value` (negative and positive alternating).
    static func chunk(_ value: Int16, frames: Int = 480) -> AudioChunk {
        let samples = (0..<frames * 2).map { $0 % 2 == 0 ? value : (value == .min ? .max : -value) }
        return AudioChunk(samples: samples, channels: 2, sampleRate: 48_000, timestamp: 0)
    }

    @Test("nothing heard, or digital silence, is −100 dBFS, a number (never −∞); the quietest sample is above it; full scale, either sign, is 0")
    func floor() {
        let meter = LevelMeter(clock: { 0 })
        #expect(meter.level(at: Self.t0) == -100)
        meter.feed(Self.chunk(0), at: Self.t0)
        let silence = meter.level(at: Self.t0)
        #expect(silence == -100 && silence.isFinite)
        meter.feed(Self.chunk(1), at: Self.t0 + 10 * Self.ms)
        #expect(abs(meter.level(at: Self.t0 + 10 * Self.ms) - 20 * log10(1.0 / 32768)) < 0.001, "one step: −90.3 dBFS")
        meter.feed(Self.chunk(.min), at: Self.t0 + 20 * Self.ms)
        #expect(meter.level(at: Self.t0 + 20 * Self.ms) == 0, "−32768 is full scale, not an overflow")
        meter.reset()
        #expect(meter.level(at: Self.t0 + 20 * Self.ms) == -100, "reset forgets what was heard")
        #expect(LevelMeter.dBFS(16384) > -6.03 && LevelMeter.dBFS(16384) < -6.01)
        #expect(LevelMeter.dBFS(0) == -100 && LevelMeter.dBFS(-5) == -100)
    }

    @Test("the level is the peak of the chunks of the last 100 ms: a loud one counts until 100 ms after it arrived, a quieter one after it does not hide it")
    func window() {
        let meter = LevelMeter(clock: { 0 })
        meter.feed(Self.chunk(16384), at: Self.t0)                   // −6 dBFS
        meter.feed(Self.chunk(1638), at: Self.t0 + 50 * Self.ms)     // −26 dBFS
        let loud = LevelMeter.dBFS(16384), quiet = LevelMeter.dBFS(1638)
        #expect(meter.level(at: Self.t0 + 50 * Self.ms) == loud)
        #expect(meter.level(at: Self.t0 + 100 * Self.ms) == loud, "100 ms after it, still in the window")
        #expect(meter.level(at: Self.t0 + 100 * Self.ms + 1) == quiet, "just past it, the quieter chunk's peak")
        #expect(meter.level(at: Self.t0 + 150 * Self.ms + 1) == -100, "and after that nothing")
    }

    @Test("the peak hold the meter draws (1.5 s window): a loud chunk stays the peak for 1.5 s, whatever comes after, then goes")
    func peakHold() {
        let meter = LevelMeter(clock: { 0 })
        let hold: Int64 = 1_500 * Self.ms
        meter.feed(Self.chunk(29204), at: Self.t0)                   // −1 dBFS
        for i in 1...200 { meter.feed(Self.chunk(100), at: Self.t0 + Int64(i) * 10 * Self.ms) }
        let end = Self.t0 + 2_000 * Self.ms
        #expect(meter.level(at: Self.t0 + hold, window: hold) == LevelMeter.dBFS(29204))
        #expect(meter.level(at: Self.t0 + hold + 1, window: hold) == LevelMeter.dBFS(100))
        #expect(meter.level(at: end) == LevelMeter.dBFS(100), "the level now is the quiet sound")
    }

    @Test("the silence rule: said at 3 s under −60 dBFS, once; sound starts it afresh; said again 3 s into the next silence; short silences are not said")
    func silenceAgain() {
        var watch = SilenceWatch()
        var said: [Int64] = []
        var lastSound: Int64?
        // A chunk of `level` every 10 ms, and a look after each.
        func hear(_ level: Double, from start: Int64, to end: Int64) {
            for t in stride(from: start, to: end, by: 10_000_000) {
                if level >= SilenceWatch.threshold { lastSound = Self.t0 + t }
                if watch.heard(lastSound: lastSound, at: Self.t0 + t) { said.append(t) }
            }
        }
        hear(-100, from: 0, to: 2_990 * Self.ms)
        #expect(said.isEmpty && !watch.reported, "not before 3 s")
        hear(-100, from: 2_990 * Self.ms, to: 8_000 * Self.ms)
        #expect(said == [3_000 * Self.ms] && watch.reported, "at 3 s, once however long it lasts")
        hear(-60, from: 8_000 * Self.ms, to: 8_100 * Self.ms)      // sound: −60 is not silence
        #expect(!watch.reported, "sound came back: the warning goes")
        hear(-61, from: 8_100 * Self.ms, to: 10_000 * Self.ms)
        hear(-20, from: 10_000 * Self.ms, to: 10_010 * Self.ms)    // a word, 10 ms
        hear(-100, from: 10_010 * Self.ms, to: 13_000 * Self.ms)
        #expect(said.count == 1, "1.9 s and 2.99 s of silence are not said")
        hear(-100, from: 13_000 * Self.ms, to: 14_000 * Self.ms)
        #expect(said == [3_000 * Self.ms, 13_000 * Self.ms] && watch.reported, "again, 3 s after the last sound: \(said)")
        watch.reset()
        #expect(!watch.reported)
        hear(-100, from: 14_000 * Self.ms, to: 16_990 * Self.ms)
        #expect(said.count == 2, "a reset (the take ended) starts the 3 s afresh")
    }

    @Test("the meter and the rule together, as the booth runs them: silence, a 0.5 s tone, silence: microphoneSilent 3 s into each silence, counted from the last chunk of the tone")
    func silenceToneSilence() {
        let meter = LevelMeter(clock: { 0 })
        var watch = SilenceWatch()
        var said: [Int64] = []
        // 10 ms chunks arrive; the booth looks once a frame (every 10 ms here) after the chunk.
        for i in 0..<1_000 {
            let t = Int64(i) * 10 * Self.ms
            let tone = t >= 4_000 * Self.ms && t < 4_500 * Self.ms
            meter.feed(Self.chunk(tone ? 8000 : 0), at: Self.t0 + t)
            if watch.heard(lastSound: meter.lastSound, at: Self.t0 + t) { said.append(t / Self.ms) }
        }
        // The last tone chunk arrives at 4490 ms: 3 s after it.
        #expect(said == [3_000, 7_490], "\(said)")
    }

    @Test("a busy loop that looks seldom (every 730 ms) and always between the test tone's beeps (100 ms a second) never calls it silent; the same loop on a silent microphone does, at its first look 3 s after its first")
    func busyLoop() {
        for silent in [false, true] {
            let meter = LevelMeter(clock: { 0 })
            var watch = SilenceWatch()
            var said: [Int64] = []
            var nextLook: Int64 = 150 * Self.ms
            for i in 0..<2_000 {
                let t = Int64(i) * 10 * Self.ms
                let beep = !silent && t % (1_000 * Self.ms) < 100 * Self.ms
                meter.feed(Self.chunk(beep ? 16384 : 0), at: Self.t0 + t)
                // The loop's turns come between beeps: the level in the last 100 ms is silence there.
                guard t >= nextLook else { continue }
                nextLook += 730 * Self.ms
                if t % (1_000 * Self.ms) >= 200 * Self.ms { #expect(silent || meter.level(at: Self.t0 + t) == LevelMeter.floor) }
                if watch.heard(lastSound: meter.lastSound, at: Self.t0 + t) { said.append(t / Self.ms) }
            }
            #expect(silent ? said == [3_800] : said.isEmpty, "silent \(silent): said at \(said)")
        }
    }
}
