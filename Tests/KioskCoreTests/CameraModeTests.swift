// Choosing a camera mode, the fourcc table and the frame layouts.
import Testing
@testable import KioskCore

/// A USB 2 UVC camera: raw 720p only at 10 fps, MJPEG at 30.
let usb2Camera: [CameraMode] = [
    CameraMode(format: .yuyv, size: Size(width: 640, height: 480), rates: [30, 15]),
    CameraMode(format: .yuyv, size: Size(width: 352, height: 288), rates: [30]),
    CameraMode(format: .yuyv, size: Size(width: 1280, height: 720), rates: [10]),
    CameraMode(format: .mjpeg, size: Size(width: 640, height: 480), rates: [30]),
    CameraMode(format: .mjpeg, size: Size(width: 1280, height: 720), rates: [30]),
    CameraMode(format: .mjpeg, size: Size(width: 1920, height: 1080), rates: [30, 15]),
]

@Suite("Camera modes")
struct CameraModeTests {
    @Test("the chooser takes the asked size and rate at the least cost", arguments: [
        (Size(width: 640, height: 480), 30.0, PixelFormat.yuyv, Size(width: 640, height: 480), 30.0),
        (Size(width: 1280, height: 720), 30, .mjpeg, Size(width: 1280, height: 720), 30),
        (Size(width: 1280, height: 720), 10, .yuyv, Size(width: 1280, height: 720), 10),
        (Size(width: 1920, height: 1080), 15, .mjpeg, Size(width: 1920, height: 1080), 15),
        (Size(width: 352, height: 288), 30, .yuyv, Size(width: 352, height: 288), 30),
        (Size(width: 640, height: 480), 15, .yuyv, Size(width: 640, height: 480), 15),
        // Not offered: the nearest size, then the rate.
        (Size(width: 800, height: 600), 30, .yuyv, Size(width: 640, height: 480), 30),
        (Size(width: 1280, height: 800), 30, .mjpeg, Size(width: 1280, height: 720), 30),
        (Size(width: 640, height: 480), 60, .yuyv, Size(width: 640, height: 480), 30),
    ])
    func choose(size: Size, fps: Double, format: PixelFormat, chosenSize: Size, chosenFPS: Double) throws {
        let c = try #require(CameraModeChooser.choose(from: usb2Camera, size: size, fps: fps))
        #expect(c.format == format)
        #expect(c.size == chosenSize)
        #expect(c.fps == chosenFPS)
    }

    /// A camera's modes, each "FORMAT WxH@fps".
    static func modes(_ list: [(PixelFormat, Int, Int, [Double])]) -> [CameraMode] {
        list.map { CameraMode(format: $0.0, size: Size(width: $0.1, height: $0.2), rates: $0.3) }
    }

    @Test("auto: the largest mode up to 1280x720 that keeps the rate, at the least cost there", arguments: [
        // The USB 2 webcam: raw 720p only at 10 fps, so MJPEG 720p at 30; at 10 fps raw 720p does.
        (usb2Camera, 30.0, PixelFormat.mjpeg, Size(width: 1280, height: 720), 30.0),
        (usb2Camera, 10, .yuyv, Size(width: 1280, height: 720), 10),
        // 640x480, 720p and 1080p all at 30: 720p, never the 1080p.
        (modes([(.yuyv, 640, 480, [30]), (.yuyv, 1280, 720, [30]), (.yuyv, 1920, 1080, [30])]), 30, .yuyv, Size(width: 1280, height: 720), 30),
        // No format keeps 30 at 720p: the largest that does.
        (modes([(.yuyv, 640, 480, [30]), (.yuyv, 1280, 720, [10]), (.mjpeg, 1280, 720, [15])]), 30, .yuyv, Size(width: 640, height: 480), 30),
        // Wider than 720p but not taller (1280x800's 800 rows) is passed over; 960x540 fits.
        (modes([(.yuyv, 1280, 800, [30]), (.yuyv, 960, 540, [30])]), 30, .yuyv, Size(width: 960, height: 540), 30),
        // Nothing at or under 720p: as if 1280x720 were asked (the nearest).
        (modes([(.mjpeg, 1920, 1080, [30]), (.mjpeg, 3840, 2160, [30])]), 30, .mjpeg, Size(width: 1920, height: 1080), 30),
        // Nothing keeps the rate anywhere: the largest fitting, at its fastest.
        (modes([(.yuyv, 640, 480, [15]), (.yuyv, 1280, 720, [5])]), 30, .yuyv, Size(width: 640, height: 480), 15),
    ] as [([CameraMode], Double, PixelFormat, Size, Double)])
    func chooseAuto(modes: [CameraMode], fps: Double, format: PixelFormat, chosenSize: Size, chosenFPS: Double) throws {
        let c = try #require(CameraModeChooser.choose(from: modes, size: .auto, fps: fps))
        #expect(c.format == format)
        #expect(c.size == chosenSize)
        #expect(c.fps == chosenFPS)
    }

