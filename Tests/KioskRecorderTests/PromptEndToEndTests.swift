// `--prompt` through the binary: the operator's words over the picture in ready, gone while
// recording, read back from the booth's own screenshots.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("the prompt, end to end", .serialized)
struct PromptEndToEndTests {
    /// A 24-bit bottom-up BMP as the booth writes it: (width, height, RGB at x, y).
    struct Bitmap {
        let width: Int, height: Int
        let bytes: [UInt8]
        init(_ data: Data) throws {
            let b = [UInt8](data)
            guard b.count > 54, b[0] == 0x42, b[1] == 0x4D else { throw PromptFailure(description: "not a BMP") }
            func u32(_ o: Int) -> Int { Int(b[o]) | Int(b[o + 1]) << 8 | Int(b[o + 2]) << 16 | Int(b[o + 3]) << 24 }
            (bytes, width, height) = (b, u32(18), u32(22))
        }
        /// The pixel at (x, y), top-down.
        func rgb(x: Int, y: Int) -> (Int, Int, Int) {
            let row = (width * 3 + 3) & ~3
            let o = 54 + (height - 1 - y) * row + 3 * x
            return (Int(bytes[o + 2]), Int(bytes[o + 1]), Int(bytes[o]))
        }
        func brightness(x: Int, y: Int) -> Int {
            let row = (width * 3 + 3) & ~3
            let o = 54 + (height - 1 - y) * row + 3 * x
            return (Int(bytes[o]) + Int(bytes[o + 1]) + Int(bytes[o + 2])) / 3
        }
        /// Mean brightness and the count of near-white pixels in a rectangle.
        func measure(_ r: Rect) -> (mean: Double, white: Int) {
            var sum = 0, white = 0, n = 0
            for y in r.y..<r.maxY { for x in r.x..<r.maxX { let b = brightness(x: x, y: y); sum += b; n += 1; if b > 225 { white += 1 } } }
            return (Double(sum) / Double(max(n, 1)), white)
        }
    }

    /// A screenshot of the booth; taken again when it caught one of the test pattern's flash frames
    /// (its whole picture white for one frame each second: the black bar at the right shows it),
    /// for up to 5 s: a flash is on screen until the next camera frame is, and on a loaded machine
    /// the booth presents it several times over (ci44: eight screenshots in a row caught one).
    static func shot(_ r: RecorderProcess, _ path: String) throws -> Bitmap {
        var attempt = 0, found: Bitmap?, failure: (any Error)?
        _ = eventually(5) {
            defer { attempt += 1 }
            do {
                let bitmap = try take(r, attempt == 0 ? path : path + ".\(attempt).bmp")
                if bitmap.measure(Rect(x: 720, y: 240, width: 40, height: 40)).mean < 60 { found = bitmap }
            } catch { failure = error; return true }
            return found != nil
        }
        if let failure { throw failure }
        guard let found else { throw PromptFailure(description: "every screenshot caught a flash (\(attempt) in 5 s)") }
        return found
    }

    static func take(_ r: RecorderProcess, _ path: String) throws -> Bitmap {
        r.send(#"{"command":"screenshot","path":"\#(path)"}"#)
        let whole = 54 + 800 * 480 * 3
        guard eventually(20, { ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int ?? 0) >= whole }),
              let data = FileManager.default.contents(atPath: path)
        else { throw PromptFailure(description: "no screenshot at \(path): \(r.rawLines)") }
        return try Bitmap(data)
    }

    /// A screenshot (`shot`'s) once the camera's picture is up behind the screen: before it the
    /// middle row is black; the test pattern's bars make it bright.
    static func pictureShot(_ r: RecorderProcess, _ path: String) throws -> Bitmap {
        var n = 0, last: Bitmap?
        let up = eventually(20) {
            n += 1
            guard let s = try? shot(r, n == 1 ? path : path + ".\(n).bmp") else { return false }
            last = s
            return stride(from: 100, to: s.width - 100, by: 20).contains { s.brightness(x: $0, y: s.height / 2) > 100 }
        }
        guard up, let last else { throw PromptFailure(description: "no camera picture on screen at \(path): \(r.rawLines)") }
        return last
    }

