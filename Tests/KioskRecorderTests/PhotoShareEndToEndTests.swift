// A photo's share page (issue 34 with issue 31's --share-dir) through the binary: a photo taken in
// ready gets its own share folder (photo.jpg byte-identical to the photo, index.html naming it),
// `takeShared` with the photo's `path`, and the share screen whose QR code zbarimg reads from the
// booth's own screenshot; Done goes back to ready, a once session going on. Served by Debian's nginx
// with the installed site file, headless Chromium shows the picture at the photo's size. A photo
// mid-take is announced at once and leaves the take whole; its code shows once the take's share
// screen is done. A folder that cannot be written is shareFailed, the photo kept.
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

@Suite("a photo's share page through the binary", .serialized)
struct PhotoShareEndToEndTests {
    /// A booth (the test camera) with the shutter and sharing.
    static func sharingBooth(_ folder: URL, _ extra: [String] = []) throws -> (r: RecorderProcess, shares: String) {
        let shares = folder.appendingPathComponent("share").path
        let r = try RecorderProcess(booth + ["--output", folder.appendingPathComponent("take.mov").path, "--photo-button",
                                             "--share-dir", shares, "--share-url", ShareEndToEndTests.template] + extra)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        return (r, shares)
    }

    /// The `photoTaken` events so far.
    static func photos(_ r: RecorderProcess) -> [(path: String, width: Int, height: Int)] {
        r.events.compactMap { if case let .photoTaken(path, width, height) = $0 { (path, width, height) } else { nil } }
    }

    /// The `takeShared` events so far: a photo's with its `path`.
    static func shares(_ r: RecorderProcess) -> [(url: String, token: String, folder: String, path: String?)] {
        r.events.compactMap { if case let .takeShared(url, token, folder, path) = $0 { (url, token, folder, path) } else { nil } }
    }

    /// The mode and buttons a `state` query answers now (the `count`th state event).
    static func state(_ r: RecorderProcess, count: Int) throws -> (mode: String, buttons: [Button]) {
        r.command("state")
        try #require(r.wait(for: "state", count: count) != nil, "\(r.names)")
        guard case let .state(mode, _, buttons, _, _, _, _, _, _, _, _)? = r.events.last(where: { $0.name == "state" }) else {
            throw ShareTestFailure(description: "no state event")
        }
        return (mode, buttons)
    }

    @Test("photo in ready with --share-dir, a once session: takeShared names the photo; its folder holds photo.jpg byte-identical to the photo (0644, the photo 0600) and index.html naming it; the share screen's QR code is the event's url; Done goes back to ready and the session goes on")
    func photoInReady() throws {
        let folder = try testFolder("photo-share-ready")
        let (r, shares) = try Self.sharingBooth(folder, ["--language", "ja"])
        r.command("photo")
        try #require(r.wait(for: "photoTaken") != nil, "\(r.stderr)")
        try #require(r.wait(for: "takeShared") != nil, "\(r.names) \(r.stderr)")
        let photo = try #require(Self.photos(r).first)
        let shared = try #require(Self.shares(r).first)
        #expect(shared.path == photo.path)
        #expect(shared.url == ShareEndToEndTests.template.replacingOccurrences(of: "{token}", with: shared.token))
        #expect(shared.token.count >= 22 && shared.folder == shares + "/" + shared.token, "\(shared)")
        #expect(r.names.firstIndex(of: "photoTaken")! < r.names.firstIndex(of: "takeShared")!)
        let files = try FileManager.default.contentsOfDirectory(atPath: shared.folder).sorted()
        #expect(files == ["index.html", "photo.jpg"], "\(files)")
        for file in files {
            let mode = try FileManager.default.attributesOfItem(atPath: shared.folder + "/" + file)[.posixPermissions] as? Int
            #expect(mode == 0o644, "\(file)")
        }
        #expect((try FileManager.default.attributesOfItem(atPath: shared.folder)[.posixPermissions] as? Int) == 0o755)
        #expect((try FileManager.default.attributesOfItem(atPath: photo.path)[.posixPermissions] as? Int) == 0o600)
        // A copy, not a link: its own inode.
        let copied = try Data(contentsOf: URL(fileURLWithPath: shared.folder + "/photo.jpg"))
        #expect(copied == (try Data(contentsOf: URL(fileURLWithPath: photo.path))))
        #expect((try FileManager.default.attributesOfItem(atPath: shared.folder + "/photo.jpg")[.referenceCount] as? Int) == 1)
        let page = try String(contentsOfFile: shared.folder + "/index.html", encoding: .utf8)
        #expect(page.contains("<img src=\"photo.jpg\" width=\"\(photo.width)\" height=\"\(photo.height)\"") && page.contains("lang=\"ja\""))
        #expect(page.contains("href=\"photo.jpg\" download=") && page.contains("写真を保存") && !page.contains("video.mp4"))
        // The share screen, with Done; its code says the event's url.
        let shown = try Self.state(r, count: 1)
        #expect(shown.mode == "sharing" && shown.buttons == [.done], "\(shown)")
        let shot = try ShareEndToEndTests.screenshot(r, folder.appendingPathComponent("photo-share.bmp").path)
        #expect(try ShareEndToEndTests.codes(in: shot) == [shared.url])
        r.command("done")
        #expect(try Self.state(r, count: 2).mode == "ready")
        // A photo is no outcome: the once session is still there.
        #expect(!r.names.contains("videoRecorderDidCancelRecordingVideo") && !r.names.contains("videoRecorderDidFinishRecordingVideoWithOutputPath"))
        r.command("cancel")
        #expect(r.exitStatus() == 0)
    }

