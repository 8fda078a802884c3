// Where the live preview's picture lies on the canvas (`--preview-fit`), and the part of the
// operator's overlay that covers it as it covers the take: what the guest sees is what
// the take gets.

extension DisplayTransform {
    /// The camera's frame (`frame`, as the camera gives it) turned upright on the canvas
    /// (`cameraQuarterTurns(mount:)`): the picture the take holds once a player honours its rotation.
    public func uprightPicture(frame: Size, mount: Int) -> Size {
        cameraQuarterTurns(mount: mount).isMultiple(of: 2) ? frame : frame.transposed
    }

    /// Where the preview's picture lies on the canvas: covering it whole, its edges cut off by the
    /// canvas's (`fill`, reaching past two of its sides), or whole inside it, bars beside it (`fit`).
    /// Centred either way, so a mirrored preview keeps the same rectangle.
    public func previewRect(frame: Size, mount: Int, fit: PictureFit) -> Rect {
        let canvas = Rect(x: 0, y: 0, width: logical.width, height: logical.height)
        let turns = cameraQuarterTurns(mount: mount)
        return fit == .fill ? Scaling.aspectCover(content: frame, in: canvas, quarterTurns: turns)
            : Scaling.aspectFit(content: frame, in: canvas, quarterTurns: turns)
    }

    /// Whether the operator's portrait overlay (`--overlay-portrait`, when there is one) is the
    /// one for this interface: when the interface is portrait. Otherwise the landscape one is,
    /// scaled to cover a portrait picture where it must.
    public func usesPortraitOverlay(hasPortrait: Bool) -> Bool {
        orientation.isPortrait && hasPortrait
    }
}

extension OverlayPicture {
    /// The part of the overlay that lies over a picture of `picture` size: the overlay scaled to
    /// cover the picture, centred, as the take blends it; in the overlay's own pixels.
    public func crop(covering picture: Size) -> Rect {
        Scaling.aspectFillCrop(source: size, destination: picture)
    }
}
