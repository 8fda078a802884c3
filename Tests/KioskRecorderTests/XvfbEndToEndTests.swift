// The real kiosk-recorder on a real X server (Xvfb, SDL's x11 driver), pressed with real mouse
// clicks (xdotool) where KioskCore's layout puts the buttons, and checked on the server's own
// framebuffer: the whole input path (X event → SDL → pointer tracking → orientation mapping →
// hit test) and the whole output path (overlay → renderer → X window) that the dummy driver skips.
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

@Suite("kiosk-recorder under Xvfb, real clicks", .enabled(if: XvfbTools.missing.isEmpty || TestEnvironment.isCI, XvfbTools.skipNote))
struct XvfbEndToEndTests {
    /// What the window shows, and where, from the same geometry the recorder uses.
    struct Screen {
        let window: XWindow
        let transform: DisplayTransform
        var layout: Layout { Layout(canvas: transform.logical) }

        init(_ window: XWindow, _ orientation: Orientation) {
            self.window = window
            transform = DisplayTransform(physical: window.size, orientation: orientation)
        }

        /// The centre of a button on the display, in window pixels.
        func centre(of button: Button) -> Point { transform.toPhysical(layout.frame(of: button).center) }

        /// A point `fraction` of the record circle's diameter from its centre, along the
        /// canvas's down-right diagonal, on the display.
        func recordCircle(at fraction: Double, direction: (x: Double, y: Double)) -> Point {
            let frame = layout.recordButton
            let d = Double(min(frame.width, frame.height))
            let c = frame.center
            return transform.toPhysical(Point(x: c.x + direction.x * fraction * d, y: c.y + direction.y * fraction * d))
        }
    }

    static func isRed(_ c: (r: Int, g: Int, b: Int)) -> Bool { c.r > 200 && c.g < 110 && c.b < 110 }
    static func isWhite(_ c: (r: Int, g: Int, b: Int)) -> Bool { c.r > 215 && c.g > 215 && c.b > 215 }

