// Pairing's screen (`--console-pairing`), over everything else: the operator's keyboard (the title,
// a dot for each character typed, the keys where PairingKeyboard lays them out), or the one-time
// code's QR code on a white card with its words under it.
import KioskCore
import KioskPairing
import KioskScreenText

extension Overlay {
    func drawPairing(_ view: PairingView) throws(SDLError) {
        let canvas = layout.canvas
        painter.fill(Rect(x: 0, y: 0, width: canvas.width, height: canvas.height), RGBA(0, 0, 0))
        switch view {
        case let .keyboard(page, typed):
            let (header, keys) = PairingKeyboard.layout(page: page, canvas: canvas)
            let title = try text.line(words[.pairingPassword], size: textSize, maxWidth: header.width)
            painter.text(title, centeredAt: Point(x: header.center.x, y: Double(header.y) + Double(header.height) * 0.3), Style.lightText)
            if typed > 0 {
                let dots = try text.line(String(repeating: "•", count: min(typed, 32)), size: textSize, maxWidth: header.width)
                painter.text(dots, centeredAt: Point(x: header.center.x, y: Double(header.y) + Double(header.height) * 0.75), Style.lightText)
            }
            for (key, frame) in keys {
                try painter.fillRounded(frame, radius: Double(min(frame.width, frame.height)) * 0.15,
                                        key == .enter ? Style.primary : Style.secondary)
                let label = pairingLabel(key)
                guard !label.isEmpty else { continue }
                let size = min(textSize, frame.height * 6 / 10)
                painter.text(try text.line(label, size: size, maxWidth: frame.width - 4), centeredAt: frame.center, Style.lightText)
            }
        case let .code(url):
            let margin = max(textSize / 2, 4)
            let room = Rect(x: margin, y: margin, width: canvas.width - 2 * margin, height: canvas.height - 2 * margin)
            let code = codes.code(url)
            let modules = (try? code.get().sizeWithQuietZone) ?? ShareCards.placeholderModules
            // The words wrapped to the room's width (a portrait screen takes two or three lines).
            let caption = try text.paragraph(words[.pairingScan], size: textSize, width: max(room.width - 2 * margin, textSize))
            let cards = ShareCards.layout(room: room, modules: [modules], captions: [caption.size], sideBySide: false, gap: margin, padding: margin)
            guard let card = cards.cards.first else { return }
            try painter.fillRounded(card.frame, radius: Double(min(textSize / 2, 2 * cards.module)), Style.light)
            if case let .success(qr) = code { painter.image(try codes.texture(url, code: qr, module: cards.module), at: card.code) }
            painter.text(caption, centeredAt: card.caption.center, Style.darkText)
        }
    }

    /// A key's words: its character, the page it turns to, or the screen's words for Cancel and Enter.
    private func pairingLabel(_ key: PairingKey) -> String {
        switch key {
        case let .character(c): c == " " ? "" : String(c)
        case let .page(page): ["abc", "ABC", "#+="][min(max(page, 0), 2)]
        case .backspace: "←"
        case .cancel: words[.cancel]
        case .enter: words[.pairingEnter]
        }
    }
}
