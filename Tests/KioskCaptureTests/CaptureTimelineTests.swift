// The capture-time arithmetic of audio chunks, by table: device stamps, the sample clock, and the
// silence that covers a gap after a restart.
import Testing
@testable import KioskCapture

@Suite("CaptureTimeline")
struct CaptureTimelineTests {
    static let ms: Int64 = 1_000_000

    @Test("the sample clock: start time plus frames/rate, exactly continuous")
    func sampleClock() {
        var timeline = CaptureTimeline(rate: 48_000, start: 5_000 * Self.ms, usesDeviceStamps: false)
        // A stamp is ignored on the sample clock.
        #expect(timeline.place(frames: 480, stamp: 1, delay: 7).timestamp == 5_000 * Self.ms)
        #expect(timeline.place(frames: 960, stamp: 0, delay: 0).timestamp == 5_010 * Self.ms)
        #expect(timeline.place(frames: 480, stamp: 0, delay: 0).timestamp == 5_030 * Self.ms)
        #expect(timeline.end == 5_040 * Self.ms)
    }

    @Test("device stamps: the first sample was captured delay + frames before the stamp",
          arguments: [
              // (frames, stamp ms, delay frames, expected ms)
              (480, 1_000, 0, 990),
              (480, 1_000, 480, 980),
              (441, 2_000, 882, 1_970),
          ] as [(Int, Int64, Int, Int64)])
    func deviceStamps(frames: Int, stamp: Int64, delay: Int, expected: Int64) {
        let rate = frames == 441 ? 44_100 : 48_000
        var timeline = CaptureTimeline(rate: rate, start: 0, usesDeviceStamps: true)
        let placed = timeline.place(frames: frames, stamp: stamp * Self.ms, delay: delay)
        #expect(placed.timestamp == expected * Self.ms)
        #expect(placed.silence == nil)
        #expect(timeline.end == (expected + 10) * Self.ms)
    }

    @Test("a chunk without a stamp continues from the last stamped one")
    func missingStamp() {
        var timeline = CaptureTimeline(rate: 48_000, start: 0, usesDeviceStamps: true)
        _ = timeline.place(frames: 480, stamp: 1_010 * Self.ms, delay: 0)
        #expect(timeline.place(frames: 480, stamp: 0, delay: 0).timestamp == 1_010 * Self.ms)
        #expect(timeline.place(frames: 480, stamp: 0, delay: 0).timestamp == 1_020 * Self.ms)
    }

    @Test("after a restart the lost time becomes silence, to the nearest frame, from the old end")
    func gapAfterRestart() {
        var timeline = CaptureTimeline(rate: 48_000, start: 0, usesDeviceStamps: false)
        _ = timeline.place(frames: 480, stamp: 0, delay: 0)           // 0..10 ms
        timeline.restarted(at: 35 * Self.ms + 10_000)                 // 25.01 ms lost
        let placed = timeline.place(frames: 480, stamp: 0, delay: 0)
        #expect(placed.timestamp == 35 * Self.ms + 10_000)
        #expect(placed.silence == CaptureTimeline.Silence(start: 10 * Self.ms, frames: 1_200))
        // Only the first chunk after a restart is measured.
        #expect(timeline.place(frames: 480, stamp: 0, delay: 0).silence == nil)
    }

    @Test("after a restart a device clock slightly early gives no silence and is not cut")
    func overlapAfterRestart() {
        var timeline = CaptureTimeline(rate: 48_000, start: 0, usesDeviceStamps: true)
        _ = timeline.place(frames: 480, stamp: 110 * Self.ms, delay: 0)  // 100..110 ms
        timeline.restarted(at: 200 * Self.ms)
        let placed = timeline.place(frames: 480, stamp: 119 * Self.ms, delay: 0)
        #expect(placed.timestamp == 109 * Self.ms)
        #expect(placed.silence == nil)
    }

    @Test("silence while the device is gone continues from the end")
    func silenceWhileLost() {
        var timeline = CaptureTimeline(rate: 48_000, start: 0, usesDeviceStamps: true)
        _ = timeline.place(frames: 480, stamp: 60 * Self.ms, delay: 480)  // 40..50 ms
        #expect(timeline.placeSilence(frames: 480) == 50 * Self.ms)
        #expect(timeline.placeSilence(frames: 960) == 60 * Self.ms)
        #expect(timeline.end == 80 * Self.ms)
    }

    @Test("the pace: a source within 0.25 s (plus 1 % of the time passed) of the clock runs free; one further ahead waits until it is back at 0.25 s; a restart counts afresh",
          arguments: [false, true])
    func pace(deviceStamps: Bool) {
        var timeline = CaptureTimeline(rate: 48_000, start: 1_000 * Self.ms, usesDeviceStamps: deviceStamps)
        // A real device: 10 ms a period, delivered as time passes (a little behind).
        for k in 1...100 {
            let now = (1_000 + 10 * Int64(k)) * Self.ms
            _ = timeline.place(frames: 480, stamp: now - 2 * Self.ms, delay: 0)
            #expect(timeline.pacedUntil(now: now) == nil)
        }
        #expect(timeline.ahead(now: 2_000 * Self.ms) == 0)
        // A clock 0.5 % fast for 20 minutes is 6 s ahead, within 1 % of the time passed: in pace.
        var fast = CaptureTimeline(rate: 48_000, start: 0, usesDeviceStamps: deviceStamps)
        _ = fast.place(frames: 48_000 * 1_206, stamp: 0, delay: 0)
        #expect(fast.pacedUntil(now: 1_200_000 * Self.ms) == nil)
        // Then 0.3 s of sound at once (a null device): held until it is 0.25 s ahead again.
        _ = timeline.place(frames: 14_400 + 480, stamp: 2_000 * Self.ms, delay: 0)
        let now = 2_000 * Self.ms
        #expect(timeline.ahead(now: now) == 310 * Self.ms)
        #expect(timeline.pacedUntil(now: now) == 2_060 * Self.ms)
        #expect(timeline.pacedUntil(now: 2_060 * Self.ms) == nil)
        // A restart (an overrun recovered, a reopen) counts from there.
        timeline.restarted(at: 2_100 * Self.ms)
        #expect(timeline.ahead(now: 2_100 * Self.ms) == 0)
    }
}
