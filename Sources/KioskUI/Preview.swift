// The camera picture on screen: a streaming texture in the frame's own YUV layout (SDL converts to
// RGB on the GPU, or in its own optimised code on the software renderer), drawn aspect-fill. On the
// software renderer the live picture is stretched onto the display once a frame, at its upload,
// rather than by SDL in every present (the same bytes: KioskPixels' kiosk_stretch_linear).
import CSDL2
import KioskCore
import KioskPixels

/// How a frame format goes into an SDL texture without converting a pixel on our side.
struct PreviewFormat: Equatable {
    /// The texture's `SDL_PIXELFORMAT_*`.
    let sdlFormat: UInt32
    /// The YUV → RGB matrix and range SDL must use for it.
    let conversion: SDL_YUV_CONVERSION_MODE

    /// nil for MJPEG, which is decoded (to video-range yuv420p) before it reaches the screen.
    ///
    /// - yuyv → YUY2, nv12 → NV12, yuv420p → IYUV, xrgb → RGB888: the same byte layouts.
    /// - yuv422p (planar, chroma at half width and full height) has no SDL texture format. It goes
    ///   into an IYUV (4:2:0) texture with the chroma pitch doubled, so SDL reads every other chroma
    ///   row: vertical chroma decimation for free, no copy and no CPU conversion. The preview loses
    ///   half the vertical chroma resolution, which nobody sees at preview size.
    /// - Conversion: BT.601 limited range, what the cameras give (and the MJPEG decoder's copy
    ///   makes); a frame that says it is full range gets SDL's "JPEG" mode (`fullRange`). Set
    ///   explicitly because SDL's automatic mode would switch to BT.709 above 576 rows and turn
    ///   720p camera colours wrong.
    init?(_ format: PixelFormat) {
        switch format {
        case .yuyv: self.init(sdlFormat: SDL_PIXELFORMAT_YUY2.rawValue, conversion: SDL_YUV_CONVERSION_BT601)
        case .nv12: self.init(sdlFormat: SDL_PIXELFORMAT_NV12.rawValue, conversion: SDL_YUV_CONVERSION_BT601)
        case .yuv420p: self.init(sdlFormat: SDL_PIXELFORMAT_IYUV.rawValue, conversion: SDL_YUV_CONVERSION_BT601)
        case .yuv422p: self.init(sdlFormat: SDL_PIXELFORMAT_IYUV.rawValue, conversion: SDL_YUV_CONVERSION_BT601)
        case .mjpeg: return nil
        case .xrgb: self.init(sdlFormat: SDL_PIXELFORMAT_RGB888.rawValue, conversion: SDL_YUV_CONVERSION_BT601)
        }
    }

    fileprivate init(sdlFormat: UInt32, conversion: SDL_YUV_CONVERSION_MODE) {
        self.sdlFormat = sdlFormat
        self.conversion = conversion
    }

    /// The same texture for full-range samples (a movie's yuvj420p, say): SDL's "JPEG" mode.
    var fullRange: PreviewFormat { PreviewFormat(sdlFormat: sdlFormat, conversion: SDL_YUV_CONVERSION_JPEG) }

    /// The same texture for video-range BT.709 samples (HD video that says so).
    var bt709: PreviewFormat { PreviewFormat(sdlFormat: sdlFormat, conversion: SDL_YUV_CONVERSION_BT709) }
}

/// The last frame shown, as a texture; it stays (frozen) until another frame replaces it.
final class Preview {
    private let renderer: Renderer
    private var texture: Texture?
    private var format: PreviewFormat?

    /// Player pictures in 4:2:0 go up as YUV planes (the renderer has YUV textures); otherwise as
    /// RGB written into the texture. Tests set it to drive SDL's own YUV path on the software renderer.
    var yuvUploads: Bool

