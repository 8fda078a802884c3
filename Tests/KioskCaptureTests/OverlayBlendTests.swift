// The overlay's blend (KioskPixels' kiosk_blend_plane, which the writer runs on every picture of a
// take with `--overlay`): every vector width gives the bytes the definition gives, over spans that
// start and end anywhere, and nothing outside the spans changes.
import KioskCore
import KioskPixels
import Testing

/// t' = min(255, o + round((255 - a) t / 255)): the overlay's premultiplied sample over the picture's.
enum BlendDefinition {
    static func expected(_ picture: [UInt8], _ over: [UInt8], _ alpha: [UInt8]) -> [UInt8] {
        (0..<picture.count).map { i in
            let kept = (Double(255 - Int(alpha[i])) * Double(picture[i]) / 255).rounded()
            return UInt8(min(255, Int(over[i]) + Int(kept)))
        }
    }

    /// `count` pictures samples, alphas and the overlay's premultiplied samples (never above its
    /// alpha's share, as a premultiplied colour is); every pair of alpha and picture value at 65536.
    static func samples(_ count: Int) -> (picture: [UInt8], over: [UInt8], alpha: [UInt8]) {
        var state: UInt32 = 0x9E3779B9 &+ UInt32(count)
        func next() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let picture = (0..<count).map { i in count == 65536 ? UInt8(i & 0xFF) : next() }
        let alpha = (0..<count).map { i in count == 65536 ? UInt8(i >> 8) : next() }
        let over = alpha.map { a in UInt8((Double(a) * Double(next()) / 255).rounded()) }
        return (picture, over, alpha)
    }
}

@Suite("Overlay blend")
struct OverlayBlendTests {
    @Test("every vector width (AVX2, SSE2, scalar) blends every picture value at every alpha as the definition says",
          arguments: [Int32(32), 16, 1])
    func everyValue(limit: Int32) {
        let (picture, over, alpha) = BlendDefinition.samples(65536)
        var out = picture
        let before = kiosk_pixels_vector_limit(limit)
        defer { kiosk_pixels_vector_limit(before) }
        var span = kiosk_span(row: 0, start: 0, count: UInt32(picture.count))
        kiosk_blend_plane(&out, picture.count, over, alpha, picture.count, &span, 1)
        #expect(out == BlendDefinition.expected(picture, over, alpha))
        // Alpha 0 over nothing leaves the picture; alpha 255 is the overlay's own sample.
        for i in [0, 255, 65535] { #expect(alpha[i] != 0 || out[i] == picture[i]) }
    }

    @Test("spans on several rows with odd starts and lengths blend those samples only", arguments: [Int32(32), 16, 1])
    func spansOnly(limit: Int32) {
        let width = 97, height = 5, pitch = 128
        let (flat, over, alpha) = BlendDefinition.samples(pitch * height)
        let spans = [kiosk_span(row: 0, start: 3, count: 70), kiosk_span(row: 2, start: 0, count: 97), kiosk_span(row: 4, start: 50, count: 1)]
        var out = flat
        let before = kiosk_pixels_vector_limit(limit)
        defer { kiosk_pixels_vector_limit(before) }
        // The overlay's planes have the picture's width as their pitch; the picture has a wider one.
        let overTight = (0..<height).flatMap { Array(over[($0 * pitch)..<($0 * pitch + width)]) }
        let alphaTight = (0..<height).flatMap { Array(alpha[($0 * pitch)..<($0 * pitch + width)]) }
        kiosk_blend_plane(&out, pitch, overTight, alphaTight, width, spans, spans.count)
        var want = flat
        for span in spans {
            for x in Int(span.start)..<Int(span.start + span.count) {
                let i = Int(span.row) * pitch + x, j = Int(span.row) * width + x
                want[i] = BlendDefinition.expected([flat[i]], [overTight[j]], [alphaTight[j]])[0]
            }
        }
        #expect(out == want)
    }
}
