// The controls over the picture, drawn from KioskCore's ViewModel at the places KioskCore's Layout
// gives: panels, timer, record circle, text buttons, progress bar, messages.
import KioskCore
import KioskContract
import KioskScreenText

/// The overlay's colours (iOS's dark-mode system colours, which read well over any picture).
enum Style {
    /// The panels' dark translucent background: black at half (128 exactly: SDL's software
    /// renderer blends a half-transparent copy with a shift and an add, about 3 times as fast as
    /// any other alpha; the panels are a third of the screen, blended every frame).
    static let panel = RGBA(0, 0, 0, 128)
    static let red = RGBA(255, 59, 48)
    static let ring = RGBA(255, 255, 255)
    /// The dark edge on both sides of the white ring, so it shows over a white picture too.
    static let ringOutline = RGBA(0, 0, 0, 180)
    /// Cancel, Retake, Close.
    static let secondary = RGBA(72, 72, 74)
    /// Use Video: the one action that ends the session with a take.
    static let primary = RGBA(10, 132, 255)
    /// Play Video, light over the (usually darker) frozen frame.
    static let light = RGBA(255, 255, 255)
    static let darkText = RGBA(0, 0, 0)
    static let lightText = RGBA(255, 255, 255)
    static let messageBackground = RGBA(0, 0, 0, 170)
    static let progressTrack = RGBA(255, 255, 255, 90)
    /// Use Video in high contrast: yellow under black text (WCAG contrast about 14:1).
    static let highContrastPrimary = RGBA(255, 214, 10)
    static let meterGreen = RGBA(48, 209, 88)
    static let meterYellow = RGBA(255, 214, 10)
    /// The attract screen's dimming of the picture (half, as the panels: see `panel`).
    static let attractVeil = RGBA(0, 0, 0, 128)

    /// The fill of a text button (the record circle has its own colours).
    static func fill(of button: Button) -> RGBA {
        switch button {
        case .useVideo, .done, .agree: primary
        case .playVideo: light
        case .cancel, .retake, .closePlayer, .start, .stop, .switchCamera, .photo, .boomerang, .openLibrary, .back, .decline: secondary
        }
    }

    /// The fill while a finger or the mouse holds the button down: lighter for dark buttons,
    /// darker for light and coloured ones.
    static func pressed(_ color: RGBA) -> RGBA {
        color == secondary ? color.lighter(0.3) : color.darker(0.25)
    }
}

/// Proportions of the record circle, as fractions of its diameter (close to iOS's camera button).
enum RecordButtonShape {
    static let ringWidth = 0.08
    /// The dark edge each side of the ring (at least 2 px).
    static let outlineWidth = Layout.recordOutline
    static let discRadius = 0.37
    static let stopSide = 0.40
    static let stopCorner = 0.08
    /// The shutter's white disc (`--photo-button`), inside its ring with the picture between.
    static let shutterDiscRadius = 0.30
    /// Each of the Boomerang button's two red discs (`--boomerang-button`), side by side.
    static let boomerangDisc = 0.36
}

/// Draws one frame's overlay.
struct Overlay {
    let painter: Painter
    let layout: Layout
    let text: TextCache
    /// The share screen's QR codes.
    let codes: QRCodeCache
    /// The words on screen (`--language`, the operator's labels).
    let words: ScreenWords
    /// `--high-contrast`: opaque panels and boxes, light buttons with black titles.
    var highContrast = false
    /// The review trimmer's pictures of the take, in order along it (`--trim`; none yet: ticks).
    var trimPictures: [Texture] = []
    /// The library's thumbnails and its grid's scroll (Overlay+Library.swift).
    var library: LibraryTextures?
    var libraryScroll = 0

    private var panel: RGBA { highContrast ? RGBA(0, 0, 0) : Style.panel }
    private var boxBackground: RGBA { highContrast ? RGBA(0, 0, 0) : Style.messageBackground }
    /// A button's fill and its title's colour.
    private func colors(of button: Button) -> (fill: RGBA, title: RGBA) {
        guard highContrast else { return (Style.fill(of: button), button == .playVideo ? Style.darkText : Style.lightText) }
        switch button {
        case .useVideo, .agree: return (Style.highContrastPrimary, Style.darkText)
        default: return (Style.light, Style.darkText)
        }
    }

