// `--check`'s trial pictures (issue 35): the same on every run, detailed and moving all over as a
// camera's are (where the test pattern is flat bars and one box), in video range. What they cost
// libx264 against real footage is `kiosk-bench trial-cost`'s (docs/recording.md).
import Testing
@testable import KioskCapture
import KioskCore

@Suite("TrialFootage: --check's pictures with a camera's detail")
struct TrialFootageTests {
    /// The mean absolute difference of horizontally neighbouring luma samples (detail), and the
    /// share of luma samples that differ between two pictures (motion).
    static func detail(_ f: VideoFrame) -> Double {
        var sum = 0
        for y in stride(from: 0, to: f.size.height, by: 3) {
            for x in 1..<f.size.width { sum += abs(Int(f.luma(x: x, y: y)) - Int(f.luma(x: x - 1, y: y))) }
        }
        return Double(sum) / Double((f.size.height + 2) / 3 * (f.size.width - 1))
    }

    static func changed(_ a: VideoFrame, _ b: VideoFrame) -> Double {
        let lumaBytes = a.size.width * a.size.height
        return Double(zip(a.bytes.prefix(lumaBytes), b.bytes.prefix(lumaBytes)).filter { $0 != $1 }.count) / Double(lumaBytes)
    }

    @Test("the same pictures on every run, in video range, with detail everywhere and all of it moving from picture to picture, where the test pattern is flat and still but for its box",
          arguments: [Size(width: 352, height: 288), Size(width: 1280, height: 720)])
    func cameraLike(size: Size) {
        let (a, b) = (TrialFootage(size: size, count: 30), TrialFootage(size: size, count: 30))
        let pattern = TestPattern(size: size, fps: 30)
        for n in [0, 1, 17, 29] {
            let f = a.frame(number: n, timestamp: Int64(n) * 33_333_333)
            #expect(f.format == .yuv420p && f.size == size && f.bytes.count == size.width * size.height * 3 / 2)
            #expect(f.bytes == b.frame(number: n, timestamp: 0).bytes, "picture \(n) differs between two runs")
            #expect(f.bytes.prefix(size.width * size.height).allSatisfy { $0 >= 16 && $0 <= 235 })
        }
        let (first, next) = (a.frame(number: 4, timestamp: 0), a.frame(number: 5, timestamp: 0))
        let (detail, barsDetail) = (Self.detail(first), Self.detail(pattern.frame(number: 4, timestamp: 0, flash: false)))
        #expect(detail > 2.5 && detail > 5 * barsDetail, "detail \(detail) against the pattern's \(barsDetail)")
        let (moved, barsMoved) = (Self.changed(first, next),
                                  Self.changed(pattern.frame(number: 4, timestamp: 0, flash: false), pattern.frame(number: 5, timestamp: 0, flash: false)))
        #expect(moved > 0.9 && barsMoved < 0.1, "\(moved) of the pictures' samples changed, the pattern's \(barsMoved)")
        // Chroma is not flat grey either.
        let chroma = first.bytes[(size.width * size.height)...]
        #expect(Set(chroma).count > 20, "\(Set(chroma).count) chroma values")
    }
}
