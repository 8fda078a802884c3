// The share screen's QR codes: the modules from libqrencode (error correction M, 8-bit, case kept),
// and each code as a texture, black on white with its quiet zone, at a whole number of screen pixels
// per module, made once per text and size.
import CQRencode
import CSDL2
import FoundationEssentials
import Glibc
import KioskCore
import KioskSystem

/// Why a text has no QR code.
public enum QRCodeError: Error, Equatable, CustomStringConvertible {
    /// More bytes than the largest code (version 40) holds at error correction M.
    case tooLong(bytes: Int)
    /// A NUL byte, which `QRcode_encodeString` would take for the text's end, or an empty text.
    case unencodable(String)
    /// `QRcode_encodeString` failed for another reason (its errno, e.g. ENOMEM).
    case failed(errno: Int32)

    /// The most bytes a QR code holds at error correction M (version 40, 8-bit mode).
    public static let capacity = 2331

    public var description: String {
        switch self {
        case let .tooLong(bytes):
            "the text (\(bytes) bytes) is too long for a QR code: at most \(QRCodeError.capacity) bytes at error correction M; use a shorter --share-url"
        case let .unencodable(why): "no QR code for this text: \(why)"
        case let .failed(code): "QRcode_encodeString failed: \(String(cString: strerror(code)))"
        }
    }
}

/// A QR code's modules (`QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1)`: the smallest
/// version that holds the text, case-sensitive, so a URL's lower case and a `WIFI:` payload's every
/// character come back as given).
public struct QRCode: Sendable, Equatable {
    /// Modules on a side (21 for version 1, 4 more per version), without the quiet zone.
    public let size: Int
    /// Row by row: true for a dark module.
    private let modules: [Bool]

    /// The modules of `text`'s code. libqrencode's result is copied and freed here.
    public init(_ text: String) throws(QRCodeError) {
        let bytes = text.utf8.count
        guard bytes > 0 else { throw .unencodable("the text is empty") }
        guard !text.utf8.contains(0) else { throw .unencodable("the text holds a NUL byte") }
        guard bytes <= QRCodeError.capacity else { throw .tooLong(bytes: bytes) }
        errno = 0
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw errno == ERANGE ? .tooLong(bytes: bytes) : .failed(errno: errno)
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour (1 dark); the other bits say what it is part of.
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 != 0 }
        size = width
    }

    /// Whether the module at column `x`, row `y` (0..<size) is dark; outside, the quiet zone: light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// The light modules around a code that readers need to find it (ISO/IEC 18004: four).
    public static let quietZone = 4
    /// The fewest screen pixels per module the share screen draws: a phone reads it from a step away.
    public static let smallestModule = 6

    /// Modules on a side with the quiet zone on both sides.
    public var sizeWithQuietZone: Int { size + 2 * QRCode.quietZone }
}

/// The codes on screen, by text: each encoded once (a text that cannot be is logged once, and
/// remembered as such), each drawn into a texture once per module size. What the last frame did not
/// use goes when there are more than a few (the share screen shows two codes at most).
final class QRCodeCache {
    static let capacity = 4
    private struct Key: Hashable {
        let text: String
        let module: Int
    }
    private let renderer: Renderer
    private var codes: [String: Result<QRCode, QRCodeError>] = [:]
    private var textures: [Key: Texture] = [:]
    private var used: Set<Key> = []

    init(renderer: Renderer) { self.renderer = renderer }

    /// The code of `text`, or why there is none.
    func code(_ text: String) -> Result<QRCode, QRCodeError> {
        if let known = codes[text] { return known }
        let result = Result { () throws(QRCodeError) in try QRCode(text) }
        if case let .failure(error) = result { Log.info("share screen: \(error)") }
        if codes.count >= QRCodeCache.capacity * 4 { codes.removeAll() }
        codes[text] = result
        return result
    }

    /// `code` as an opaque texture, `module` pixels a module, its quiet zone included: black on
    /// white whatever the theme, copied 1:1 (never scaled, so never blurred).
    func texture(_ text: String, code: QRCode, module: Int) throws(SDLError) -> Texture {
        let key = Key(text: text, module: module)
        used.insert(key)
        if let texture = textures[key] { return texture }
        let side = code.sizeWithQuietZone * module
        let texture = try Texture(renderer: renderer, format: SDL_PIXELFORMAT_RGB888.rawValue, access: SDL_TEXTUREACCESS_STATIC,
                                  size: Size(width: side, height: side))
        var pixels = [UInt32](repeating: 0x00FF_FFFF, count: side * side)
        for y in 0..<code.size {
            for x in 0..<code.size where code.isDark(x: x, y: y) {
                let left = (x + QRCode.quietZone) * module, top = (y + QRCode.quietZone) * module
                for row in top..<top + module {
                    for column in left..<left + module { pixels[row * side + column] = 0 }
                }
            }
        }
        guard SDL_UpdateTexture(texture.handle, nil, pixels, Int32(side * 4)) == 0 else {
            throw SDLError(call: "SDL_UpdateTexture(QR code \(side)x\(side))")
        }
        SDL_SetTextureBlendMode(texture.handle, SDL_BLENDMODE_NONE)
        SDL_SetTextureScaleMode(texture.handle, SDL_ScaleModeNearest)
        textures[key] = texture
        return texture
    }

    func endFrame() {
        if textures.count > QRCodeCache.capacity { textures = textures.filter { used.contains($0.key) } }
        used.removeAll(keepingCapacity: true)
    }
}
