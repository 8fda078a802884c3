// The library (`--library`, issue 34) through the real binary: takes the booth itself made and
// accepted in a loop session, listed newest first with their lengths, a damaged take left out, one
// picked and played, and used in a once session (the outcome names it; its file is unchanged).
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

@Suite("kiosk-recorder library")
struct LibraryEndToEndTests {
    /// The `library` of the first `state` in mode library that lists `count` takes (asked again
    /// until the file worker has listed them), or nil.
    static func listed(_ r: RecorderProcess, count: Int, timeout: Double = 15) -> [LibraryEntry]? {
        let deadline = ProcessInfo.processInfo.systemUptime + timeout
        var asked = r.events.filter { $0.name == "state" }.count
        while ProcessInfo.processInfo.systemUptime < deadline {
            r.command("state")
            asked += 1
            guard r.wait(for: "state", count: asked) != nil else { return nil }
            if case let .state("library", _, _, _, _, _, _, _, library?, _, _)? = r.events.last(where: { $0.name == "state" }), library.count == count {
                return library
            }
        }
        return nil
    }

    static func lastState(_ r: RecorderProcess) -> (mode: String, buttons: [Button])? {
        let count = r.events.filter { $0.name == "state" }.count + 1
        r.command("state")
        guard r.wait(for: "state", count: count) != nil,
              case let .state(mode, _, buttons, _, _, _, _, _, _, _, _)? = r.events.last(where: { $0.name == "state" }) else { return nil }
        return (mode, buttons)
    }

