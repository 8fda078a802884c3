// An operator's overlay (`--overlay`): the PNG's pixels as the booth holds them once
// decoded, for the take's blend and the preview's texture alike.

/// Straight (not premultiplied) RGBA pixels, 4 bytes a pixel, row by row from the top, no padding.
public struct OverlayPicture: Equatable, Sendable {
    public let size: Size
    public let rgba: [UInt8]
    /// The largest width and height of an overlay PNG: past any camera the booth records, and
    /// a 16384x16384 PNG of one colour (kilobytes on disk) would want a gigabyte decoded.
    public static let maxSide = 8192

    public init(size: Size, rgba: [UInt8]) {
        precondition(rgba.count == size.width * size.height * 4, "OverlayPicture: \(rgba.count) bytes for \(size)")
        self.size = size
        self.rgba = rgba
    }
}

/// The operator's overlays for a take: one for a landscape picture and, when given, one for a
/// portrait picture (without it the landscape one covers the portrait picture, cropped).
public struct TakeOverlay: Equatable, Sendable {
    public var landscape: OverlayPicture
    public var portrait: OverlayPicture?

    public init(landscape: OverlayPicture, portrait: OverlayPicture? = nil) {
        self.landscape = landscape
        self.portrait = portrait
    }

    /// The overlay for a picture shown at `shown` (its size as the guest sees it).
    public func picture(shown: Size) -> OverlayPicture {
        shown.height > shown.width ? portrait ?? landscape : landscape
    }
}

/// Why a file cannot be an overlay: `message` names it.
public struct OverlayError: Error, Equatable, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public init(_ path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }
    public var message: String { "'\(path)' \(reason)" }
    public var description: String { message }
}
