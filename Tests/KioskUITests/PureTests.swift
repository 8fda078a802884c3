// The pure parts of KioskUI, no SDL video needed: shape masks, the frame-format table, the pointer
// rules, the orientation names.
import CSDL2
import KioskContract
import KioskCore
import Testing
@testable import KioskUI

@Suite("KioskUI pure helpers")
struct PureTests {
    @Test("the no-display hint is KMSDRM's own when KMSDRM was asked for or failed: DRM master, the desktop in the way, the device index")
    func kmsdrmHint() {
        let cards = Screen.noDisplayHint(error: "SDL_CreateWindow failed: Could not get DRM master", requestedDriver: "KMSDRM",
                                         devices: ["/dev/dri/card0", "/dev/dri/card1"])
        #expect(cards.contains("DRM master of /dev/dri/card0 or /dev/dri/card1") && cards.contains("display-manager")
                && cards.contains("SDL_KMSDRM_DEVICE_INDEX=N"))
        let none = Screen.noDisplayHint(error: "SDL_InitSubSystem failed: KMSDRM not available", requestedDriver: nil, devices: [])
        #expect(none.contains("dtoverlay=vc4-kms-v3d"))
        #expect(Screen.noDisplayHint(error: "x11 not available", requestedDriver: "x11", devices: []) == Screen.noDisplayHint)
    }

    @Test("a disc mask is solid inside, clear outside, and soft only on its one-pixel rim")
    func disc() {
        let mask = Mask.disc(diameter: 41)
        let alpha = mask.alpha()
        func a(_ x: Int, _ y: Int) -> UInt8 { alpha[y * 41 + x] }
        #expect(a(20, 20) == 255 && a(20, 1) == 255 && a(1, 20) == 255)
        #expect(a(0, 0) == 0 && a(40, 40) == 0 && a(3, 3) == 0)
        // Partly covered pixels: many (the edge is anti-aliased), all within a pixel of the rim.
        var partial = 0
        for y in 0..<41 {
            for x in 0..<41 where a(x, y) > 0 && a(x, y) < 255 {
                let dx = Double(x) + 0.5 - 20.5, dy = Double(y) + 0.5 - 20.5
                #expect(abs((dx * dx + dy * dy).squareRoot() - 20.5) < 1)
                partial += 1
            }
        }
        #expect(partial > 60)
    }

    @Test("a ring mask is solid in its band and clear in its middle")
    func ring() {
        let alpha = Mask.ring(diameter: 40, eighths: 8 * 4).alpha()
        #expect(alpha[20 * 40 + 20] == 0, "the hole")
        #expect(alpha[20 * 40 + 1] == 255 && alpha[1 * 40 + 20] == 255, "the band, 4 px wide")
        #expect(alpha[20 * 40 + 6] == 0, "inside the band")
    }

    @Test("a triangle mask covers its inside, whichever way its corners are listed")
    func triangle() {
        for corners in [[0, 0, 160, 80, 0, 160], [0, 0, 0, 160, 160, 80]] {
            let alpha = Mask.polygon(width: 20, height: 20, corners: corners).alpha()
            #expect(alpha[10 * 20 + 5] == 255, "inside, near the left edge's middle")
            #expect(alpha[1 * 20 + 18] == 0 && alpha[18 * 20 + 18] == 0, "the right-hand corners are outside")
        }
    }

    @Test("each camera format maps to the SDL texture format that takes its bytes as they are")
    func formats() {
        #expect(PreviewFormat(.yuyv)?.sdlFormat == SDL_PIXELFORMAT_YUY2.rawValue)
        #expect(PreviewFormat(.nv12)?.sdlFormat == SDL_PIXELFORMAT_NV12.rawValue)
        #expect(PreviewFormat(.yuv420p)?.sdlFormat == SDL_PIXELFORMAT_IYUV.rawValue)
        #expect(PreviewFormat(.yuv422p)?.sdlFormat == SDL_PIXELFORMAT_IYUV.rawValue)
        #expect(PreviewFormat(.yuv422p)?.conversion == SDL_YUV_CONVERSION_BT601)
        #expect(PreviewFormat(.yuv422p)?.fullRange.conversion == SDL_YUV_CONVERSION_JPEG)
        #expect(PreviewFormat(.yuyv)?.conversion == SDL_YUV_CONVERSION_BT601)
        #expect(PreviewFormat(.mjpeg) == nil)
    }

    @Test("pointer rules: a press is down and up on one button; two fingers are followed apart")
    func pointers() {
        var t = PointerTracker()
        let p = Point(x: 1, y: 2)
        t.down(.finger(1), on: .start)
        #expect(t.held == .start)
        t.moved(.finger(1), over: nil)
        #expect(t.held == nil, "slid off: not drawn pressed")
        t.down(.finger(2), on: nil)
        #expect(t.up(.finger(2), on: nil, at: p) == .tapElsewhere(p))
        t.moved(.finger(1), over: .start)
        #expect(t.up(.finger(1), on: .start, at: p) == .press(.start))
        #expect(t.up(.finger(1), on: .start, at: p) == nil, "an up without a down is nothing")
        t.down(.mouse, on: .cancel)
        #expect(t.up(.mouse, on: nil, at: p) == nil)
    }

    @Test("SDL's display orientations name UIKit's interface orientations")
    func orientations() {
        #expect(Orientation(sdl: SDL_ORIENTATION_LANDSCAPE) == .landscapeRight)
        #expect(Orientation(sdl: SDL_ORIENTATION_LANDSCAPE_FLIPPED) == .landscapeLeft)
        #expect(Orientation(sdl: SDL_ORIENTATION_PORTRAIT) == .portrait)
        #expect(Orientation(sdl: SDL_ORIENTATION_PORTRAIT_FLIPPED) == .portraitUpsideDown)
        #expect(Orientation(sdl: SDL_ORIENTATION_UNKNOWN) == nil)
    }

    @Test("an overlay's transparent pixels beside visible ones take their colour, still transparent; the rest is untouched")
    func overlayBleed() {
        // 3x2: a red opaque pixel, a half-transparent blue one, and transparent black ones.
        var rgba = [UInt8](repeating: 0, count: 3 * 2 * 4)
        rgba.replaceSubrange(0..<4, with: [255, 0, 0, 255])
        rgba.replaceSubrange(8..<12, with: [0, 0, 200, 128])
        let bled = PreviewOverlay.bled(OverlayPicture(size: Size(width: 3, height: 2), rgba: rgba))
        func px(_ x: Int, _ y: Int) -> [UInt8] { Array(bled[4 * (y * 3 + x)..<4 * (y * 3 + x) + 4]) }
        #expect(px(0, 0) == [255, 0, 0, 255] && px(2, 0) == [0, 0, 200, 128], "visible pixels untouched")
        #expect(px(1, 0) == [127, 0, 100, 0], "between red and blue: their mean, alpha 0")
        #expect(px(0, 1) == [255, 0, 0, 0] && px(2, 1) == [0, 0, 200, 0], "below each: its colour, alpha 0")
        #expect(px(1, 1) == [0, 0, 0, 0], "no visible neighbour: unchanged")
    }
}