    @Test("two accepted takes of different lengths listed newest first with their durations; damaged takes left out; the older one picked plays for its length; Back, Back to ready; then Use Video in a once session names it, its file unchanged")
    func library() throws {
        let folder = try testFolder("library").appendingPathComponent("takes")
        let r = try RecorderProcess(booth + ["--output-dir", folder.path, "--session", "loop", "--library"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        #expect(Self.lastState(r)?.buttons == [.cancel, .start, .openLibrary])
        // Four accepted takes: the first two to list, the last two to damage.
        var used: [String] = [], durations: [Double] = []
        // (Whole seconds on the booth's timer.)
        for (n, seconds) in [1.0, 3.0, 1.0, 1.0].enumerated() {
            durations.append(try ServiceEndToEndTests.take(r, seconds: seconds, count: n + 1).duration)
            r.command("useVideo")
            try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: n + 1) != nil, "\(r.rawLines)")
            guard case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path)? = r.events.last(where: {
                $0.name == "videoRecorderDidFinishRecordingVideoWithOutputPath" }) else { Issue.record("no outcome"); return }
            used.append(path)
        }
        let (older, newer, truncated, garbage) = (used[0], used[1], used[2], used[3])
        // A take cut to its first 2000 bytes (no picture left), and one overwritten with garbage;
        // beside them a garbage .mov and a truncated copy the booth never accepted.
        let cut = try Data(contentsOf: URL(fileURLWithPath: truncated)).prefix(2000)
        try cut.write(to: URL(fileURLWithPath: truncated))
        let noise = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })
        try noise.write(to: URL(fileURLWithPath: garbage))
        try noise.write(to: folder.appendingPathComponent("stray.mov"))
        try Data(contentsOf: URL(fileURLWithPath: older)).prefix(3000).write(to: folder.appendingPathComponent("copy.mov"))
        let olderBytes = try Data(contentsOf: URL(fileURLWithPath: older))

        r.command("openLibrary")
        let entries = try #require(Self.listed(r, count: 2), "\(r.rawLines) \(r.stderr)")
        #expect(entries.map(\.path) == [newer, older], "\(entries)")
        // Each listed with the length its take had when it stopped (a stop the test sends late, on a
        // loaded machine, makes a longer take, not a wrong list).
        #expect(abs(entries[0].duration - durations[1]) < 0.4 && abs(entries[1].duration - durations[0]) < 0.4, "\(entries) \(durations)")
        #expect(durations[1] >= 2.9 && entries[0].duration > entries[1].duration, "\(entries) \(durations)")
        // Each listed take's thumbnail beside it: a small upright JPEG that decodes; none for the damaged.
        for path in [newer, older] {
            let thumbnail = URL(fileURLWithPath: path).deletingLastPathComponent()
                .appendingPathComponent("." + URL(fileURLWithPath: path).lastPathComponent + ".thumb.jpg").path
            let size = try ffprobe(thumbnail, "stream=width,height", stream: "v:0").split(separator: "\n").compactMap { Int($0) }
            #expect(size.count == 2 && size.allSatisfy { $0 > 0 && $0 <= 320 }, "\(thumbnail): \(size)")
            let mode = try FileManager.default.attributesOfItem(atPath: thumbnail)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
        for path in [truncated, garbage] {
            let name = "." + URL(fileURLWithPath: path).lastPathComponent + ".thumb.jpg"
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path))
        }
        #expect(Self.lastState(r)?.buttons == [.back])

        // A path not in the list is a bad command; the older take's review, in a loop session, only plays.
        r.send(#"{"command":"pick","path":"\#(folder.path)/stray.mov"}"#)
        #expect(r.wait(for: "error") != nil)
        #expect(r.events.contains { if case let .error(code, _) = $0 { code == .badCommand } else { false } }, "\(r.rawLines)")
        r.send(#"{"command":"pick","path":"\#(older)"}"#)
        #expect(Self.lastState(r)?.buttons == [.back, .playVideo])
        r.command("playVideo")
        let began = try #require(r.wait(for: "playbackStarted"), "\(r.rawLines)")
        let ended = try #require(r.wait(for: "playbackFinished", timeout: 15), "\(r.rawLines)")
        #expect(r.events.contains(.playbackStarted(path: older)) && r.events.contains(.playbackFinished(reason: .end)))
        // It played for about its length (1 s; slack for a loaded machine).
        #expect(ended - began > 0.7 && ended - began < 4, "\(ended - began) s")
        print("library: the older take (\(entries[1].duration) s) played for \(ended - began) s")
        #expect(Self.lastState(r).map { $0.mode == "library" && $0.buttons == [.back, .playVideo] } == true)
        r.command("back")
        r.command("back")
        #expect(Self.lastState(r)?.mode == "ready")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        #expect(!r.events.contains { if case let .error(code, _) = $0 { code != .badCommand } else { false } }, "\(r.rawLines)")

        // A once session: Use Video on the older take ends it with the outcome naming that path.
        let once = try RecorderProcess(booth + ["--output-dir", folder.path, "--library"])
        try #require(once.wait(for: "ready") != nil, "\(once.stderr)")
        once.command("openLibrary")
        #expect(Self.listed(once, count: 2)?.map(\.path) == [newer, older])
        once.send(#"{"command":"pick","path":"\#(older)"}"#)
        #expect(Self.lastState(once)?.buttons == [.back, .useVideo, .playVideo])
        once.command("useVideo")
        #expect(once.exitStatus() == 0, "\(once.stderr)")
        #expect(once.events.last == .videoRecorderDidFinishRecordingVideoWithOutputPath(outputPath: older), "\(once.rawLines)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: older)) == olderBytes)
        #expect(!once.stderr.contains("Fatal error"))
    }

    @Test("the grid on screen through the binary: each take's thumbnail (the camera's picture, not black) in its cell, landscape and portrait; a tap on a cell opens that take's review",
          arguments: [Size(width: 800, height: 480), Size(width: 480, height: 800)])
    func gridOnScreen(window: Size) throws {
        let folder = try testFolder("library-grid-\(window.width)").appendingPathComponent("takes")
        let options = ["--camera", "test", "--size", "352x288", "--microphone", "test", "--windowed", "\(window.width)x\(window.height)", "--countdown", "0"]
        let r = try RecorderProcess(options + ["--output-dir", folder.path, "--session", "loop", "--library"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        var used: [String] = []
        for n in 1...2 {
            _ = try ServiceEndToEndTests.take(r, seconds: 0.6, count: n)
            r.command("useVideo")
            try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: n) != nil, "\(r.rawLines)")
            if case let .videoRecorderDidFinishRecordingVideoWithOutputPath(path)? = r.events.last(where: {
                $0.name == "videoRecorderDidFinishRecordingVideoWithOutputPath" }) { used.append(path) }
        }
        r.command("openLibrary")
        let entries = try #require(Self.listed(r, count: 2), "\(r.rawLines)")
        #expect(entries.map(\.path) == used.reversed())
        let shot = folder.deletingLastPathComponent().appendingPathComponent("grid.bmp").path
        r.send(#"{"command":"screenshot","path":"\#(shot)"}"#)
        _ = eventually(20) { (try? Data(contentsOf: URL(fileURLWithPath: shot)).count) ?? 0 >= 54 + window.width * window.height * 3 }
        let bmp = try Data(contentsOf: URL(fileURLWithPath: shot))
        let rowBytes = (window.width * 3 + 3) & ~3
        try #require(bmp.count >= 54 + rowBytes * window.height)
        func brightness(_ p: Point) -> Int {
            let x = min(max(Int(p.x), 0), window.width - 1), y = min(max(Int(p.y), 0), window.height - 1)
            let offset = 54 + (window.height - 1 - y) * rowBytes + 3 * x // bottom-up rows, BGR
            return Int(bmp[offset]) + Int(bmp[offset + 1]) + Int(bmp[offset + 2])
        }
        let layout = Layout(canvas: window)
        let grid = LibraryGrid(room: layout.content, count: 2, textHeight: layout.textHeight)
        for index in 0..<2 {
            let box = grid.thumbnail(in: grid.cell(index, scroll: 0))
            // Most of the thumbnail's middle is the camera's picture, not the dark background.
            var lit = 0, all = 0
            for dy in stride(from: -0.3, through: 0.3, by: 0.1) {
                for dx in stride(from: -0.3, through: 0.3, by: 0.1) {
                    all += 1
                    if brightness(Point(x: box.center.x + dx * Double(box.width), y: box.center.y + dy * Double(box.height))) > 90 { lit += 1 }
                }
            }
            #expect(lit * 2 > all, "\(window): take \(index)'s thumbnail at \(box) is dark (\(lit) of \(all) lit)")
        }
        // Between the cells: the library's dark background, not the camera's picture.
        #expect(brightness(Point(x: Double(layout.content.x) + 6, y: Double(layout.content.y) + 6)) < 90)
        // A tap on the older take's cell opens its review.
        let older = grid.cell(1, scroll: 0).center
        r.send(#"{"command":"tap","x":\#(older.x),"y":\#(older.y)}"#)
        #expect(Self.lastState(r)?.buttons == [.back, .playVideo], "\(r.rawLines)")
        r.command("playVideo")
        #expect(r.wait(for: "playbackStarted") != nil)
        #expect(r.events.contains(.playbackStarted(path: used[0])), "\(r.rawLines)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }

    @Test("--library without --output-dir exits 2 naming both")
    func needsFolder() throws {
        let r = try run(booth + ["--library"])
        #expect(r.status == 2 && r.stderr.contains("--library needs --output-dir"), "\(r.stderr)")
    }
}
