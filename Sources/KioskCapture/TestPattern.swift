// The built-in camera (`--camera test`): colour bars, a box that moves, the frame number stamped at
// the top, and a white flash on the first frame of every second of the monotonic clock (when the
// test tone beeps) with its phase stamped under the number, paced by that clock. Cheap: the bars
// are drawn once; a frame is one copy plus the stamp and the box.
import FoundationEssentials
import KioskCore
import KioskSystem

public final class TestPattern: VideoSource {
    /// The bars, left to right (BT.601 limited-range Y, U, V): white, yellow, cyan, green, magenta,
    /// red, blue, black. Tests find the crop of the preview by which bars are at the edges.
    public static let bars: [(y: UInt8, u: UInt8, v: UInt8)] = [
        (235, 128, 128), (210, 16, 146), (170, 166, 16), (145, 54, 34),
        (106, 202, 222), (81, 90, 240), (41, 240, 110), (16, 128, 128),
    ]

    public let info: VideoSourceInfo
    public var droppedFrames: Int { 0 }
    private let thread = Locked<WorkerThread?>(nil)
    /// The bars frame, drawn once.
    private let base: [UInt8]
    private let planes: [Plane]

    public init(size: Size, fps: Double) {
        info = VideoSourceInfo(name: "test", label: "Test pattern", size: size, fps: fps, deviceFormat: .yuv420p, deliveredFormat: .yuv420p)
        planes = PixelFormat.yuv420p.planes(for: size)
        base = TestPattern.drawBars(size: size, planes: planes)
    }

    deinit { stop() }

    public func start(frames: @escaping @Sendable (VideoFrame) -> Void,
                      events: @escaping @Sendable (CaptureEvent) -> Void) throws {
        guard thread.withLock({ $0 == nil }) else { return }
        let started = try WorkerThread(name: "kiosk-test-pattern") { [self] worker in run(on: worker, frames: frames) }
        thread.withLock { $0 = started }
    }

    public func stop() { thread.withLock { $0.take() }?.stop() }

    /// Frame k is due at start + k / fps; it carries that time as its timestamp.
    private func run(on thread: WorkerThread, frames: @escaping @Sendable (VideoFrame) -> Void) {
        let period = 1_000_000_000 / max(info.fps, 0.001)
        let start = MonotonicClock.now()
        var k: Int64 = 0
        while !thread.isStopping {
            let due = start + Int64((Double(k) * period).rounded())
            guard thread.sleep(until: due) else { break }
            let previous = due - Int64(period.rounded())
            let flash = due / 1_000_000_000 != previous / 1_000_000_000
            frames(frame(number: Int(k), timestamp: due, flash: flash))
            k += 1
        }
    }

    /// Frame `number`: the bars (or all white for a flash), the moving box, the stamp. A flash frame
    /// also carries its phase (`FrameStamp.phase(timestamp:)`) in the band under the stamp
    /// (`FrameStamp` band 1), so a test can tell when after the whole second it was captured.
    public func frame(number: Int, timestamp: Int64, flash: Bool) -> VideoFrame {
        let size = info.size
        let w = size.width, h = size.height
        var bytes = base
        bytes.withUnsafeMutableBufferPointer { p in
            let y = planes[0], u = planes[1], v = planes[2]
            if flash {
                p.baseAddress!.update(repeating: FrameStamp.white, count: y.stride * y.rows)
                (p.baseAddress! + u.offset).update(repeating: 128, count: u.stride * u.rows + v.stride * v.rows)
            }
            // A box a tenth of the height that crosses the bottom band in two seconds.
            let box = max(h / 10, 2) & ~1
            let travel = max(w - box, 1)
            let x0 = (number * travel / max(Int(info.fps * 2), 1)) % travel & ~1
            let y0 = (h - box - h / 20) & ~1
            for row in y0..<(y0 + box) {
                (p.baseAddress! + row * y.stride + x0).update(repeating: flash ? FrameStamp.black : 235, count: box)
            }
            for row in (y0 / 2)..<((y0 + box) / 2) {
                (p.baseAddress! + u.offset + row * u.stride + x0 / 2).update(repeating: 128, count: box / 2)
                (p.baseAddress! + v.offset + row * v.stride + x0 / 2).update(repeating: 128, count: box / 2)
            }
            // The stamp: 16 cells across the top band, chroma neutral (a flash frame's is already).
            func stamp(_ value: Int, band: Int) {
                for i in 0..<FrameStamp.bits {
                    let cell = FrameStamp.cell(i, width: w)
                    let luma = (value >> (FrameStamp.bits - 1 - i)) & 1 == 1 ? FrameStamp.white : FrameStamp.black
                    for row in FrameStamp.bandRows(band, frameHeight: h) {
                        (p.baseAddress! + row * y.stride + cell.lowerBound).update(repeating: luma, count: cell.count)
                    }
                }
            }
            stamp(number, band: 0)
            if flash { stamp(FrameStamp.phase(timestamp: timestamp), band: 1) }
            let band = FrameStamp.bandHeight(frameHeight: h)
            for row in 0..<((band + 1) / 2) {
                (p.baseAddress! + u.offset + row * u.stride).update(repeating: 128, count: u.stride)
                (p.baseAddress! + v.offset + row * v.stride).update(repeating: 128, count: v.stride)
            }
        }
        return VideoFrame(format: .yuv420p, size: size, planes: planes, bytes: bytes, timestamp: timestamp,
                          sequence: UInt32(truncatingIfNeeded: number))
    }

    /// Eight vertical bars over the whole frame.
    static func drawBars(size: Size, planes: [Plane]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: PixelFormat.yuv420p.frameBytes(for: size))
        let w = size.width
        for (index, bar) in bars.enumerated() {
            let x0 = index * w / bars.count, x1 = (index + 1) * w / bars.count
            for row in 0..<planes[0].rows {
                for x in x0..<x1 { bytes[planes[0].offset + row * planes[0].stride + x] = bar.y }
            }
            for row in 0..<planes[1].rows {
                for x in (x0 / 2)..<((x1 + 1) / 2) {
                    bytes[planes[1].offset + row * planes[1].stride + x] = bar.u
                    bytes[planes[2].offset + row * planes[2].stride + x] = bar.v
                }
            }
        }
        return bytes
    }

    /// The bar index at column x of a frame `width` wide.
    public static func bar(atColumn x: Int, width: Int) -> Int { min(x * bars.count / max(width, 1), bars.count - 1) }
}
