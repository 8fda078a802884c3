// The share folder of a real take made by our MovieWriter: the remuxed video as ffprobe reads it, the
// poster upright, the page, the modes, and a folder that appears whole or not at all.
import CFFmpeg
import Foundation
import Glibc
import KioskCore
import KioskScreenText
@testable import KioskMedia
@testable import KioskStorage
import KioskSystem
import KioskTestSupport
import Testing

/// A take of `seconds` at 320x240 with sound, its picture to be turned `quarterTurns` clockwise;
/// `noisy`: of noise, which takes a few hundred kilobytes a second.
func shareTake(_ name: String, quarterTurns: Int = 0, seconds: Double = 3, noisy: Bool = false) throws -> String {
    let output = scratch(name).appendingPathComponent("take.mov").path
    let size = Size(width: 320, height: 240)
    var settings = takeSettings(output, size: size)
    settings.rotationQuarterTurns = quarterTurns
    let (writer, finished) = try startedWriter(settings)
    if noisy {
        for k in 0..<Int(seconds * 30) {
            let t = 5_000_000_000 + Int64(k) * 33_333_333
            for a in 0..<3 { writer.append(tone(at: t + Int64(a) * 10_000_000)) }
            writer.appendWaiting(noise(size, number: k, timestamp: t))
        }
    } else {
        feed(writer, size: size, seconds: seconds)
    }
    writer.stop(reason: .user)
    _ = try #require(finished.wait())
    return output
}

