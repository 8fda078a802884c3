// The review's trimmer (`--trim`), drawn where TrimmerLayout puts it: a band of the take's
// pictures along its length, the part kept framed in yellow between two handles (iOS's trimmer), the rest
// dimmed, and the start's and end's times above the handles.
import KioskCore

extension Style {
    /// The trimmer's frame and handles: iOS's yellow.
    static let trimFrame = RGBA(255, 214, 10)
    /// The band's ground, and the veil over the part left out.
    static let trimBand = RGBA(28, 28, 30, 230)
    static let trimOutside = RGBA(0, 0, 0, 160)
    /// The grip lines on a handle.
    static let trimGrip = RGBA(0, 0, 0, 200)
}

extension Overlay {
    /// The trimmer for `view` (the take's length and the part kept).
    func drawTrimmer(_ view: TrimmerView) throws(SDLError) {
        let trimmer = TrimmerLayout(layout: layout, duration: view.duration, range: view.range)
        let strip = trimmer.strip
        painter.fill(strip, Style.trimBand)
        for (picture, box) in zip(trimPictures, trimmer.thumbnails(count: trimPictures.count)) {
            painter.picture(picture, filling: box)
        }
        // Until the pictures come (and under them), the time line's seconds as ticks along the band.
        if trimPictures.isEmpty, view.duration > 0 {
            var second = 1.0
            while second < view.duration {
                let x = Int(trimmer.x(of: second).rounded())
                painter.fill(Rect(x: x, y: strip.y + strip.height / 3, width: 1, height: strip.height / 3), Style.progressTrack)
                second += 1
            }
        }
        let start = trimmer.startHandle, end = trimmer.endHandle
        // The part left out, dimmed.
        if start.maxX > strip.x { painter.fill(Rect(x: strip.x, y: strip.y, width: start.maxX - strip.x, height: strip.height), Style.trimOutside) }
        if end.x < strip.maxX { painter.fill(Rect(x: end.x, y: strip.y, width: strip.maxX - end.x, height: strip.height), Style.trimOutside) }
        // The part kept, framed above and below, between the handles.
        let edge = max(start.width / 4, 3)
        let kept = Rect(x: start.x, y: strip.y - edge, width: end.maxX - start.x, height: strip.height + 2 * edge)
        painter.fill(Rect(x: kept.x, y: kept.y, width: kept.width, height: edge), Style.trimFrame)
        painter.fill(Rect(x: kept.x, y: kept.maxY - edge, width: kept.width, height: edge), Style.trimFrame)
        for handle in [start, end] {
            let drawn = Rect(x: handle.x, y: kept.y, width: handle.width, height: kept.height)
            try painter.fillRounded(drawn, radius: Double(handle.width) / 4, Style.trimFrame)
            let grip = Rect(x: handle.x + handle.width / 2 - 1, y: handle.y + handle.height / 3, width: 2, height: handle.height / 3)
            painter.fill(grip, Style.trimGrip)
        }
        for (box, seconds) in [(trimmer.startLabel, view.range.start), (trimmer.endLabel, view.range.end)] {
            let texture = try text.line(TrimmerLayout.timeText(seconds), size: textSize * 4 / 5, maxWidth: box.width)
            try painter.fillRounded(box, radius: Double(box.height) / 2, Style.messageBackground)
            painter.text(texture, centeredAt: box.center, Style.lightText)
        }
    }
}
