// Not a check: writes the README's screenshots (docs/screenshots, made by docs/screenshots/make)
// when KIOSK_SCREENSHOTS names a folder; skipped otherwise.
import Foundation
import KioskContract
import KioskCore
import KioskPairing
import KioskScreenText
import Testing
@testable import KioskUI

extension SDLTests {
    @Suite("Documentation screenshots")
    struct DocScreenshots {
        static let folder = ProcessInfo.processInfo.environment["KIOSK_SCREENSHOTS"]

        @Test("each mode, landscape 800x480 and portrait 480x800, as BMP", .enabled(if: folder != nil))
        func write() throws {
            let folder = try #require(Self.folder)
            let sdl = try makeContext()
            for (name, output) in [("landscape", Size(width: 800, height: 480)), ("portrait", Size(width: 480, height: 800))] {
                let screen = try makeScreen(sdl, size: output)
                // The built-in test camera's bars, at its default size.
                try screen.show(frame: TestFrames.bars(size: Size(width: 352, height: 288)))
                var prompted = Models.ready
                prompted.prompt = "Leave a message for Anna & Tom"
                var attract = prompted
                attract.attract = 0.35
                var metered = Models.recording(elapsed: 4)
                metered.microphoneLevel = (-9, -4)
                var silent = Models.recording(elapsed: 6)
                silent.microphoneLevel = (-100, -100)
                silent.microphoneSilent = true
                silent.message = .microphoneSilent
                // The review's trimmer (issue 34, --trim): a 7 s take trimmed to [1.5, 5.2].
                var trimmed = Models.finished()
                trimmed.trimmer = TrimmerView(duration: Models.result.duration, range: TrimRange(start: 1.5, end: 5.2))
                // A four-line question (--questions): over the countdown, then in the top band while recording.
                let question = "Before you go, tell us your favourite memory of Anna and Tom, and what you wish for the two of them in the years to come?"
                var asked = Models.countdown(3)
                asked.question = (question, true)
                var recordingAsked = Models.recording(elapsed: 12)
                recordingAsked.question = (question, false)
                var warning = Models.recording(elapsed: 113)
                warning.timer = "00:07"
                warning.remainingFraction = 0.7
                for (mode, model) in [("ready", Models.ready), ("recording", Models.recording(elapsed: 12)),
                                      ("finished", Models.finished()), ("playing", Models.playing()),
                                      ("camera-unavailable", Models.cameraUnavailable),
                                      ("countdown", Models.countdown(3)), ("time-left", warning), ("prompt", prompted),
                                      ("attract", attract), ("meter", metered), ("silent", silent), ("trim", trimmed),
                                      ("question-countdown", asked), ("question-recording", recordingAsked)] {
                    // Without a camera there is no picture (the executable clears it); with one, the bars.
                    if model.message != nil && model.mode != .recording {
                        screen.clearPreview()
                    } else {
                        try screen.show(frame: TestFrames.bars(size: Size(width: 352, height: 288)))
                    }
                    try screen.setTrimPictures(mode == "trim" ? trimBars() : [])
                    try screen.render(model)
                    try screen.screenshot(to: "\(folder)/\(mode)-\(name).bmp")
                }
                try screen.setTrimPictures([])
                // The attract slideshow (issue 34, `--attract-slideshow`): a take's picture under the
                // attract screen, covering the screen as the preview does.
                screen.playbackFit = .fill
                try screen.show(playbackFrame: Self.takePicture(), rotation: 0)
                try screen.render(attract)
                try screen.screenshot(to: "\(folder)/attract-slideshow-\(name).bmp")
                screen.endPlayback()
                screen.playbackFit = .fit
                // The share screen (issue 31): the video's code, and with the booth's Wi-Fi two codes.
                var sharing = RecorderMachine(session: .loop, outputPath: "/tmp/take.mov", orientation: .landscapeRight, shares: true)
                _ = sharing.start()
                for event: RecorderEvent in [.press(.start), .recordingStarted(outputPath: "/tmp/take.mov"), .press(.stop),
                                             .recordingFinished(Models.result), .press(.useVideo),
                                             .takeShared(ShareLink(url: "http://10.42.0.1/s/q3Vb0dJx4nT8WmK2aP9sLz1c/", token: "q3Vb0dJx4nT8WmK2aP9sLz1c",
                                                                   folder: "/srv/kiosk-recorder/share/q3Vb0dJx4nT8WmK2aP9sLz1c"))] {
                    _ = sharing.handle(event)
                }
                var wifi = sharing.viewModel
                wifi.share?.wifi = WiFiPayload.make(ssid: "Booth", password: "guests-2026")
                for (mode, model) in [("share", sharing.viewModel), ("share-wifi", wifi)] {
                    try screen.show(frame: TestFrames.bars(size: Size(width: 352, height: 288)))
                    try screen.render(model)
                    try screen.screenshot(to: "\(folder)/\(mode)-\(name).bmp")
                }
                // The shutter (issue 34, `--photo-button`): ready and a take.
                screen.extras.photo = true
                for (mode, model) in ShutterPixelTests.models() {
                    try screen.show(frame: TestFrames.bars(size: Size(width: 352, height: 288)))
                    try screen.render(model)
                    try screen.screenshot(to: "\(folder)/photo-\(mode)-\(name).bmp")
                }
                screen.extras.photo = false
                // In German (the long titles on two lines at 480 wide) and Japanese (Noto Sans CJK JP
                // through fontconfig): ready with a prompt, the review.
                for (language, prompt) in [(Language.de, "Eine Nachricht für Anna & Tom"), (.ja, "アンナとトムへのメッセージをどうぞ")] {
                    var ready = Models.ready
                    ready.prompt = prompt
                    try screen.setWords(ScreenWords(language: language), prompt: prompt, font: nil)
                    for (mode, model) in [("ready", ready), ("finished", Models.finished())] + (language == .ja ? [("trim", trimmed)] : []) {
                        try screen.show(frame: TestFrames.bars(size: Size(width: 352, height: 288)))
                        try screen.setTrimPictures(mode == "trim" ? trimBars() : [])
                        try screen.render(model)
                        try screen.screenshot(to: "\(folder)/\(language.rawValue)-\(mode)-\(name).bmp")
                    }
                }
                // The shutter's ready in Japanese (the words of the last language above).
                screen.extras.photo = true
                try screen.show(frame: TestFrames.bars(size: Size(width: 352, height: 288)))
                try screen.render(try #require(ShutterPixelTests.models().first).1)
                try screen.screenshot(to: "\(folder)/ja-photo-ready-\(name).bmp")
                screen.extras.photo = false
                // The library (issue 34, `--library`): its grid, in Japanese (the words above), then in English.
                screen.setLibraryPictures(LibraryPixelTests.barPictures())
                let grid = LibraryPixelTests.grid().viewModel
                try screen.render(grid)
                try screen.screenshot(to: "\(folder)/ja-library-\(name).bmp")
                try screen.setWords(ScreenWords(language: .en), prompt: nil, font: nil)
                try screen.render(grid)
                try screen.screenshot(to: "\(folder)/library-\(name).bmp")
                // Pairing (`--console-pairing`): the operator's keyboard with five characters typed, then
                // a one-time code's QR code, over ready.
                try screen.show(frame: TestFrames.bars(size: Size(width: 352, height: 288)))
                screen.showPairing(.keyboard(page: 0, typed: 5))
                try screen.render(Models.ready)
                try screen.screenshot(to: "\(folder)/pairing-keyboard-\(name).bmp")
                screen.showPairing(.code(url: "http://10.42.0.1/console/api/pair/" + String(repeating: "Q", count: 32)))
                try screen.render(Models.ready)
                try screen.screenshot(to: "\(folder)/pairing-code-\(name).bmp")
                screen.showPairing(nil)
            }
            if ProcessInfo.processInfo.environment["KIOSK_SCREENSHOTS_TURNED"] != nil {
                // Not for the docs: the portrait canvas turned onto a landscape panel, to look at.
                let screen = try makeScreen(sdl, size: Size(width: 800, height: 480), orientation: .portrait)
                try screen.show(frame: TestFrames.bars(size: Size(width: 352, height: 288)))
                try screen.render(Models.finished())
                try screen.screenshot(to: "\(folder)/turned.bmp")
            }
        }

        /// A stand-in for a guest's take (4:3): a warm evening sky over a dark lawn, a lamp's round
        /// glow in the middle; told apart from the camera's bars at a glance.
        static func takePicture() -> VideoFrame {
            let size = Size(width: 640, height: 480)
            return TestFrames.make(.yuv420p, size: size) { x, y in
                let (fx, fy) = (Double(x) / Double(size.width), Double(y) / Double(size.height))
                let glow = max(0, 1 - hypot(fx - 0.5, fy - 0.45) / 0.22)
                var (r, g, b) = fy < 0.7 ? (250 - 90 * fy, 150 - 120 * fy, 90 + 100 * fy) : (40 + 30 * fx, 80, 50)
                (r, g, b) = (r + (255 - r) * glow, g + (240 - g) * glow, b + (200 - b) * glow)
                // BT.601 limited range.
                let luma = 16 + (65.5 * r + 128.5 * g + 25 * b) / 255
                let u = 128 + (-37.8 * r - 74.2 * g + 112 * b) / 255, v = 128 + (112 * r - 93.8 * g - 18.2 * b) / 255
                return YUV(y: UInt8(luma.rounded()), u: UInt8(u.rounded()), v: UInt8(v.rounded()))
            }
        }
    }
}
