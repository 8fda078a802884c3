// The overlay made ready for one take (`--overlay`): the PNG for the take's shape as the guest sees
// it, scaled once to cover the picture (centred, bicubic, premultiplied so that no transparent
// colour bleeds into the edges), turned into the stored picture's own orientation (the take carries
// its turn as a display matrix, so a player that honours it shows the overlay upright; the preview's
// mirror never applies), and made premultiplied video-range BT.601 planes with the runs of each row
// that are not fully transparent. Then every picture of the take is blended over those runs only,
// in KioskPixels' vector loops, in the writer's own picture.
import CFFmpeg
import KioskCore
import KioskSystem
import KioskPixels

/// Read-only once made (every property a `let` of a Sendable value): the writer's thread blends with
/// it, and the next take's writer may take the same one (`made`).
public final class OverlayPlanes: Sendable {
    /// What it was made from: the overlay, the picture's size, its turn and its chroma layout.
    private let source: Source
    private struct Source: Equatable {
        let overlay: TakeOverlay, size: Size, quarterTurns: Int, interleaved: Bool
    }
    /// The stored picture's size.
    let size: Size
    /// Chroma as NV12's one interleaved plane (VA-API's pictures), else as two planes.
    let interleaved: Bool
    private let luma: [UInt8], lumaAlpha: [UInt8]
    /// Planar: Cb then Cr, each `chromaWidth` wide; interleaved: one plane 2 * `chromaWidth` wide.
    private let chroma: [UInt8], chromaAlpha: [UInt8]
    private let chromaWidth: Int
    private let lumaSpans: [kiosk_span], chromaSpans: [kiosk_span]
    /// Gaps of fewer transparent samples than this are blended through: one run costs less than two.
    static let spanGap = 32

    /// The overlay of `overlay` for pictures of `size` that a player turns `quarterTurns` clockwise.
    public init(_ overlay: TakeOverlay, size: Size, quarterTurns: Int, interleaved: Bool) throws(AVError) {
        let odd = quarterTurns % 2 != 0
        let shown = odd ? Size(width: size.height, height: size.width) : size
        let upright = try Self.cover(overlay.picture(shown: shown), to: shown)
        var stored = [UInt8](repeating: 0, count: size.width * size.height * 4)
        upright.withUnsafeBufferPointer { source in
            stored.withUnsafeMutableBufferPointer { target in
                kiosk_turn_rgba(source.baseAddress!, shown.width, shown.height, target.baseAddress!, Int32(quarterTurns))
            }
        }
        self.size = size
        self.interleaved = interleaved
        source = Source(overlay: overlay, size: size, quarterTurns: quarterTurns, interleaved: interleaved)
        let cw = (size.width + 1) / 2, ch = (size.height + 1) / 2
        chromaWidth = cw
        var y = [UInt8](repeating: 0, count: size.width * size.height), ya = y
        var cb = [UInt8](repeating: 0, count: cw * ch), cr = cb, ca = cb
        stored.withUnsafeBufferPointer { rgba in
            kiosk_overlay_planes(rgba.baseAddress!, size.width * 4, size.width, size.height, &y, &ya, &cb, &cr, &ca)
        }
        luma = y
        lumaAlpha = ya
        lumaSpans = Self.spans(ya, width: size.width, height: size.height)
        if interleaved {
            var both = [UInt8](repeating: 0, count: 2 * cw * ch), alphas = both
            kiosk_interleave(cb, cr, &both, cw * ch)
            kiosk_interleave(ca, ca, &alphas, cw * ch)
            chroma = both
            chromaAlpha = alphas
            chromaSpans = Self.spans(alphas, width: 2 * cw, height: ch)
        } else {
            chroma = cb + cr
            chromaAlpha = ca
            chromaSpans = Self.spans(ca, width: cw, height: ch)
        }
    }

    /// The last take's planes are kept: the next take with the same overlay, size and turn (the
    /// usual case) takes them instead of making them again (30 to 75 ms: `bench/overlay`). The
    /// pictures compare by their buffers first, which `OverlayFiles` hands out unchanged.
    private static let last = Locked<OverlayPlanes?>(nil)

    /// The planes for a take: the last take's when they were made from the same, else new ones.
    static func made(_ overlay: TakeOverlay, size: Size, quarterTurns: Int, interleaved: Bool) throws(AVError) -> OverlayPlanes {
        let wanted = Source(overlay: overlay, size: size, quarterTurns: quarterTurns, interleaved: interleaved)
        if let planes = last.withLock({ $0 }), planes.source == wanted { return planes }
        let planes = try OverlayPlanes(overlay, size: size, quarterTurns: quarterTurns, interleaved: interleaved)
        last.withLock { $0 = planes }
        return planes
    }

    /// Samples the blend touches in each picture (luma and chroma), for the benchmark's report.
    public var blendedSamples: Int {
        let luma = lumaSpans.reduce(0) { $0 + Int($1.count) }, chroma = chromaSpans.reduce(0) { $0 + Int($1.count) }
        return luma + (interleaved ? chroma : 2 * chroma)
    }

    /// The runs of a tight alpha plane that are not fully transparent (`kiosk_alpha_spans`).
    private static func spans(_ alpha: [UInt8], width: Int, height: Int) -> [kiosk_span] {
        var spans = [kiosk_span](repeating: kiosk_span(), count: height * (width / 2 + 1))
        let count = kiosk_alpha_spans(alpha, width, height, spanGap, &spans)
        return Array(spans.prefix(count))
    }