    /// SDL's software renderer stretches the live picture onto the display (linear) in every
    /// present; a frame that went up as RGB is stretched here instead, once, with the same bytes in
    /// fewer steps (`kiosk_stretch_linear`), and each present copies it. Only where SDL's own
    /// stretch would write into an RGB888 window, as the texture is: in another layout SDL converts
    /// before it stretches, and so does this preview (it leaves the stretch to SDL).
    private let stretches: Bool
    /// The picture stretched onto the display, and the plain copy it stands for (nil: none current).
    private var stretched: Texture?
    private var stretchedFor: PlainCopy?

    init(renderer: Renderer) {
        self.renderer = renderer
        yuvUploads = renderer.textureFormats.contains(SDL_PIXELFORMAT_IYUV.rawValue)
        // Measured on x86-64 (SSE2); elsewhere SDL's own stretch stays until measured there (NEON on ARM).
        #if arch(x86_64)
        let measured = true
        #else
        let measured = false
        #endif
        stretches = measured && renderer.isSoftware && SDL_GetWindowPixelFormat(renderer.window.handle) == SDL_PIXELFORMAT_RGB888.rawValue
    }

    /// The size of the frame on screen, nil before the first frame (or after `clear`).
    var frameSize: Size? { texture?.size }

    /// The last frame was stretched onto the display at its upload (tests).
    var isStretched: Bool { stretchedFor != nil }

    /// Drops the picture: the screen shows black behind the overlay.
    func clear() {
        texture = nil
        format = nil
        stretchedFor = nil
    }