/// The top-level boxes of an MP4 or MOV file, in order.
func topLevelBoxes(_ path: String) throws -> [String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var boxes: [String] = []
    var offset = 0
    while offset + 8 <= data.count {
        var size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
        if size == 1, offset + 16 <= data.count { size = data[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
        if size == 0 { size = data.count - offset }
        guard size >= 8 else { break }
        boxes.append(type)
        offset += size
    }
    return boxes
}

/// ffprobe's words on one file: each stream's codec, layout, packets and rotation, and the length.
struct Probed: Equatable {
    var streams: [String]
    var videoPackets: Int
    var audioPackets: Int
    var rotation: Double
    var duration: Double

    init(_ path: String) throws {
        let run = try runProgram(["ffprobe", "-v", "error", "-count_packets", "-show_entries",
                                  "stream=codec_type,codec_name,pix_fmt,nb_read_packets:stream_side_data=rotation:format=duration",
                                  "-of", "json", path])
        try #require(run.status == 0, "ffprobe: \(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let streams = try #require(json["streams"] as? [[String: Any]])
        self.streams = streams.map { s in
            [s["codec_type"], s["codec_name"], s["pix_fmt"]].compactMap { $0 as? String }.joined(separator: " ")
        }
        func packets(_ type: String) -> Int {
            streams.filter { $0["codec_type"] as? String == type }.compactMap { Int($0["nb_read_packets"] as? String ?? "") }.reduce(0, +)
        }
        videoPackets = packets("video")
        audioPackets = packets("audio")
        let video = streams.first { $0["codec_type"] as? String == "video" }
        let side = (video?["side_data_list"] as? [[String: Any]])?.first
        rotation = (side?["rotation"] as? NSNumber)?.doubleValue ?? 0
        duration = Double((json["format"] as? [String: Any])?["duration"] as? String ?? "") ?? -1
    }
}

func fileMode(_ path: String) -> Int {
    var info = stat()
    return lstat(path, &info) == 0 ? Int(info.st_mode & 0o7777) : -1
}

func sha256(_ path: String) throws -> String {
    try runProgram(["sha256sum", path]).stdout
}

@Suite("Share rendition")
struct ShareRenditionTests {
    @Test("a take's share folder: the video remuxed with moov first, the poster upright, the page, the modes",
          arguments: [(0, 0o644), (1, 0o644), (3, 0o640)])
    func folder(quarterTurns: Int, mode: Int) throws {
        let take = try shareTake("share-\(quarterTurns)", quarterTurns: quarterTurns)
        let before = try sha256(take)
        let dir = scratch("share-dir-\(quarterTurns)").appendingPathComponent("share").path
        let token = try ShareToken.make()
        let now = Date(timeIntervalSince1970: 1_764_659_640)
        let written = try ShareRendition.write(ShareRequest(take: take, folder: dir, token: token, title: "Anna & Ben",
                                                            language: .fr, fileMode: mode, now: now))
        let folder = dir + "/" + token
        #expect(written.folder == folder)
        #expect(try sha256(take) == before, "the take is untouched")

        // The video: progressive, the same streams, packets, length and rotation as the take.
        let video = folder + "/video.mp4"
        let boxes = try topLevelBoxes(video)
        let moov = try #require(boxes.firstIndex(of: "moov")), mdat = try #require(boxes.firstIndex(of: "mdat"))
        #expect(moov < mdat, "\(boxes)")
        let original = try Probed(take), share = try Probed(video)
        #expect(share.streams == ["video h264 yuv420p", "audio aac"], "\(share.streams)")
        // What every phone plays (issue 46): Main or High profile, level at most 4.1, an even size, AAC-LC.
        let phone = try runProgram(["ffprobe", "-v", "error", "-show_entries", "stream=profile,level,width,height", "-of", "csv=p=0", video])
        let lines = phone.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(lines.count == 2 && ["Main", "High"].contains(lines[0][0]) && (Int(lines[0][3]) ?? 99) <= 41
                && (Int(lines[0][1]) ?? 1) % 2 == 0 && (Int(lines[0][2]) ?? 1) % 2 == 0 && lines[1] == ["LC"], "\(phone.stdout)")
        #expect(share.videoPackets == original.videoPackets && share.audioPackets == original.audioPackets, "\(share) \(original)")
        #expect(share.videoPackets >= 89 && share.audioPackets > 100)
        #expect(abs(share.duration - original.duration) < 0.05, "\(share.duration) \(original.duration)")
        #expect(abs(try MovieProbe.inspect(video).duration - MovieProbe.inspect(take).duration) < 0.05)
        #expect(share.rotation == original.rotation && abs(share.rotation) == (quarterTurns == 0 ? 0 : 90), "\(share.rotation)")
        #expect(Int64(try FileManager.default.attributesOfItem(atPath: video)[.size] as? Int ?? 0) == written.videoBytes)

        // The poster: a JPEG of the upright picture.
        let poster = folder + "/poster.jpg"
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: poster))
        #expect(jpeg.prefix(3) == Data([0xFF, 0xD8, 0xFF]) && jpeg.count == written.posterBytes)
        let size = try runProgram(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", poster])
        let upright = quarterTurns % 2 == 0 ? "320,240" : "240,320"
        #expect(size.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "mjpeg,\(upright)", "\(size.stdout)")
        #expect("\(written.posterSize.width),\(written.posterSize.height)" == upright)
        // Turned, not tagged: the frame-number stamp (a dark band along the camera picture's top) is
        // along the poster's top, right or left edge, as ffmpeg decodes the JPEG.
        let gray = take + "-poster.gray"
        let decoded = try runProgram(["ffmpeg", "-v", "error", "-i", poster, "-f", "rawvideo", "-pix_fmt", "gray", gray])
        try #require(decoded.status == 0, "\(decoded.stderr)")
        let luma = [UInt8](try Data(contentsOf: URL(fileURLWithPath: gray)))
        let (w, h) = quarterTurns % 2 == 0 ? (320, 240) : (240, 320)
        try #require(luma.count == w * h)
        func mean(columns: Range<Int>, rows: Range<Int>) -> Double {
            var sum = 0
            for y in rows { for x in columns { sum += Int(luma[y * w + x]) } }
            return Double(sum) / Double(columns.count * rows.count)
        }
        let (band, opposite) = switch quarterTurns {
        case 1: (mean(columns: w - 6..<w, rows: 0..<h), mean(columns: 0..<6, rows: 0..<h))
        case 3: (mean(columns: 0..<6, rows: 0..<h), mean(columns: w - 6..<w, rows: 0..<h))
        default: (mean(columns: 0..<w, rows: 0..<6), mean(columns: 0..<w, rows: h - 6..<h))
        }
        #expect(band < opposite - 40, "the stamp's edge \(band), the opposite one \(opposite)")

        // The page: what SharePage makes, and all it names is in the folder.
        let page = try String(contentsOfFile: folder + "/index.html", encoding: .utf8)
        #expect(page == SharePage.html(title: "Anna & Ben", language: .fr,
                                       downloadName: "video-\(ShareFiles.downloadStamp(now)).mp4"))
        #expect(page.contains("<html lang=\"fr\">") && page.contains("Anna &amp; Ben") && !page.contains("http"))
        for name in ["src=\"", "href=\"", "poster=\""] {
            for piece in page.components(separatedBy: name).dropFirst() {
                let file = String(piece.prefix { $0 != "\"" })
                // The page's empty icon is data, not a file (it keeps browsers from asking for /favicon.ico).
                if file == "data:," { continue }
                #expect(FileManager.default.fileExists(atPath: folder + "/" + file), "\(name)\(file)")
            }
        }

        // The modes, and nothing in DIR but the folder (no index that lists the tokens).
        for file in ["video.mp4", "poster.jpg", "index.html"] { #expect(fileMode(folder + "/" + file) == mode, "\(file)") }
        #expect(fileMode(folder) == ShareFiles.folderMode(for: mode))
        #expect(fileMode(folder) == (mode == 0o644 ? 0o755 : 0o750))
        #expect(fileMode(dir) == (mode == 0o644 ? 0o755 : 0o750), "DIR made with the same rule")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [token])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["index.html", "poster.jpg", "video.mp4"])
    }

    @Test("the poster is a key frame about a second in, at most 1280 pixels long, upright")
    func posterPicture() throws {
        // 1280x720 turned a quarter: a portrait 720x1280 poster, unscaled; the long side caps at 1280.
        let output = scratch("share-hd").appendingPathComponent("take.mov").path
        var settings = MovieSettings(outputPath: output, videoSize: Size(width: 1280, height: 720), fps: 30, audio: nil)
        settings.rotationQuarterTurns = 1
        let (writer, finished) = try startedWriter(settings)
        feed(writer, size: Size(width: 1280, height: 720), seconds: 2.5, audio: false)
        writer.stop(reason: .user)
        _ = try #require(finished.wait())
        let take = try Demuxer(path: output, interruption: Interruption(), timeout: MovieProbe.readTimeout)
        let dir = scratch("share-hd-out").path
        let result = try ShareRemux.run(from: take, into: dir, name: "video.mp4", mode: 0o644)
        let packet = try #require(result.poster), stream = try #require(result.videoStream)
        let time = Double(packet.pointer.pointee.pts) * av_q2d(stream.pointee.time_base) - Double(take.startTime ?? 0) / 1e9
        #expect(packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0)
        #expect(time >= 0.99 && time < 2.1, "the poster's key frame at \(time) s")
        let poster = try SharePoster.jpeg(of: packet, in: stream)
        #expect(poster.size == Size(width: 720, height: 1280))
        let picture = try SharePoster.decode(packet, in: stream)
        #expect(picture.size == Size(width: 1280, height: 720))
    }

    @Test("turning packed RGB a quarter, a half and three quarters clockwise", arguments: [0, 1, 2, 3])
    func turning(turns: Int) {
        // 3x2, one byte per channel numbered by the pixel: p(x, y) = 10 y + x.
        let size = Size(width: 3, height: 2)
        var pixels = [UInt8](repeating: 0, count: 4 * 3 * 2)
        for y in 0..<2 { for x in 0..<3 { for c in 0..<3 { pixels[y * 12 + x * 3 + c] = UInt8(10 * y + x) } } }
        let turned = SharePoster.turn(pixels, size: size, pitch: 12, quarterTurns: turns)
        let expected: [[UInt8]] = [[0, 1, 2, 10, 11, 12], [10, 0, 11, 1, 12, 2], [12, 11, 10, 2, 1, 0], [2, 12, 1, 11, 0, 10]]
        #expect(turned.size == (turns % 2 == 0 ? size : size.transposed))
        #expect(stride(from: 0, to: turned.pixels.count, by: 3).map { turned.pixels[$0] } == expected[turns])
    }

    @Test("a take that cannot be opened: the error names the step, nothing is left in DIR")
    func missingTake() throws {
        let dir = scratch("share-missing").path
        let token = try ShareToken.make()
        do {
            _ = try ShareRendition.write(ShareRequest(take: dir + "/nothing.mov", folder: dir, token: token, title: nil, language: .en))
            Issue.record("written")
        } catch {
            #expect(error.step.hasPrefix("opening the take") && error.description.contains("No such file"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
        // A name that is not a token (it could reach outside DIR) is refused before anything is made.
        #expect(throws: ShareError.self) {
            try ShareRendition.write(ShareRequest(take: dir + "/nothing.mov", folder: dir + "/share", token: "../../etc", title: nil, language: .en))
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/share"))
    }

    @Test("a full disk while video.mp4 is written: an error naming the step and the cause, no folder left, the take untouched",
          .enabled(if: canMount, "needs the private mount namespace of kiosk/test"))
    func fullDisk() throws {
        let take = try shareTake("share-full", seconds: 2, noisy: true)
        let before = try sha256(take)
        let takeBytes = try #require(FileManager.default.attributesOfItem(atPath: take)[.size] as? Int)
        let dir = scratch("share-tmpfs").path
        let mount = try runProgram(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir])
        try #require(mount.status == 0, "mount: \(mount.stderr)")
        defer { _ = try? runProgram(["umount", dir]) }
        try #require(takeBytes > 128 * 1024, "the take (\(takeBytes) bytes) must not fit in the tmpfs")
        let token = try ShareToken.make()
        do {
            _ = try ShareRendition.write(ShareRequest(take: take, folder: dir, token: token, title: nil, language: .en))
            Issue.record("written on a full disk")
        } catch {
            #expect(error.step == "writing video.mp4" && error.reason.hasPrefix("No space left on device"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [], "no <token> or .partial- folder")
        #expect(try sha256(take) == before)
    }

    @Test("recover removes leftover .partial- folders and nothing else")
    func recover() throws {
        let dir = scratch("share-recover").path
        let token = try ShareToken.make()
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/.partial-" + token, withIntermediateDirectories: false)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: dir + "/.partial-\(token)/video.mp4"))
        try fm.createDirectory(atPath: dir + "/" + token, withIntermediateDirectories: false)
        try Data().write(to: URL(fileURLWithPath: dir + "/.partial-file"))
        let lines = ShareFolders.recover(in: dir)
        #expect(lines.count == 1 && lines[0].contains(".partial-\(token)"), "\(lines)")
        #expect(try Set(fm.contentsOfDirectory(atPath: dir)) == [".partial-file", token], "a token may begin with \"-\", which sorts before \".\"")
        #expect(ShareFolders.recover(in: dir).isEmpty)
        #expect(ShareFolders.recover(in: dir + "/missing").isEmpty)
    }

    @Test("expire removes token folders past their age, and nothing else: not a young one, a partial one, another name, a file, a link")
    func expire() throws {
        let dir = scratch("share-expire").path
        let fm = FileManager.default
        let now = Date().timeIntervalSince1970
        let old = Date(timeIntervalSince1970: now - 8 * 86400)
        let (oldToken, youngToken, fileToken, linkToken) = try (ShareToken.make(), ShareToken.make(), ShareToken.make(), ShareToken.make())
        let folders = [oldToken, youngToken, ".partial-" + oldToken, "not-a-token", "AAAAAAAAAAAAAAAAAAAAAAA=", "elsewhere"]
        for name in folders { try fm.createDirectory(atPath: dir + "/" + name, withIntermediateDirectories: false) }
        try Data([1]).write(to: URL(fileURLWithPath: dir + "/\(oldToken)/video.mp4"))
        try Data([1]).write(to: URL(fileURLWithPath: dir + "/" + fileToken))
        try fm.createSymbolicLink(atPath: dir + "/" + linkToken, withDestinationPath: dir + "/elsewhere")
        for name in folders + [fileToken] where name != youngToken {
            try fm.setAttributes([.modificationDate: old], ofItemAtPath: dir + "/" + name)
        }
        let lines = ShareFolders.expire(in: dir, maxAge: 7 * 86400, now: now)
        #expect(lines.count == 1 && lines[0].contains(oldToken), "\(lines)")
        #expect(try fm.contentsOfDirectory(atPath: dir).sorted()
                == ([youngToken, fileToken, linkToken] + folders.filter { $0 != oldToken && $0 != youngToken }).sorted())
        // The same folders a day later are all young enough.
        #expect(ShareFolders.expire(in: dir, maxAge: 30 * 86400, now: now).isEmpty)
    }
}
