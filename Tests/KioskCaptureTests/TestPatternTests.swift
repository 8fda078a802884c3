// The built-in test camera: stamp, bars, flash and pacing.
import Foundation
import Testing
@testable import KioskCapture
import KioskCore
import KioskSystem

@Suite("Test pattern")
struct TestPatternTests {
    @Test("each frame carries its number, bars at known columns, a box that moves", arguments: [
        Size(width: 352, height: 288), Size(width: 640, height: 480), Size(width: 1280, height: 720), Size(width: 1080, height: 1920),
    ])
    func content(size: Size) {
        let pattern = TestPattern(size: size, fps: 30)
        for n in [0, 1, 7, 299, 1000, 65535] {
            let f = pattern.frame(number: n, timestamp: 0, flash: false)
            #expect(f.format == .yuv420p && f.size == size && f.bytes.count == size.width * size.height * 3 / 2)
            #expect(FrameStamp.read(f) == n)
        }
        let f = pattern.frame(number: 0, timestamp: 0, flash: false)
        let midY = size.height / 2
        for bar in 0..<8 {
            let x = (2 * bar + 1) * size.width / 16
            #expect(f.luma(x: x, y: midY) == TestPattern.bars[bar].y, "bar \(bar) at x \(x)")
            #expect(TestPattern.bar(atColumn: x, width: size.width) == bar)
        }
        // The box row differs between frames; the bars above it do not.
        let later = pattern.frame(number: 10, timestamp: 0, flash: false)
        #expect(f.bytes != later.bytes)
        #expect(f.luma(x: size.width / 16, y: midY) == later.luma(x: size.width / 16, y: midY))
    }

    @Test("a flash frame is white below the stamp but for its phase in the band under it, and the stamp still reads")
    func flash() {
        let pattern = TestPattern(size: Size(width: 640, height: 480), fps: 30)
        // Phase: tenths of a millisecond after the whole second, rounded down.
        for (timestamp, phase) in [(Int64(0), 0), (7_000_123_456, 1), (3_999_999_999, 9_999), (12_345_678_901, 3_456)] {
            let f = pattern.frame(number: 30, timestamp: timestamp, flash: true)
            #expect(FrameStamp.read(f) == 30)
            #expect(FrameStamp.read(f, band: 1) == phase, "at \(timestamp) ns")
            #expect(FrameStamp.phase(timestamp: timestamp) == phase)
            for (x, y) in [(10, 100), (600, 300), (320, 240), (15 * 640 / 16, 200)] {
                #expect(f.luma(x: x, y: y) == FrameStamp.white)
            }
        }
        // An ordinary frame has no phase band: the bars go on under the stamp.
        let plain = pattern.frame(number: 30, timestamp: 12_345_678_901, flash: false)
        let row = FrameStamp.bandRows(1, frameHeight: 480).lowerBound + 5
        #expect(plain.luma(x: 320 + 10, y: row) == TestPattern.bars[4].y)
    }

    @Test("paced by the monotonic clock: about fps frames a second, in order, flashing at whole seconds")
    func pacing() throws {
        let pattern = TestPattern(size: Size(width: 320, height: 240), fps: 30)
        let frames = Locked<[VideoFrame]>([])
        let start = MonotonicClock.now()
        try pattern.start(frames: { f in frames.withLock { $0.append(f) } }, events: { _ in })
        Thread.sleep(forTimeInterval: 1.5)
        pattern.stop()
        let elapsed = Double(MonotonicClock.now() - start) / 1e9
        let got = frames.withLock { $0 }
        #expect(abs(Double(got.count) - elapsed * 30) <= 2, "\(got.count) frames in \(elapsed) s")
        #expect(got.map(\.sequence) == (0..<UInt32(got.count)).map { $0 })
        #expect(got.map(FrameStamp.read) == (0..<got.count).map { $0 })
        for (a, b) in zip(got, got.dropFirst()) {
            #expect(abs(Double(b.timestamp - a.timestamp) - 1e9 / 30) < 2, "timestamps 1/30 s apart")
        }
        // Exactly the first frame of each whole second of the monotonic clock is white (the black
        // bar on the right turns white).
        var flashes = 0
        for (a, b) in zip(got, got.dropFirst()) {
            let crossed = b.timestamp / 1_000_000_000 != a.timestamp / 1_000_000_000
            let white = b.luma(x: 300, y: 120) == FrameStamp.white
            #expect(white == crossed, "frame \(b.sequence) at \(b.timestamp)")
            #expect(white || b.luma(x: 300, y: 120) == TestPattern.bars[7].y)
            if white {
                flashes += 1
                #expect(FrameStamp.read(b, band: 1) == FrameStamp.phase(timestamp: b.timestamp), "frame \(b.sequence)'s phase")
            }
        }
        #expect(flashes >= 1)
        // Frames arrive when they are due, not early.
        #expect(got.allSatisfy { $0.timestamp >= start })
    }

    @Test("stop is quick and a stopped pattern sends nothing more")
    func stop() throws {
        let pattern = TestPattern(size: Size(width: 64, height: 48), fps: 10)
        let count = Locked(0)
        try pattern.start(frames: { _ in count.withLock { $0 += 1 } }, events: { _ in })
        Thread.sleep(forTimeInterval: 0.25)
        let before = MonotonicClock.now()
        pattern.stop()
        // It does not sit out a whole frame period or more (10 fps: 100 ms), let alone hang.
        #expect(MonotonicClock.now() - before < 1_000_000_000)
        let after = count.withLock { $0 }
        Thread.sleep(forTimeInterval: 0.2)
        #expect(count.withLock { $0 } == after)
    }
}
