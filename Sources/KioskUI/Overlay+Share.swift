// The share screen: white cards over the frozen last frame, each a QR code with its words
// under it: the take's address alone, or the booth's Wi-Fi first and the take's second (side by side
// in landscape, stacked in portrait). The Done button is the overlay's usual right-hand button.
import KioskCore
import KioskScreenText

/// Where the share screen's cards go on the canvas: the pure geometry, from the codes' sizes and
/// the captions' sizes.
struct ShareCards: Equatable {
    struct Card: Equatable {
        /// The white card.
        var frame: Rect
        /// The code with its quiet zone (white), a square of a whole number of modules.
        var code: Rect
        /// The caption's box under the code, inside the card.
        var caption: Rect
    }

    /// Screen pixels per module, the same for every card.
    let module: Int
    let cards: [Card]

    /// Modules on a side (quiet zone included) for a card whose code is not known yet (the take's
    /// address while its folder is written) and no other card to match: a version 3 code, what an
    /// address such as `http://10.42.0.1/s/<22-character token>/` takes, so the card mostly keeps
    /// its size when the code comes.
    static let placeholderModules = 29 + 2 * QRCode.quietZone

    /// `modules`: each card's code's modules on a side with its quiet zone; `captions`: each
    /// caption's size on one line at the text size. The cards share the room (`sideBySide` or
    /// stacked), `gap` apart, each a code as large as the room allows at a whole number of pixels a
    /// module, never under `QRCode.smallestModule` (cards that do not fit then reach past the room,
    /// centred on it: a code too small to read helps nobody).
    static func layout(room: Rect, modules: [Int], captions: [Size], sideBySide: Bool, gap: Int, padding: Int) -> ShareCards {
        let n = max(modules.count, 1)
        let captionHeight = captions.map(\.height).max() ?? 0
        let slot = sideBySide
            ? Size(width: (room.width - gap * (n - 1)) / n, height: room.height)
            : Size(width: room.width, height: (room.height - gap * (n - 1)) / n)
        // The code's side: the slot's width, or its height less the caption under the code.
        let codeRoom = min(slot.width, slot.height - captionHeight - padding)
        let fitting = modules.map { codeRoom / max($0, 1) }.min() ?? 0
        let module = max(fitting, QRCode.smallestModule)
        // Each card as wide as its code, or as its caption (with padding) where the slot allows; the
        // cards of a pair the same size (a shorter payload's code is smaller: it sits centred in its
        // card, the captions on one line), so they read as a pair.
        let own = zip(modules, captions).map { modules, caption in
            let side = modules * module
            return Size(width: max(side, min(caption.width + 2 * padding, slot.width)), height: side + captionHeight + padding)
        }
        let even = Size(width: own.map(\.width).max() ?? 0, height: own.map(\.height).max() ?? 0)
        let sizes = own.map { _ in even }
        // The cards as a group centred on the room; each centred across the other way.
        let total = sizes.reduce(0) { $0 + (sideBySide ? $1.width : $1.height) } + gap * (sizes.count - 1)
        var along = sideBySide ? room.x + (room.width - total) / 2 : room.y + (room.height - total) / 2
        var cards: [Card] = []
        for (size, modules) in zip(sizes, modules) {
            let frame = sideBySide
                ? Rect(x: along, y: room.y + (room.height - size.height) / 2, width: size.width, height: size.height)
                : Rect(x: room.x + (room.width - size.width) / 2, y: along, width: size.width, height: size.height)
            along += (sideBySide ? size.width : size.height) + gap
            let side = modules * module
            let captionY = frame.maxY - padding - captionHeight
            let code = Rect(x: frame.x + (frame.width - side) / 2, y: frame.y + (captionY - frame.y - side) / 2, width: side, height: side)
            let caption = Rect(x: frame.x + padding, y: captionY, width: max(frame.width - 2 * padding, 1), height: captionHeight)
            cards.append(Card(frame: frame, code: code, caption: caption))
        }
        return ShareCards(module: module, cards: cards)
    }
}

extension Overlay {
    /// The room the cards share: the canvas above the bottom panel, a margin in. The top panel stays
    /// drawn under them (its timer has nothing to count here and is left out).
    func shareRoom() -> Rect {
        let margin = max(textSize / 2, 4)
        return Rect(x: margin, y: margin, width: layout.canvas.width - 2 * margin, height: layout.bottomPanel.y - 2 * margin)
    }

    /// The cards for `share`, with what each shows: a code's text (nil while the take's address is
    /// not known) and its caption.
    func shareCards(_ share: ShareScreen) throws(SDLError) -> (ShareCards, [(text: String?, caption: ScreenText)]) {
        let shown: [(text: String?, caption: ScreenText)] = share.wifi.map { [($0, .shareJoinWifi), (share.url, share.photo ? .shareScanPhoto : .shareScanVideo)] }
            ?? [(share.url, share.photo ? .sharePhotoScan : .shareScan)]
        let known = shown.map { item in item.text.flatMap { try? codes.code($0).get().sizeWithQuietZone } }
        // A card still without its code matches the other's size (the pair stays even).
        let modules = known.map { $0 ?? known.compactMap { $0 }.max() ?? ShareCards.placeholderModules }
        let captions = try shown.map { item throws(SDLError) in try text.line(words[item.caption], size: textSize).size }
        let canvas = layout.canvas
        let cards = ShareCards.layout(room: shareRoom(), modules: modules, captions: captions, sideBySide: canvas.width > canvas.height,
                                      gap: max(textSize / 2, 4), padding: max(textSize / 2, 4))
        return (cards, shown)
    }

    /// The captions' one size: the largest up to the text size at which each fits its card.
    func captionSize(_ cards: ShareCards, _ shown: [(text: String?, caption: ScreenText)]) throws(SDLError) -> Int {
        var size = textSize
        for (card, item) in zip(cards.cards, shown) {
            size = min(size, try text.fittingSize([words[item.caption]], size: textSize, maxWidth: card.caption.width))
        }
        return size
    }

    /// The share screen's cards: white, each with its code black on white (its quiet zone the
    /// card's own white) and its words under it in black, whatever the theme.
    func drawShare(_ share: ShareScreen) throws(SDLError) {
        let (cards, shown) = try shareCards(share)
        let captionSize = try captionSize(cards, shown)
        for (card, item) in zip(cards.cards, shown) {
            // Rounded within the quiet zone: at most half of its four modules.
            try painter.fillRounded(card.frame, radius: Double(min(textSize / 2, 2 * cards.module)), Style.light)
            if let address = item.text {
                switch codes.code(address) {
                case let .success(code):
                    painter.image(try codes.texture(address, code: code, module: cards.module), at: card.code)
                case .failure:
                    // No code for it (too long): the text itself, which a guest can still type.
                    try drawCardText(address, in: card.code)
                }
            } else {
                try drawCardText(words[.sharePreparing], in: card.code)
            }
            let caption = try text.line(words[item.caption], size: captionSize, maxWidth: card.caption.width)
            painter.text(caption, centeredAt: card.caption.center, Style.darkText)
        }
    }

    /// Words in black, wrapped, in the middle of the square where a code goes.
    private func drawCardText(_ words: String, in square: Rect) throws(SDLError) {
        let paragraph = try text.paragraph(words, size: textSize, width: max(square.width - 2 * textSize, textSize))
        painter.text(paragraph, centeredAt: square.center, Style.darkText)
    }
}