    /// Uploads a frame (`SDL_UpdateTexture` / `SDL_UpdateNVTexture` / `SDL_UpdateYUVTexture`),
    /// making a new texture only when the format or the size changed. `placement`: where `draw`
    /// will put it (the live preview's), so that the software renderer's stretch is done once here.
    func upload(_ frame: VideoFrame, placement: PreviewPlacement? = nil) throws(SDLError) {
        stretchedFor = nil
        guard var wanted = PreviewFormat(frame.format) else {
            throw SDLError(call: "Preview.upload", message: "a \(frame.format.rawValue) frame must be decoded before it is shown")
        }
        // Driver paranoia: SDL reads the planes by the frame's own offsets and pitches, so a frame
        // whose bytes are short would make it read past the end. Such a frame is refused whole.
        let expected = frame.format.planes(for: frame.size)
        guard frame.planes.count == expected.count,
              zip(frame.planes, expected).allSatisfy({ $0.stride >= $1.stride && $0.rows >= $1.rows }),
              frame.planes.allSatisfy({ $0.offset >= 0 && $0.offset + $0.stride * $0.rows <= frame.bytes.count })
        else {
            throw SDLError(call: "Preview.upload", message: "a \(frame.format.rawValue) \(frame.size) frame with planes \(frame.planes) and \(frame.bytes.count) bytes")
        }
        if frame.fullRange { wanted = wanted.fullRange }
        // The software renderer has no YUV textures: SDL would convert into an ARGB8888 texture of
        // its own and blit that into the RGB888 window, converting every pixel again. Converted
        // straight into an RGB888 texture instead (the same SDL conversion code), the blit is a copy:
        // 0.9 → 0.6 ms a 720p frame here.
        if !renderer.textureFormats.contains(wanted.sdlFormat), let converted = try uploadConverted(frame, wanted, placement: placement) {
            return converted
        }
        let texture = try prepare(wanted, size: frame.size)
        // The software renderer converts to RGB here, inside the update: the mode must be right now.
        SDL_SetYUVConversionMode(wanted.conversion)
        let p = frame.planes
        let result: Int32 = frame.bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            switch frame.format {
            case .yuyv, .xrgb:
                return SDL_UpdateTexture(texture.handle, nil, base + p[0].offset, Int32(p[0].stride))
            case .nv12:
                return SDL_UpdateNVTexture(texture.handle, nil, base + p[0].offset, Int32(p[0].stride),
                                           base + p[1].offset, Int32(p[1].stride))
            case .yuv420p:
                return SDL_UpdateYUVTexture(texture.handle, nil, base + p[0].offset, Int32(p[0].stride),
                                            base + p[1].offset, Int32(p[1].stride), base + p[2].offset, Int32(p[2].stride))
            case .yuv422p:
                // Every other chroma row (see PreviewFormat): the pitch of two rows.
                return SDL_UpdateYUVTexture(texture.handle, nil, base + p[0].offset, Int32(p[0].stride),
                                            base + p[1].offset, Int32(2 * p[1].stride), base + p[2].offset, Int32(2 * p[2].stride))
            case .mjpeg:
                return -1 // refused above
            }
        }
        guard result == 0 else { throw SDLError(call: "SDL_Update*Texture(\(frame.format.rawValue) \(frame.size))") }
    }

    /// A frame whose layout SDL_ConvertPixels reads as it lies (one buffer, its planes one after the
    /// other at their pitches: yuyv, nv12, yuv420p) converted into an RGB888 texture; nil for the others.
    private func uploadConverted(_ frame: VideoFrame, _ wanted: PreviewFormat, placement: PreviewPlacement?) throws(SDLError) -> Void? {
        let p = frame.planes
        let contiguous = p.count == 1 || zip(p, p.dropFirst()).allSatisfy { $0.offset + $0.stride * $0.rows == $1.offset }
        guard frame.format == .yuyv || frame.format == .nv12 || frame.format == .yuv420p, contiguous, p[0].offset == 0,
              p.dropFirst().allSatisfy({ $0.stride * 2 == p[0].stride || frame.format == .nv12 && $0.stride == p[0].stride })
        else { return nil }
        let rgb = PreviewFormat(sdlFormat: SDL_PIXELFORMAT_RGB888.rawValue, conversion: wanted.conversion)
        let texture = try prepare(rgb, size: frame.size)
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(texture.handle, nil, &pixels, &pitch) == 0, let pixels else {
            throw SDLError(call: "SDL_LockTexture(\(frame.size))")
        }
        defer { SDL_UnlockTexture(texture.handle) }
        SDL_SetYUVConversionMode(wanted.conversion)
        let result = frame.bytes.withUnsafeBytes { bytes in
            SDL_ConvertPixels(Int32(frame.size.width), Int32(frame.size.height), wanted.sdlFormat, bytes.baseAddress, Int32(p[0].stride),
                              SDL_PIXELFORMAT_RGB888.rawValue, pixels, pitch)
        }
        guard result == 0 else { throw SDLError(call: "SDL_ConvertPixels(\(frame.format.rawValue) \(frame.size))") }
        if stretches, let placement, let copy = plainCopy(placement, frame: frame.size) {
            try stretch(from: pixels, pitch: Int(pitch), copy)
        }
        return ()
    }

    /// The RGB888 picture at `pixels` (the texture just written), its `copy.source` stretched onto
    /// the whole display into `stretched`, which then stands for `copy`.
    private func stretch(from pixels: UnsafeMutableRawPointer, pitch: Int, _ copy: PlainCopy) throws(SDLError) {
        if stretched?.size != copy.display {
            stretched = nil
            let made = try Texture(renderer: renderer, format: SDL_PIXELFORMAT_RGB888.rawValue, access: SDL_TEXTUREACCESS_STREAMING,
                                   size: copy.display)
            SDL_SetTextureBlendMode(made.handle, SDL_BLENDMODE_NONE)
            stretched = made
        }
        guard let stretched else { return }
        var target: UnsafeMutableRawPointer?
        var targetPitch: Int32 = 0
        guard SDL_LockTexture(stretched.handle, nil, &target, &targetPitch) == 0, let target else {
            throw SDLError(call: "SDL_LockTexture(\(copy.display))")
        }
        defer { SDL_UnlockTexture(stretched.handle) }
        let s = copy.source
        let source = (pixels + s.y * pitch + s.x * 4).assumingMemoryBound(to: UInt8.self)
        // -1: sizes it does not take (SDL's own stretch then does it in the present).
        if kiosk_stretch_linear(source, pitch, Int32(s.width), Int32(s.height), target.assumingMemoryBound(to: UInt8.self),
                                Int(targetPitch), Int32(copy.display.width), Int32(copy.display.height)) == 0 {
            stretchedFor = copy
        }
    }

    /// The part of a `frame`-sized picture that `draw` stretches onto the whole display unturned and
    /// unmirrored at `placement` (aspect-fill on a display the camera is upright on); nil otherwise.
    private func plainCopy(_ placement: PreviewPlacement, frame: Size) -> PlainCopy? {
        let transform = placement.transform
        let onCanvas = transform.cameraQuarterTurns(mount: placement.mount)
        guard placement.fit == .fill, !placement.mirror, (onCanvas + transform.quarterTurns) % 4 == 0 else { return nil }
        let crop = Scaling.aspectFillCrop(source: frame, destination: transform.logical, quarterTurns: onCanvas)
        // (A picture the display's own size is copied by SDL as it is: nothing to stretch.)
        return crop.isEmpty || crop.size == transform.physical ? nil : PlainCopy(source: crop, display: transform.physical)
    }

    /// A streaming texture of the format and size (the one there when it fits), made current.
    private func prepare(_ wanted: PreviewFormat, size: Size) throws(SDLError) -> Texture {
        if let texture, texture.size == size, format?.sdlFormat == wanted.sdlFormat {
            format = wanted
            return texture
        }
        texture = nil
        format = nil
        // Linear filtering for the scaled picture; SDL reads the hint when a texture is made.
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        let made = try Texture(renderer: renderer, format: wanted.sdlFormat, access: SDL_TEXTUREACCESS_STREAMING, size: size)
        texture = made
        format = wanted
        return made
    }

    /// Uploads a player's picture without a copy on our side: its 4:2:0 planes straight from the
    /// decoder's buffers into a YUV texture (`SDL_UpdateYUVTexture`) where the renderer has YUV
    /// textures, else written as RGB by the picture itself straight into the locked texture
    /// (`SDL_LockTexture`): SDL's software renderer, or a layout other than 4:2:0.
    func upload(_ picture: some PlaybackPicture) throws(SDLError) {
        stretchedFor = nil
        do {
            try uploadPicture(picture)
        } catch {
            // A texture made for it holds nothing: black until the next picture that goes up.
            clear()
            throw error
        }
    }

    private func uploadPicture(_ picture: some PlaybackPicture) throws(SDLError) {
        if yuvUploads {
            var failure: SDLError?
            let uploaded: Bool? = picture.withYUV420Planes { planes in
                do throws(SDLError) {
                    var wanted = PreviewFormat(.yuv420p)!
                    if picture.fullRange {
                        wanted = wanted.fullRange
                    } else if picture.bt709 {
                        wanted = wanted.bt709
                    }
                    let texture = try prepare(wanted, size: picture.size)
                    SDL_SetYUVConversionMode(wanted.conversion)
                    let result = SDL_UpdateYUVTexture(texture.handle, nil, planes.y, Int32(planes.yPitch), planes.u, Int32(planes.uPitch),
                                                      planes.v, Int32(planes.vPitch))
                    guard result == 0 else { throw SDLError(call: "SDL_UpdateYUVTexture(\(picture.size))") }
                } catch {
                    failure = error
                }
                return true
            }
            if let failure { throw failure }
            if uploaded == true { return }
        }
        let texture = try prepare(PreviewFormat(.xrgb)!, size: picture.size)
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(texture.handle, nil, &pixels, &pitch) == 0, let pixels else {
            throw SDLError(call: "SDL_LockTexture(\(picture.size))")
        }
        defer { SDL_UnlockTexture(texture.handle) }
        do {
            try picture.writeXRGB(into: pixels, pitch: Int(pitch))
        } catch {
            throw SDLError(call: "PlaybackPicture.writeXRGB", message: "the picture could not be converted to RGB: \(error)")
        }
    }

    /// Whether `draw` covers every display pixel with a plain opaque copy (a picture there, not
    /// turned on the display, not mirrored, and filling the canvas): the screen then need not clear first.
    func coversDisplay(transform: DisplayTransform, mount: Int, mirror: Bool, fit: PictureFit) -> Bool {
        guard let texture, format != nil else { return false }
        let onCanvas = transform.cameraQuarterTurns(mount: mount)
        guard (onCanvas + transform.quarterTurns) % 4 == 0, !mirror else { return false }
        if fit == .fill {
            return !Scaling.aspectFillCrop(source: texture.size, destination: transform.logical, quarterTurns: onCanvas).isEmpty
        }
        return transform.previewRect(frame: texture.size, mount: mount, fit: .fit) == Rect(origin: 0, 0, size: transform.logical)
    }

    /// Whether `drawFitted` covers every display pixel with a plain copy: the picture has the
    /// display's own shape and is not turned.
    func fittedCoversDisplay(transform: DisplayTransform, degrees: Double) -> Bool {
        guard let texture, format != nil, degrees.truncatingRemainder(dividingBy: 360) == 0, transform.quarterTurns == 0 else { return false }
        let canvas = Rect(x: 0, y: 0, width: transform.logical.width, height: transform.logical.height)
        return Scaling.aspectFit(content: texture.size, in: canvas, quarterTurns: 0) == canvas
    }

    /// Draws the picture over the whole display, aspect-fill (`fill`: edges cropped, never
    /// letterboxed), or whole inside it (`fit`: bars beside it), where `previewRect` puts it.
    ///
    /// The camera is fixed to the display, so the frame is turned on the canvas by
    /// `cameraQuarterTurns(mount:)` and the canvas by the transform's own turn: on the display the
    /// picture keeps its place whatever the interface orientation (turned only by the mount), while
    /// the overlay turns. Mirroring flips it left-right as the guest sees the canvas (about the
    /// canvas's centre, which is the picture's own either way).
    func draw(transform: DisplayTransform, mount: Int, mirror: Bool, fit: PictureFit) {
        guard let texture, let format else { return }
        if let stretchedFor, let stretched,
           stretchedFor == plainCopy(PreviewPlacement(transform: transform, mount: mount, mirror: mirror, fit: fit), frame: texture.size) {
            // The frame stretched at its upload, as SDL would stretch it now: copied as it is.
            var whole = SDL_Rect(x: 0, y: 0, w: Int32(stretchedFor.display.width), h: Int32(stretchedFor.display.height))
            SDL_RenderCopy(renderer.handle, stretched.handle, nil, &whole)
            return
        }
        let onCanvas = transform.cameraQuarterTurns(mount: mount)
        let onDisplay = (onCanvas + transform.quarterTurns) % 4
        var destination: SDL_FRect
        var source: SDL_Rect
        if fit == .fill {
            let crop = Scaling.aspectFillCrop(source: texture.size, destination: transform.logical, quarterTurns: onCanvas)
            guard !crop.isEmpty else { return }
            // SDL turns the destination rectangle about its centre: give it the unturned shape, centred
            // on the display, so that once turned it covers the display exactly.
            let display = transform.physical
            let unturned = onDisplay.isMultiple(of: 2) ? display : display.transposed
            destination = SDL_FRect(x: Float(display.width - unturned.width) / 2, y: Float(display.height - unturned.height) / 2,
                                    w: Float(unturned.width), h: Float(unturned.height))
            source = SDL_Rect(x: Int32(crop.x), y: Int32(crop.y), w: Int32(crop.width), h: Int32(crop.height))
        } else {
            let shown = transform.previewRect(frame: texture.size, mount: mount, fit: .fit)
            guard !shown.isEmpty else { return }
            // The whole frame, its unturned shape centred where the fitted picture's centre lands.
            let centre = transform.toPhysical(shown.center)
            let unturned = onCanvas.isMultiple(of: 2) ? shown.size : shown.size.transposed
            destination = SDL_FRect(x: Float(centre.x - Double(unturned.width) / 2), y: Float(centre.y - Double(unturned.height) / 2),
                                    w: Float(unturned.width), h: Float(unturned.height))
            source = SDL_Rect(x: 0, y: 0, w: Int32(texture.size.width), h: Int32(texture.size.height))
        }
        // The canvas's x axis is the texture's x axis when the frame is turned an even number of
        // quarters on the canvas, its y axis otherwise.
        let flip = !mirror ? SDL_FLIP_NONE : onCanvas.isMultiple(of: 2) ? SDL_FLIP_HORIZONTAL : SDL_FLIP_VERTICAL
        // GPU renderers pick the YUV shader when the batch is drawn, so the mode is set for the draw too.
        SDL_SetYUVConversionMode(format.conversion)
        if onDisplay == 0 && flip == SDL_FLIP_NONE {
            // The plain copy: no rotation set-up at all, the common case on a landscape monitor.
            SDL_RenderCopyF(texture.renderer.handle, texture.handle, &source, &destination)
        } else {
            SDL_RenderCopyExF(texture.renderer.handle, texture.handle, &source, &destination,
                              Double(onDisplay * 90), nil, flip)
        }
    }

    /// Draws the picture aspect-fit on the canvas (letterboxed, never cropped), turned clockwise by
    /// `degrees` (a movie's display matrix), the canvas turned onto the display like the overlay.
    /// `fill`: aspect-fill instead (the whole canvas covered, the picture's edges beyond it cut off
    /// by the display's edges).
    func drawFitted(transform: DisplayTransform, degrees: Double, fill: Bool = false) {
        guard let texture, let format else { return }
        // The fit uses the nearest quarter turn; a file that asks for 30° is fitted as if upright.
        let quarters = ((Int((degrees / 90).rounded()) % 4) + 4) % 4
        let canvas = Rect(x: 0, y: 0, width: transform.logical.width, height: transform.logical.height)
        let fit = fill ? Scaling.aspectCover(content: texture.size, in: canvas, quarterTurns: quarters)
            : Scaling.aspectFit(content: texture.size, in: canvas, quarterTurns: quarters)
        guard !fit.isEmpty else { return }
        // SDL turns the destination about its centre: the unturned shape, centred where the
        // fitted picture's centre lands on the display.
        let centre = transform.toPhysical(fit.center)
        let unturned = quarters.isMultiple(of: 2) ? fit.size : fit.size.transposed
        var destination = SDL_FRect(x: Float(centre.x - Double(unturned.width) / 2), y: Float(centre.y - Double(unturned.height) / 2),
                                    w: Float(unturned.width), h: Float(unturned.height))
        let angle = (degrees + transform.degrees).truncatingRemainder(dividingBy: 360)
        SDL_SetYUVConversionMode(format.conversion)
        if angle == 0 {
            SDL_RenderCopyF(texture.renderer.handle, texture.handle, nil, &destination)
        } else {
            SDL_RenderCopyExF(texture.renderer.handle, texture.handle, nil, &destination, angle, nil, SDL_FLIP_NONE)
        }
    }
}

/// Where the live picture goes on the display, as `Preview.draw` takes it.
struct PreviewPlacement: Equatable {
    let transform: DisplayTransform
    let mount: Int
    let mirror: Bool
    let fit: PictureFit
}

/// A picture's `source` rectangle copied onto the whole `display` (a plain, unturned stretch).
struct PlainCopy: Equatable {
    let source: Rect
    let display: Size
}