    @Test("a photo's share folder that cannot be written (DIR is a file): an error shareFailed naming the photo, no takeShared, the photo kept, the booth in ready")
    func shareFails() throws {
        let folder = try testFolder("photo-share-fails")
        let (r, shares) = try Self.sharingBooth(folder)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: shares))
        r.command("photo")
        try #require(r.wait(for: "photoTaken") != nil, "\(r.stderr)")
        try #require(r.wait(for: "error") != nil, "\(r.names) \(r.stderr)")
        let photo = try #require(Self.photos(r).first)
        let errors = r.events.compactMap { e -> (ErrorCode, String)? in if case let .error(code, message) = e { (code, message) } else { nil } }
        #expect(errors.map(\.0) == [.shareFailed] && errors[0].1.contains(photo.path), "\(errors)")
        #expect(!r.names.contains("takeShared"))
        let decodes = try decodesCleanly(photo.path)
        #expect(FileManager.default.fileExists(atPath: photo.path) && decodes)
        #expect(try Self.state(r, count: 1).mode == "ready")
        r.command("cancel")
        #expect(r.exitStatus() == 0)
    }

    @Test("--share-seconds ends a photo's share screen by itself, back to ready")
    func timesOut() throws {
        let folder = try testFolder("photo-share-timeout")
        let (r, _) = try Self.sharingBooth(folder, ["--share-seconds", "2"])
        r.command("photo")
        let sharedAt = try #require(r.wait(for: "takeShared"), "\(r.names) \(r.stderr)")
        #expect(try Self.state(r, count: 1).mode == "sharing")
        // Back to ready by itself within 3.5 s of the share (asked until it says so).
        var asked = 1, mode = "sharing", failure: (any Error)?
        _ = eventually(max(0, sharedAt + 3.5 - ProcessInfo.processInfo.systemUptime)) {
            asked += 1
            do { mode = try Self.state(r, count: asked).mode } catch { failure = error; return true }
            return mode == "ready"
        }
        if let failure { throw failure }
        #expect(mode == "ready")
        r.command("cancel")
        #expect(r.exitStatus() == 0)
    }

    @Test("Debian's nginx and headless Chromium: the photo's page loads its picture, naturalWidth and naturalHeight the photo's; Save's bytes are the photo's; the page asks for nothing outside its folder")
    func browser() throws {
        let folder = try testFolder("photo-share-browser")
        let (r, shares) = try Self.sharingBooth(folder, ["--language", "fr"])
        r.command("photo")
        try #require(r.wait(for: "takeShared") != nil, "\(r.names) \(r.stderr)")
        r.command("done")
        r.command("cancel")
        #expect(r.exitStatus() == 0)
        let photo = try #require(Self.photos(r).first)
        let shared = try #require(Self.shares(r).first)
        #expect(try ffprobe(photo.path, "stream=width,height") == "\(photo.width)\n\(photo.height)")
        let nginx = folder.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: nginx, withIntermediateDirectories: true)
        let server = try ShareServer(shares: shares, folder: nginx)
        defer { server.stop() }
        let page = "/s/\(shared.token)/"
        let index = try server.get(page)
        #expect(index.status == 200 && String(decoding: index.body, as: UTF8.self).contains("lang=\"fr\""), "\(index.headers)")
        let saved = try server.get(page + "photo.jpg")
        let photoBytes = try Data(contentsOf: URL(fileURLWithPath: photo.path))
        #expect(saved.status == 200 && saved.body == photoBytes && saved.headers.lowercased().contains("content-type: image/jpeg"), "\(saved.headers)")
        // The page in a frame of a probe page beside the folders, which reports its picture's size in a request nginx logs.
        let before = ShareEndToEndTests.requests(server.accessLog).count
        let report = try browserReport(server, site: shares, body: #"<iframe id="f" src="\#(shared.token)/"></iframe>"#, script: """
            const f = document.getElementById('f');
            function look() {
              const i = f.contentDocument && f.contentDocument.querySelector('img');
              if (i && i.complete && i.naturalWidth > 0) return report('width=' + i.naturalWidth + '&height=' + i.naturalHeight);
              if (i && i.complete) return report('broken');
              setTimeout(look, 100);
            }
            f.onload = look;
            """, folder: folder)
        #expect(report == "/s/probe-result?width=\(photo.width)&height=\(photo.height)", "\(report)")
        // Every request the browser made but the probe's own is in the photo's folder.
        let asked = ShareEndToEndTests.requests(server.accessLog).dropFirst(before).filter { !$0.hasPrefix("/s/probe") }
        #expect(asked.allSatisfy { $0.hasPrefix(page) } && asked.contains(page + "photo.jpg"), "\(asked)")
    }

    @Test("a photo mid-take, a loop session: its takeShared comes while the take goes on, and the take stays whole (no picture dropped, no gap of 0.2 s in its frame times, it decodes cleanly); after the take's own share screen, Done shows the photo's, its QR code the photo's url; Done then is ready")
    func photoMidTake() throws {
        let folder = try testFolder("photo-share-take")
        let takes = folder.appendingPathComponent("takes").path, shares = folder.appendingPathComponent("share").path
        let r = try RecorderProcess(booth + ["--output-dir", takes, "--session", "loop", "--photo-button",
                                             "--share-dir", shares, "--share-url", ShareEndToEndTests.template])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        try #require(r.waitRecorded(1), "\(r.stderr)")
        r.command("photo")
        try #require(r.wait(for: "takeShared") != nil, "\(r.names) \(r.stderr)")
        let photoShare = try #require(Self.shares(r).first)
        let photo = try #require(Self.photos(r).first)
        #expect(photoShare.path == photo.path)
        // Announced, and the take goes on: no share screen mid-take.
        #expect(try Self.state(r, count: r.names.filter { $0 == "state" }.count + 1).mode == "recording")
        // About a second more of take after the photo (asked for at the timer's 1 s).
        try #require(r.waitRecorded(2), "\(r.stderr)")
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil)
        guard case let .recordingFinished(result)? = r.events.first(where: { $0.name == "recordingFinished" }) else {
            throw ShareTestFailure(description: "no recordingFinished")
        }
        #expect(result.success && result.droppedFrames == 0, "\(result)")
        r.command("useVideo")
        try #require(r.wait(for: "takeShared", count: 2) != nil, "\(r.names) \(r.stderr)")
        let takeShare = Self.shares(r)[1]
        #expect(takeShare.path == nil && takeShare.url != photoShare.url)
        let take = try #require(r.events.compactMap(\.handedOverPath).first)
        #expect(try decodesCleanly(take))
        // Each picture's time: none missing between the first and the last (the test camera's 30 a second).
        let times = try ffprobe(take, "packet=pts_time", stream: "v:0").split(separator: "\n").compactMap { Double($0) }.sorted()
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        print("photo mid-take: \(times.count) pictures over \(String(format: "%.2f", result.duration)) s, longest gap \(String(format: "%.3f", gaps.max() ?? 0)) s")
        #expect(times.count >= 30 && (gaps.max() ?? 1) < 0.2, "\(times.count) pictures, longest gap \(gaps.max() ?? -1) s")
        // The take's share screen first, then the photo's.
        var shot = try ShareEndToEndTests.screenshot(r, folder.appendingPathComponent("take-share.bmp").path)
        #expect(try ShareEndToEndTests.codes(in: shot) == [takeShare.url])
        r.command("done")
        let shown = try Self.state(r, count: r.names.filter { $0 == "state" }.count + 1)
        #expect(shown.mode == "sharing" && shown.buttons == [.done], "\(shown)")
        shot = try ShareEndToEndTests.screenshot(r, folder.appendingPathComponent("photo-share.bmp").path)
        #expect(try ShareEndToEndTests.codes(in: shot) == [photoShare.url])
        r.command("done")
        #expect(try Self.state(r, count: r.names.filter { $0 == "state" }.count + 1).mode == "ready")
        #expect(try Data(contentsOf: URL(fileURLWithPath: photoShare.folder + "/photo.jpg")) == (try Data(contentsOf: URL(fileURLWithPath: photo.path))))
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
