// A small picture as packed RGB rows, handed from a worker that decoded it to the screen that shows
// it (the review trimmer's pictures of the take).

public struct RGBPicture: Sendable, Equatable {
    /// Rows of `size.width` RGB triplets, `pitch` bytes apart.
    public var pixels: [UInt8]
    public var size: Size
    public var pitch: Int

    public init(pixels: [UInt8], size: Size, pitch: Int) {
        self.pixels = pixels
        self.size = size
        self.pitch = pitch
    }
}
