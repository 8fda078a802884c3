// Test helpers for the end-to-end run on a real X server: a private Xvfb, its framebuffer read back
// as an XWD image (Xvfb's -fbdir, so no screenshot tool is needed), and real clicks with xdotool.
import Foundation
import Testing
import KioskCore
import KioskSystem
import KioskTestSupport

/// The programs the Xvfb tests run. With CI set (`TestEnvironment.isCI`) a missing one fails the
/// test instead of skipping it, so a CI image without them cannot pass silently.
enum XvfbTools {
    static let programs = ["Xvfb", "xdotool"]
    static let missing: [String] = programs.filter { path(of: $0) == nil }
    static let skipNote: Comment = "needs Xvfb and xdotool (Debian packages xvfb, xdotool: kiosk/setup --test)"

    static func path(of program: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func require() throws {
        try #require(missing.isEmpty, """
            \(missing.joined(separator: " and ")) not found (CI is set, so this test does not skip): \
            install the Debian packages xvfb and xdotool (kiosk/setup --test does)
            """)
    }
}

/// A private X server for one test, torn down with it. The display number is Xvfb's own pick of a
/// free one (-displayfd), so parallel tests and other builds on the machine never collide.
final class XvfbServer {
    let pid: pid_t
    /// ":N", for DISPLAY.
    let display: String
    private let framebufferFolder: URL

    init(screen: Size = Size(width: 1024, height: 768)) throws {
        framebufferFolder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-xvfb-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: framebufferFolder, withIntermediateDirectories: true)
        let program = try #require(XvfbTools.path(of: "Xvfb"))
        // -fbdir keeps the screen in a memory-mapped XWD file we can read at any time;
        // -displayfd 1 writes the display number it took to stdout once it accepts connections.
        let arguments = [program, "-displayfd", "1", "-screen", "0", "\(screen.width)x\(screen.height)x24",
                         "-fbdir", framebufferFolder.path, "-nolisten", "tcp"]
        let out = Pipe()
        do {
            pid = try startServer(arguments, stdout: out.fileHandleForWriting.fileDescriptor)
        } catch {
            throw XvfbFailure(message: "\(error)")
        }
        try out.fileHandleForWriting.close()
        // Read on a thread so a server that hangs cannot hang the test.
        let number = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        let reader = out.fileHandleForReading
        Thread {
            var text = ""
            while !text.contains("\n") {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            number.withLock { $0 = text.trimmingCharacters(in: .whitespacesAndNewlines) }
            done.signal()
        }.start()
        _ = done.wait(timeout: .now() + 10)
        guard let n = number.withLock({ $0 }), !n.isEmpty, Int(n) != nil else {
            stopServer(pid)
            try? FileManager.default.removeItem(at: framebufferFolder)
            throw XvfbFailure(message: "Xvfb did not start (no display number on -displayfd)")
        }
        display = ":" + n
    }

    deinit {
        stopServer(pid)
        try? FileManager.default.removeItem(at: framebufferFolder)
    }

    /// The environment that puts kiosk-recorder on this server through SDL's X11 driver.
    /// The recorder on this server, with OpenGL (Mesa's llvmpipe here): the GPU renderer's paths.
    /// Without SDL_RENDER_DRIVER the booth would choose SDL's software renderer over llvmpipe.
    /// No session bus (`disabled:`): without one, SDL's X11 driver has libdbus start one through
    /// dbus-launch for every recorder, and each leaves its socket in /tmp when the server goes.
    var recorderEnvironment: [String: String] {
        ["SDL_VIDEODRIVER": "x11", "DISPLAY": display, "SDL_RENDER_DRIVER": "opengl", "DBUS_SESSION_BUS_ADDRESS": "disabled:"]
    }

    /// Runs xdotool on this server; its stdout.
    @discardableResult
    func xdotool(_ arguments: [String]) throws -> String {
        try runProgram([try #require(XvfbTools.path(of: "xdotool"))] + arguments,
                       environment: ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { $1 }, stderr: .discard).stdout
    }

    /// The top-level window of process `pid` titled `title`, waited for (no --sync: that one
    /// waits forever when the window never comes).
    func window(pid: Int32, title: String, timeout: Double = 10) throws -> XWindow {
        var found: XWindow?, failure: (any Error)?
        _ = eventually(timeout) {
            do {
                let ids = try xdotool(["search", "--all", "--onlyvisible", "--pid", "\(pid)", "--name", "^\(title)$"])
                    .split(whereSeparator: \.isNewline)
                if let id = ids.first { found = try geometry(of: String(id)) }
            } catch {
                failure = error
            }
            return found != nil || failure != nil
        }
        if let failure { throw failure }
        if let found { return found }
        throw XvfbFailure(message: "no visible window \"\(title)\" of pid \(pid) on \(display)")
    }

    private func geometry(of id: String) throws -> XWindow? {
        // --shell prints WINDOW=…, X=…, Y=…, WIDTH=…, HEIGHT=…, SCREEN=… (position on the root).
        var values: [String: Int] = [:]
        for line in try xdotool(["getwindowgeometry", "--shell", id]).split(whereSeparator: \.isNewline) {
            let pair = line.split(separator: "=", maxSplits: 1)
            if pair.count == 2, let v = Int(pair[1]) { values[String(pair[0])] = v }
        }
        guard let x = values["X"], let y = values["Y"], let w = values["WIDTH"], let h = values["HEIGHT"], w > 0, h > 0
        else { return nil }
        return XWindow(id: id, origin: Point(x: Double(x), y: Double(y)), size: Size(width: w, height: h))
    }

    /// A left click at a point in the window (window pixels: what SDL reports as the output size,
    /// there being no high-DPI scaling on Xvfb), as a person's mouse does it: move, press, release.
    func click(_ window: XWindow, at p: Point) throws {
        try xdotool(["mousemove", "--window", window.id, "\(Int(p.x))", "\(Int(p.y))", "click", "1"])
    }

    /// A key pressed and released on the window, as a USB button that is a keyboard, or a GPIO key
    /// the kernel's gpio-keys maps, sends it (`key` as xdotool names it: space, Return, Escape).
    func key(_ window: XWindow, _ key: String) throws {
        try xdotool(["windowfocus", "--sync", window.id])
        try xdotool(["key", "--window", window.id, key])
    }

    /// What the X server shows now.
    func framebuffer() throws -> XWDImage {
        try XWDImage(data: Data(contentsOf: framebufferFolder.appendingPathComponent("Xvfb_screen0")))
    }

    /// Polls the screen until `check` holds for it; false on timeout. The kiosk draws
    /// asynchronously to our commands, so a check right after an event may see the frame before.
    func waitForScreen(timeout: Double = 20, _ check: (XWDImage) -> Bool) throws -> Bool {
        var failure: (any Error)?
        let shown = eventually(timeout) {
            do { return check(try framebuffer()) } catch { failure = error; return true }
        }
        if let failure { throw failure }
        return shown
    }
}

struct XvfbFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A top-level X window: its id and where it sits on the root window.
struct XWindow {
    let id: String
    let origin: Point
    let size: Size
}

/// An XWD image (X11/XWDFile.h) as Xvfb keeps its screen: a big-endian header, the colour map,
/// then the pixels. Only the TrueColor 32-bit layout Xvfb uses for depth 24 is read.
struct XWDImage {
    let width: Int, height: Int
    private let data: Data
    private let pixelStart: Int, bytesPerLine: Int, littleEndian: Bool
    private let masks: (r: UInt32, g: UInt32, b: UInt32)

    init(data: Data) throws {
        let bytes = [UInt8](data)
        func field(_ index: Int) -> Int {
            let o = index * 4
            guard o + 4 <= bytes.count else { return 0 }
            return Int(UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3]))
        }
        // Field indices from XWDFileHeader: header_size 0, pixmap_width 4, pixmap_height 5,
        // byte_order 7, bits_per_pixel 11, bytes_per_line 12, red/green/blue masks 14-16, ncolors 19.
        // Each XWDColor is 12 bytes.
        width = field(4)
        height = field(5)
        bytesPerLine = field(12)
        littleEndian = field(7) == 0
        masks = (UInt32(field(14)), UInt32(field(15)), UInt32(field(16)))
        pixelStart = field(0) + field(19) * 12
        self.data = data
        guard field(11) == 32, width > 0, height > 0, pixelStart + bytesPerLine * height <= bytes.count else {
            throw XvfbFailure(message: "an XWD framebuffer this helper does not read (bits per pixel \(field(11)), \(width)x\(height))")
        }
    }

    /// The colour at (x, y) on the screen.
    func rgb(x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
        let o = pixelStart + y * bytesPerLine + x * 4
        let b0 = UInt32(data[data.startIndex + o]), b1 = UInt32(data[data.startIndex + o + 1])
        let b2 = UInt32(data[data.startIndex + o + 2]), b3 = UInt32(data[data.startIndex + o + 3])
        let word = littleEndian ? b0 | b1 << 8 | b2 << 16 | b3 << 24 : b3 | b2 << 8 | b1 << 16 | b0 << 24
        func channel(_ mask: UInt32) -> Int {
            guard mask != 0 else { return 0 }
            return Int((word & mask) >> UInt32(mask.trailingZeroBitCount) & 0xFF)
        }
        return (channel(masks.r), channel(masks.g), channel(masks.b))
    }

    /// The colour at a point of a window.
    func rgb(_ window: XWindow, _ p: Point) -> (r: Int, g: Int, b: Int) {
        rgb(x: Int(window.origin.x + p.x), y: Int(window.origin.y + p.y))
    }
}
