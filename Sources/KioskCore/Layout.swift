// Where everything goes on the logical canvas, for any size: panels, buttons, labels, hit testing.
import KioskContract

extension Button {
    /// The place a button occupies; buttons that never show together share one.
    public enum Slot: Sendable { case left, centre, right, middle, shutter, beforeRecord, top }

    public var slot: Slot {
        switch self {
        case .cancel, .retake, .closePlayer, .back, .decline: .left
        case .start, .stop: .centre
        case .useVideo, .switchCamera, .done, .agree: .right
        case .playVideo: .middle
        case .photo: .shutter
        case .boomerang: .beforeRecord
        case .openLibrary: .top
        }
    }

}

/// The layout of the canvas. Sizes come from the canvas's short side so the screen reads the same
/// from 352x288 to 4K, with touch targets never below `minimumTouch` pixels where the canvas allows.
public struct Layout: Equatable, Sendable {
    /// Apple's and Android's smallest comfortable touch target, in pixels at ~160 dpi.
    public static let minimumTouch = 44
    /// The least room between the edges of two buttons shown side by side (a finger meant for one
    /// must not land on the other).
    public static let buttonGap = 24
    /// The smallest size a button's title is drawn at where the canvas allows (about 10.5 pt at
    /// ~96 dpi): a title that would be smaller on one line goes on two, and the buttons grow taller
    /// for it (`sideTitleLines`).
    public static let smallestTitle = 14
    /// The dark edge each side of the record circle's ring, as a fraction of the circle (at least
    /// 2 px): it is drawn outside `recordButton`, so the room beside the circle leaves it out.
    public static let recordOutline = 0.035

    public let canvas: Size
    public let topPanel: Rect
    public let bottomPanel: Rect
    /// The record / stop circle, a square around the disc.
    public let recordButton: Rect
    public let leftButton: Rect
    public let rightButton: Rect
    /// The Play Video button, centred between the panels.
    public let middleButton: Rect
    /// The shutter (`--photo-button`): a round button right of the record circle, a finger's gap
    /// from it; empty without one.
    public let shutterButton: Rect
    /// The camera switch, the one right button shown beside the shutter (in ready): the right
    /// button, narrowed to start a finger's gap past the shutter. Retake's, Use Video's and Done's
    /// modes have no shutter, so those keep the side buttons' one width.
    public let switchButton: Rect
    /// The Boomerang button (`--boomerang-button`): the shutter's mirror, left of the record circle;
    /// empty without one. Cancel, the one left button beside it (in ready and the countdown), is
    /// narrowed to end a finger's gap before it (`cancelButton`).
    public let boomerangButton: Rect
    /// The Boomerang button's title, under its circle (the two centred in the bottom panel
    /// together), as wide as the room between Cancel and the record circle allows.
    public let boomerangLabel: Rect
    public let cancelButton: Rect
    /// `--library`: ready's Library button, at the top panel's left, as wide as a side button and
    /// at least a touch tall (it may reach a little below a short top panel).
    public let libraryButton: Rect
    /// The timer (or position / duration) label's box inside the top panel.
    public let timerLabel: Rect
    /// The playback progress bar, in the bottom panel right of Close.
    public let progressBar: Rect
    /// Between the panels: where messages such as "camera unavailable" go.
    public let content: Rect
    /// The pixel height text should be rendered at for button labels and the timer.
    public let textHeight: Int
    /// The lines a side button's title may take: two in portrait with large text, where the side
    /// buttons cannot widen for it (the record circle leaves no room beside it) but can grow taller,
    /// and wherever the screen finds its titles would be smaller than `smallestTitle` on one line.
    public let sideTitleLines: Int