    @Test("a size given is the chooser's nearest, as before; auto plans 1280x720 where there are no modes")
    func exactlyAndPlanned() {
        let asked = Size(width: 800, height: 600)
        #expect(CameraModeChooser.choose(from: usb2Camera, size: .exactly(asked), fps: 30) == CameraModeChooser.choose(from: usb2Camera, size: asked, fps: 30))
        #expect(CaptureSize.auto.planned == Size(width: 1280, height: 720) && CaptureSize.exactly(asked).planned == asked)
        #expect(CaptureSize.auto.description == "auto" && CaptureSize.exactly(asked).description == "800x600")
    }

    @Test("at equal size and rate, planar 4:2:0 beats NV12 beats YUYV beats MJPEG")
    func cheapest() throws {
        let size = Size(width: 640, height: 480)
        let modes = [PixelFormat.mjpeg, .yuyv, .nv12, .yuv420p].map { CameraMode(format: $0, size: size, rates: [30]) }
        #expect(try #require(CameraModeChooser.choose(from: modes, size: size, fps: 30)).format == .yuv420p)
        #expect(try #require(CameraModeChooser.choose(from: Array(modes.prefix(3)), size: size, fps: 30)).format == .nv12)
        #expect(try #require(CameraModeChooser.choose(from: Array(modes.prefix(2)), size: size, fps: 30)).format == .yuyv)
        #expect(CameraModeChooser.choose(from: [], size: size, fps: 30) == nil)
        #expect(CameraModeChooser.choose(from: [CameraMode(format: .yuyv, size: size, rates: [])], size: size, fps: 30) == nil)
    }

    @Test("fourcc codes and names", arguments: [("YUYV", UInt32(0x5659_5559)), ("MJPG", 0x4750_4A4D), ("NV12", 0x3231_564E), ("YU12", 0x3231_5559)])
    func fourcc(name: String, code: UInt32) {
        #expect(FourCC.code(name) == code)
        #expect(FourCC.string(code) == name)
        #expect(FourCC.pixelFormats[name].flatMap(FourCC.fourcc(for:)) == name)
    }

    @Test("bad fourcc strings have no code")
    func badFourcc() {
        #expect(FourCC.code("YUY") == nil)
        #expect(FourCC.code("YUYVV") == nil)
        #expect(FourCC.code("ÄBC") == nil)
    }

    @Test("frame layouts", arguments: [
        (PixelFormat.yuyv, Size(width: 640, height: 480), 614_400, [Plane(offset: 0, stride: 1280, rows: 480)]),
        (.nv12, Size(width: 640, height: 480), 460_800, [Plane(offset: 0, stride: 640, rows: 480), Plane(offset: 307_200, stride: 640, rows: 240)]),
        (.yuv420p, Size(width: 352, height: 288), 152_064, [Plane(offset: 0, stride: 352, rows: 288), Plane(offset: 101_376, stride: 176, rows: 144), Plane(offset: 126_720, stride: 176, rows: 144)]),
        (.yuv422p, Size(width: 4, height: 2), 16, [Plane(offset: 0, stride: 4, rows: 2), Plane(offset: 8, stride: 2, rows: 2), Plane(offset: 12, stride: 2, rows: 2)]),
    ])
    func layouts(format: PixelFormat, size: Size, bytes: Int, planes: [Plane]) {
        #expect(format.frameBytes(for: size) == bytes)
        #expect(format.planes(for: size) == planes)
    }

    @Test("the stamp reads back what was drawn at any width", arguments: [16, 100, 352, 641, 1280])
    func stamp(width: Int) {
        let height = 64
        for n in [0, 1, 2, 299, 0x5555, 0xAAAA, 65535] {
            var luma = [UInt8](repeating: 90, count: width * height)
            for i in 0..<FrameStamp.bits {
                let v = (n >> (15 - i)) & 1 == 1 ? FrameStamp.white : FrameStamp.black
                for y in 0..<FrameStamp.bandHeight(frameHeight: height) {
                    for x in FrameStamp.cell(i, width: width) { luma[y * width + x] = v }
                }
            }
            #expect(FrameStamp.read(width: width, height: height) { luma[$1 * width + $0] } == n)
        }
    }
}
