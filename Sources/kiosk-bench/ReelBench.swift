// `kiosk-bench reel`: the hosts' film of ten 30 s 720p takes: `kiosk-recorder reel`
// against the ffmpeg CLI doing the same work on the same takes in one run: each take scaled and
// padded to 1280x720 at 30 fps, its sound through loudnorm to -16 LUFS, a drawtext card before each
// (and a title card with the date under it), each card faded in from black and out to black over
// half a second (fade), all concatenated and encoded with the writer's own x264 settings and AAC, the
// index first. Whole processes, rounds interleaved: CPU seconds (user + system, children's) and wall.
import Foundation
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

/// `reel --footage CLIP [--takes N] [--seconds S] [--size WxH] [--rounds N] [--recorder PATH] [--dir D]`.
func reelBench(_ o: [String: String]) {
    guard let footage = o["footage"] else { fail("reel needs --footage CLIP") }
    let recorder = o["recorder"] ?? ".build/release/kiosk-recorder"
    let dir = o["dir"] ?? (NSTemporaryDirectory() + "kiosk-bench-reel")
    let takes = dir + "/takes"
    let count = Int(o["takes"] ?? "") ?? 10, seconds = Double(o["seconds"] ?? "") ?? 30, rounds = max(1, Int(o["rounds"] ?? "") ?? 1)
    let takeSize = size(o["size"])
    try? FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
    // The takes, made once by the booth's writer from the footage, each with a tone and a question.
    var paths: [String] = []
    for k in 1...count {
        let path = takes + "/take-\(k).mov"
        paths.append(path)
        if !FileManager.default.fileExists(atPath: path) { makeShareTake(path, footage: footage, size: takeSize, seconds: seconds, title: "Question number \(k)?") }
        // Oldest first by their time: one a minute apart.
        let time = Date(timeIntervalSince1970: 1_780_000_000 + Double(k) * 60)
        try? FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: path)
    }
    let ours = dir + "/ours.mp4", theirs = dir + "/ffmpeg.mp4"
    // The ffmpeg CLI's command: the same cards (drawtext, Noto Sans CJK; the title's date under it;
    // fade in and out), the same scale and pad, loudnorm.
    var inputs: [String] = [], graph: [String] = [], parts: [String] = []
    func card(_ text: String, _ length: Double, _ n: Int, note: String? = nil) {
        let file = dir + "/card-\(n).txt", noteFile = dir + "/card-\(n)-note.txt"
        try? text.write(toFile: file, atomically: true, encoding: .utf8)
        try? note?.write(toFile: noteFile, atomically: true, encoding: .utf8)
        let noted = note == nil ? "" : ",drawtext=font='Noto Sans CJK JP':textfile=\(noteFile):fontcolor=white:fontsize=40:x=(w-text_w)/2:y=h/2+75"
        graph.append("color=c=black:s=1280x720:r=30:d=\(length),format=yuv420p,drawtext=font='Noto Sans CJK JP':textfile=\(file):fontcolor=white:fontsize=60:x=(w-text_w)/2:y=(h-text_h)/2"
                     + noted + ",fade=t=in:st=0:d=0.5,fade=t=out:st=\(length - 0.5):d=0.5[c\(n)v]")
        graph.append("anullsrc=r=48000:cl=stereo:d=\(length)[c\(n)a]")
        parts.append("[c\(n)v][c\(n)a]")
    }
    card("The reel", 3, 0, note: "6 December 2026")
    for (k, path) in paths.enumerated() {
        card("Question number \(k + 1)?", 2, k + 1)
        inputs += ["-i", path]
        graph.append("[\(k):v]scale=1280:720:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=1280:720:(ow-iw)/2:(oh-ih)/2:black,setsar=1,fps=30,format=yuv420p[t\(k)v]")
        graph.append("[\(k):a]loudnorm=I=-16:TP=-1,aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo[t\(k)a]")
        parts.append("[t\(k)v][t\(k)a]")
    }
    graph.append(parts.joined() + "concat=n=\(parts.count):v=1:a=1[v][a]")
    var settings = MovieSettings(outputPath: theirs, videoSize: Size(width: 1280, height: 720), fps: 30, audio: (48000, 2))
    settings.maxDuration = 86400
    let ffmpegCommand = ["ffmpeg", "-v", "error", "-y"] + inputs + ["-filter_complex", graph.joined(separator: ";"), "-map", "[v]", "-map", "[a]"]
        + settings.videoTuning(encoder: .libx264).ffmpegArguments + MovieSettings.aacFFmpegArguments(sampleRate: 48000, channels: 2)
        + ["-movflags", "+faststart", theirs]
    var oursCPU: [Double] = [], oursWall: [Double] = [], theirsCPU: [Double] = [], theirsWall: [Double] = []
    func timed(_ command: [String], _ cpu: inout [Double], _ wall: inout [Double]) {
        let start = MonotonicClock.now()
        cpu.append(measure(command).cpu)
        wall.append(Double(MonotonicClock.now() - start) / 1e9)
    }
    for round in 0..<rounds {
        let mine = [recorder, "reel", takes, "--output", ours, "--title", "The reel", "--force"]
        if round % 2 == 0 {
            timed(mine, &oursCPU, &oursWall)
            timed(ffmpegCommand, &theirsCPU, &theirsWall)
        } else {
            timed(ffmpegCommand, &theirsCPU, &theirsWall)
            timed(mine, &oursCPU, &oursWall)
        }
    }
    let length = { (path: String) in (try? MovieProbe.inspect(path))?.duration ?? 0 }
    let bytes = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
    printLine(["takes": count, "takeSeconds": seconds, "rounds": rounds,
               "oursCPUMedianS": (median(oursCPU) * 100).rounded() / 100, "oursWallMedianS": (median(oursWall) * 100).rounded() / 100,
               "ffmpegCPUMedianS": (median(theirsCPU) * 100).rounded() / 100, "ffmpegWallMedianS": (median(theirsWall) * 100).rounded() / 100,
               "cpuRatio": (median(zip(oursCPU, theirsCPU).map { $0 / $1 }) * 1000).rounded() / 1000,
               "wallRatio": (median(zip(oursWall, theirsWall).map { $0 / $1 }) * 1000).rounded() / 1000,
               "oursSeconds": length(ours), "ffmpegSeconds": length(theirs), "oursBytes": bytes(ours), "ffmpegBytes": bytes(theirs)])
}