extension SDLTests {
    @Suite("Opening the screen")
    struct OpeningTests {
        @Test("fullscreen takes the desktop's size and its natural orientation")
        func fullscreen() throws {
            let sdl = try makeContext()
            var mode = SDL_DisplayMode()
            #expect(SDL_GetDesktopDisplayMode(0, &mode) == 0)
            let screen = try Screen(context: sdl, window: .fullscreen, orientation: nil, fontPath: fontPath)
            #expect(screen.outputSize == Size(width: Int(mode.w), height: Int(mode.h)))
            #expect(screen.orientation == .natural(for: screen.outputSize))
            #expect(screen.rendererName == "software")
        }

        @Test("no display: SDL's error, and a hint that names SDL_VIDEODRIVER and Xvfb")
        func noDisplay() throws {
            setenv("SDL_VIDEODRIVER", "no-such-driver", 1)
            defer { setenv("SDL_VIDEODRIVER", "dummy", 1) }
            #expect(throws: SDLError.self) { try SDLContext() }
            #expect(Screen.noDisplayHint.contains("SDL_VIDEODRIVER") && Screen.noDisplayHint.contains("Xvfb"))
        }

        @Test("a font that cannot be opened fails the screen's opening, not its first frame")
        func badFont() throws {
            let sdl = try makeContext()
            #expect(throws: SDLError.self) {
                try Screen(context: sdl, window: .windowed(Size(width: 320, height: 240)), orientation: nil, fontPath: "/nonexistent.ttf")
            }
        }
    }
}
