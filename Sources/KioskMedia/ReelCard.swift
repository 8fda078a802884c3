// A film card's words as libavfilter's drawtext draws them: the face fontconfig picks for the words'
// own characters (Arabic and Hebrew are in DejaVu Sans, not in Noto Sans CJK), each line shaped and
// laid out right to left where its script is (drawtext's text_shaping: FriBidi; a right-to-left
// card's lines as a right-to-left paragraph, by its first letter), and lines broken
// where the script allows (LineBreaks) at widths drawtext itself measured, so every line fits the frame.
import CFFmpeg
import Glibc
import KioskCore
import KioskFonts
import KioskScreenText

/// One card's layout: its lines (each in logical order: drawtext reorders it; a right-to-left card's
/// each inside an embedding), its font file and the size in pixels.
struct ReelCard: Equatable {
    var lines: [String]
    var font: String
    var fontSize: Int

    /// The family the cards prefer: Noto Sans CJK has Latin and CJK (kiosk/setup installs it).
    static let family = "Noto Sans CJK JP"
    /// Lines at most; the last one of a longer text ends with "…".
    static let maxLines = 6
    /// More than this is never drawn (six lines of the smallest size hold less), so the measuring
    /// picture stays small however long a title is.
    static let maxCharacters = 400

    /// The font file for `text`: fontconfig's match for the family with every character of `text`
    /// (its charset). fontconfig ranks coverage above the family, so a face that has them all wins,
    /// and among those the family; where none has them all, the one with the most. Handed to
    /// drawtext as its `fontfile` (drawtext reads `font` as a family name only).
    static func font(for text: String) -> String {
        let scalars = Set(text.unicodeScalars.filter { !$0.properties.isWhitespace && $0.value >= 0x20 }.map(\.value))
        return FontMatch.best(pattern: family, covering: Array(scalars))?.path ?? "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    }

    /// drawbox's options that fill the picture with `colour` (0xRRGGBB), converted as drawtext's are.
    static func background(_ colour: UInt32) -> String {
        "drawbox=x=0:y=0:w=iw:h=ih:t=fill:color=" + hex(colour)
    }

    /// `colour` as libavfilter reads a colour: `0xRRGGBB`.
    static func hex(_ colour: UInt32) -> String {
        let digits = String(colour & 0xFFFFFF, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// drawtext's options for `line` in `colour` (white by default), drawn as written (no expansion, its value quoted for
    /// libavfilter's two readings), shaped (`text_shaping`, FriBidi: joined letters, right to left).
    /// With `box`, a white box `text_w` wide behind it: how its width is measured.
    static func drawtext(_ line: String, font: String, fontSize: Int, colour: UInt32 = 0xFFFFFF, x: String, y: Int, box: Bool = false) -> String {
        let options = "fontfile=\(FilterGraph.quoted(font)):expansion=none:text_shaping=1:text=\(FilterGraph.quoted(line)):fontcolor=\(hex(colour))"
            + ":fontsize=\(fontSize):x=\(x):y=\(y)" + (box ? ":box=1:boxcolor=white:boxborderw=0" : "")
        return "drawtext=" + FilterGraph.quoted(options)
    }

    /// `text` laid out on a card of `size`: at a twelfth of its height, lines within 85 % of its
    /// width, balanced; smaller when one word alone is wider than that (down to 12 px).
    static func layout(_ text: String, size: Size) throws(AVError) -> ReelCard {
        let text = String(text.prefix(maxCharacters))
        // drawtext's FriBidi lays each line out as a left-to-right paragraph, which puts a Hebrew
        // question's "?" at its right end, and a Latin word or a number in Arabic on the wrong side.
        // A right-to-left card's lines are each one embedding (RLE … PDF, zero-width in the faces
        // that have them, which the face is chosen for): laid out as a right-to-left paragraph is.
        let embedding = TextDirection.of(text) == .rightToLeft ? (open: "\u{202B}", close: "\u{202C}") : (open: "", close: "")
        let font = font(for: embedding.open + text + embedding.close), maxWidth = size.width * 85 / 100
        var fontSize = max(size.height / 12, 12)
        let pieces = Array(Set(LineBreaks.pieces(text).map(\.text))) + ["x x", "xx"]
        var widths = try measure(pieces, font: font, fontSize: fontSize, limit: size.width * 2)
        if let widest = pieces.dropLast(2).compactMap({ widths[$0] }).max(), widest > maxWidth, fontSize > 12 {
            fontSize = max(12, fontSize * maxWidth / widest)
            widths = try measure(pieces, font: font, fontSize: fontSize, limit: size.width * 2)
        }
        let space = max((widths["x x"] ?? 0) - (widths["xx"] ?? 0), 0)
        var lines = LineBreaks.balanced(text, maxWidth: maxWidth) { (line: String) -> Int in
            LineBreaks.pieces(line).reduce(0) { $0 + (widths[$1.text] ?? 0) + ($1.joiner.isEmpty ? 0 : space) }
        }
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] += "…"
        }
        return ReelCard(lines: lines.map { embedding.open + $0 + embedding.close }, font: font, fontSize: fontSize)
    }

    /// Each of `texts`' width in pixels (`text_w`) as drawtext draws it in `font` at `fontSize`: each
    /// in a band of its own on one black picture, over a white box its width, read back as the
    /// rightmost lit column. At most `limit` (wider is clipped there).
    static func measure(_ texts: [String], font: String, fontSize: Int, limit: Int) throws(AVError) -> [String: Int] {
        let band = fontSize * 2, width = (max(limit, 64) + 1) & ~1
        let size = Size(width: width, height: max(texts.count * band, 2))
        let chain = texts.enumerated().map { drawtext($1, font: font, fontSize: fontSize, x: "0", y: $0 * band + band / 4, box: true) }
        let luma = try draw(chain, size: size)
        var widths: [String: Int] = [:]
        for (i, text) in texts.enumerated() {
            var right = 0
            for row in (i * band)..<((i + 1) * band) {
                let start = row * width
                if let last = luma[start..<(start + width)].lastIndex(where: { $0 > 128 }) { right = max(right, last - start + 1) }
            }
            widths[text] = right
        }
        return widths
    }

    /// A black yuv420p picture of `size` (limited range) through `chain` (drawtexts), its planes packed.
    static func draw(_ chain: [String], size: Size) throws(AVError) -> [UInt8] {
        let graph = try FilterGraph(pictures: chain.isEmpty ? "null" : chain.joined(separator: ","), size: size, format: AV_PIX_FMT_YUV420P,
                                    timeBase: AVRational(num: 1, den: 30))
        let frame = try Reel.picture(size)
        let f = frame.pointer
        // Black in limited range: Y 16, Cb and Cr 128.
        for (plane, value, rows) in [(0, UInt8(16), size.height), (1, 128, (size.height + 1) / 2), (2, 128, (size.height + 1) / 2)] {
            memset(Reel.plane(f, plane), Int32(value), Int(Reel.pitch(f, plane)) * rows)
        }
        try graph.push(f)
        try graph.push(nil)
        av_frame_unref(f)
        guard try graph.pull(into: f) else { throw AVError(code: kiosk_AVERROR_EOF(), call: "drawtext gave no picture") }
        defer { av_frame_unref(f) }
        return Reel.copyPlanes(f, size: size)
    }
}
