// Shared by the SDL tests: one serialized parent suite, a screen on the dummy driver, test frames
// built here byte by byte, BT.601 colour arithmetic, and the recorder's real view models.
import CSDL2
import Foundation
import KioskContract
import KioskCore
import Testing
@testable import KioskUI

/// Every test that touches SDL runs inside this suite, one at a time: SDL is single-threaded and
/// its video and audio subsystems are process-wide.
@Suite("SDL", .serialized)
struct SDLTests {}

/// The project's assets/ folder, found from this file's place in the tree.
let assetsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("assets")

let fontPath = assetsDirectory.appendingPathComponent("fonts/DejaVuSans-Bold.ttf").path

/// SDL on the dummy video driver with the software renderer, whatever the environment says.
func makeContext(audio: Bool = false) throws -> SDLContext {
    setenv("SDL_VIDEODRIVER", "dummy", 1)
    setenv("SDL_RENDER_DRIVER", "software", 1)
    return try SDLContext(audio: audio)
}

/// A windowed screen in SDL of its own (`makeContext`): its window keeps SDL up as long as the screen
/// lives, so a test that needs no more of SDL holds only the screen.
func makeScreen(size: Size, orientation: Orientation? = nil, mirror: Bool = false) throws -> Screen {
    try makeScreen(try makeContext(), size: size, orientation: orientation, mirror: mirror)
}

/// A windowed screen in `context` (a test that also plays sound through it, or opens several screens).
func makeScreen(_ context: SDLContext, size: Size, orientation: Orientation? = nil, mirror: Bool = false) throws -> Screen {
    let screen = try Screen(context: context, window: .windowed(size), orientation: orientation, fontPath: fontPath,
                            mirrorPreview: mirror)
    // The window's own events at creation (shown, exposed, …) are not part of any test.
    _ = screen.pollEvents(visible: [])
    return screen
}

// MARK: - Colours

struct RGB: Equatable, CustomStringConvertible {
    var r: Double, g: Double, b: Double

    init(_ r: Double, _ g: Double, _ b: Double) {
        self.r = r
        self.g = g
        self.b = b
    }

    init(_ c: (r: UInt8, g: UInt8, b: UInt8)) { self.init(Double(c.r), Double(c.g), Double(c.b)) }
    init(_ c: RGBA) { self.init(Double(c.r), Double(c.g), Double(c.b)) }

    func distance(to o: RGB) -> Double { max(abs(r - o.r), abs(g - o.g), abs(b - o.b)) }
    func close(to o: RGB, within tolerance: Double) -> Bool { distance(to: o) <= tolerance }

    /// This colour under a translucent one, as SDL's blend mode mixes them.
    func under(_ top: RGBA) -> RGB {
        let a = Double(top.a) / 255
        return RGB(r * (1 - a) + Double(top.r) * a, g * (1 - a) + Double(top.g) * a, b * (1 - a) + Double(top.b) * a)
    }

    var brightness: Double { (r + g + b) / 3 }
    var description: String { "rgb(\(Int(r)),\(Int(g)),\(Int(b)))" }
}

extension Pixels {
    func color(_ p: Point) -> RGB { RGB(rgb(x: Int(p.x), y: Int(p.y))) }
}

struct YUV {
    var y: UInt8, u: UInt8, v: UInt8
}

enum Colour {
    private static func clamp(_ v: Double) -> Double { min(max(v, 0), 255) }

    /// BT.601 limited range YUV → RGB: what SDL's BT601 mode computes for camera frames.
    static func rgb(limited c: YUV) -> RGB {
        let y = 1.164 * (Double(c.y) - 16), u = Double(c.u) - 128, v = Double(c.v) - 128
        return RGB(clamp(y + 1.596 * v), clamp(y - 0.392 * u - 0.813 * v), clamp(y + 2.017 * u))
    }

    /// BT.601 full range (JPEG) YUV → RGB.
    static func rgb(full c: YUV) -> RGB {
        let y = Double(c.y), u = Double(c.u) - 128, v = Double(c.v) - 128
        return RGB(clamp(y + 1.402 * v), clamp(y - 0.344136 * u - 0.714136 * v), clamp(y + 1.772 * u))
    }

