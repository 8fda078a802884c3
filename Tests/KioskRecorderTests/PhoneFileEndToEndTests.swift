// Files every phone plays (issue 46): every share rendition the booth makes, checked with ffprobe as
// a phone's player would meet it. H.264 in yuv420p at Main or High profile, its level within what
// phones decode (at most 4.1 at 1080p30; 3.1 at 720p30), an even width and height, AAC-LC sound, the
// index (moov) before the samples. A portrait take and a camera mounted turned carry their rotation as
// the track's display matrix over pictures stored as the camera gave them: Safari on iOS (AVFoundation)
// applies the matrix, as every player here does, and turning the pixels would mean encoding the take
// again at the hand-over (docs/deploy.md, "Any phone, no internet").
import Foundation
import KioskCore
import KioskTestSupport
import Testing

/// What ffprobe says of a share rendition, checked against what every phone plays.
enum PhoneFile {
    /// Problems found in `path` (none: every phone plays it); `rotation`: the display matrix's
    /// rotation the file must carry (0: none; nil: any quarter turn, as a matrix); `sound`: false for a
    /// boomerang, which has none.
    static func problems(_ path: String, rotation: Int?, maxLevel: Int = 41, sound: Bool = true) throws -> [String] {
        var problems: [String] = []
        let video = try ffprobe(path, "stream=codec_name,profile,level,pix_fmt,width,height", stream: "v:0").split(separator: "\n").map(String.init)
        guard video.count == 6 else { return ["no video stream: \(video)"] }
        let (codec, profile, width, height, pixels, level) = (video[0], video[1], Int(video[2]) ?? 0, Int(video[3]) ?? 0, video[4], Int(video[5]) ?? 99)
        if codec != "h264" { problems.append("video \(codec), not H.264") }
        if !["Main", "High"].contains(profile) { problems.append("profile \(profile)") }
        if level > maxLevel { problems.append("level \(level) over \(maxLevel)") }
        if pixels != "yuv420p" { problems.append("pixels \(pixels)") }
        if width % 2 != 0 || height % 2 != 0 || width == 0 { problems.append("size \(width)x\(height)") }
        let audio = try ffprobe(path, "stream=codec_name,profile", stream: "a:0").split(separator: "\n").map(String.init)
        if audio != (sound ? ["aac", "LC"] : [""]) && !(audio.isEmpty && !sound) { problems.append("sound \(audio), not \(sound ? "AAC-LC" : "none")") }
        let boxes = ShareEndToEndTests.boxes(try Data(contentsOf: URL(fileURLWithPath: path)))
        if (boxes.firstIndex(of: "moov") ?? .max) > (boxes.firstIndex(of: "mdat") ?? -1) { problems.append("moov after mdat: \(boxes)") }
        let turned = Int(try ffprobe(path, "stream_side_data=rotation", stream: "v:0")) ?? 0
        if let rotation, turned != rotation { problems.append("rotation \(turned), not \(rotation)") }
        if turned % 90 != 0 { problems.append("rotation \(turned): not a quarter turn") }
        return problems
    }
}

@Suite("Share files every phone plays, through the binary")
struct PhoneFileEndToEndTests {
    @Test("every share rendition: H.264 yuv420p Main/High, level at most 3.1 at 720p30 and 4.1 at 1080p30, even size, AAC-LC, moov first; a portrait take and a camera mounted turned carry their rotation as a matrix",
          arguments: [("landscape", [String](), "1280x720", 0, 31), ("portrait", ["--orientation", "portrait"], "1280x720", -90, 31),
                      ("camera turned", ["--camera-rotation", "90"], "1280x720", -90, 31), ("1080p", [], "1920x1080", 0, 41)])
    func renditions(name: String, arguments: [String], size: String, rotation: Int, maxLevel: Int) throws {
        let folder = try testFolder("phone-\(name.replacingOccurrences(of: " ", with: "-"))")
        let r = try RecorderProcess(["--camera", "test", "--microphone", "test", "--size", size, "--windowed", "800x480", "--countdown", "0",
                                     "--output", folder.appendingPathComponent("take.mp4").path, "--share-dir", folder.appendingPathComponent("share").path,
                                     "--share-url", "http://10.42.0.1/s/{token}/"] + arguments)
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        _ = try ServiceEndToEndTests.take(r, seconds: 1.5)
        r.command("useVideo")
        try #require(r.wait(for: "takeShared") != nil, "\(r.rawLines) \(r.stderr)")
        let shared = try #require(r.events.compactMap { if case let .takeShared(_, _, folder, _) = $0 { folder } else { nil } }.first)
        r.command("done")
        #expect(r.exitStatus() == 0)
        let video = shared + "/video.mp4"
        let problems = try PhoneFile.problems(video, rotation: rotation, maxLevel: maxLevel)
        #expect(problems.isEmpty, "\(name): \(problems)")
        print("\(name): \(try ffprobe(video, "stream=profile,level,width,height", stream: "v:0").split(separator: "\n")), rotation \(rotation)")
    }
}