    /// `textScale` (`--large-text`: 1.35) makes the text that much larger, and the side and middle
    /// buttons wide enough for it (as far as the room beside the record circle allows); in portrait,
    /// where that room is short, the side buttons tall enough for two lines of title.
    /// `sideTitleLines` 2 makes the side buttons tall enough for two lines of title whatever the
    /// canvas (the screen asks for it when its words are too long for one); nil leaves it to the rule
    /// above.
    /// `shutter`: room for the shutter button beside the record circle (`--photo-button`).
    public init(canvas: Size, textScale: Double = 1, sideTitleLines lines: Int? = nil, shutter: Bool = false, boomerang: Bool = false) {
        self.canvas = canvas
        let scale = min(max(textScale, 1), 2)
        let w = canvas.width, h = canvas.height
        let short = max(canvas.shortSide, 1)
        func scaled(_ fraction: Double, atLeast minimum: Int) -> Int {
            max(Int((Double(short) * fraction).rounded()), minimum)
        }
        let margin = scaled(0.03, atLeast: 4)
        let topHeight = min(scaled(0.12, atLeast: 32), h / 4)
        let panelHeight = min(scaled(0.24, atLeast: Layout.minimumTouch + 2 * margin), h / 3)
        textHeight = max(scaled(0.055 * scale, atLeast: 12), 12)
        sideTitleLines = min(max(lines ?? (h > w && scale > 1 ? 2 : 1), 1), 2)
        // Two lines of side title (a line is about 1.2 of the text's size tall), with room around.
        let twoLines = Int((Double(textHeight) * 2.6).rounded())
        let bottomHeight = sideTitleLines == 2 ? min(max(panelHeight, twoLines + 2 * margin), h / 3) : panelHeight
        topPanel = Rect(x: 0, y: 0, width: w, height: topHeight)
        bottomPanel = Rect(x: 0, y: h - bottomHeight, width: w, height: bottomHeight)
        content = Rect(x: 0, y: topHeight, width: w, height: max(h - topHeight - bottomHeight, 0))

        // The circle as the usual panel holds it, whatever a taller one does for the side titles.
        let circle = max(min(Int(Double(panelHeight) * 0.78), panelHeight - 2 * margin), 1)
        recordButton = bottomPanel.centered(Size(width: circle, height: circle))

        // Side buttons fill the room between the circle (with its outline) and the edge, a
        // finger's gap from the circle, up to a comfortable width.
        let outline = Layout.outline(ofCircle: circle)
        let sideRoom = max((w - circle) / 2 - outline - max(Layout.buttonGap, margin) - margin, 1)
        let sideWidth = min(scaled(0.36 * scale, atLeast: Layout.minimumTouch), sideRoom)
        let oneLine = min(max(Int(Double(circle) * 0.7), min(Layout.minimumTouch, circle)), bottomHeight)
        let sideHeight = sideTitleLines == 2 ? min(max(oneLine, twoLines), bottomHeight - 2 * margin) : oneLine
        let sideY = bottomPanel.y + (bottomHeight - sideHeight) / 2
        leftButton = Rect(x: margin, y: sideY, width: sideWidth, height: sideHeight)
        rightButton = Rect(x: w - margin - sideWidth, y: sideY, width: sideWidth, height: sideHeight)

        // The shutter: smaller than the circle (a photo is the lesser action), never below a touch
        // where the canvas has the room.
        let gap = max(Layout.buttonGap, margin)
        let shutterRoom = w - margin - (recordButton.maxX + outline + gap) - gap - Layout.minimumTouch
        let shutterSide = shutter ? max(min(Int(Double(circle) * 0.6), shutterRoom), min(Layout.minimumTouch, circle)) : 0
        shutterButton = shutter
            ? Rect(x: recordButton.maxX + outline + gap, y: bottomPanel.y + (bottomHeight - shutterSide) / 2, width: shutterSide, height: shutterSide)
            : Rect(x: 0, y: 0, width: 0, height: 0)
        let switchX = shutter ? max(rightButton.x, shutterButton.maxX + gap) : rightButton.x
        switchButton = Rect(x: switchX, y: rightButton.y, width: max(rightButton.maxX - switchX, 1), height: rightButton.height)
        let boomerangRoom = (recordButton.x - outline - gap) - gap - margin - Layout.minimumTouch
        let boomerangSide = boomerang ? max(min(Int(Double(circle) * 0.6), boomerangRoom), min(Layout.minimumTouch, circle)) : 0
        // Halfway between Cancel and the record circle where there is room (its title's room is then
        // even on both sides), else a finger's gap from the circle; over its title, the pair centred.
        let hugX = recordButton.x - outline - gap - boomerangSide, boomerangX = min(hugX, (leftButton.maxX + gap + hugX) / 2)
        let labelHeight = min(max(textHeight * 9 / 10, 12), max(bottomHeight - boomerangSide - margin, 0))
        let cancelEnd = boomerang ? min(leftButton.maxX, boomerangX - gap) : leftButton.maxX
        let centre = boomerangX + boomerangSide / 2, labelHalf = min(centre - cancelEnd - gap / 2, hugX + boomerangSide + gap / 2 - centre)
        boomerangButton = boomerang ? Rect(x: boomerangX, y: bottomPanel.y + (bottomHeight - boomerangSide - labelHeight) / 2,
                                           width: boomerangSide, height: boomerangSide) : Rect(x: 0, y: 0, width: 0, height: 0)
        boomerangLabel = boomerang ? Rect(x: centre - labelHalf, y: boomerangButton.maxY, width: 2 * max(labelHalf, 1), height: labelHeight)
            : boomerangButton
        cancelButton = Rect(x: leftButton.x, y: leftButton.y, width: max(cancelEnd - leftButton.x, 1), height: leftButton.height)

        let middleSize = Size(width: min(scaled(0.5 * scale, atLeast: 2 * Layout.minimumTouch), w - 2 * margin),
                              height: min(scaled(0.15, atLeast: Layout.minimumTouch), max(content.height, 1)))
        middleButton = content.centered(middleSize)

        libraryButton = Rect(x: margin, y: max(margin / 2, 2), width: min(sideWidth, max(w / 3 - margin, 1)),
                             height: max(topHeight - 2 * max(margin / 2, 2), Layout.minimumTouch))
        timerLabel = topPanel.outset(dx: -margin, dy: -max(margin / 2, 2))
        let barHeight = scaled(0.02, atLeast: 4)
        let barX = leftButton.maxX + margin
        progressBar = Rect(x: barX, y: bottomPanel.y + (bottomHeight - barHeight) / 2,
                           width: max(w - margin - barX, 0), height: barHeight)
    }

