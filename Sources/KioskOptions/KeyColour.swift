// The green screen's key colour (`--key`): a backdrop's green or blue, the colour itself, or `auto`:
// measured from the empty backdrop (BackdropMeasure).
import KioskContract

/// The colour a key takes out of the camera's pictures.
public enum KeyColour: Equatable, Sendable, CustomStringConvertible {
    /// Chroma-key green, #00B140.
    case green
    /// Chroma-key blue, #0047BB.
    case blue
    /// `#RRGGBB`.
    case rgb(red: UInt8, green: UInt8, blue: UInt8)
    /// Measured from the empty backdrop, in ready (and on `calibrate`).
    case auto

    /// `green`, `blue`, `#RRGGBB` (either case) or `auto`; nil for anything else.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "green": self = .green
        case "blue": self = .blue
        case "auto": self = .auto
        default:
            let digits = Array(text.utf8.dropFirst())
            guard text.hasPrefix("#"), digits.count == 6, let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) else { return nil }
            self = .rgb(red: UInt8(value >> 16), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
        }
    }

    /// Its red, green and blue; nil for `auto`, until it is measured.
    public var components: (red: UInt8, green: UInt8, blue: UInt8)? {
        switch self {
        case .green: (0x00, 0xB1, 0x40)
        case .blue: (0x00, 0x47, 0xBB)
        case let .rgb(red, green, blue): (red, green, blue)
        case .auto: nil
        }
    }

    /// As the command line writes it.
    public var description: String {
        switch self {
        case .green: "green"
        case .blue: "blue"
        case let .rgb(red, green, blue): "#" + [red, green, blue].map { String(printf: "%02X", Int($0)) }.joined()
        case .auto: "auto"
        }
    }
}