    func draw(_ model: ViewModel, held: Button?) throws(SDLError) {
        // The closed booth (`closeBooth`): its words alone, on black over whatever picture was left.
        if model.mode == .closed {
            painter.fill(Rect(x: 0, y: 0, width: layout.canvas.width, height: layout.canvas.height), RGBA(0, 0, 0))
            return try drawMessage(words[model.message ?? .backSoon])
        }
        if let room = model.library { try drawLibrary(room, scroll: libraryScroll) }
        // The attract screen: the picture dimmed under everything else.
        if model.attract != nil { painter.fill(Rect(x: 0, y: 0, width: layout.canvas.width, height: layout.canvas.height), Style.attractVeil) }
        painter.fill(layout.topPanel, panel)
        // The share screen's cards cover the top panel's middle: its timer has nothing to count.
        if model.share == nil { try drawTimer(model, aside: model.question.map { !$0.large } ?? false) }
        if model.bottomPanelBackground { painter.fill(layout.bottomPanel, panel) }
        if let share = model.share { try drawShare(share) }
        if model.mode == .playing { try drawProgress(model.progress ?? 0) }
        if let trimmer = model.trimmer { try drawTrimmer(trimmer) }
        if model.paused { try drawPausedMark() }
        if let switches = model.consent { try drawConsent(model.consentText, switches) }
        for button in model.buttons {
            try draw(button, pressed: button == held, timeLeft: model.remainingFraction)
            if button == .start, let phase = model.attract { try drawPulse(phase) }
        }
        if let level = model.microphoneLevel { try drawMeter(level, silent: model.microphoneSilent) }
        if let box = model.focusBox { drawFocusBox(at: box.center, progress: box.progress) }
        // The prompt, the question under it, the countdown's disc under both: nothing covers them.
        var top: Int?
        if let prompt = model.prompt { top = try drawPrompt(prompt) }
        if let question = model.question { top = try drawQuestion(question.text, large: question.large, below: top) ?? top }
        if let count = model.countdown { try drawCountdown(count, below: top) }
        if let message = model.message { try drawMessage(words[message]) }
        if let name = model.cameraName { try drawCameraName(name) }
        // A photo's flash: white over everything, fading.
        if let flash = model.flash {
            painter.fill(Rect(x: 0, y: 0, width: layout.canvas.width, height: layout.canvas.height),
                         RGBA(255, 255, 255, UInt8((255 * min(max(flash, 0), 1)).rounded())))
        }
    }

    /// The camera just switched to: its name under the top panel, for a moment.
    private func drawCameraName(_ name: String) throws(SDLError) {
        let area = layout.content
        let padding = textSize / 2
        let texture = try text.line(name, size: textSize, maxWidth: area.width * 4 / 5)
        let box = Rect(x: area.x + (area.width - texture.size.width - 2 * padding) / 2, y: area.y + padding,
                       width: texture.size.width + 2 * padding, height: texture.size.height + padding)
        try painter.fillRounded(box, radius: Double(box.height) / 2, boxBackground)
        painter.text(texture, centeredAt: box.center, Style.lightText)
    }

    /// A tap's focus box (iOS's): a yellow square that shrinks from 1.5 times its size onto the
    /// point in the first quarter of its second, holds, and fades in the last quarter.
    private func drawFocusBox(at center: Point, progress: Double) {
        let side = Double(min(layout.content.width, layout.content.height)) * 0.22
        let scale = progress < 0.25 ? 1.5 - 2 * progress : 1
        let alpha = progress > 0.75 ? max(0, (1 - progress) * 4) : 1
        let s = side * scale, t = max(2.0, side / 40)
        let color = RGBA(Style.meterYellow.r, Style.meterYellow.g, Style.meterYellow.b, UInt8(255 * alpha))
        let x = center.x - s / 2, y = center.y - s / 2
        for edge in [(x, y, s, t), (x, y + s - t, s, t), (x, y, t, s), (x + s - t, y, t, s)] {
            painter.fill(Painter.snapped(x: edge.0, y: edge.1, width: edge.2, height: edge.3), color)
        }
    }