    static func limited(_ c: RGB) -> YUV {
        let r = c.r / 255, g = c.g / 255, b = c.b / 255
        return YUV(y: UInt8((16 + 65.481 * r + 128.553 * g + 24.966 * b).rounded()),
                   u: UInt8((128 - 37.797 * r - 74.203 * g + 112 * b).rounded()),
                   v: UInt8((128 + 112 * r - 93.786 * g - 18.214 * b).rounded()))
    }

    static func full(_ c: RGB) -> YUV {
        func byte(_ v: Double) -> UInt8 { UInt8(clamp(v).rounded()) }
        return YUV(y: byte(0.299 * c.r + 0.587 * c.g + 0.114 * c.b),
                   u: byte(128 - 0.168736 * c.r - 0.331264 * c.g + 0.5 * c.b),
                   v: byte(128 + 0.5 * c.r - 0.418688 * c.g - 0.081312 * c.b))
    }
}

// MARK: - Frames

enum TestFrames {
    /// The test camera's bars (KioskCapture's `TestPattern.bars`, BT.601 limited range), copied:
    /// the UI tests do not link KioskCapture.
    static let bars: [YUV] = [
        YUV(y: 235, u: 128, v: 128), YUV(y: 210, u: 16, v: 146), YUV(y: 170, u: 166, v: 16), YUV(y: 145, u: 54, v: 34),
        YUV(y: 106, u: 202, v: 222), YUV(y: 81, u: 90, v: 240), YUV(y: 41, u: 240, v: 110), YUV(y: 16, u: 128, v: 128),
    ]

    /// The bar under column x, as TestPattern draws them.
    static func bar(atColumn x: Int, width: Int) -> Int { min(x * bars.count / max(width, 1), bars.count - 1) }

    /// The test pattern's bars, without its stamp and moving box.
    static func bars(size: Size, format: PixelFormat = .yuv420p) -> VideoFrame {
        make(format, size: size) { x, _ in bars[bar(atColumn: x, width: size.width)] }
    }

    /// A frame in `format` whose colour at (x, y) is `colour(x, y)`; each chroma sample takes the
    /// colour of the top-left pixel it covers. `fullRange`: the frame says its samples are full range.
    static func make(_ format: PixelFormat, size: Size, fullRange: Bool = false, colour: (Int, Int) -> YUV) -> VideoFrame {
        let planes = format.planes(for: size)
        var bytes = [UInt8](repeating: 0, count: format.frameBytes(for: size))
        let w = size.width, h = size.height
        switch format {
        case .yuyv:
            for y in 0..<h {
                for x in stride(from: 0, to: w, by: 2) {
                    let a = colour(x, y), b = colour(min(x + 1, w - 1), y)
                    let o = y * planes[0].stride + 2 * x
                    bytes[o] = a.y; bytes[o + 1] = a.u; bytes[o + 2] = b.y; bytes[o + 3] = a.v
                }
            }
        case .nv12, .yuv420p, .yuv422p:
            for y in 0..<h { for x in 0..<w { bytes[planes[0].offset + y * planes[0].stride + x] = colour(x, y).y } }
            let rowStep = format == .yuv422p ? 1 : 2
            for cy in 0..<planes[1].rows {
                for cx in 0..<(w + 1) / 2 {
                    let c = colour(2 * cx, cy * rowStep)
                    if format == .nv12 {
                        bytes[planes[1].offset + cy * planes[1].stride + 2 * cx] = c.u
                        bytes[planes[1].offset + cy * planes[1].stride + 2 * cx + 1] = c.v
                    } else {
                        bytes[planes[1].offset + cy * planes[1].stride + cx] = c.u
                        bytes[planes[2].offset + cy * planes[2].stride + cx] = c.v
                    }
                }
            }
        case .xrgb:
            for y in 0..<h {
                for x in 0..<w {
                    let c = Colour.rgb(limited: colour(x, y)), o = y * planes[0].stride + 4 * x
                    bytes[o] = UInt8(c.b.rounded()); bytes[o + 1] = UInt8(c.g.rounded()); bytes[o + 2] = UInt8(c.r.rounded())
                }
            }
        case .mjpeg:
            preconditionFailure("not a raw format")
        }
        return VideoFrame(format: format, size: size, planes: planes, bytes: bytes, timestamp: 0, sequence: 0, fullRange: fullRange)
    }
}

