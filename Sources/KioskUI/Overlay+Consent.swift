// The consent screen (`--consent`): the operator's text over the darkened picture, its headings larger,
// and under it a row for each offered switch (a pill that is green and right when on), above No
// thanks and Agree. The text shrinks, down to the smallest title size, until it fits above the
// switches; what still does not fit is cut at a paragraph. A tap on a row turns its switch over.
import KioskContract
import KioskCore
import KioskScreenText

extension Overlay {
    func drawConsent(_ blocks: [ConsentText.Block], _ switches: ConsentSwitches) throws(SDLError) {
        let area = layout.content
        painter.fill(area, Style.attractVeil)
        let rows = layout.consentRows(count: switches.offered.count)
        let room = Rect(x: area.x + textSize, y: area.y + textSize / 2, width: max(area.width - 2 * textSize, textSize),
                        height: max((rows.first?.y ?? area.maxY) - area.y - textSize, textSize))
        var size = textSize, textures: [TextTexture] = []
        while true {
            textures = []
            for block in blocks {
                textures.append(try text.paragraph(block.text, size: block.heading ? size * 5 / 4 : size, width: room.width))
            }
            let total = textures.reduce(0) { $0 + $1.size.height + size / 2 }
            if total <= room.height || size <= Layout.smallestTitle { break }
            size = max(size * 9 / 10, Layout.smallestTitle)
        }
        var y = room.y
        for texture in textures {
            guard y + texture.size.height <= room.maxY || y == room.y else { break }
            painter.text(texture, centeredAt: Point(x: Double(room.x) + Double(texture.size.width) / 2, y: Double(y) + Double(texture.size.height) / 2),
                         Style.lightText)
            y += texture.size.height + size / 2
        }
        for (row, choice) in zip(rows, switches.offered) { try drawSwitch(row, on: switches[choice] == true, label: words[Self.label(of: choice)]) }
    }

    /// The words beside a switch.
    static func label(of choice: ConsentChoice) -> ScreenText {
        switch choice {
        case .share: .consentShare
        case .slideshow: .consentSlideshow
        case .film: .consentFilm
        }
    }

    private func drawSwitch(_ row: Rect, on: Bool, label: String) throws(SDLError) {
        try painter.fillRounded(row, radius: Double(row.height) / 4, RGBA(0, 0, 0, 150))
        let pill = Rect(x: row.maxX - row.height * 2 - row.height / 4, y: row.y + row.height / 4, width: row.height * 2, height: row.height / 2)
        try painter.fillRounded(pill, radius: Double(pill.height) / 2, on ? Style.meterGreen : Style.progressTrack)
        let knob = Rect(x: on ? pill.maxX - pill.height : pill.x, y: pill.y, width: pill.height, height: pill.height)
        try painter.fillCircle(knob.outset(dx: -2, dy: -2), Style.light)
        let title = try text.line(label, size: min(textSize, row.height / 2), maxWidth: max(pill.x - row.x - textSize, textSize))
        painter.text(title, centeredAt: Point(x: Double(row.x + textSize / 2) + Double(title.size.width) / 2, y: row.center.y), Style.lightText)
    }
}

extension Screen {
    /// The switch under a point of the canvas while the consent screen shows (a tap turns it over).
    public func consentChoice(atLogical point: Point) -> ConsentChoice? {
        guard let switches = window.lastModel?.consent else { return nil }
        let offered = switches.offered
        return zip(layout.consentRows(count: offered.count), offered).first { $0.0.contains(point) }?.1
    }
}