    /// The dark edge drawn around a record circle `diameter` wide, in pixels.
    public static func outline(ofCircle diameter: Int) -> Int {
        max(Int((Double(diameter) * recordOutline).rounded(.up)), 2)
    }

    /// What the record circle covers on screen: its square and the outline around it.
    public var recordButtonDrawn: Rect {
        let edge = Layout.outline(ofCircle: recordButton.width)
        return recordButton.outset(dx: edge, dy: edge)
    }

    /// The countdown's disc: half the picture's short side, in its middle, but below the question
    /// (whose box ends at `top`) by half the text's size, smaller if the room under it is less.
    public func countdownDisc(below top: Int? = nil) -> Rect {
        let gap = max(textHeight / 2, 4), y = max((top ?? 0) + gap, content.y)
        let side = max(min(min(content.width, content.height) / 2, content.maxY - gap - y), 1)
        let disc = content.centered(Size(width: side, height: side))
        return Rect(x: disc.x, y: max(disc.y, y), width: side, height: side)
    }

    /// The consent screen's switch rows (`--consent`), top to bottom, for `count` switches: at the foot
    /// of the content area, each a row to tap.
    public func consentRows(count: Int) -> [Rect] {
        let gap = max(textHeight / 3, 4), height = max(Layout.minimumTouch, textHeight * 2)
        let width = min(content.width - 2 * textHeight, textHeight * 30), top = content.maxY - gap - count * (height + gap)
        return (0..<count).map { Rect(x: content.x + (content.width - width) / 2, y: top + $0 * (height + gap), width: width, height: height) }
    }

    /// While recording, the timer's place beside the question (`questionBand`): the top panel's
    /// right end.
    public var asideTimer: Rect {
        let width = min(textHeight * 9 / 2, timerLabel.width / 3)
        return Rect(x: timerLabel.maxX - width, y: timerLabel.y, width: width, height: timerLabel.height)
    }

    /// While recording, the question's band: the top panel left of the timer, at most an eighth of
    /// the screen's height (above the faces, not over them).
    public var questionBand: Rect {
        Rect(x: timerLabel.x, y: 0, width: max(asideTimer.x - Layout.buttonGap / 2 - timerLabel.x, 1), height: min(topPanel.height, canvas.height / 8))
    }

    /// The rectangle a button is drawn in.
    public func frame(of button: Button) -> Rect {
        if button == .switchCamera { return switchButton }
        if button == .cancel { return cancelButton }
        return switch button.slot {
        case .left: leftButton
        case .centre: recordButton
        case .right: rightButton
        case .middle: middleButton
        case .shutter: shutterButton
        case .beforeRecord: boomerangButton
        case .top: libraryButton
        }
    }

    /// The rectangle that takes a touch for a button: its frame (the Boomerang button's with its
    /// title), grown to the minimum touch size.
    public func hitFrame(of button: Button) -> Rect {
        let r = frame(of: button), label = button == .boomerang ? boomerangLabel : r
        let x = min(r.x, label.x), whole = Rect(x: x, y: r.y, width: max(r.maxX, label.maxX) - x, height: label.maxY - r.y)
        return whole.outset(dx: max(0, (Layout.minimumTouch - whole.width + 1) / 2), dy: max(0, (Layout.minimumTouch - whole.height + 1) / 2))
    }

    /// The rectangle that takes a touch for the progress bar: the bar, grown to the minimum touch
    /// height (and a little past its ends, so its very start and end can be hit).
    public var progressHitFrame: Rect {
        let bar = progressBar
        let dy = max(0, (Layout.minimumTouch - bar.height + 1) / 2)
        let dx = min(Layout.minimumTouch / 4, max(0, bar.x - leftButton.maxX) / 2)
        return bar.outset(dx: dx, dy: dy)
    }

    /// Where a touch at `point` on the canvas falls along the progress bar, 0 (start) to 1 (end);
    /// nil when it is not on the bar.
    public func progressFraction(at point: Point) -> Double? {
        let bar = progressBar
        guard !bar.isEmpty, progressHitFrame.contains(point) else { return nil }
        return min(max((point.x - Double(bar.x)) / Double(bar.width), 0), 1)
    }

    /// The visible button under a point on the canvas, if any.
    public func button(at point: Point, among visible: [Button]) -> Button? {
        visible.first { hitFrame(of: $0).contains(point) }
    }
}