    /// The record circle as drawn in ready (a red disc in a white ring, KioskUI's
    /// RecordButtonShape: ring centred at 0.46 of the diameter, disc radius 0.37) is on the X
    /// server's screen where the layout puts it.
    static func showsRecordCircle(_ image: XWDImage, _ s: Screen) -> Bool {
        let diagonal = 0.3 / 2.squareRoot()
        let ring = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)].map { s.recordCircle(at: 0.46, direction: $0) }
        return isRed(image.rgb(s.window, s.centre(of: .start)))
            && isRed(image.rgb(s.window, s.recordCircle(at: 1, direction: (diagonal, diagonal))))
            && ring.allSatisfy { isWhite(image.rgb(s.window, $0)) }
    }

    /// The stop square (recording): red in the middle, and the corner of the former disc no longer
    /// red, since the square's half side is 0.2 of the diameter.
    static func showsStopSquare(_ image: XWDImage, _ s: Screen) -> Bool {
        let diagonal = 0.3 / 2.squareRoot()
        return isRed(image.rgb(s.window, s.centre(of: .stop)))
            && !isRed(image.rgb(s.window, s.recordCircle(at: 1, direction: (diagonal, diagonal))))
    }

    @Test("no renderer chosen, OpenGL only llvmpipe: the booth takes SDL's software renderer, says why, and draws on the X screen; a click still records")
    func softwareOverLlvmpipe() throws {
        try XvfbTools.require()
        let output = try testFolder("xvfb-software").appendingPathComponent("take.mov").path
        // The case needs OpenGL on llvmpipe. CI's run once saw the booth get no OpenGL renderer at
        // all (the software one without the rasteriser's line); it now says why in the log, and such
        // a launch is tried again on a new X server (twice at most): it does not test this case.
        var launch: (XvfbServer, RecorderProcess)?
        for attempt in 1...3 {
            let x = try XvfbServer()
            var environment = x.recorderEnvironment
            environment.removeValue(forKey: "SDL_RENDER_DRIVER")
            let r = try RecorderProcess(booth + ["--output", output], environment: environment)
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            // Under CI's wide pass (two cores, every suite at once) the line once came more than 20 s
            // after `ready` was read: the wait is as long as the load may make it.
            #expect(r.waitForLog("renderer ", timeout: 60), "\(r.stderr)")
            // A CI run also saw SDL hand over its software renderer with no OpenGL tried (no line
            // about OpenGL at all): that launch, too, does not test this case.
            if attempt < 3 && (r.stderr.contains("no accelerated renderer") || !r.stderr.contains("OpenGL here is")) {
                print("XvfbEndToEndTests.softwareOverLlvmpipe: no OpenGL renderer on launch \(attempt), tried again: \(r.stderr)")
                r.command("quit")
                _ = r.exitStatus()
                continue
            }
            launch = (x, r)
            break
        }
        let (x, r) = try #require(launch)
        #expect(r.waitForLog("renderer software", timeout: 60), "\(r.stderr)")
        #expect(r.said("a CPU rasteriser; using SDL's software renderer"), "\(r.stderr)")
        let s = Screen(try x.window(pid: r.process.processIdentifier, title: "Kiosk Recorder"), .landscapeRight)
        #expect(try x.waitForScreen { Self.showsRecordCircle($0, s) }, "the record circle is not on the X screen")
        try x.click(s.window, at: s.centre(of: .start))
        #expect(r.wait(for: "recordingStarted") != nil, "the click did not start a take")
        r.command("stop")
        #expect(r.wait(for: "recordingFinished") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("click record, wait 3 s, click stop, click Use Video: the events in order, the file plays, the screen shows each step")
    func clickRecordStopUse() throws {
        try XvfbTools.require()
        let x = try XvfbServer()
        let folder = try testFolder("xvfb-use")
        let output = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(booth + ["--output", output], environment: x.recorderEnvironment)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let s = Screen(try x.window(pid: r.process.processIdentifier, title: "Kiosk Recorder"), .landscapeRight)
        #expect(s.window.size == Size(width: 800, height: 480))
        // Clicking before the window is drawn would hit nothing: the circle on screen is the cue.
        #expect(try x.waitForScreen { Self.showsRecordCircle($0, s) }, "the record circle is not on the X screen where the layout puts it")

        try x.click(s.window, at: s.centre(of: .start))
        let started = try #require(r.wait(for: "recordingStarted"), "the click on the record circle did not start a take: \(r.stderr)")
        #expect(try x.waitForScreen { Self.showsStopSquare($0, s) }, "the stop square is not on screen while recording")
        // Three seconds on the booth's timer.
        #expect(r.waitRecorded(3))
        try x.click(s.window, at: s.centre(of: .stop))
        let finished = try #require(r.wait(for: "recordingFinished"), "the click on stop did not end the take")
        // Finished: Use Video is the right-hand button; wait for it to be drawn before clicking.
        #expect(try x.waitForScreen { !Self.isRed($0.rgb(s.window, s.centre(of: .stop))) })
        try x.click(s.window, at: s.centre(of: .useVideo))
        #expect(r.exitStatus() == 0)

        // (Without the replies to the timer's `state`.)
        let events = r.events.filter { $0.name != "state" }
        #expect(events.map(\.name) == ["ready", "recordingStarted", "recordingFinished", "videoRecorderDidFinishRecordingVideoWithOutputPath"])
        guard events.count == 4, case let .recordingFinished(result) = events[2] else { Issue.record("no result: \(r.rawLines)"); return }
        #expect(result.success && result.reason == .user && result.outputPath == output)
        #expect(result.duration > 2.9 && result.duration < finished - started + 1, "\(result.duration)")
        #expect(r.events.last == .videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: output))
        #expect(try ffprobe(output, "stream=codec_name") == "h264\naac")
        let seconds = try #require(Double(try ffprobe(output, "format=duration")))
        #expect(abs(seconds - result.duration) < 0.2)
        #expect(try decodesCleanly(output))
    }

    @Test("physical buttons as keys (a USB button or gpio-keys arrive as key events): Space starts, with the countdown, and stops; Return is Use Video")
    func keys() throws {
        try XvfbTools.require()
        let x = try XvfbServer()
        let folder = try testFolder("xvfb-keys")
        let output = folder.appendingPathComponent("take.mov").path
        // The default countdown: a guest pressing a button gets their 3-2-1.
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "test", "--windowed", "800x480", "--countdown", "2",
                                     "--output", output], environment: x.recorderEnvironment)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let s = Screen(try x.window(pid: r.process.processIdentifier, title: "Kiosk Recorder"), .landscapeRight)
        #expect(try x.waitForScreen { Self.showsRecordCircle($0, s) })
        try x.key(s.window, "space")
        try #require(r.wait(for: "recordingStarted", timeout: 20) != nil, "Space did not start a take: \(r.rawLines) \(r.stderr)")
        #expect(r.names.prefix(3) == ["ready", "countdown", "countdown"], "\(r.names)")
        #expect(r.waitRecorded(1))
        try x.key(s.window, "space")
        try #require(r.wait(for: "recordingFinished") != nil, "Space did not stop the take: \(r.rawLines)")
        try x.key(s.window, "Return")
        #expect(r.exitStatus() == 0)
        #expect(r.names.filter { $0 != "state" } == ["ready", "countdown", "countdown", "recordingStarted", "recordingFinished",
                                                      "videoRecorderDidFinishRecordingVideoWithOutputPath"], "\(r.rawLines)")
        #expect(try decodesCleanly(output))
    }

    @Test("on the attract screen Space only wakes it (a physical button never starts a take by accident); the next Space starts")
    func keyOnAttractScreen() throws {
        try XvfbTools.require()
        let x = try XvfbServer()
        let folder = try testFolder("xvfb-attract-key")
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "test", "--windowed", "800x480", "--countdown", "0",
                                     // Awake, the screen dims again --attract-after after the touch: 3 s
                                     // leaves the second Space room under load (at 1 s it came after
                                     // the screen grab and the half second, and only woke it again).
                                     "--attract-after", "3", "--output", folder.appendingPathComponent("take.mov").path],
                                    environment: x.recorderEnvironment)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let s = Screen(try x.window(pid: r.process.processIdentifier, title: "Kiosk Recorder"), .landscapeRight)
        // The test pattern's white bar at the left, in the picture between the panels: dimmed on
        // the attract screen, white again once awake.
        let bar = Point(x: 30, y: 240)
        #expect(try x.waitForScreen { Self.isWhite($0.rgb(s.window, bar)) })
        #expect(try x.waitForScreen(timeout: 8) { $0.rgb(s.window, bar).r < 160 }, "no attract screen after --attract-after 3")
        try x.key(s.window, "space")
        #expect(try x.waitForScreen { Self.isWhite($0.rgb(s.window, bar)) }, "Space did not wake the attract screen")
        // The Space that woke it has been handled: asked now, the booth is still in ready.
        #expect(r.waitForState { mode, _ in mode == "ready" }, "\(r.rawLines)")
        #expect(!r.names.contains("recordingStarted"), "Space on the attract screen started a take: \(r.names)")
        try x.key(s.window, "space")
        try #require(r.wait(for: "recordingStarted", timeout: 5) != nil, "the second Space did not start a take: \(r.rawLines)")
        // A second of pictures: a take stopped at once may hold none (under a loaded sanitizer run
        // it did), and a take without pictures has no Use Video.
        #expect(r.waitRecorded(1))
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        #expect(r.lastResult?.success == true, "\(r.rawLines)")
        r.command("useVideo")
        #expect(r.exitStatus() == 0, "\(r.rawLines)")
    }

    @Test("click Play Video: the take plays aspect-fit through the renderer's own YUV textures, Close returns to finished")
    func clickPlayVideo() throws {
        try XvfbTools.require()
        let x = try XvfbServer()
        let folder = try testFolder("xvfb-play")
        let output = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(booth + ["--output", output], environment: x.recorderEnvironment)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let s = Screen(try x.window(pid: r.process.processIdentifier, title: "Kiosk Recorder"), .landscapeRight)
        #expect(try x.waitForScreen { Self.showsRecordCircle($0, s) })
        try x.click(s.window, at: s.centre(of: .start))
        try #require(r.wait(for: "recordingStarted") != nil)
        #expect(r.waitRecorded(2))
        try x.click(s.window, at: s.centre(of: .stop))
        try #require(r.wait(for: "recordingFinished") != nil)
        #expect(try x.waitForScreen { !Self.isRed($0.rgb(s.window, s.centre(of: .stop))) })
        // Finished shows the frozen frame aspect-fill: the white bar reaches the window's left edge.
        let edge = Point(x: 30, y: 240)
        #expect(try x.waitForScreen { Self.isWhite($0.rgb(s.window, edge)) }, "the frozen frame does not fill the window")

        try x.click(s.window, at: s.centre(of: .playVideo))
        try #require(r.wait(for: "playbackStarted") != nil, "the click on Play Video did not start the player: \(r.stderr)")
        // Playing: the 352x288 take aspect-fit in 800x480, black bars left and right, the test
        // pattern's bars inside it (bar 0 white, bar 6 blue) on the middle row.
        let fit = Scaling.aspectFit(content: Size(width: 352, height: 288), in: Rect(x: 0, y: 0, width: 800, height: 480))
        func bar(_ i: Int) -> Point { Point(x: Double(fit.x) + (Double(i) + 0.5) / 8 * Double(fit.width), y: 240) }
        let isBlack = { (c: (r: Int, g: Int, b: Int)) in c.r < 20 && c.g < 20 && c.b < 20 }
        let isBlue = { (c: (r: Int, g: Int, b: Int)) in c.b > 200 && c.r < 60 && c.g < 60 }
        #expect(try x.waitForScreen { image in
            isBlack(image.rgb(s.window, edge)) && Self.isWhite(image.rgb(s.window, bar(0))) && isBlue(image.rgb(s.window, bar(6)))
        }, "the take is not on the X screen aspect-fit with its colours")
        try x.click(s.window, at: s.centre(of: .closePlayer))
        try #require(r.wait(for: "playbackFinished") != nil, "the click on Close did not stop the player")
        #expect(try x.waitForScreen { Self.isWhite($0.rgb(s.window, edge)) }, "finished does not show the frozen frame again")
        try x.click(s.window, at: s.centre(of: .useVideo))
        #expect(r.exitStatus() == 0)

        #expect(r.names.filter { $0 != "state" } == ["ready", "recordingStarted", "recordingFinished", "playbackStarted", "playbackFinished",
                                                      "videoRecorderDidFinishRecordingVideoWithOutputPath"])
        #expect(r.events.contains(.playbackFinished(reason: .closed)))
        // Which path drew it: on a GPU-style renderer (Xvfb's OpenGL, kiosk/setup installs Mesa) the
        // planes go up as they are.
        let path = r.stderr.components(separatedBy: "playback: pictures go to the ").dropFirst().first?.prefix { $0 != "\n" } ?? ""
        print("Xvfb playback: \(path)")
        if TestEnvironment.isCI { #expect(path.hasSuffix("as YUV planes") && !path.hasPrefix("software"), "\(path)") }
    }

    @Test("rotate to portrait, click record where the portrait layout puts it, SIGUSR1 stops the take (background), click Use Video")
    func rotatedClicksAndBackground() throws {
        try XvfbTools.require()
        let x = try XvfbServer()
        let folder = try testFolder("xvfb-portrait")
        let output = folder.appendingPathComponent("take.mp4").path
        let r = try RecorderProcess(booth + ["--output", output], environment: x.recorderEnvironment)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let window = try x.window(pid: r.process.processIdentifier, title: "Kiosk Recorder")
        r.send(#"{"command":"rotate","orientation":"portrait"}"#)
        try #require(r.wait(for: "orientationChanged") != nil)
        let s = Screen(window, .portrait)
        // The canvas is turned on the landscape window: the circle now sits by its right edge.
        #expect(s.centre(of: .start).x > Double(window.size.width) * 0.75)
        #expect(try x.waitForScreen { Self.showsRecordCircle($0, s) }, "the portrait record circle is not on the X screen")

        try x.click(s.window, at: s.centre(of: .start))
        let started = try #require(r.wait(for: "recordingStarted"), "the click on the portrait record circle did not start a take")
        #expect(try x.waitForScreen { Self.showsStopSquare($0, s) })
        #expect(r.waitRecorded(1))
        r.kill(SIGUSR1)
        let finished = try #require(r.wait(for: "recordingFinished"))
        // Back to the foreground, as a returning app would be (the finished screen's buttons are
        // the same either way: the click needs no wait for it).
        r.kill(SIGUSR2)
        #expect(try x.waitForScreen { !Self.isRed($0.rgb(s.window, s.centre(of: .stop))) })
        try x.click(s.window, at: s.centre(of: .useVideo))
        #expect(r.exitStatus() == 0)

        let events = r.events.filter { $0.name != "state" }
        #expect(events.map(\.name) == ["ready", "orientationChanged", "recordingStarted", "recordingFinished",
                                        "videoRecorderDidFinishRecordingVideoWithOutputPath"])
        guard events.count == 5, case let .recordingFinished(result) = events[3] else { Issue.record("no result: \(r.rawLines)"); return }
        #expect(result.reason == .background && result.success && result.outputPath == output)
        #expect(result.duration > 0.9 && result.duration < finished - started + 1, "\(result.duration)")
        // Portrait on a landscape window: the picture is turned a quarter clockwise to stand up.
        #expect(try ffprobe(output, "stream_side_data=rotation", stream: "v:0") == "-90")
        #expect(try decodesCleanly(output))
    }
}
