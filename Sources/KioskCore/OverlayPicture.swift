// An operator's overlay (`--overlay`, issue 33): the PNG's pixels as the booth holds them once
// decoded, for the take's blend and the preview's texture alike.

/// Straight (not premultiplied) RGBA pixels, 4 bytes a pixel, row by row from the top, no padding.
public struct OverlayPicture: Equatable, Sendable {
    public let size: Size
    public let rgba: [UInt8]

    public init(size: Size, rgba: [UInt8]) {
        precondition(rgba.count == size.width * size.height * 4, "OverlayPicture: \(rgba.count) bytes for \(size)")
        self.size = size
        self.rgba = rgba
    }
}
