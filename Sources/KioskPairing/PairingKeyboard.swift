// The booth's on-screen keyboard for the operator's password (pairing a phone with the console):
// its pages of keys and where each key lies on the canvas. Pure geometry, tested by table; KioskUI
// draws it and the pairing rule (PairingRule) reads a tap through it.
import KioskCore

/// One key of the keyboard.
public enum PairingKey: Equatable, Hashable, Sendable {
    case character(Character)
    /// Another page of keys (lower case, upper case, digits' symbols).
    case page(Int)
    case backspace
    /// Closes the keyboard, nothing checked.
    case cancel
    /// Checks what was typed.
    case enter
}

/// The keyboard's three pages (lower case, upper case, symbols), each four rows of characters and a
/// bottom row, laid out on the canvas under a header that holds the title and the typed dots.
public enum PairingKeyboard {
    public static let pages = 3

    /// The rows of `page`, each key with its width in key units (a row is at most 10 units wide).
    public static func rows(page: Int) -> [[(key: PairingKey, units: Double)]] {
        let letters: [String] = switch page {
        case 1: ["1234567890", "QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"]
        case 2: ["1234567890", "!@#$%^&*()", "-_=+[]{}\\|", ";:'\",.<>/?"]
        default: ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"]
        }
        var rows = letters.map { $0.map { (key: PairingKey.character($0), units: 1.0) } }
        if page == 2 {
            // Four full rows of symbols: ` and ~, and backspace, go in the bottom row.
            return rows + [[(.cancel, 2), (.page(0), 1.5), (.character("`"), 1), (.character("~"), 1), (.character(" "), 1),
                            (.enter, 2), (.backspace, 1.5)]]
        }
        // The last row of letters between the case key and backspace.
        rows[3] = [(.page(page == 1 ? 0 : 1), 1.5)] + rows[3] + [(.backspace, 1.5)]
        let bottom: [(key: PairingKey, units: Double)] = [(.cancel, 2), (.page(2), 1.5), (.character(" "), 4.5), (.enter, 2)]
        return rows + [bottom]
    }

    /// The header (the title and the dots) and each key's rectangle on a canvas of `canvas`.
    public static func layout(page: Int, canvas: Size) -> (header: Rect, keys: [(key: PairingKey, frame: Rect)]) {
        let rows = rows(page: page)
        let margin = max(min(canvas.width, canvas.height) / 40, 2)
        let header = Rect(x: margin, y: margin, width: canvas.width - 2 * margin, height: canvas.height * 26 / 100)
        let top = header.y + header.height + margin
        let rowHeight = (canvas.height - top - margin) / rows.count
        let unit = Double(canvas.width - 2 * margin) / 10
        var keys: [(key: PairingKey, frame: Rect)] = []
        for (index, row) in rows.enumerated() {
            let width = row.reduce(0) { $0 + $1.units } * unit
            var x = Double(canvas.width) / 2 - width / 2
            for (key, units) in row {
                let gap = margin / 2
                keys.append((key, Rect(x: Int(x) + gap / 2, y: top + index * rowHeight + gap / 2,
                                       width: max(Int(units * unit) - gap, 1), height: max(rowHeight - gap, 1))))
                x += units * unit
            }
        }
        return (header, keys)
    }

    /// The key under `point` (canvas coordinates), if any.
    public static func key(at point: Point, page: Int, canvas: Size) -> PairingKey? {
        layout(page: page, canvas: canvas).keys.first { $0.frame.contains(point) }?.key
    }
}