    /// The microphone's meter: a bar along the left of the picture, filled from the bottom from
    /// −60 dBFS (empty) to 0 (full), green, yellow from −12, red from −3, with the last 1.5 s's peak
    /// as a line; grey and empty while the microphone hears nothing in a take.
    private func drawMeter(_ level: (now: Double, peak: Double), silent: Bool) throws(SDLError) {
        let area = layout.content
        let width = max(textSize / 2, 6), height = area.height * 3 / 5
        let track = Rect(x: area.x + textSize / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
        try painter.fillRounded(track, radius: Double(width) / 2, silent ? Style.secondary : boxBackground)
        func fraction(_ dB: Double) -> Double { min(max((dB + 60) / 60, 0), 1) }
        let filled = Int((Double(height) * fraction(level.now)).rounded())
        if filled > 0 {
            let color = level.now >= -3 ? Style.red : level.now >= -12 ? Style.meterYellow : Style.meterGreen
            painter.fill(Rect(x: track.x, y: track.maxY - filled, width: width, height: filled), color)
        }
        let peak = Int((Double(height) * fraction(level.peak)).rounded())
        if peak > 1 { painter.fill(Rect(x: track.x, y: track.maxY - peak, width: width, height: 2), Style.lightText) }
    }

    /// The attract screen's pulse: a ring that grows out of the record button and fades, every 2 s.
    private func drawPulse(_ phase: Double) throws(SDLError) {
        let frame = layout.frame(of: .start)
        let d = Double(min(frame.width, frame.height)) * (1 + 0.45 * phase)
        let alpha = UInt8(max(0, min(255, 200 * (1 - phase))))
        guard alpha > 0 else { return }
        try painter.ring(Painter.centred(diameter: d, in: frame), thickness: max(d * 0.05, 2), RGBA(255, 255, 255, alpha))
    }

    /// The operator's prompt: a paragraph at the top of the picture, on the message's dark box, a
    /// little larger than the buttons' text. Returns where its box ends.
    private func drawPrompt(_ prompt: String) throws(SDLError) -> Int {
        let area = layout.content
        let size = textSize * 5 / 4, padding = textSize * 3 / 4
        let width = max(area.width * 4 / 5 - 2 * padding, size)
        // Balanced lines, broken where the script allows (LineBreaks), drawn one by one.
        let lines = try LineBreaks.balanced(prompt, maxWidth: width) { piece throws(SDLError) in try text.width(of: piece, size: size) }
        return try drawBox(lines, size: size, top: area.y + padding)
    }

    /// The guestbook's question. Before the take (`large`): at the top of the picture, under the
    /// prompt's box when there is one (its box ends at `top`), twice the text size, smaller step by
    /// step while its lines would cover more than half the picture or reach past it (never under
    /// the text size or 14 px, whichever is less; longer still, its last line ends in "…"); returns
    /// where its box ends. While recording: in the top panel's band beside the timer
    /// (`Layout.questionBand`, at most an eighth of the screen's height), on at most two lines, from
    /// the text size down to 14 px (less only where the band is too short for two such lines), the
    /// second line ending in "…" if the question is longer still.
    private func drawQuestion(_ question: String, large: Bool, below top: Int?) throws(SDLError) -> Int? {
        let measure = { (piece: String, size: Int) throws(SDLError) -> Int in try text.width(of: piece, size: size) }
        guard large else {
            let band = layout.questionBand
            let smallest = min(Layout.smallestTitle, band.height * 5 / 12)
            let (size, lines) = try LineBreaks.fitted(question, size: textSize, smallest: smallest, maxWidth: band.width,
                                                      maxHeight: band.height, maxLines: 2, width: measure)
            stack(try lines.map { line throws(SDLError) in try text.line(line, size: size, maxWidth: band.width) }, centredAt: band.center)
            return nil
        }
        let area = layout.content
        let padding = textSize * 3 / 4
        let width = max(area.width * 9 / 10 - 2 * padding, textSize)
        // Under a long prompt, no further than the picture's end.
        let room = min(area.height / 2, area.maxY - (top ?? area.y) - 3 * padding)
        let (size, lines) = try LineBreaks.fitted(question, size: textSize * 2, smallest: min(textSize, Layout.smallestTitle), maxWidth: width,
                                                  maxHeight: room, width: measure)
        return try drawBox(lines, size: size, top: (top ?? area.y) + padding)
    }

    /// Lines of white text on the message's dark box, centred across the picture, its top at `top`.
    /// Returns where the box ends.
    private func drawBox(_ lines: [String], size: Int, top: Int) throws(SDLError) -> Int {
        let area = layout.content, padding = textSize * 3 / 4
        let textures = try lines.map { line throws(SDLError) in try text.line(line, size: size) }
        let boxSize = Size(width: (textures.map(\.size.width).max() ?? 0) + 2 * padding, height: textures.reduce(0) { $0 + $1.size.height } + padding)
        let box = Rect(x: area.x + (area.width - boxSize.width) / 2, y: top, width: boxSize.width, height: boxSize.height)
        try painter.fillRounded(box, radius: Double(textSize) * 0.6, boxBackground)
        stack(textures, centredAt: box.center)
        return box.maxY
    }

    /// Lines of white text, each centred, the stack centred on `centre`. Each line is rendered on its
    /// own: SDL_ttf's wrapping measures a line its own way and broke lines LineBreaks had found to fit.
    private func stack(_ lines: [TextTexture], centredAt centre: Point) {
        var y = centre.y - Double(lines.reduce(0) { $0 + $1.size.height }) / 2
        for line in lines {
            painter.text(line, centeredAt: Point(x: centre.x, y: y + Double(line.size.height) / 2), Style.lightText)
            y += Double(line.size.height)
        }
    }

    /// The countdown's number, large on a dark disc (readable over any preview, from across a
    /// room): in the middle of the picture, or lower, clear of the question whose box ends at `top`.
    private func drawCountdown(_ count: Int, below top: Int?) throws(SDLError) {
        let circle = layout.countdownDisc(below: top)
        try painter.fillCircle(circle, boxBackground)
        let size = max(circle.width * 62 / 100, textSize)
        let digits = try text.line(String(count), size: size, maxWidth: circle.width)
        painter.text(digits, centeredAt: circle.center, Style.lightText)
    }

    var textSize: Int { layout.textHeight }

    /// The side buttons' titles, which share one size.
    private var sideTitles: [String] { Self.sideTitles(words) }

    static func sideTitles(_ words: ScreenWords) -> [String] {
        Button.allCases.filter { [.left, .right].contains($0.slot) }.map { words.title(of: $0) }
    }

    /// A side button's corner radius: a capsule, or, tall enough for two lines of title, a rounded
    /// rectangle (so the lines keep the width).
    static func sideRadius(_ layout: Layout) -> Int {
        let height = layout.leftButton.height
        return layout.sideTitleLines == 2 ? min(height / 2, layout.textHeight * 6 / 10) : height / 2
    }

    /// The width a side button's title may take: the button less its rounded ends.
    static func sideTitleRoom(_ layout: Layout) -> Int { layout.leftButton.width - sideRadius(layout) }

    /// `aside`: at the top panel's right end (`Layout.asideTimer`), beside the question's band.
    private func drawTimer(_ model: ViewModel, aside: Bool) throws(SDLError) {
        let label = aside ? layout.asideTimer : layout.timerLabel
        let texture = try text.line(model.timer, size: textSize, maxWidth: label.width)
        let warning = model.remainingFraction != nil
        if model.mode == .recording {
            // iOS's recording cue: the running time on a red capsule; near the limit the time left,
            // red on white.
            let h = min(texture.size.height * 21 / 20, label.height)
            let pill = label.centered(Size(width: texture.size.width + textSize * 9 / 10, height: h))
            try painter.fillRounded(pill, radius: Double(h) / 2, warning ? Style.light : Style.red)
        }
        painter.text(texture, centeredAt: label.center, warning ? Style.red : Style.lightText)
    }

    /// `timeLeft`: near a take's limit, the part of the warning time left (the ring around Stop).
    private func draw(_ button: Button, pressed: Bool, timeLeft: Double?) throws(SDLError) {
        let frame = layout.frame(of: button)
        switch button {
        case .start, .stop:
            let d = Double(min(frame.width, frame.height))
            let square = Painter.centred(diameter: d, in: frame)
            let thickness = max(d * RecordButtonShape.ringWidth, 2)
            // A dark edge outside and inside the white ring: it vanished over a white picture.
            let edge = max(d * RecordButtonShape.outlineWidth, 2)
            try painter.ring(Painter.centred(diameter: d + 2 * edge, in: frame), thickness: thickness + 2 * edge, Style.ringOutline)
            try painter.ring(square, thickness: thickness, pressed ? Style.ring.darker(0.2) : Style.ring)
            // Near the limit a red ring over the white one empties with the time left.
            if button == .stop, let fraction = timeLeft { try painter.arc(square, thickness: thickness, fraction: fraction, Style.red) }
            let red = pressed ? Style.pressed(Style.red) : Style.red
            if button == .start {
                try painter.fillCircle(Painter.centred(diameter: 2 * d * RecordButtonShape.discRadius, in: square), red)
            } else {
                try painter.fillRounded(Painter.centred(diameter: d * RecordButtonShape.stopSide, in: square),
                                        radius: d * RecordButtonShape.stopCorner, red)
            }
        case .photo:
            // iOS's photo shutter: a white disc inside a white ring, with the record circle's dark
            // edges (it shows over a white picture too); no red: it records nothing.
            let (square, inner) = try roundButtonRing(frame, pressed: pressed)
            try painter.fillCircle(Painter.centred(diameter: 2 * inner * RecordButtonShape.shutterDiscRadius, in: square),
                                   pressed ? Style.ring.darker(0.2) : Style.ring)
        case .boomerang:
            // The shutter's ring, with two red discs inside: a picture that goes and comes back.
            let (square, inner) = try roundButtonRing(frame, pressed: pressed)
            let disc = inner * RecordButtonShape.boomerangDisc, c = square.center
            for dx in [-disc * 0.55, disc * 0.55] {
                try painter.fillCircle(Rect(x: Int((c.x + dx - disc / 2).rounded()), y: Int((c.y - disc / 2).rounded()), width: Int(disc), height: Int(disc)),
                                       pressed ? Style.pressed(Style.red) : Style.red)
            }
            // Its title under it (`label.boomerang`): the record circle's meaning is plain, this one's is not.
            let label = layout.boomerangLabel
            let title = try text.line(words.title(of: button), size: label.height * 5 / 6, maxWidth: label.width)
            painter.text(title, centeredAt: label.center, Style.lightText)
        case .playVideo:
            let fill = colors(of: button).fill
            try painter.fillRounded(frame, radius: Double(frame.height) / 2, pressed ? Style.pressed(fill) : fill)
            // A play mark before the title, the pair centred.
            let mark = Double(textSize) * 0.8, gap = Double(textSize) * 0.45
            let room = frame.width - frame.height / 2 - Int(mark + gap)
            let title = try text.line(words.title(of: button), size: textSize, maxWidth: room)
            let total = mark + gap + Double(title.size.width)
            let c = frame.center
            let left = c.x - total / 2
            try painter.fillTriangle(Point(x: left, y: c.y - mark / 2), Point(x: left + mark * 0.87, y: c.y),
                                     Point(x: left, y: c.y + mark / 2), Style.darkText)
            painter.text(title, centeredAt: Point(x: left + mark + gap + Double(title.size.width) / 2, y: c.y), Style.darkText)
        case .cancel, .retake, .closePlayer, .useVideo, .switchCamera, .done, .openLibrary, .back, .agree, .decline:
            let (fill, titleColor) = colors(of: button)
            let radius = Self.sideRadius(layout)
            try painter.fillRounded(frame, radius: Double(radius), pressed ? Style.pressed(fill) : fill)
            // The side buttons are the same width: their titles share the size the longest allows
            // (the camera switch beside the shutter is narrower: smaller there if it must).
            let room = min(Self.sideTitleRoom(layout), frame.width - Self.sideRadius(layout))
            let (size, wrapped) = try sideTitleSize(room: room, height: frame.height)
            let lines = try (wrapped ? Self.halves(of: words.title(of: button)) : [words.title(of: button)]).map {
                title throws(SDLError) in try text.line(title, size: size, maxWidth: room)
            }
            // The lines stacked, the pair centred in the button.
            var y = frame.center.y - Double(lines.reduce(0) { $0 + $1.size.height }) / 2
            for line in lines {
                painter.text(line, centeredAt: Point(x: frame.center.x, y: y + Double(line.size.height) / 2), titleColor)
                y += Double(line.size.height)
            }
        }
    }

    /// The side titles' shared size, and whether they are on two lines: one line at the largest
    /// size at which every title fits; where the buttons have room for two lines
    /// (`Layout.sideTitleLines`, portrait with large text), two when that allows a larger size.
    private func sideTitleSize(room: Int, height: Int) throws(SDLError) -> (size: Int, wrapped: Bool) {
        let one = try text.fittingSize(sideTitles, size: textSize, maxWidth: room)
        guard layout.sideTitleLines == 2, one < textSize else { return (one, false) }
        // Two lines in the button's height (a line of text is about 1.2 of its size tall).
        let byHeight = Int(Double(height) / 2.5)
        let two = min(try text.fittingSize(sideTitles.flatMap { Self.halves(of: $0) }, size: textSize, maxWidth: room), byHeight)
        return two > one ? (two, true) : (one, false)
    }

    /// A title broken at its space nearest the middle (a title without one stays whole).
    static func halves(of title: String) -> [String] {
        let characters = Array(title)
        let middle = characters.count / 2
        let spaces = characters.indices.filter { characters[$0] == " " }
        guard let cut = spaces.min(by: { abs($0 - middle) < abs($1 - middle) }) else { return [title] }
        return [String(characters[..<cut]), String(characters[(cut + 1)...])]
    }

    private func drawProgress(_ fraction: Double) throws(SDLError) {
        let bar = layout.progressBar
        guard !bar.isEmpty else { return }
        let radius = Double(bar.height) / 2
        try painter.fillRounded(bar, radius: radius, Style.progressTrack)
        let done = Int((Double(bar.width) * min(max(fraction, 0), 1)).rounded())
        if done >= bar.height {
            try painter.fillRounded(Rect(x: bar.x, y: bar.y, width: done, height: bar.height), radius: radius, Style.lightText)
        }
    }

    /// A large play mark in the middle while playback is paused (a tap resumes).
    private func drawPausedMark() throws(SDLError) {
        let r = Double(min(layout.content.width, layout.content.height)) * 0.18
        let circle = Painter.centred(diameter: 2 * r, in: layout.content)
        try painter.fillCircle(circle, boxBackground)
        let c = circle.center, s = r * 0.9
        try painter.fillTriangle(Point(x: c.x - s * 0.35, y: c.y - s / 2), Point(x: c.x + s * 0.52, y: c.y),
                                 Point(x: c.x - s * 0.35, y: c.y + s / 2), Style.lightText)
    }

    /// A round button's white ring with the record circle's dark edges (the shutter's, the
    /// Boomerang button's): the square inside it and its diameter, for what goes in the middle.
    private func roundButtonRing(_ frame: Rect, pressed: Bool) throws(SDLError) -> (square: Rect, inner: Double) {
        let d = Double(min(frame.width, frame.height))
        let edge = max(d * RecordButtonShape.outlineWidth, 2)
        let inner = d - 2 * edge
        let square = Painter.centred(diameter: inner, in: frame)
        let thickness = max(inner * RecordButtonShape.ringWidth, 2)
        try painter.ring(Painter.centred(diameter: d, in: frame), thickness: thickness + 2 * edge, Style.ringOutline)
        try painter.ring(square, thickness: thickness, pressed ? Style.ring.darker(0.2) : Style.ring)
        return (square, inner)
    }

    private func drawMessage(_ message: String) throws(SDLError) {
        let area = layout.content
        let padding = textSize
        let texture = try text.paragraph(message, size: textSize, width: max(area.width * 4 / 5 - 2 * padding, textSize))
        let box = area.centered(Size(width: texture.size.width + 2 * padding, height: texture.size.height + padding))
        try painter.fillRounded(box, radius: Double(textSize) * 0.6, boxBackground)
        painter.text(texture, centeredAt: box.center, Style.lightText)
    }
}
