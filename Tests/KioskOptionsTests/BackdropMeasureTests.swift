// `--key auto`'s rule (BackdropMeasure): the key measured from backdrops made of known samples.
import Testing
@testable import KioskOptions

@Suite("--key auto: the key measured from the backdrop")
struct BackdropMeasureTests {
    /// `count` samples from `colour(i)` (i from 0 to count - 1), each channel moved by up to
    /// `noise` levels (the same on every run).
    static func samples(_ count: Int, noise: Int = 0, _ colour: (Int) -> (Int, Int, Int)) -> [UInt8] {
        var seed: UInt32 = 12345
        func next() -> Int {
            seed = seed &* 1_103_515_245 &+ 12345
            return noise == 0 ? 0 : Int(seed >> 16) % (2 * noise + 1) - noise
        }
        return (0..<count).flatMap { i -> [UInt8] in
            let (r, g, b) = colour(i)
            return [r, g, b].map { UInt8(min(max($0 + next(), 0), 255)) }
        }
    }

    /// A backdrop, and what its measure says: its problems, its key's colour (within 3 levels a
    /// channel), its similarity's range.
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let rgb: [UInt8]
        let problems: [BackdropMeasure.Problem]
        let colour: (Int, Int, Int)
        let similarity: ClosedRange<Double>
    }

    static let cases: [Case] = [
        Case(description: "an even green, a little noise", rgb: samples(4000, noise: 4) { _ in (6, 154, 58) },
             problems: [], colour: (6, 154, 58), similarity: 0.04...0.07),
        Case(description: "a light gradient around chroma-key green", rgb: samples(4000, noise: 4) { i in (6 + 22 * i / 4000, 154 + 42 * i / 4000, 58 + 28 * i / 4000) },
             problems: [], colour: (17, 175, 72), similarity: 0.04...0.1),
        Case(description: "an even blue", rgb: samples(4000, noise: 3) { _ in (0, 71, 187) }, problems: [], colour: (0, 71, 187), similarity: 0.04...0.07),
        Case(description: "a dark green", rgb: samples(4000, noise: 2) { _ in (3, 31, 12) }, problems: [.dark], colour: (3, 31, 12), similarity: 0.04...0.07),
        Case(description: "lit from one side: a third falling off to a quarter of the light",
             rgb: samples(3000) { i in i < 2000 ? (10, 170, 60) : (4, 42 + 128 * (3000 - i) / 1000, 15 + 45 * (3000 - i) / 1000) },
             problems: [.uneven], colour: (10, 170, 60), similarity: 0.04...0.4),
        Case(description: "a guest's skin and shirt on a tenth of an even green",
             rgb: samples(4000, noise: 4) { i in i % 10 != 0 ? (6, 154, 58) : i % 20 == 0 ? (210, 160, 130) : (40, 40, 160) },
             problems: [.occupied], colour: (6, 154, 58), similarity: 0.04...0.07),
        Case(description: "dark and uneven", rgb: samples(3000) { i in i < 1500 ? (4, 50, 18) : (1, 10 + 40 * (3000 - i) / 1500, 4 + 14 * (3000 - i) / 1500) },
             problems: [.dark, .uneven], colour: (4, 50, 18), similarity: 0.04...0.4),
    ]

    @Test("each backdrop's key colour, similarity and problems", arguments: cases)
    func measured(_ c: Case) throws {
        let m = try #require(BackdropMeasure(rgb: c.rgb))
        let rgb = try #require(m.colour.components)
        #expect(abs(Int(rgb.red) - c.colour.0) <= 3 && abs(Int(rgb.green) - c.colour.1) <= 3 && abs(Int(rgb.blue) - c.colour.2) <= 3,
                "colour \(m.colour), not near \(c.colour)")
        #expect(c.similarity.contains(m.similarity), "similarity \(m.similarity)")
        #expect(m.problems == c.problems, "\(m.problems): \(m.warning ?? "no warning")")
        #expect((m.warning == nil) == c.problems.isEmpty)
    }

    @Test("the similarity keys every sample of the backdrop it was measured from, with a margin, and keys none of a guest's")
    func similarityCoversTheBackdrop() throws {
        let backdrop = Self.samples(4000, noise: 6) { i in (6 + 22 * i / 4000, 154 + 42 * i / 4000, 58 + 28 * i / 4000) }
        let m = try #require(BackdropMeasure(rgb: backdrop))
        let key = try #require(m.colour.components)
        let (_, ku, kv) = BackdropMeasure.yuv(Double(key.red), Double(key.green), Double(key.blue))
        func distance(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Double {
            let (_, u, v) = BackdropMeasure.yuv(Double(r), Double(g), Double(b))
            return BackdropMeasure.distance(u - ku, v - kv)
        }
        let farthest = stride(from: 0, to: backdrop.count, by: 3).map { distance(backdrop[$0], backdrop[$0 + 1], backdrop[$0 + 2]) }.max()!
        #expect(farthest < m.similarity && m.similarity - farthest >= 0.01, "the backdrop reaches \(farthest), the similarity \(m.similarity)")
        for (r, g, b) in [(210, 160, 130), (40, 40, 160), (200, 200, 200), (30, 30, 30), (120, 90, 40)] as [(UInt8, UInt8, UInt8)] {
            #expect(distance(r, g, b) > m.similarity + 0.05, "(\(r), \(g), \(b)) is keyed")
        }
    }

    @Test("the warning names each problem and what to do; no samples measure nothing")
    func warnings() throws {
        let dark = try #require(BackdropMeasure(rgb: Self.samples(100) { _ in (3, 31, 12) })).warning ?? ""
        #expect(dark.contains("too dark") && dark.contains("light it brighter"), "\(dark)")
        let uneven = try #require(BackdropMeasure(rgb: Self.samples(300) { i in i < 200 ? (10, 170, 60) : (4, 50, 18) })).warning ?? ""
        #expect(uneven.contains("unevenly") && uneven.contains("light it evenly"), "\(uneven)")
        let occupied = try #require(BackdropMeasure(rgb: Self.samples(100) { i in i < 80 ? (6, 154, 58) : (210, 160, 130) })).warning ?? ""
        #expect(occupied.hasPrefix("20 % of the picture is not the backdrop") && occupied.contains("move the guest off the backdrop"), "\(occupied)")
        #expect(BackdropMeasure(rgb: []) == nil)
    }

    @Test("--key auto is a key; it shows as auto and has no colour until measured")
    func option() throws {
        #expect(KeyColour("auto") == .auto && KeyColour("AUTO") == .auto)
        #expect(KeyColour.auto.description == "auto" && KeyColour.auto.components == nil)
    }
}