    struct PromptFailure: Error, CustomStringConvertible { let description: String }

    @Test("--prompt: the words in a dark box at the top of the picture in ready (white text), gone while recording")
    func prompt() throws {
        let folder = try testFolder("prompt")
        let layout = Layout(canvas: Size(width: 800, height: 480))
        // The middle of the prompt's first line.
        let band = Rect(x: 300, y: layout.content.y + layout.textHeight * 3 / 4 + layout.textHeight / 4,
                        width: 200, height: layout.textHeight)

        let plain = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("a.mov").path])
        try #require(plain.wait(for: "ready") != nil, "\(plain.stderr)")
        let without = try Self.pictureShot(plain, folder.appendingPathComponent("plain.bmp").path).measure(band)
        plain.command("quit")
        #expect(plain.exitStatus() == 0)

        let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("b.mov").path,
                                             "--prompt", "Leave a message for Anna & Tom"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let with = try Self.pictureShot(r, folder.appendingPathComponent("prompt.bmp").path).measure(band)
        #expect(with.mean < without.mean * 0.75, "the dark box: \(with.mean) against \(without.mean)")
        #expect(with.white > 100, "white letters: \(with.white) pixels")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil)
        // The screen as it shows recording (the next frame's at the soonest).
        var recording = with, n = 0
        #expect(eventually(10) {
            n += 1
            recording = (try? Self.shot(r, folder.appendingPathComponent("recording-\(n).bmp").path).measure(band)) ?? recording
            return abs(recording.mean - without.mean) < 25
        }, "no prompt while recording: \(recording.mean) against \(without.mean)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0)
        // A prompt that is not one line is refused, named.
        let bad = try run(booth + ["--prompt", "two\nlines"])
        #expect(bad.status == 2 && bad.stderr.contains("--prompt"), "\(bad.stderr)")
    }

    @Test("--attract-after: ready untouched dims the picture; a tap on the record button then only wakes it (no take); the next tap starts")
    func attract() throws {
        let folder = try testFolder("attract")
        let layout = Layout(canvas: Size(width: 800, height: 480))
        // Below the prompt, above the buttons: the picture itself.
        let picture = Rect(x: 120, y: layout.content.y + layout.content.height / 2, width: 560, height: layout.content.height / 4)
        // Awake, the screen dims again --attract-after after the wake: 2.5 s leaves the second tap
        // room under load, after the half second and the screenshot between them.
        let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("take.mov").path, "--attract-after", "2.5",
                                             "--prompt", "Say hello"])
        let ready = try #require(r.wait(for: "ready"), "\(r.stderr)")
        let awake = try Self.pictureShot(r, folder.appendingPathComponent("awake.bmp").path).measure(picture)
        // Screenshots until the screen dims (the rule's own timing is on a virtual clock, in
        // KioskCoreTests): not before --attract-after.
        var dim = awake, n = 0
        #expect(eventually(20) {
            n += 1
            dim = (try? Self.shot(r, folder.appendingPathComponent("attract-\(n).bmp").path).measure(picture)) ?? dim
            return dim.mean < awake.mean * 0.7
        }, "dimmed: \(dim.mean) against \(awake.mean)")
        // (Half a second's margin for a `ready` line that came late.)
        #expect(ProcessInfo.processInfo.systemUptime - ready >= 2, "dimmed long before --attract-after")
        // The first tap, right on the record button, only wakes the screen.
        let record = layout.recordButton.center
        r.send(#"{"command":"tap","x":\#(record.x),"y":\#(record.y)}"#)
        // Asked after the tap: still ready, no take begun.
        #expect(r.waitForState { mode, _ in mode == "ready" }, "\(r.rawLines)")
        #expect(!r.names.contains("recordingStarted") && !r.names.contains("countdown"), "\(r.rawLines)")
        var woken = dim
        #expect(eventually(10) {
            n += 1
            woken = (try? Self.shot(r, folder.appendingPathComponent("woken-\(n).bmp").path).measure(picture)) ?? woken
            return woken.mean > awake.mean * 0.9
        }, "awake again: \(woken.mean) against \(awake.mean)")
        r.send(#"{"command":"tap","x":\#(record.x),"y":\#(record.y)}"#)
        try #require(r.wait(for: "recordingStarted") != nil, "the second tap starts: \(r.rawLines)")
        #expect(r.waitRecorded(1))
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("--high-contrast through the binary: the top panel is opaque black over the white bar, where it is a translucent grey by default")
    func highContrast() throws {
        let folder = try testFolder("high-contrast")
        var tops: [Int] = []
        for extra in [[String](), ["--high-contrast"]] {
            let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("t\(extra.count).mov").path] + extra)
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            let shot = try Self.pictureShot(r, folder.appendingPathComponent("shot\(extra.count).bmp").path)
            tops.append(shot.brightness(x: 20, y: 4))
            r.command("quit")
            #expect(r.exitStatus() == 0)
        }
        #expect(tops[0] > 80 && tops[1] < 5, "top panel over the white bar: \(tops[0]) by default, \(tops[1]) in high contrast")
    }

    @Test("--large-text through the binary: Cancel's title takes well over 1.5 times the pixels (1.35² at least; the normal one is fitted to the side buttons' width)")
    func largeText() throws {
        let folder = try testFolder("large-text")
        var whites: [Int] = []
        for (index, extra) in [[String](), ["--large-text"]].enumerated() {
            let layout = Layout(canvas: Size(width: 800, height: 480), textScale: index == 0 ? 1 : 1.35)
            let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("t\(index).mov").path] + extra)
            try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
            let shot = try Self.pictureShot(r, folder.appendingPathComponent("shot\(index).bmp").path)
            // Cancel's pill is grey; its title is the white in it.
            whites.append(shot.measure(layout.leftButton).white)
            r.command("quit")
            #expect(r.exitStatus() == 0)
        }
        let ratio = Double(whites[1]) / Double(max(whites[0], 1))
        #expect(ratio > 1.5, "title pixels \(whites[0]) → \(whites[1]) (×\(ratio))")
    }

    @Test("--large-text on a portrait screen through the binary: the side buttons cannot widen beside the record circle, so they grow taller and Use Video's title goes on two lines, each as large as Retake's one")
    func largeTextPortrait() throws {
        let folder = try testFolder("large-text-portrait")
        let canvas = Size(width: 480, height: 800)
        let normal = Layout(canvas: canvas), large = Layout(canvas: canvas, textScale: 1.35)
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "test", "--windowed", "480x800", "--countdown", "0",
                                     "--large-text", "--output", folder.appendingPathComponent("take.mov").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil)
        #expect(r.waitRecorded(1))
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        // The finished screen: the booth is in it when it says so, and a screenshot is drawn after.
        #expect(r.waitForState { mode, _ in mode == "finished" })
        let shot = try Self.take(r, folder.appendingPathComponent("finished.bmp").path)
        #expect(shot.width == 480 && shot.height == 800)
        /// The rows of a button with its title's white in them.
        func inkRows(_ button: Rect) -> Int {
            let inside = button.outset(dx: -4, dy: -4)
            return (inside.y..<inside.maxY).filter { y in (inside.x..<inside.maxX).contains { shot.brightness(x: $0, y: y) > 225 } }.count
        }
        let retake = inkRows(large.leftButton), use = inkRows(large.rightButton)
        // Retake's one line at the large size (its capitals about 0.7 of the text's height, not
        // shrunk back to the normal size), Use Video's two lines of it.
        #expect(Double(retake) > 0.6 * Double(large.textHeight) && large.textHeight > normal.textHeight, "Retake's title \(retake) rows, text \(large.textHeight) px")
        #expect(Double(use) > 1.7 * Double(retake), "Use Video's title \(use) rows against Retake's \(retake)")
        #expect(large.leftButton.height > normal.leftButton.height)
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