/// Where a display pixel's colour comes from in the frame, derived from first principles rather
/// than from the code under test: the camera is fixed to the display, so the picture on the display
/// is the frame turned `mount` quarter turns clockwise, scaled to cover the display, centred; a
/// mirrored preview flips it along the canvas's x axis.
func framePoint(display p: Point, frame: Size, transform: DisplayTransform, mount: Int = 0, mirror: Bool = false) -> Point {
    var q = p
    if mirror {
        let c = transform.toLogical(p)
        q = transform.toPhysical(Point(x: Double(transform.logical.width) - c.x, y: c.y))
    }
    let t = ((mount % 4) + 4) % 4
    let shown = t % 2 == 0 ? frame : frame.transposed
    let display = transform.physical
    let scale = max(Double(display.width) / Double(shown.width), Double(display.height) / Double(shown.height))
    let u = (q.x - Double(display.width) / 2) / scale + Double(shown.width) / 2
    let v = (q.y - Double(display.height) / 2) / scale + Double(shown.height) / 2
    let w = Double(frame.width), h = Double(frame.height)
    switch t {
    case 1: return Point(x: v, y: h - u)
    case 2: return Point(x: w - u, y: h - v)
    case 3: return Point(x: w - v, y: u)
    default: return Point(x: u, y: v)
    }
}

/// The bar colour expected at a display pixel, nil within `margin` frame pixels of a bar edge
/// (where scaling mixes two bars) or off the frame.
func expectedBar(display p: Point, frame: Size, transform: DisplayTransform, mount: Int = 0, mirror: Bool = false,
                 margin: Double = 4) -> RGB? {
    let f = framePoint(display: Point(x: p.x + 0.5, y: p.y + 0.5), frame: frame, transform: transform, mount: mount, mirror: mirror)
    guard f.x >= 0, f.x < Double(frame.width), f.y >= 0, f.y < Double(frame.height) else { return nil }
    let barWidth = Double(frame.width) / Double(TestFrames.bars.count)
    let within = f.x.truncatingRemainder(dividingBy: barWidth)
    guard within > margin, within < barWidth - margin else { return nil }
    return Colour.rgb(limited: TestFrames.bars[TestFrames.bar(atColumn: Int(f.x), width: frame.width)])
}

// MARK: - View models from the real state machine

enum Models {
    static let result = RecordingResult(outputPath: "/tmp/take.mov", duration: 7.2, bytes: 1000, reason: .user, success: true)

    static func machine() -> RecorderMachine {
        var m = RecorderMachine(session: .once, outputPath: "/tmp/take.mov", orientation: .landscapeRight)
        _ = m.start()
        return m
    }

    static var ready: ViewModel { machine().viewModel }

    /// The countdown after Start, at `remaining`.
    static func countdown(_ remaining: Int) -> ViewModel {
        var m = RecorderMachine(session: .once, outputPath: "/tmp/take.mov", orientation: .landscapeRight, countdown: remaining)
        _ = m.start()
        _ = m.handle(.press(.start))
        return m.viewModel
    }

    static func recording(elapsed: Double = 5) -> ViewModel {
        var m = machine()
        _ = m.handle(.press(.start))
        _ = m.handle(.recordingStarted(outputPath: "/tmp/take.mov"))
        _ = m.handle(.tick(elapsed: elapsed))
        return m.viewModel
    }

    static func finished(success: Bool = true) -> ViewModel {
        var m = machine()
        _ = m.handle(.press(.start))
        _ = m.handle(.recordingStarted(outputPath: "/tmp/take.mov"))
        _ = m.handle(.press(.stop))
        var r = result
        r.success = success
        _ = m.handle(.recordingFinished(r))
        return m.viewModel
    }

    static func playing(paused: Bool = false) -> ViewModel {
        var m = machine()
        _ = m.handle(.press(.start))
        _ = m.handle(.recordingStarted(outputPath: "/tmp/take.mov"))
        _ = m.handle(.press(.stop))
        _ = m.handle(.recordingFinished(result))
        _ = m.handle(.press(.playVideo))
        _ = m.handle(.playbackProgress(position: 3, duration: 7.2))
        if paused { _ = m.handle(.togglePause) }
        return m.viewModel
    }

    static var cameraUnavailable: ViewModel {
        var m = machine()
        _ = m.handle(.cameraLost)
        return m.viewModel
    }

    static var all: [(String, ViewModel)] {
        [("ready", ready), ("recording", recording()), ("finished", finished()), ("finished-failed", finished(success: false)),
         ("playing", playing()), ("playing-paused", playing(paused: true)), ("camera-unavailable", cameraUnavailable)]
    }
}
