// What leaves the screen: screenshots (BMP read back by SDL), the sounds (through SDL's disk audio
// driver), and where the assets are found.
import CSDL2
import Foundation
import KioskContract
import KioskCore
import KioskSystem
import KioskTestSupport
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("Screenshots, sounds, assets")
    struct OutputTests {
        @Test("a screenshot is a BMP of the output size with the screen's pixels", arguments: [Orientation.landscapeRight, .portrait])
        func screenshot(orientation: Orientation) throws {
            let sdl = try makeContext()
            let output = Size(width: 800, height: 480)
            let screen = try makeScreen(sdl, size: output, orientation: orientation)
            try screen.show(frame: TestFrames.bars(size: Size(width: 640, height: 360)))
            try screen.render(Models.finished())
            let path = NSTemporaryDirectory() + "kiosk-screenshot-\(getpid()).bmp"
            defer { unlink(path) }
            try screen.screenshot(to: path)
            let drawn = try screen.readPixels()

            let loaded = try #require(SDL_LoadBMP_RW(SDL_RWFromFile(path, "rb"), 1), "SDL_LoadBMP reads it")
            defer { SDL_FreeSurface(loaded) }
            let surface = try #require(SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_RGB888.rawValue, 0))
            defer { SDL_FreeSurface(surface) }
            #expect(Int(surface.pointee.w) == output.width && Int(surface.pointee.h) == output.height)
            let pitch = Int(surface.pointee.pitch)
            let base = surface.pointee.pixels.assumingMemoryBound(to: UInt8.self)
            let points = [(0, 0), (799, 479), (400, 240), (100, 400), (700, 60)] + screen.layout.frame(of: .useVideo).corners.map {
                let p = screen.transform.toPhysical($0)
                return (min(Int(p.x), 799), min(Int(p.y), 479))
            }
            for (x, y) in points {
                let word = UnsafeRawPointer(base + y * pitch + 4 * x).loadUnaligned(as: UInt32.self) & 0xFF_FFFF
                #expect(word == drawn.words[y * output.width + x] & 0xFF_FFFF, "pixel (\(x),\(y))")
            }
        }

        @Test("each sound (begin, end, the countdown's tick) loads from the assets and plays through SDL audio (disk driver): loud samples come out, the tick's fewer than a chime's")
        func sounds() throws {
            let previous = ProcessInfo.processInfo.environment["SDL_AUDIODRIVER"]
            setenv("SDL_AUDIODRIVER", "disk", 1)
            setenv("SDL_DISKAUDIODELAY", "0", 1)
            defer {
                if let previous { setenv("SDL_AUDIODRIVER", previous, 1) } else { unsetenv("SDL_AUDIODRIVER") }
                unsetenv("SDL_DISKAUDIOFILE")
                unsetenv("SDL_DISKAUDIODELAY")
            }
            let sdl = try makeContext()
            _ = sdl
            var loud: [Sound: Int] = [:]
            for sound in Sound.allCases {
                // One device (and one file) a sound, so that each file holds that sound alone.
                let file = memoryDeviceFile("sound-\(sound.rawValue).raw")
                defer { unlink(file) }
                setenv("SDL_DISKAUDIOFILE", file, 1)
                do {
                    let player = SoundPlayer(assets: Assets(directory: assetsDirectory.path))
                    player.play(sound)
                    #expect(player.queuedBytes > 0, "the \(sound) sound is queued")
                    let deadline = Date().addingTimeInterval(5)
                    while player.queuedBytes > 0 && Date() < deadline { usleep(10_000) }
                    #expect(player.queuedBytes == 0, "and played")
                } // the player closes the device here, flushing the disk driver's file
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                loud[sound] = data.withUnsafeBytes { raw -> Int in
                    // The device format varies; any sample word far from zero proves sound came out.
                    raw.bindMemory(to: Int16.self).filter { abs(Int($0)) > 4000 }.count
                }
            }
            // The chimes are 0.25 s at −6 dBFS, the tick 0.07 s at −9.
            #expect(loud[.begin, default: 0] > 1000 && loud[.end, default: 0] > 1000, "the chimes are not silence: \(loud)")
            #expect(loud[.tick, default: 0] > 200, "nor is the tick: \(loud)")
            #expect(loud[.tick, default: 0] < loud[.begin, default: 0] / 2, "and the tick is the short one: \(loud)")
        }

        @Test("a missing sound file or a broken device is logged, never fatal")
        func missingSound() throws {
            let sdl = try makeContext()
            _ = sdl
            let player = SoundPlayer(begin: "/nonexistent/begin.wav", end: "/nonexistent/end.wav")
            player.prepare()
            player.play(.begin)
            #expect(player.queuedBytes == 0)
        }

        @Test("assets: $KIOSK_ASSETS, then the installed share folder, then walking up from the executable")
        func assets() throws {
            let exists: Set<String> = ["/opt/kiosk/share/kiosk-recorder/assets", "/src/repo/assets", "/env/assets"]
            let has = { (dir: String) in exists.contains(dir) }
            #expect(try Assets.locate(environment: KioskEnvironment(["KIOSK_ASSETS": "/env/assets"]),
                                      executable: "/src/repo/.build/debug/kiosk-recorder", hasFonts: has).directory == "/env/assets")
            #expect(throws: Assets.NotFound.self) {
                try Assets.locate(environment: KioskEnvironment(["KIOSK_ASSETS": "/wrong"]),
                                  executable: "/src/repo/.build/debug/kiosk-recorder", hasFonts: has)
            }
            #expect(try Assets.locate(environment: KioskEnvironment(), executable: "/opt/kiosk/bin/kiosk-recorder", hasFonts: has).directory
                    == "/opt/kiosk/share/kiosk-recorder/assets")
            #expect(try Assets.locate(environment: KioskEnvironment(),
                                      executable: "/src/repo/.build/x86_64-unknown-linux-gnu/debug/kiosk-recorder",
                                      hasFonts: has).directory == "/src/repo/assets")
            do {
                _ = try Assets.locate(environment: KioskEnvironment(), executable: "/elsewhere/bin/kiosk-recorder", hasFonts: has)
                Issue.record("found assets where there are none")
            } catch {
                #expect(error.searched.contains("/elsewhere/share/kiosk-recorder/assets"))
                #expect(error.searched.contains("/assets"))
            }
            // For real: this test runner sits in .build under the repository.
            let real = try Assets.locate(environment: KioskEnvironment())
            #expect(FileManager.default.fileExists(atPath: real.boldFont))
            for sound in Sound.allCases { #expect(FileManager.default.fileExists(atPath: real.sound(sound)), "\(sound)") }
        }
    }
}

extension Rect {
    /// Points just inside the four corners.
    var corners: [Point] {
        [Point(x: Double(x) + 1, y: Double(y) + 1), Point(x: Double(maxX) - 2, y: Double(y) + 1),
         Point(x: Double(x) + 1, y: Double(maxY) - 2), Point(x: Double(maxX) - 2, y: Double(maxY) - 2)]
    }
}