    /// `picture` (straight RGBA) scaled whole to `size` with swscale's area filter, premultiplied
    /// while it is scaled and straight again after: the overlay kept smaller (OverlayFiles).
    static func scaledStraight(_ picture: OverlayPicture, to size: Size) throws(AVError) -> [UInt8] {
        var source = picture.rgba
        source.withUnsafeMutableBufferPointer { kiosk_premultiply($0.baseAddress!, picture.size.width * picture.size.height) }
        var out = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let key = Scaler.Key(source: AV_PIX_FMT_RGBA, sourceWidth: Int32(picture.size.width), sourceHeight: Int32(picture.size.height),
                             target: AV_PIX_FMT_RGBA, targetWidth: Int32(size.width), targetHeight: Int32(size.height),
                             sourceFullRange: true, targetFullRange: true, bt709: false, flags: SWS_AREA | SWS_ACCURATE_RND)
        let scaler = try Scaler(key)
        try source.withUnsafeBufferPointer { bytes throws(AVError) in
            try out.withUnsafeMutableBufferPointer { target throws(AVError) in
                try scaler.scale([bytes.baseAddress!], pitches: [picture.size.width * 4], into: [target.baseAddress!], pitches: [size.width * 4])
            }
        }
        source = []
        // Straight again: each colour divided by its alpha (rounded), a transparent pixel black.
        out.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = Int(p[i + 3])
                if a == 0 {
                    p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
                } else if a < 255 {
                    for c in 0..<3 { p[i + c] = UInt8(min(255, (Int(p[i + c]) * 255 + a / 2) / a)) }
                }
                i += 4
            }
        }
        return out
    }

    /// `picture` (straight RGBA) premultiplied, cropped centred to `shown`'s shape and scaled to
    /// it with swscale's bicubic filter: the overlay covers the picture.
    private static func cover(_ picture: OverlayPicture, to shown: Size) throws(AVError) -> [UInt8] {
        var source = picture.rgba
        source.withUnsafeMutableBufferPointer { kiosk_premultiply($0.baseAddress!, picture.size.width * picture.size.height) }
        let (pw, ph) = (picture.size.width, picture.size.height)
        // The largest part of the PNG with the picture's shape, centred.
        var crop = (x: 0, y: 0, width: pw, height: ph)
        if pw * shown.height > ph * shown.width {
            crop.width = max(1, min(pw, (ph * shown.width + shown.height / 2) / shown.height))
            crop.x = (pw - crop.width) / 2
        } else {
            crop.height = max(1, min(ph, (pw * shown.height + shown.width / 2) / shown.width))
            crop.y = (ph - crop.height) / 2
        }
        var out = [UInt8](repeating: 0, count: shown.width * shown.height * 4)
        let same = crop.width == shown.width && crop.height == shown.height
        let key = Scaler.Key(source: AV_PIX_FMT_RGBA, sourceWidth: Int32(crop.width), sourceHeight: Int32(crop.height),
                             target: AV_PIX_FMT_RGBA, targetWidth: Int32(shown.width), targetHeight: Int32(shown.height),
                             sourceFullRange: true, targetFullRange: true, bt709: false,
                             flags: same ? SWS_POINT : SWS_BICUBIC | SWS_ACCURATE_RND)
        let scaler = try Scaler(key)
        try source.withUnsafeBufferPointer { bytes throws(AVError) in
            try out.withUnsafeMutableBufferPointer { target throws(AVError) in
                try scaler.scale([bytes.baseAddress! + (crop.y * pw + crop.x) * 4], pitches: [pw * 4],
                                 into: [target.baseAddress!], pitches: [shown.width * 4])
            }
        }
        return out
    }

    /// Burns the overlay into a picture of `size` the writer owns (yuv420p, or NV12 when
    /// `interleaved`), before it is encoded.
    func blend(into frame: UnsafeMutablePointer<AVFrame>) {
        let f = frame.pointee
        guard Int(f.width) == size.width, Int(f.height) == size.height, let y = f.data.0, let c1 = f.data.1 else { return }
        guard interleaved || f.data.2 != nil else { return }
        blend(planes: [y, c1] + (interleaved ? [] : [f.data.2!]), pitches: f.planePitches)
    }

    /// Burns the overlay into a picture of `size` given by its planes (Y, Cb, Cr; or Y and NV12's
    /// CbCr) and their pitches in bytes.
    public func blend(planes: [UnsafeMutablePointer<UInt8>], pitches: [Int]) {
        lumaSpans.withUnsafeBufferPointer { spans in
            kiosk_blend_plane(planes[0], pitches[0], luma, lumaAlpha, size.width, spans.baseAddress, spans.count)
        }
        chromaSpans.withUnsafeBufferPointer { spans in
            chroma.withUnsafeBufferPointer { both in
                if interleaved {
                    kiosk_blend_plane(planes[1], pitches[1], both.baseAddress!, chromaAlpha, 2 * chromaWidth, spans.baseAddress, spans.count)
                } else {
                    let cr = both.baseAddress! + chromaWidth * ((size.height + 1) / 2)
                    kiosk_blend_plane(planes[1], pitches[1], both.baseAddress!, chromaAlpha, chromaWidth, spans.baseAddress, spans.count)
                    kiosk_blend_plane(planes[2], pitches[2], cr, chromaAlpha, chromaWidth, spans.baseAddress, spans.count)
                }
            }
        }
    }
}
